#!/usr/bin/env bash
# The main job: set up, build, run a sign/verify round trip with the CLI, then
# the benchmark (kernel and scheme timings, Falcon-512 and -1024).
# Usage: scripts/run.sh [extra bench options, e.g. --json or --backend portable]
#
# One line per phase on the terminal; the set-up and build output go to
# build/release/setup.log and build/release/build.log (their tail is shown
# if a phase fails). Hardware tool versions are shown only when the bench
# uses the rtl backend (co-simulated RTL).
set -euo pipefail
cd "$(dirname "$0")/.."
out=build/release
mkdir -p "$out"
t0=$SECONDS
phase() { echo "== [$1/4] $2"; }
done_in() { echo "   done ($((SECONDS - t0)) s)"; t0=$SECONDS; }
# logged LOG COMMAND...: the command's output to LOG; its tail on failure.
logged() {
  local log=$1; shift
  if ! "$@" >>"$log" 2>&1; then
    tail -n 40 "$log"; echo "FAILED: $* (full output: $log)"; exit 1
  fi
}

phase 1 "set-up: Debian and Python packages, if missing (log: $out/setup.log)"
: >"$out/setup.log"
logged "$out/setup.log" scripts/setup.sh
done_in

phase 2 "build: CMake, Release (log: $out/build.log)"
: >"$out/build.log"
logged "$out/build.log" cmake -S . -B "$out" -DCMAKE_BUILD_TYPE=Release
logged "$out/build.log" cmake --build "$out" -j"${JOBS:-2}"
cli=$out/tools/falcon-accel
echo "   $("$cli" --version); backends: $("$cli" backends | awk '$2 == "available" { printf "%s%s", sep, $1; sep = ", " }')"
done_in

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
phase 3 "round trip: keygen, sign, verify (Falcon-512, compressed signature)"
$cli keygen --degree 512 --sk "$work/sk" --pk "$work/pk"
echo "hello, falcon-accel" > "$work/msg"
$cli sign --sk "$work/sk" --in "$work/msg" --out "$work/sig"
$cli verify --pk "$work/pk" --sig "$work/sig" --in "$work/msg" >/dev/null \
  && echo "   signature verifies"
echo "tampered" >> "$work/msg"
if $cli verify --pk "$work/pk" --sig "$work/sig" --in "$work/msg" 2>/dev/null; then
  echo "ERROR: tampered message accepted"; exit 1
else
  echo "   tampered message rejected"
fi

# The bench's backend: --backend NAME / --backend=NAME, else the environment.
backend=${FALCON_ACCEL_BACKEND:-}
prev=
for a in "$@"; do
  case $a in --backend=*) backend=${a#--backend=} ;; esac
  [ "$prev" = --backend ] && backend=$a
  prev=$a
done
be_name=$($cli ${backend:+--backend "$backend"} backends | awk '/\((selected|default)\)/ { b = $1 } /\(selected\)/ { exit } END { print b }')
phase 4 "bench: falcon-accel bench $* (backend $be_name)"
if [ "$be_name" = rtl ]; then
  echo "   hardware: the accelerator RTL co-simulated by $(verilator --version 2>/dev/null || echo 'Verilator (version unknown)')"
fi
$cli bench "$@"
