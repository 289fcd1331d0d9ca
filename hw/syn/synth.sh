#!/bin/sh
# Yosys synth_xilinx (family xc7: the Artix-7 XC7A100T's primitives) of
# falcon_accel_top for one lane count P, then its longest combinational
# path.
#   usage: hw/syn/synth.sh P        (P = 1, 2 or 4)
# Writes to $FA_SYN_OUT (default hw/build/syn):
#   P<P>.stat   cell counts (Yosys `stat`)
#   P<P>.time   wall-clock seconds of the synthesis run
#   P<P>.il     the synthesised netlist (RTLIL checkpoint)
#   P<P>.ltp    `ltp -noff` over the combinational Xilinx cells (see
#               comb_cells.ys): the longest path in cells, with the path
#   P<P>.log, P<P>.ltp.log   full Yosys logs
# The ltp step is bounded by $FA_LTP_TIMEOUT seconds (default 3600); it
# can be rerun alone from the checkpoint with `sh hw/syn/synth.sh P ltp`.
set -e
P=${1:-4}
case $P in 1) LP=0;; 2) LP=1;; 4) LP=2;; *) echo "P must be 1, 2 or 4" >&2; exit 2;; esac
HW=$(cd "$(dirname "$0")/.." && pwd)
OUT=${FA_SYN_OUT:-$HW/build/syn}
mkdir -p "$OUT"
. "$HW/syn/sources.sh"
if [ "$2" != ltp ]; then
	t0=$(date +%s)
	yosys -q -l "$OUT/P$P.log" -p "
	read_verilog -I$HW/top/rtl $FA_SRCS
	chparam -set P $P -set LP $LP falcon_accel_top
	synth_xilinx -family xc7 -top falcon_accel_top -flatten
	tee -q -o $OUT/P$P.stat.tmp stat
	write_rtlil $OUT/P$P.il
	"
	mv "$OUT/P$P.stat.tmp" "$OUT/P$P.stat"
	echo $(( $(date +%s) - t0 )) > "$OUT/P$P.time"
fi
t0=$(date +%s)
timeout "${FA_LTP_TIMEOUT:-3600}" yosys -q -l "$OUT/P$P.ltp.log" -p "
read_rtlil $OUT/P$P.il
script $HW/syn/comb_cells.ys
tee -q -o $OUT/P$P.ltp.tmp ltp -noff @comb w:*
"
mv "$OUT/P$P.ltp.tmp" "$OUT/P$P.ltp"
echo $(( $(date +%s) - t0 )) > "$OUT/P$P.ltp.time"
