#!/bin/sh
# Yosys synth_xilinx (xc7) figures for hw/keccak/doc/keccak.md:
#   $OUT/keccak_unit.stat   the unit alone, flattened
#   $OUT/H<P>-keccak.stat   falcon_accel_top with KECCAK = 1, hierarchical
#                           (as hw/syn/synth_hier.sh), P = $1 (default 4)
# OUT = $FA_SYN_OUT, default hw/build/syn.
set -e
P=${1:-4}
case $P in 1) LP=0;; 2) LP=1;; 4) LP=2;; *) echo "P must be 1, 2 or 4" >&2; exit 2;; esac
HW=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${FA_SYN_OUT:-$HW/build/syn}
mkdir -p "$OUT"
. "$HW/syn/sources.sh"
yosys -q -l "$OUT/keccak_unit.log" -p "
read_verilog $(python3 "$HW/common/util/rtl_manifest.py" keccak/data/keccak.f)
synth_xilinx -family xc7 -flatten -top keccak_unit
tee -q -o $OUT/keccak_unit.stat stat
"
yosys -q -l "$OUT/H$P-keccak.log" -p "
read_verilog -I$HW/top/rtl $FA_SRCS
chparam -set P $P -set LP $LP -set KECCAK 1 falcon_accel_top
synth_xilinx -family xc7 -top falcon_accel_top
tee -q -o $OUT/H$P-keccak.stat stat -top falcon_accel_top
"
