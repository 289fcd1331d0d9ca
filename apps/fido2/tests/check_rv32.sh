#!/bin/sh
# The FIDO2 core is freestanding: compiles apps/fido2/core/*.c for rv32imc/ilp32
# with -ffreestanding and checks that the objects need nothing but the
# Falcon library (fa_*), each other (fido2_*), memcpy/memset (which the
# firmware provides) and libgcc's integer helpers (__lshrdi3...; no
# floating-point helper). Exit 77 when the cross compiler is missing.
# Usage: check_rv32.sh REPO_ROOT OUT_DIR
set -eu
root=$1 out=$2
cc=${FA_RV32_PREFIX:-riscv64-unknown-elf-}gcc
nm=${FA_RV32_PREFIX:-riscv64-unknown-elf-}nm
command -v "$cc" >/dev/null 2>&1 || { echo "check_rv32: $cc not found"; exit 77; }
mkdir -p "$out"
for f in "$root"/apps/fido2/core/*.c; do
  "$cc" -march=rv32imc -mabi=ilp32 -Os -std=c11 -ffreestanding -Wall -Wextra -Werror \
    -DFA_FREESTANDING=1 -DFA_FPEMU=1 -I"$root/include" -I"$root/apps/fido2/core" \
    -c "$f" -o "$out/$(basename "$f" .c).o"
done
bad=$("$nm" -u "$out"/*.o | awk 'NF == 2 { print $2 }' | sort -u \
  | grep -v -e '^fa_' -e '^fido2_' -e '^memcpy$' -e '^memset$' \
      -e '^__[a-z]*[sd]i[23]$' || true)
if [ -n "$bad" ]; then
  echo "check_rv32: the FIDO2 core needs symbols from outside: $bad"
  exit 1
fi
echo "check_rv32: apps/fido2/core compiles freestanding for rv32imc; external symbols: fa_*, fido2_*, memcpy/memset, libgcc integer helpers"
