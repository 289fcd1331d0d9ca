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
# The accelerator's sources (manifests, hw/syn/sources.sh); synth -top
# keeps ffsamp_engine and what it instantiates.
. "$HW/syn/sources.sh"
yosys -q -l "$OUT/ffsamp_engine-L$L.log" -p "
read_verilog -I$HW/top/rtl $FA_SRCS
chparam -set MAXLOGN $L ffsamp_engine
synth_xilinx -family xc7 -top ffsamp_engine
tee -q -o $OUT/ffsamp_engine-L$L.stat.tmp stat -top ffsamp_engine
"
mv "$OUT/ffsamp_engine-L$L.stat.tmp" "$OUT/ffsamp_engine-L$L.stat"
