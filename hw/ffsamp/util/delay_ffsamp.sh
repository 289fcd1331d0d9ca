#!/bin/sh
# ABC9's delay estimate of the ffSampling engine's issue logic: Yosys 0.23
# synth_xilinx -family xc7 -flatten -abc9 of ffsamp_engine with its fp64
# adder and multiplier, MAXLOGN = 4 (small memories), samplerz, the i2f
# conversion and the twiddle ROM as black boxes (their paths are measured
# with hw/sampler and hw/fft). The figure is the last "ABC: A: Del = D"
# of the run: ABC9's estimate in ps (xc7 cell delays + 300 ps per net),
# not a post-route timing. (Yosys 0.23's ABC aborts on this design in the
# &mfs step after that mapping, an assertion in Gia_ManInsertMfs, and
# says so in a warning; the run goes on.) With a second argument (a
# path), the mapped netlist is written there as JSON, whose longest paths
# util/worst_path.py lists with the same delay model.
#   usage: hw/ffsamp/util/delay_ffsamp.sh [MAXLOGN] [NETLIST.json]
# Writes $FA_SYN_OUT (default hw/build/syn)/delay-ffsamp_engine.log and
# prints {"delay_ps", "lut", "seconds"}.
set -e
L=${1:-4}
HW=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${FA_SYN_OUT:-$HW/build/syn}
mkdir -p "$OUT"
J=""
[ -n "$2" ] && J="write_json $2"
S=$HW/sampler/rtl; F=$HW/fp64/rtl
t0=$(date +%s)
yosys -q -l "$OUT/delay-ffsamp_engine.log" -p "
read_verilog -lib $S/samplerz.v $S/sampler_fpconv.v $HW/fft/rtl/fft_roots_rom.v
read_verilog $F/fp64_add.v $F/fp64_mul.v $HW/ffsamp/rtl/ffsamp_engine.v
chparam -set MAXLOGN $L ffsamp_engine
synth_xilinx -family xc7 -top ffsamp_engine -flatten -abc9
tee -q -o $OUT/delay-ffsamp_engine.stat stat
$J
"
t1=$(date +%s)
del=$(sed -n "s/^ABC: A: *Del = *\([0-9]*\).*/\1/p" "$OUT/delay-ffsamp_engine.log" | tail -n 1)
lut=$(awk '/LUT[1-6] /{s += $2} END {print s + 0}' "$OUT/delay-ffsamp_engine.stat")
echo "{\"delay_ps\": $del, \"lut\": $lut, \"seconds\": $((t1 - t0))}"
