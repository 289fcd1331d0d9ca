#!/bin/sh
# Cycle counts of every device kernel at logn 9 and 10 for one lane count
# P, measured on the Verilated RTL (hw/syn/rtl_cycles.c) and checked
# against the portable kernels.
#   usage: hw/syn/rtl_cycles.sh P        (P = 1, 2 or 4)
# Builds the library with -DFA_RTL_P=P in hw/build/rtl-P<P> (needs
# Verilator) and writes $FA_SYN_OUT (default hw/build/syn)/cycles-P<P>.json
# (one JSON object per line).
set -e
P=${1:-4}
case $P in 1|2|4) ;; *) echo "P must be 1, 2 or 4" >&2; exit 2;; esac
HW=$(cd "$(dirname "$0")/.." && pwd)
ROOT=$(cd "$HW/.." && pwd)
OUT=${FA_SYN_OUT:-$HW/build/syn}
B=$HW/build/rtl-P$P
mkdir -p "$OUT"
cmake -S "$ROOT" -B "$B" -DCMAKE_BUILD_TYPE=Release -DFA_RTL_P="$P" \
	-DFA_BUILD_TESTS=OFF > "$B.cmake.log" 2>&1
cmake --build "$B" --target falcon_accel falcon_accel_rtl -j2 > "$B.build.log" 2>&1
${CC:-cc} -O2 -std=c11 -ffp-contract=off -fno-math-errno -DFA_FPEMU=0 \
	-DFA_FREESTANDING=0 -DFA_HAVE_BACKEND_RTL=1 -I"$ROOT/include" \
	-I"$ROOT/src" -I"$ROOT/tools" -I"$ROOT/src/backend_rtl" -c "$HW/syn/rtl_cycles.c" \
	-o "$B/rtl_cycles.o"
${CXX:-c++} -o "$B/rtl_cycles" "$B/rtl_cycles.o" "$B/src/backend_rtl/libfalcon_accel_rtl.a" \
	"$B/libfalcon_accel.a" "$B/src/backend_rtl/libfalcon_accel_rtl.a" "$B/libfalcon_accel.a" \
	-lpthread
"$B/rtl_cycles" > "$OUT/cycles-P$P.json.tmp"
mv "$OUT/cycles-P$P.json.tmp" "$OUT/cycles-P$P.json"
cat "$OUT/cycles-P$P.json"
