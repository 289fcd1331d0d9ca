#!/bin/sh
# Install the hardware tool chain used by hw/ and the rtl backend:
# Icarus Verilog 11, Verilator 5.006 and Yosys (Debian packages), cocotb
# 1.9 and pytest (pip). Idempotent; run as root (or with sudo available).
set -e
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO=sudo
need=""
command -v iverilog >/dev/null 2>&1 || need="$need iverilog"
command -v verilator >/dev/null 2>&1 || need="$need verilator"
command -v yosys >/dev/null 2>&1 || need="$need yosys"
if [ -n "$need" ]; then
	$SUDO apt-get update
	$SUDO apt-get install -y $need
fi
python3 -c "import cocotb" 2>/dev/null || python3 -m pip install "cocotb==1.9.2"
python3 -c "import pytest" 2>/dev/null || python3 -m pip install pytest
iverilog -V 2>&1 | head -n 1
verilator --version
yosys -V
python3 -c "import cocotb; print('cocotb', cocotb.__version__)"
