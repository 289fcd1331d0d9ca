#!/bin/sh
# Install what the SoC (soc) and its firmware (soc/fw/) need: the Ibex core
# (PyPI package pythondata-cpu-ibex), Debian's bare-metal RISC-V compiler
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
if ! python3 -c "import pythondata_cpu_ibex" >/dev/null 2>&1; then
	python3 -m pip install -q --disable-pip-version-check --root-user-action=ignore \
		"pythondata-cpu-ibex==0.0.post2937" 2>/dev/null \
	|| python3 -m pip install -q --break-system-packages "pythondata-cpu-ibex==0.0.post2937"
fi
python3 -c "import pythondata_cpu_ibex as p; print('pythondata-cpu-ibex', p.data_git_describe)"
