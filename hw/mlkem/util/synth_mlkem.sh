#!/bin/sh
# Yosys synth_xilinx (xc7) figures of the ML-KEM-768 encaps sequencer
# alone (with its Keccak unit), flattened, for hw/mlkem/doc/mlkem.md:
#   $OUT/mlkem_encaps.stat, $OUT/mlkem_encaps.log
# OUT = $FA_SYN_OUT, default hw/build/syn. Run niced, one at a time.
set -e
HW=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${FA_SYN_OUT:-$HW/build/syn}
mkdir -p "$OUT"
yosys -q -l "$OUT/mlkem_encaps.log" -p "
read_verilog $(python3 "$HW/common/util/rtl_manifest.py" keccak/data/keccak.f mlkem/data/mlkem.f)
synth_xilinx -family xc7 -flatten -top mlkem_encaps
tee -q -o $OUT/mlkem_encaps.stat stat
"
