#!/usr/bin/env bash
# Public-API fuzzing with libFuzzer (clang): builds the fuzz targets in
# build/fuzz-api with the API layer and decoders coverage-instrumented
# (api, codec, common, privkey_check) and the arithmetic only sanitized,
# then runs each target for a bounded time on a scratch corpus
# (build/fuzz-api/corpus-<target>) seeded from the checked-in corpus
# (tests/fuzz/corpus/api for the API targets, tests/fuzz/corpus/<name>
# for the decoders; never written to).
#
# Targets (tests/fuzz/): api (fuzz_api.c, the whole API in one target),
# verify, prepared, make_public, expand, sign_dyn, sign_tree
# (fuzz_api_<name>.c, one public function each), and the decoders modq,
# trim, comp (fuzz_<name>_decode.c).
#
# Usage: scripts/fuzz_api.sh [SECONDS_PER_TARGET] [SANITIZERS] [MAX_LEN]
#   env FUZZ_TARGETS="verify sign_dyn ..."  (default: the 7 API targets)
#   env FUZZ_TAG=name: names the summary and log files (runs side by side)
#   CI:        scripts/fuzz_api.sh 7 address,undefined   (7 x 7 s)
#   campaign:  make fuzz-campaign  (FUZZ_SECONDS per target; UBSan)
# Exit status: 0 when libFuzzer reports no crash, leak, timeout (a hang:
# -timeout=10 s per input) or out-of-memory in any target. The last lines
# are one row per target: executions, seconds, executions per second,
# result; build/fuzz-api/summary-<san>.txt keeps them.
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-7}
san=${2:-address,undefined}
maxlen=${3:-4096}
targets=${FUZZ_TARGETS:-api verify prepared make_public expand sign_dyn sign_tree}
CC=${FUZZ_CC:-clang}
out=build/fuzz-api
mkdir -p "$out/obj-$san" "$out/artifacts"
command -v "$CC" >/dev/null || { echo "fuzz_api.sh: $CC not found (scripts/setup.sh)"; exit 1; }
flags="-O2 -g -ffp-contract=off -fno-math-errno -DFA_FPEMU=0 -DFA_FREESTANDING=0 -Iinclude -Isrc -Itests/fuzz"
objs=()
pids=()
# (the whole core library, as CMake builds it: src/*.c and src/mlkem/*.c;
# FN-DSA's pre-hash mode calls ML-KEM's SHA3-256)
for f in src/*.c src/mlkem/*.c; do
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

src_of() {
  case $1 in
    api) echo tests/fuzz/fuzz_api.c ;;
    modq|trim|comp) echo "tests/fuzz/fuzz_$1_decode.c" ;;
    *) echo "tests/fuzz/fuzz_api_$1.c" ;;
  esac
}
seeds_of() {
  case $1 in
    modq|trim|comp) echo "tests/fuzz/corpus/$1" ;;
    *) echo tests/fuzz/corpus/api ;;
  esac
}

summary="$out/summary-${FUZZ_TAG:-$san}.txt"
: >"$summary"
status=0
for t in $targets; do
  src=$(src_of "$t")
  [ -f "$src" ] || { echo "fuzz_api.sh: unknown target $t ($src)"; exit 1; }
  exe="$out/fuzz_$t-$san"
  if [ ! -f "$exe" ] || [ "$src" -nt "$exe" ] || [ tests/fuzz/fuzz_api_common.h -nt "$exe" ] \
     || [ -n "$(find "$out/obj-$san" -newer "$exe" -name '*.o' | head -n 1)" ]; then
    $CC $flags -fsanitize=fuzzer,$san -fno-sanitize-recover=undefined \
      "$src" "${objs[@]}" -o "$exe"
  fi
  mkdir -p "$out/corpus-$t"
  log="$out/log-$t-${FUZZ_TAG:-$san}.txt"
  echo "=== fuzz_$t ($san, ${secs} s) ==="
  t0=$(date +%s)
  set +e
  "$exe" -max_total_time="$secs" -timeout=10 -max_len="$maxlen" \
    -print_final_stats=1 -artifact_prefix="$out/artifacts/$t-" \
    "$out/corpus-$t" "$(seeds_of "$t")" >"$log" 2>&1
  rc=$?
  set -e
  time=$(( $(date +%s) - t0 ))
  grep -v -E "^#[0-9]+ +(NEW|REDUCE|pulse)" "$log" | tail -n 12
  execs=$(awk '/^stat::number_of_executed_units:/ {print $2}' "$log" | tail -n 1)
  slow=$(awk '/^stat::slowest_unit_time_sec:/ {print $2}' "$log" | tail -n 1)
  rate=$(( ${execs:-0} / (time > 0 ? time : 1) ))
  res=ok
  if [ "$rc" -ne 0 ]; then res="FAILED (libFuzzer exit $rc, artifacts $out/artifacts/$t-*)"; status=1; fi
  printf '%-12s %12s execs %7s s %8s exec/s  slowest %3s s  %s\n' "$t" "${execs:-0}" "$time" "$rate" "${slow:-?}" "$res" | tee -a "$summary"
done
echo "--- summary ($san, max_len $maxlen, -timeout=10) ---"
cat "$summary"
awk '{ s += $2 } END { print "total executions: " s }' "$summary"
[ "$status" -eq 0 ] || { echo "fuzz_api.sh: a target failed (logs $out/log-*-${FUZZ_TAG:-$san}.txt)"; exit 1; }
