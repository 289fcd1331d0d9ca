#!/usr/bin/env bash
# falcon-accel-fido2 built with ASan+UBSan under a bounded CTAPHID/UDP fuzz
# run (apps/fido2/tests/fuzz_udp.py): random and malformed reports, broken
# message framing, mutated CTAP2 requests, interleaved channels; the daemon
# must keep answering INIT and PING, exit 0 on SIGTERM and print no
# sanitizer report. Uses the ASan build of the C suite (build/test-asan,
# scripts/test.sh) when it has the daemon, otherwise builds
# build/fido2-asan.
# Environment: FIDO2_FUZZ_REPORTS (default 20000), FIDO2_FUZZ_SEED (default
# 20261201), FIDO2_FUZZ_KEYGENS (valid makeCredential requests, default 3),
# FIDO2_FUZZ_BUILD_DIR (an ASan build directory to use instead).
set -euo pipefail
cd "$(dirname "$0")/../../.."
JOBS=${JOBS:-2}
bdir=${FIDO2_FUZZ_BUILD_DIR:-}
if [ -z "$bdir" ] && [ -x build/test-asan/apps/fido2/host/falcon-accel-fido2 ] &&
   grep -q '^FA_SANITIZE:BOOL=ON$' build/test-asan/CMakeCache.txt 2>/dev/null; then
  bdir=build/test-asan
fi
bdir=${bdir:-build/fido2-asan}
mkdir -p "$bdir"
if [ ! -f "$bdir/CMakeCache.txt" ]; then
  cmake -S . -B "$bdir" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DFA_SANITIZE=ON -DFA_RTL=OFF \
    >"$bdir/configure.log" 2>&1 || { tail -n 30 "$bdir/configure.log"; exit 1; }
fi
if ! grep -q '^FA_SANITIZE:BOOL=ON$' "$bdir/CMakeCache.txt"; then
  echo "run_fuzz_udp: $bdir is not a sanitizer build (FA_SANITIZE=ON)"; exit 1
fi
# (up to date already after the C suite: then this only checks)
cmake --build "$bdir" -j"$JOBS" --target falcon-accel-fido2 >"$bdir/fido2-fuzz-build.log" 2>&1 \
  || { tail -n 30 "$bdir/fido2-fuzz-build.log"; exit 1; }
export ASAN_OPTIONS=abort_on_error=1:detect_leaks=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
exec python3 apps/fido2/tests/fuzz_udp.py --daemon "$PWD/$bdir/apps/fido2/host/falcon-accel-fido2" \
  --reports "${FIDO2_FUZZ_REPORTS:-20000}" --seed "${FIDO2_FUZZ_SEED:-20261201}"
