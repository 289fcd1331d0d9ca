#!/usr/bin/env bash
# FN-DSA on rv32imc/ilp32 under qemu-riscv32 (tests/fndsa/rv32_check.c):
# the freestanding library of scripts/build_rv32.sh (its build directory,
# built or brought up to date here) reproduces fn-dsa 0.4.0's records byte for byte.
# Usage: tests/fndsa/rv32_check.sh [RV32_BUILD_DIR]   (default build-rv32)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
LIBDIR=${1:-$ROOT/build-rv32}
OUT=$ROOT/build/fndsa-rv32
PREFIX=${FA_RV32_PREFIX:-riscv64-unknown-elf-}
QEMU=${QEMU:-qemu-riscv32}
for tool in "${PREFIX}gcc" "$QEMU"; do
	command -v "$tool" >/dev/null 2>&1 || {
		echo "rv32_check: $tool not found (Debian: gcc-riscv64-unknown-elf, qemu-user)"
		[ "${CI:-}" = true ] && { echo "rv32 fndsa: 0 passed, 1 failed"; exit 1; }
		exit 77; }
done
# (brought up to date: a no-op right after the CI's rv32 step)
if [ -f "$LIBDIR/CMakeCache.txt" ]; then
	cmake --build "$LIBDIR" --target falcon_accel -j2 >"$LIBDIR/fndsa-rv32-build.log" 2>&1 \
		|| { tail -n 20 "$LIBDIR/fndsa-rv32-build.log"; exit 1; }
else
	"$ROOT/scripts/build_rv32.sh" "$LIBDIR" >/dev/null
fi
mkdir -p "$OUT"
python3 "$ROOT/tests/fndsa/rv32_vectors.py" "$ROOT/tests/fndsa/vectors.txt" > "$OUT/rv32_vectors.h"
"${PREFIX}gcc" -march=rv32imc -mabi=ilp32 -O2 -ffreestanding -fno-builtin -nostdlib \
	-nostartfiles -static -Wall -Wextra -Werror -isystem "$ROOT/cmake/rv32imc-include" \
	-I"$ROOT/include" -I"$ROOT/tests/common" -I"$OUT" -DFA_FPEMU=1 -DFA_FREESTANDING=1 \
	"$ROOT/tests/fndsa/rv32_check.c" "$LIBDIR/libfalcon_accel.a" -lgcc \
	-o "$OUT/rv32_check.elf"
exec "$QEMU" "$OUT/rv32_check.elf"
