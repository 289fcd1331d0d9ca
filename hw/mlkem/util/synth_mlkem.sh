#!/bin/sh
# Yosys synth_xilinx (xc7) figures for hw/mlkem/doc/mlkem.md:
#   synth_mlkem.sh        the ML-KEM-768 encaps sequencer alone (with its
#                         Keccak unit), flattened:
#                         $OUT/mlkem_encaps.stat, $OUT/mlkem_encaps.log
#   synth_mlkem.sh top    falcon_accel_top P = 1 with KEMENC = 1 (the other
#                         optional units off), flattened as hw/syn/synth.sh:
#                         $OUT/P1-kemenc.stat, .log, .time (~15 min)
# OUT = $FA_SYN_OUT, default hw/build/syn. Run niced, one at a time.
set -e
HW=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${FA_SYN_OUT:-$HW/build/syn}
mkdir -p "$OUT"
if [ "$1" = top ]; then
	. "$HW/syn/sources.sh"
	t0=$(date +%s)
	yosys -q -l "$OUT/P1-kemenc.log" -p "
	read_verilog -I$HW/top/rtl $FA_SRCS
	chparam -set P 1 -set LP 0 -set KEMENC 1 falcon_accel_top
	synth_xilinx -family xc7 -top falcon_accel_top -flatten
	tee -q -o $OUT/P1-kemenc.stat stat
	"
	echo $(( $(date +%s) - t0 )) > "$OUT/P1-kemenc.time"
	exit 0
fi
yosys -q -l "$OUT/mlkem_encaps.log" -p "
read_verilog $(python3 "$HW/common/util/rtl_manifest.py" keccak/data/keccak.f mlkem/data/mlkem.f)
synth_xilinx -family xc7 -flatten -top mlkem_encaps
tee -q -o $OUT/mlkem_encaps.stat stat
"
