#!/bin/sh
# Hierarchical variant of synth.sh: synth_xilinx (family xc7) WITHOUT
# -flatten, so each module is synthesised once per parameter set and
# `stat -top` multiplies by the instance counts. Much faster than the
# flattened run (6P fp64_add and 4P fp64_mul instances are mapped once),
# but there is no optimisation across module boundaries, so the counts
# differ a little from the flattened ones (compare at P = 1 in REPORT.md).
# Also runs `ltp` per module over the combinational Xilinx cells
# (comb_cells.ys): a path ends at a submodule's pins.
#   usage: hw/syn/synth_hier.sh P        (P = 1, 2 or 4)
# Writes $FA_SYN_OUT (default hw/build/syn)/H<P>.stat, H<P>.ltp, H<P>.log,
# H<P>.time and H<P>.json (the netlist, to name the cells on each path).
set -e
P=${1:-4}
case $P in 1) LP=0;; 2) LP=1;; 4) LP=2;; *) echo "P must be 1, 2 or 4" >&2; exit 2;; esac
HW=$(cd "$(dirname "$0")/.." && pwd)
OUT=${FA_SYN_OUT:-$HW/build/syn}
mkdir -p "$OUT"
. "$HW/syn/sources.sh"
t0=$(date +%s)
yosys -q -l "$OUT/H$P.log" -p "
read_verilog -I$HW/top/rtl $FA_SRCS
chparam -set P $P -set LP $LP falcon_accel_top
synth_xilinx -family xc7 -top falcon_accel_top
tee -q -o $OUT/H$P.stat.tmp stat -top falcon_accel_top
write_json $OUT/H$P.json
script $HW/syn/comb_cells.ys
tee -q -o $OUT/H$P.ltp.tmp ltp -noff @comb w:*
"
mv "$OUT/H$P.stat.tmp" "$OUT/H$P.stat"
mv "$OUT/H$P.ltp.tmp" "$OUT/H$P.ltp"
echo $(( $(date +%s) - t0 )) > "$OUT/H$P.time"
