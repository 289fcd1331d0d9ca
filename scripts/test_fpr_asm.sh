#!/usr/bin/env bash
# test_fpr_asm.sh -- src/fpr_emu_rv32.S (fpr add / add_sub / mul / div /
# sqrt in RV32IMC assembly) against the C emulation of src/fpr_emu.c, both built for
# rv32imc/ilp32 and run under qemu-riscv32 (Linux user mode):
#
#  1. builds tests/fpr_asm/fpr_asm_diff.c + src/fpr_emu.c + the assembly
#     (no C library) and runs it: every result bit-identical on the edge
#     table and N random pairs per generator (10 generators, 6 results each);
#  2. builds it again with -DFA_FPR_ASM_MUTANT (ties round up instead of to
#     even) and requires that run to FAIL: the test can fail;
#  3. checks that the assembled functions are straight-line (no branch,
#     no jump but ret: constant time) and prints their instruction counts
#     beside the C functions' (rv32imc -O3; add, add_sub, mul are
#     branch-free in both, so the static count is the executed count; C's
#     div runs a 56-step loop: its static count is not what it executes).
#
#  4. FULL=1 only: tests/fpr_asm/div_recip_bound.c on the host, the error
#     bounds of the division's reciprocal and of the square root's
#     reciprocal square root, for every 31-bit input (~1 min).
#
# Usage: scripts/test_fpr_asm.sh [N]      (default 1000000; build/fpr-asm)
# Env:   FA_RV32_PREFIX (riscv64-unknown-elf-), QEMU (qemu-riscv32),
#        BUILD (build dir). Needs gcc-riscv64-unknown-elf and qemu-user
#        (scripts/setup.sh). Without them: exit 77 (skip), or 1 under CI=true.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
N=${1:-1000000}
BUILD=${BUILD:-$ROOT/build/fpr-asm}
PREFIX=${FA_RV32_PREFIX:-riscv64-unknown-elf-}
QEMU=${QEMU:-qemu-riscv32}
CC=${PREFIX}gcc
OBJDUMP=${PREFIX}objdump

for tool in "$CC" "$OBJDUMP" "$QEMU"; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		echo "test_fpr_asm: $tool not found (Debian: gcc-riscv64-unknown-elf, qemu-user)" >&2
		if [ "${CI:-}" = true ]; then
			echo "test_fpr_asm: FAIL (cannot run under CI=true)"
			exit 1
		fi
		echo "test_fpr_asm: SKIP"
		exit 77
	fi
done
mkdir -p "$BUILD" || exit 1

ARCH=(-march=rv32imc -mabi=ilp32)
CFLAGS=("${ARCH[@]}" -O2 -ffreestanding -fno-builtin -nostdlib -nostartfiles -static
	-Wall -Wextra -Werror -isystem "$ROOT/cmake/rv32imc-include" -I"$ROOT/include"
	-I"$ROOT/src" -I"$ROOT/tests/common" -DFA_FPEMU=1)
SRCS=("$ROOT/tests/fpr_asm/fpr_asm_diff.c" "$ROOT/src/fpr_emu.c" "$ROOT/src/fpr_emu_rv32.S")
status=0

echo "== build (rv32imc/ilp32, C reference + assembly)"
"$CC" "${CFLAGS[@]}" "${SRCS[@]}" -lgcc -o "$BUILD/fpr_asm_diff.elf" || exit 1
"$CC" "${CFLAGS[@]}" -DFA_FPR_ASM_MUTANT "${SRCS[@]}" -lgcc \
	-o "$BUILD/fpr_asm_diff_mutant.elf" || exit 1

echo "== assembly vs C, $N random pairs per generator (qemu-riscv32)"
if ! "$QEMU" "$BUILD/fpr_asm_diff.elf" "$N"; then
	echo "FAIL: the assembly differs from the C emulation"
	status=1
fi

echo "== mutant (ties rounded up): must be caught"
if "$QEMU" "$BUILD/fpr_asm_diff_mutant.elf" 20000 >"$BUILD/mutant.log" 2>&1; then
	echo "FAIL: the mutant passed (the test cannot see a rounding error)"
	status=1
else
	tail -1 "$BUILD/mutant.log"
	echo "ok, mutant caught"
fi

echo "== constant time: straight-line code"
"$CC" "${ARCH[@]}" -c "$ROOT/src/fpr_emu_rv32.S" -o "$BUILD/fpr_emu_rv32.o" || exit 1
"$CC" "${ARCH[@]}" -O3 -ffreestanding -isystem "$ROOT/cmake/rv32imc-include" \
	-I"$ROOT/include" -I"$ROOT/src" -DFA_FPEMU=1 -c "$ROOT/src/fpr_emu.c" \
	-o "$BUILD/fpr_emu_c.o" || exit 1
dis() { "$OBJDUMP" -d --no-show-raw-insn "$1"; }
br=$(dis "$BUILD/fpr_emu_rv32.o" | awk '
	/^[0-9a-f]+ <[^>]*>:$/ { fn = $2 }
	$2 ~ /^(c\.)?(beq|bne|blt|bge|bltu|bgeu|beqz|bnez|blez|bgez|bltz|bgtz|bgt|ble|bgtu|bleu|j|jal|jr|jalr)$/ \
		&& $0 !~ /ret/ { print "  " fn " " $0 }')
if [ -n "$br" ]; then
	printf 'FAIL, branch or jump in the assembly:\n%s\n' "$br"
	status=1
else
	echo "ok, no branch, no jump but ret"
fi

# instructions per function (nop padding excluded)
count() {
	dis "$1" | awk -v f="<$2>:" '
		/^[0-9a-f]+ <[^>]*>:$/ { if ($2 !~ /^<\.L/) on = ($2 == f); next }
		on && NF >= 2 && $1 ~ /:$/ && $2 !~ /nop/ { n++ }
		END { print n + 0 }'
}
echo "== rv32imc instructions per call (static = executed; C at -O3)"
printf '  %-10s %8s %8s\n' op C asm
for op in add add_sub mul div sqrt; do
	printf '  %-10s %8s %8s\n' "$op" "$(count "$BUILD/fpr_emu_c.o" "fa_fpr_$op")" \
		"$(count "$BUILD/fpr_emu_rv32.o" "fa_fpr_${op}_rv32")"
done
echo "  (C div, sqrt: static counts; their loops run 24 + 32 and 55 times, see bench/FPEMU.md)"

# FULL=1: the division's reciprocal bound for every divisor (2^30 cases)
if [ "${FULL:-0}" = 1 ]; then
	echo "== div, sqrt: reciprocal (square root) bounds for every input (host)"
	if ${HOSTCC:-cc} -O2 -o "$BUILD/div_recip_bound" "$ROOT/tests/fpr_asm/div_recip_bound.c" -lm \
		&& "$BUILD/div_recip_bound"; then
		:
	else
		status=1
	fi
fi

if [ $status -eq 0 ]; then
	echo "test_fpr_asm: OK"
else
	echo "test_fpr_asm: FAILED"
fi
exit $status
