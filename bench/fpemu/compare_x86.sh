#!/usr/bin/env bash
# compare_x86.sh -- this library's emulated-FP build (FA_FPEMU) beside the
# Falcon reference implementation's emulated build (Falcon-impl-20211101,
# FALCON_FPEMU=1), both gcc -O3 on this machine, Falcon-512, portable C.
#
# The reference is fetched and checked by soc/ref/build_ref_fw.sh
# (pinned commit and SHA-256 of every file; it also builds the SoC
# firmware of the reference) into BUILD/ref, never into the repository.
# REF_SRC=dir skips that and takes the reference sources from dir.
#
# Measures, per operation (keygen, sign_tree, sign_dyn, verify):
#  - instructions per call under callgrind (load-independent): counted for
#    1 + K calls minus 1 call of the same driver, so set-up is excluded;
#  - median wall time per call over RUNS calls (meaningful only on an
#    idle machine; the two drivers alternate).
# Drivers: bench/fpemu/our_ops.c and bench/fpemu/ref_ops.c (same seed, same
# message, same key: both libraries are KAT-exact).
#
# Usage: bench/fpemu/compare_x86.sh [build-dir]   (default build/fpemu-compare)
# Env: K (extra calls counted, default 4), RUNS (timed calls, default 21),
#      OPS (default "keygen sign_tree sign_dyn verify")
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
B=$(mkdir -p "${1:-$ROOT/build/fpemu-compare}" && cd "${1:-$ROOT/build/fpemu-compare}" && pwd)
K=${K:-4}
RUNS=${RUNS:-21}
OPS=${OPS:-keygen sign_tree sign_dyn verify}
CC=${CC:-gcc}

# 1. the reference, emulated FP
if [ -z "${REF_SRC:-}" ]; then
	"$ROOT/soc/ref/build_ref_fw.sh" "$B/ref" >"$B/ref-fetch.log" 2>&1 || {
		cat "$B/ref-fetch.log" >&2; exit 2; }
	REF_SRC=$B/ref/src
fi
R=$REF_SRC
nice $CC -O3 -ffp-contract=off -DFALCON_FPEMU=1 -DFALCON_FPNATIVE=0 -DFALCON_AVX2=0 \
	-DFALCON_FMA=0 -I"$R" "$ROOT/bench/fpemu/ref_ops.c" "$R"/codec.c "$R"/common.c \
	"$R"/falcon.c "$R"/fft.c "$R"/fpr.c "$R"/keygen.c "$R"/rng.c "$R"/shake.c "$R"/sign.c \
	"$R"/vrfy.c -o "$B/ref_ops"

# 2. this library, emulated FP, portable backend (Release: -O3)
cmake -S "$ROOT" -B "$B/emu" -DCMAKE_BUILD_TYPE=Release -DFA_FPEMU=ON -DFA_RTL=OFF \
	-DFA_BUILD_TESTS=OFF >"$B/emu-configure.log"
nice cmake --build "$B/emu" --target falcon_accel -j2 >"$B/emu-build.log"
nice $CC -O2 -I"$ROOT/include" "$ROOT/bench/fpemu/our_ops.c" "$B/emu/libfalcon_accel.a" \
	-o "$B/our_ops" -lm -lpthread

# 3. instruction counts
count() {   # count DRIVER FUNCTION OP N -> instructions collected
	valgrind --tool=callgrind --callgrind-out-file=/dev/null --toggle-collect="$2" \
		"$1" "$3" "$4" 2>&1 >/dev/null | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
declare -A OURFN=([keygen]=fa_keygen [sign_tree]=fa_sign_tree [sign_dyn]=fa_sign_dyn [verify]=fa_verify)
declare -A REFFN=([keygen]=falcon_keygen_make [sign_tree]=falcon_sign_tree [sign_dyn]=falcon_sign_dyn [verify]=falcon_verify)
echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "compiler: $($CC --version | head -1)"
echo
echo "| op | ours (instr/call) | reference (instr/call) | ours / ref | ours median (us) | ref median (us) |"
echo "|---|---:|---:|---:|---:|---:|"
for op in $OPS; do
	k=$K
	[ "$op" = keygen ] && k=$(( K < 2 ? K : 2 ))
	o1=$(count "$B/our_ops" "${OURFN[$op]}" "$op" 1)
	ok=$(count "$B/our_ops" "${OURFN[$op]}" "$op" $((1 + k)))
	r1=$(count "$B/ref_ops" "${REFFN[$op]}" "$op" 1)
	rk=$(count "$B/ref_ops" "${REFFN[$op]}" "$op" $((1 + k)))
	oc=$(( (ok - o1) / k ))
	rc=$(( (rk - r1) / k ))
	# wall time: alternate the two drivers, median of each
	to=$("$B/our_ops" "$op" "$RUNS" | sed -n 's/.*median \([0-9]*\) ns/\1/p')
	tr=$("$B/ref_ops" "$op" "$RUNS" | sed -n 's/.*median \([0-9]*\) ns/\1/p')
	printf '| %s | %s | %s | %s | %s | %s |\n' "$op" "$oc" "$rc" \
		"$(awk -v a="$oc" -v b="$rc" 'BEGIN { printf "%.3f", a / b }')" \
		"$(awk -v a="$to" 'BEGIN { printf "%.0f", a / 1000 }')" \
		"$(awk -v a="$tr" 'BEGIN { printf "%.0f", a / 1000 }')"
done
