#!/usr/bin/env bash
# Set-up for the FIDO2 security key's end-to-end tests: python-fido2 2.2
# (client and relying party; it brings `cryptography`). Idempotent.
set -euo pipefail
if python3 -c 'import importlib.metadata as m, sys; sys.exit(0 if m.version("fido2").startswith("2.2.") else 1)' 2>/dev/null; then
  exit 0
fi
python3 -m pip install -q --disable-pip-version-check --root-user-action=ignore 'fido2==2.2.*' 2>/dev/null \
  || python3 -m pip install -q --break-system-packages 'fido2==2.2.*'
