#!/bin/sh
# Yosys synth_xilinx (family xc7, the XC7A100T's) of falcon_accel_top for
# one lane count P. Writes hw/build/syn/P<P>.stat (cells) and P<P>.ltp
# (longest path).
#   usage: hw/syn/synth.sh P        (P = 1, 2 or 4)
set -e
P=${1:-4}
case $P in 1) LP=0;; 2) LP=1;; 4) LP=2;; *) echo "P must be 1, 2 or 4" >&2; exit 2;; esac
HW=$(cd "$(dirname "$0")/.." && pwd)
OUT=${FA_SYN_OUT:-$HW/build/syn}
mkdir -p "$OUT"
SRCS="$HW/fp64/rtl/fp64_add.v $HW/fp64/rtl/fp64_mul.v $HW/common/rtl/fa_delay.v
 $HW/common/rtl/fa_ram.v $HW/common/rtl/tf_core.v $HW/fft/rtl/fft_cmul.v $HW/fft/rtl/fft_bf.v
 $HW/fft/rtl/fft_roots_rom.v $HW/fft/rtl/fft_engine.v $HW/ntt/rtl/ntt_modmul.v
 $HW/ntt/rtl/ntt_bf.v $HW/ntt/rtl/ntt_tw_rom.v $HW/ntt/rtl/ntt_engine.v $HW/top/rtl/falcon_accel_top.v"
yosys -q -l "$OUT/P$P.log" -p "
read_verilog -I$HW/top/rtl $(echo $SRCS)
chparam -set P $P -set LP $LP falcon_accel_top
synth_xilinx -family xc7 -top falcon_accel_top -flatten
tee -q -o $OUT/P$P.stat stat
"
# Longest combinational path, in LUT levels: ltp on a generic LUT-6
# mapping (ltp does not know the Xilinx FF primitives as path ends).
yosys -q -l "$OUT/P$P.ltp.log" -p "
read_verilog -I$HW/top/rtl $(echo $SRCS)
chparam -set P $P -set LP $LP falcon_accel_top
synth -flatten -top falcon_accel_top -run begin:fine
synth -run fine:check
abc -lut 6
opt_clean
tee -q -o $OUT/P$P.ltp ltp -noff
"
