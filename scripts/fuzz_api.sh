#!/usr/bin/env bash
# Whole-API fuzzing with libFuzzer (clang): builds tests/fuzz/fuzz_api.c
# in build/fuzz-api with the API layer and decoders coverage-instrumented
# (api, codec, common, privkey_check) and the arithmetic only sanitized,
# then runs it for a bounded time on a scratch corpus seeded from
# tests/fuzz/corpus/api (never written to).
# Usage: scripts/fuzz_api.sh [SECONDS] [SANITIZERS] [MAX_LEN]
#   CI:        scripts/fuzz_api.sh 60 address,undefined
#   campaign:  make fuzz-campaign  (FUZZ_SECONDS, default 3600; UBSan)
# Exit status: 0 when libFuzzer reports no crash, leak, timeout (hang,
# -timeout=10 s per input) or out-of-memory; its final stats are printed.
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-60}
san=${2:-address,undefined}
maxlen=${3:-4096}
CC=${FUZZ_CC:-clang}
out=build/fuzz-api
mkdir -p "$out/obj-$san" "$out/corpus" "$out/artifacts"
command -v "$CC" >/dev/null || { echo "fuzz_api.sh: $CC not found (scripts/setup.sh)"; exit 1; }
flags="-O2 -g -ffp-contract=off -fno-math-errno -DFA_FPEMU=0 -DFA_FREESTANDING=0 -Iinclude -Isrc -Itests/fuzz"
objs=()
pids=()
for f in src/*.c; do
  b=$(basename "$f" .c)
  case $b in
    api|codec|common|privkey_check) s="-fsanitize=fuzzer-no-link,$san" ;;
    *) s="-fsanitize=$san" ;;
  esac
  o="$out/obj-$san/$b.o"
  objs+=("$o")
  if [ ! -f "$o" ] || [ "$f" -nt "$o" ] || [ src/inner.h -nt "$o" ]; then
    $CC $flags $s -fno-sanitize-recover=undefined -c "$f" -o "$o" &
    pids+=($!)
    if [ ${#pids[@]} -ge 2 ]; then wait "${pids[0]}"; pids=("${pids[@]:1}"); fi
  fi
done
for p in "${pids[@]}"; do wait "$p"; done
$CC $flags -fsanitize=fuzzer,$san -fno-sanitize-recover=undefined \
  tests/fuzz/fuzz_api.c "${objs[@]}" -o "$out/fuzz_api-$san"
"$out/fuzz_api-$san" -max_total_time="$secs" -timeout=10 -max_len="$maxlen" \
  -print_final_stats=1 -artifact_prefix="$out/artifacts/" \
  "$out/corpus" tests/fuzz/corpus/api 2>&1 | grep -v -E "^#[0-9]+ +(NEW|REDUCE|pulse)" | tail -n 40
rc=${PIPESTATUS[0]}
[ "$rc" -eq 0 ] || { echo "fuzz_api.sh: libFuzzer exit status $rc (artifacts in $out/artifacts)"; exit 1; }
