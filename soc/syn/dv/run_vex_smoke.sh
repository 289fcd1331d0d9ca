#!/bin/sh
# Runs vex_smoke.S on the synthesis SoC's core path (soc_top with the
# VexRiscv stand-in of soc/syn, Verilated, no accelerator): shows that
# the core the synthesis reports count boots, runs RV32IMC code out of the
# RAM through its caches and the Wishbone adapters, and reaches the
# peripherals at soc_map + 0x80000000. A few minutes (mostly Verilator).
#   usage: soc/syn/dv/run_vex_smoke.sh [OUT]   (default build/socsyn-vexsim)
set -e
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
HW=$ROOT/hw
OUT=${1:-$ROOT/build/socsyn-vexsim}
mkdir -p "$OUT"; OUT=$(cd "$OUT" && pwd)
SOCSYN_TARGET=xc7
SOCSYN_GEN=$OUT/gen
. "$ROOT/soc/syn/sources.sh"
# soc_top and below: the syn list without the FPGA top and its clock gate
SRCS=$(for f in $SOCSYN_SV; do case $f in *soc_syn_top.sv|*soc_syn_clk_gate_*) ;; *) echo "$f";; esac; done)
D=$ROOT/soc/syn/dv
riscv64-unknown-elf-gcc -march=rv32imc_zicsr -mabi=ilp32 -nostdlib -nostartfiles \
	-T "$D/vex_smoke.ld" -o "$OUT/vex_smoke.elf" "$D/vex_smoke.S"
riscv64-unknown-elf-objcopy -O binary "$OUT/vex_smoke.elf" "$OUT/vex_smoke.bin"
nice verilator --cc --exe --build -j 2 -O2 -Wno-fatal -Wno-lint -Wno-style -Wno-MULTIDRIVEN \
	-Wno-UNOPTFLAT --top-module soc_top -Mdir "$OUT/obj" -o vex_smoke_tb \
	-CFLAGS "-I$ROOT/soc/fw -I$ROOT/soc/sim" \
	$SRCS "$SOCSYN_VEX" "$D/vex_smoke_tb.cpp" > "$OUT/verilator.log" 2>&1 \
	|| { tail -n 20 "$OUT/verilator.log" >&2; exit 1; }
"$OUT/obj/vex_smoke_tb" "$OUT/vex_smoke.bin"
