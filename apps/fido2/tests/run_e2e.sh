#!/usr/bin/env bash
# End-to-end tests of falcon-accel-fido2 with python-fido2 2.2: uses the
# daemon the C suite built (build/test-native) or builds it (build/fido2-e2e),
# with the CLI of the same build (FIDO2_CLI: FN-DSA signatures are verified
# with it when the installed falcon_accel package has no FN-DSA), makes sure
# python-fido2 and the falcon_accel package are importable, then runs
# apps/fido2/tests/e2e with pytest (registration, authentication, FN-DSA
# and round-3 credentials, a state from before FN-DSA, discoverable login,
# counters, wrong rpId, tampered clientDataJSON, excludeList, Reset,
# restart, kill -9 durability).
set -euo pipefail
cd "$(dirname "$0")/../../.."
JOBS=${JOBS:-2}
# The C suite (scripts/test.sh) already built the daemon in build/test-native;
# otherwise build it here (FIDO2_BUILD_DIR overrides the directory).
bdir=${FIDO2_BUILD_DIR:-}
if [ -z "$bdir" ] && [ -x build/test-native/apps/fido2/host/falcon-accel-fido2 ]; then
  bdir=build/test-native
else
  bdir=${bdir:-build/fido2-e2e}
  mkdir -p "$bdir"
  if [ ! -f "$bdir/CMakeCache.txt" ]; then
    cmake -S . -B "$bdir" -DCMAKE_BUILD_TYPE=Release -DFA_RTL=OFF >"$bdir/configure.log" 2>&1 \
      || { tail -n 30 "$bdir/configure.log"; exit 1; }
  fi
  cmake --build "$bdir" -j"$JOBS" --target falcon-accel-fido2 falcon-accel-fido2-soc falcon-accel \
    >"$bdir/fido2-build.log" 2>&1 || { tail -n 30 "$bdir/fido2-build.log"; exit 1; }
fi
if [ ! -x "$bdir/tools/falcon-accel" ]; then
  cmake --build "$bdir" -j"$JOBS" --target falcon-accel >"$bdir/fido2-cli-build.log" 2>&1 \
    || { tail -n 30 "$bdir/fido2-cli-build.log"; exit 1; }
fi
export FIDO2_DAEMON=$PWD/$bdir/apps/fido2/host/falcon-accel-fido2
export FIDO2_CLI=${FIDO2_CLI:-$PWD/$bdir/tools/falcon-accel}
scripts/setup_fido2.sh
if ! python3 -c 'import falcon_accel' 2>/dev/null; then
  python3 -m pip install -q --disable-pip-version-check --root-user-action=ignore \
    -Ccmake.define.FA_RTL=OFF ./service/python
fi
exec python3 -m pytest -q -p no:cacheprovider apps/fido2/tests/e2e
