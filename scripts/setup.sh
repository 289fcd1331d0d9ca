#!/usr/bin/env bash
# Installs everything falcon-accel needs on a fresh Debian (bookworm) machine,
# as root. Idempotent: skips what is already present.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
need_apt=()
for p in build-essential cmake python3 python3-pip python3-venv clang libclang-rt-14-dev valgrind \
         verilator iverilog yosys gcc-riscv64-unknown-elf qemu-user \
         openssl libssl-dev; do
  dpkg -s "$p" >/dev/null 2>&1 || need_apt+=("$p")
done
if [ ${#need_apt[@]} -gt 0 ]; then
  apt-get update -qq
  apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi
# Python packages: table generator (mpmath), RTL verification (cocotb, pytest),
# bindings (cffi) and their tests.
py_need=()
for m in mpmath cocotb pytest cffi hypothesis; do
  python3 -c "import $m" >/dev/null 2>&1 || py_need+=("$m")
done
if [ ${#py_need[@]} -gt 0 ]; then
  python3 -m pip install -q --disable-pip-version-check --root-user-action=ignore \
    "mpmath" "cocotb>=1.8,<2" "pytest" "cffi" "hypothesis" 2>/dev/null \
  || python3 -m pip install -q --break-system-packages "mpmath" "cocotb>=1.8,<2" "pytest" "cffi" "hypothesis"
fi
# Optional parts add their own set-up scripts (hardware tools, Rust peers...).
for extra in scripts/setup_hw.sh scripts/setup_fido2.sh scripts/setup_soc.sh scripts/setup_board.sh scripts/setup_service.sh; do
  [ -x "$extra" ] && "$extra"
done
exit 0
