#!/usr/bin/env bash
# The main job: set up, build, run a sign/verify round trip with the CLI, then
# the benchmark (kernel and scheme timings, Falcon-512 and -1024).
# Usage: scripts/run.sh [extra bench options, e.g. --json or --backend portable]
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
mkdir -p build/release
if ! { cmake -S . -B build/release -DCMAKE_BUILD_TYPE=Release &&
       cmake --build build/release -j"${JOBS:-2}"; } >build/release/build.log 2>&1; then
  tail -n 40 build/release/build.log; echo "build failed (build/release/build.log)"; exit 1
fi
cli=build/release/tools/falcon-accel
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "== round trip (Falcon-512, compressed signature)"
$cli keygen --degree 512 --sk "$work/sk" --pk "$work/pk"
echo "hello, falcon-accel" > "$work/msg"
$cli sign --sk "$work/sk" --in "$work/msg" --out "$work/sig"
$cli verify --pk "$work/pk" --sig "$work/sig" --in "$work/msg" && echo "signature verifies"
echo "tampered" >> "$work/msg"
if $cli verify --pk "$work/pk" --sig "$work/sig" --in "$work/msg"; then
  echo "ERROR: tampered message accepted"; exit 1
else
  echo "tampered message rejected"
fi
echo "== bench"
$cli bench "$@"
