#!/bin/sh
# Install what the SoC (soc) and its firmware (soc/fw/) need: the VexRiscv
# core (PyPI package pythondata-cpu-vexriscv: VexRiscv_IMAC.v), Debian's bare-metal RISC-V compiler
# and picolibc, Verilator. Idempotent; run as root (or with sudo).
set -e
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO=sudo
need=""
for p in gcc-riscv64-unknown-elf picolibc-riscv64-unknown-elf verilator; do
	dpkg -s "$p" >/dev/null 2>&1 || need="$need $p"
done
if [ -n "$need" ]; then
	$SUDO apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $need >/dev/null
fi
if ! python3 -c "import pythondata_cpu_vexriscv" >/dev/null 2>&1; then
	python3 -m pip install -q --disable-pip-version-check --root-user-action=ignore \
		"pythondata-cpu-vexriscv==1.0.1.post407" 2>/dev/null \
	|| python3 -m pip install -q --break-system-packages "pythondata-cpu-vexriscv==1.0.1.post407"
fi
python3 -c "import pythondata_cpu_vexriscv as p, os; assert os.path.isfile(os.path.join(p.data_location, 'VexRiscv_IMAC.v')); print('pythondata-cpu-vexriscv', p.data_git_describe)"
