#!/bin/sh
# Yosys synth_xilinx (xc7) figures for hw/ntt/doc/mlkem_mode.md:
#   $OUT/kem_engine-P4.stat        the ML-KEM NTT engine alone, P = 4, flattened
#   $OUT/H4-base.stat              falcon_accel_top P = 4 as built by default
#   $OUT/H4-mlkem.stat             the same with MLKEM = 1
#   $OUT/H2-keccak.stat            P = 2 with KECCAK = 1
#   $OUT/H2-mlkem-keccak.stat      P = 2 with KECCAK = 1 and MLKEM = 1
# (All of the top's sources are read: tf_core's default, KIND 0, is
# elaborated at read time and needs the FFT lanes.) The tops are hierarchical (as hw/syn/synth_hier.sh: each module mapped
# once, stat -top multiplies by the instance counts). One run at a time.
# OUT = $FA_SYN_OUT, default hw/build/syn.
set -e
HW=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${FA_SYN_OUT:-$HW/build/syn}
mkdir -p "$OUT"
. "$HW/syn/sources.sh"
yosys -q -l "$OUT/kem_engine-P4.log" -p "
read_verilog -I$HW/top/rtl $FA_SRCS
chparam -set P 4 -set LP 2 kem_engine
synth_xilinx -family xc7 -flatten -top kem_engine
tee -q -o $OUT/kem_engine-P4.stat stat
"
top() {  # name P LP params...
	name=$1; p=$2; lp=$3; shift 3
	yosys -q -l "$OUT/$name.log" -p "
read_verilog -I$HW/top/rtl $FA_SRCS
chparam -set P $p -set LP $lp $* falcon_accel_top
synth_xilinx -family xc7 -top falcon_accel_top
tee -q -o $OUT/$name.stat stat -top falcon_accel_top
"
}
top H4-base 4 2
top H4-mlkem 4 2 -set MLKEM 1
top H2-keccak 2 1 -set KECCAK 1
top H2-mlkem-keccak 2 1 -set KECCAK 1 -set MLKEM 1
