#!/usr/bin/env bash
# Set-up of the Python package's service on a fresh Debian machine, as root
# (called by scripts/setup.sh and service/python/run_tests.sh). Idempotent.
#  - openssl: the service's TLS test makes a throw-away certificate;
#  - Starlette, uvicorn (with httptools, uvloop), prometheus_client: the
#    service's stack (also the package's dependencies in
#    service/python/pyproject.toml, so `pip install ./service/python`
#    brings them);
#  - pycparser, schemathesis 4.x: test tools (also in the package's `test`
#    extra); schemathesis checks the service against its openapi.json.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
if ! command -v openssl >/dev/null 2>&1; then
  apt-get update -qq
  apt-get install -y -qq openssl >/dev/null
fi
need=()
for m in starlette uvicorn httptools uvloop prometheus_client pycparser; do
  python3 -c "import $m" >/dev/null 2>&1 || need+=("$m")
done
python3 -c "import schemathesis, sys
sys.exit(schemathesis.__version__.split('.')[0] != '4')" >/dev/null 2>&1 \
  || need+=(schemathesis)
if [ ${#need[@]} -gt 0 ]; then
  pkgs=("starlette>=0.37" "uvicorn>=0.30" "httptools>=0.6" "uvloop>=0.19"
        "prometheus_client>=0.20" "pycparser" "schemathesis>=4,<5")
  python3 -m pip install -q --disable-pip-version-check --root-user-action=ignore \
    "${pkgs[@]}" 2>/dev/null \
  || python3 -m pip install -q --break-system-packages "${pkgs[@]}"
fi
exit 0
