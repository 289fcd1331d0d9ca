#!/usr/bin/env bash
# Runs every test of falcon-accel: set-up, generated-file checks, the C suite
# in three builds (native FP, emulated FP, ASan+UBSan), the freestanding rv32
# build, the RTL regression and the Python package tests.
# Usage: scripts/test.sh            (from the repository root)
set -uo pipefail
cd "$(dirname "$0")/.."
JOBS=${JOBS:-2}
failed=()
passed=0
step() { echo; echo "=== $* ==="; }
run() { local name=$1; shift; step "$name"; if "$@"; then echo "--- $name: ok"; passed=$((passed + 1)); else echo "--- $name: FAILED"; failed+=("$name"); fi; }

scripts/setup.sh || { echo "set-up failed"; exit 1; }

gen_check() {
  python3 scripts/gen_tables.py | diff -q - src/tables.c >/dev/null || { echo "src/tables.c is stale"; return 1; }
  if [ -f src/backend_avx2/gen_avx2_tables.py ]; then
    python3 src/backend_avx2/gen_avx2_tables.py | diff -q - src/backend_avx2/avx2_tables.c >/dev/null || { echo "avx2_tables.c is stale"; return 1; }
  fi
  python3 scripts/gen_ntru_primes.py | diff -q - src/ntru_primes.c >/dev/null || { echo "src/ntru_primes.c is stale"; return 1; }
  if [ -f scripts/gen_ntt_tables.py ]; then
    python3 scripts/gen_ntt_tables.py --stdout | diff -q - src/ntt_tables.c >/dev/null || { echo "src/ntt_tables.c is stale"; return 1; }
  fi
}
c_suite() { # build-dir, cmake options...
  local dir=$1; shift
  mkdir -p "$dir"
  if ! { cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release "$@" &&
         cmake --build "$dir" -j"$JOBS"; } >"$dir/build.log" 2>&1; then
    tail -n 40 "$dir/build.log"; return 1
  fi
  (cd "$dir" && ctest --output-on-failure -j"$JOBS")
}
run "generated tables up to date" gen_check
run "C suite, native FP" c_suite build/test-native
run "C suite, emulated FP" c_suite build/test-fpemu -DFA_FPEMU=ON -DFA_RTL=OFF
run "C suite, ASan+UBSan" c_suite build/test-asan -DFA_SANITIZE=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo -DFA_RTL=OFF
[ -x scripts/build_rv32.sh ] && run "freestanding rv32imc build" scripts/build_rv32.sh
[ -x hw/run_tests.sh ] && run "RTL regression" hw/run_tests.sh
[ -x python/run_tests.sh ] && run "Python package" python/run_tests.sh

echo
[ ${#failed[@]} -eq 0 ] || echo "FAILED STEPS: ${failed[*]}"
echo "steps: $passed passed, ${#failed[@]} failed"
[ ${#failed[@]} -eq 0 ]
