#!/usr/bin/env bash
# Builds and installs the Python package from this checkout (pip, through
# the top-level CMake project; the Verilator backend is left out to keep the
# build short), then runs its pytest suite.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m pip install -q --disable-pip-version-check --root-user-action=ignore \
  -Ccmake.define.FA_RTL=OFF './python[test]'
cd python && python3 -m pytest -q -p no:cacheprovider tests
