#!/bin/sh
# Yosys synth_xilinx (family xc7, the XC7A100T's fabric), hierarchical, of
# falcon_accel_top with the ffSampling engine built in: P lanes, SAMPLER = 1
# (the PRNG the engine shares), FFSAMP = 1, FS_MAXLOGN = 10 (Falcon-1024),
# KECCAK = 0. The same flow as hw/syn/synth_hier.sh (each module mapped
# once, `stat -top` multiplies by the instance counts; no optimisation
# across module boundaries). Resources only (no place and route, no timing).
#   usage: hw/ffsamp/util/synth_ffsamp_top.sh [P]      (P = 1, 2 or 4)
# Writes $FA_SYN_OUT (default hw/build/syn)/FS<P>.stat, .log and .time.
set -e
P=${1:-2}
case $P in 1) LP=0;; 2) LP=1;; 4) LP=2;; *) echo "P must be 1, 2 or 4" >&2; exit 2;; esac
HW=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${FA_SYN_OUT:-$HW/build/syn}
mkdir -p "$OUT"
. "$HW/syn/sources.sh"
t0=$(date +%s)
yosys -q -l "$OUT/FS$P.log" -p "
read_verilog -I$HW/top/rtl $FA_SRCS
chparam -set P $P -set LP $LP -set SAMPLER 1 -set FFSAMP 1 -set FS_MAXLOGN 10 falcon_accel_top
synth_xilinx -family xc7 -top falcon_accel_top
tee -q -o $OUT/FS$P.stat.tmp stat -top falcon_accel_top
"
mv "$OUT/FS$P.stat.tmp" "$OUT/FS$P.stat"
echo $(( $(date +%s) - t0 )) > "$OUT/FS$P.time"
