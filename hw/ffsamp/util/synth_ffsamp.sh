#!/bin/sh
# Yosys synth_xilinx (family xc7, the XC7A100T's fabric), hierarchical, of
# the fast-Fourier sampling engine alone (ffsamp_engine with its samplerz,
# fp64 adder and multiplier and the twiddle ROM; the PRNG is the
# accelerator's, not counted), MAXLOGN = 10 (tree and work memories for
# Falcon-1024). Resources only (no place and route, no timing).
#   usage: hw/ffsamp/util/synth_ffsamp.sh [MAXLOGN]
# Writes $FA_SYN_OUT (default hw/build/syn)/ffsamp_engine-L<MAXLOGN>.stat
# and .log.
set -e
L=${1:-10}
HW=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${FA_SYN_OUT:-$HW/build/syn}
mkdir -p "$OUT"
SRCS="$HW/fp64/rtl/fp64_add.v $HW/fp64/rtl/fp64_mul.v $HW/fft/rtl/fft_roots_rom.v
 $HW/sampler/rtl/sampler_tables.v $HW/sampler/rtl/sampler_fpconv.v
 $HW/sampler/rtl/sampler_mulhi.v $HW/sampler/rtl/samplerz.v
 $HW/ffsamp/rtl/ffsamp_engine.v"
yosys -q -l "$OUT/ffsamp_engine-L$L.log" -p "
read_verilog $(echo $SRCS)
chparam -set MAXLOGN $L ffsamp_engine
synth_xilinx -family xc7 -top ffsamp_engine
tee -q -o $OUT/ffsamp_engine-L$L.stat.tmp stat -top ffsamp_engine
"
mv "$OUT/ffsamp_engine-L$L.stat.tmp" "$OUT/ffsamp_engine-L$L.stat"
