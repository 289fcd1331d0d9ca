#!/usr/bin/env bash
# Builds and installs the Python package from this checkout (pip, through
# the top-level CMake project; the Verilator backend is left out to keep the
# build short), then runs its pytest suite.
set -euo pipefail
cd "$(dirname "$0")/../.."
scripts/setup_service.sh
python3 -m pip install -q --disable-pip-version-check --root-user-action=ignore \
  -Ccmake.define.FA_RTL=OFF './service/python[test]'
# Run from outside the checkout so that `import falcon_accel` finds the
# installed package (with its built library), not service/python/falcon_accel.
repo=$(pwd)
cd "$(mktemp -d)"
python3 -m pytest -q -p no:cacheprovider "$repo/service/python/tests"
