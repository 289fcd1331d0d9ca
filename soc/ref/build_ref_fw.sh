#!/usr/bin/env bash
# build_ref_fw.sh -- fetch the Falcon round-3 reference implementation
# (Falcon-impl-20211101 from falcon-sign.info) and build it, with its
# integer-emulated floating point, into a firmware for the falcon-accel SoC
# (soc): BUILD/ref_fw.elf, request loop soc/ref/ref_main.c.
# The reference code is fetched at build time and never stored in this
# repository.
#
# Source: the GitHub repository algorand/falcon at commit REF_COMMIT,
# "Import Falcon version 20211101 / From Falcon-impl-20211101.zip with
# sha256sum d9f982bd...", i.e. the release files unmodified (algorand's
# own changes came in later commits). Every file used is checked against
# the SHA-256 below before it is compiled.
#
# Usage: soc/ref/build_ref_fw.sh [build-dir]   (default build/ref-soc)
# Env:   FALCON_REF_GIT  a local git repository (or bare mirror) holding
#                        REF_COMMIT; else it is cloned from REF_URL
#        REF_OPT         optimisation flags (default: those of our core
#                        library in the firmware, CMake Release: -O3)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=$(mkdir -p "${1:-$ROOT/build/ref-soc}" && cd "${1:-$ROOT/build/ref-soc}" && pwd)
REF_URL=https://github.com/algorand/falcon
REF_COMMIT=41bd59b0b9ca1779b39da487091790cb32d96251
PREFIX=${PREFIX:-riscv64-unknown-elf-}
CC=${PREFIX}gcc

# SHA-256 of the reference files compiled here (at REF_COMMIT).
SUMS='01c33a46d0b53bbc532a052ca243e9d995cae88a358b9c9b88917f2a863c8f2c  codec.c
5e0bd5caa0e4029c3d154ac816e03a12ad61910baa4ddc999d6f9f63507f17fa  common.c
71963824bb7ffe12dd24c2477f3a7b5bd6bb7c54637a975ab31eab7da082a0fd  falcon.c
e61a5af0b998f9701e5de783899eb2dffb0169fc78ce38574f1a9975bf15ad0a  fft.c
6b9cd10b6a849ecc4cfc1f2f159d147fc94df4545f571618f7ef8e78a2d26c48  fpr.c
1a172953aef52c8dbdc24d1cf96b5f39a4771d10fe38e4aaa04d2721fa2172c9  keygen.c
7968e4049a747cea06f3fca468894a6d3066681c347ee2b2921c211576e76c08  rng.c
3c7201d3ec42d37a2c5c3ef12994b8f88067d1038ee2a99fc40e616c58e1c6ad  shake.c
79ed0e185b757459ffc8292aed1e79d71efd6a082600d8ba0984850eb039ed9a  sign.c
a7232f888c87f21a26ea612abc7c86a09236d28f148c9e8caa6c5f9a5744a77a  vrfy.c
2d0a02fe1727b4cf36347b85cd06554c8418fa287ca6568a325cc5a173958c72  config.h
dad8ed7c0dd2a69128d3f70df6fdd1775e89199de3f1f5dc972fbab5954d35f1  falcon.h
f1d04e17b8c99ae6c649406d0379721b24db428d047c9bea3b26686806deca72  fpr.h
ca4787ce08073ba3724515e0b856960c9abde5aec76fee0de1b862aa474e71c9  inner.h'
REF_SRCS="codec.c common.c falcon.c fft.c fpr.c keygen.c rng.c shake.c sign.c vrfy.c"

# 1. the reference sources at REF_COMMIT
GIT=${FALCON_REF_GIT:-}
if [ -z "$GIT" ]; then
	GIT=$BUILD/falcon.git
	if ! git --git-dir="$GIT" cat-file -e "$REF_COMMIT^{commit}" 2>/dev/null; then
		rm -rf "$GIT"
		git clone --bare --quiet "$REF_URL" "$GIT" || {
			echo "build_ref_fw: cannot clone $REF_URL (no network? set FALCON_REF_GIT to a local copy)" >&2
			exit 2; }
	fi
fi
if [ -d "$GIT/.git" ]; then GIT=$GIT/.git; fi
git --git-dir="$GIT" cat-file -e "$REF_COMMIT^{commit}" 2>/dev/null || {
	echo "build_ref_fw: $GIT does not hold commit $REF_COMMIT" >&2; exit 2; }
SRC=$BUILD/src
rm -rf "$SRC"
mkdir -p "$SRC"
git --git-dir="$GIT" archive "$REF_COMMIT" | tar -x -C "$SRC"
(cd "$SRC" && printf '%s\n' "$SUMS" | sha256sum --check --quiet) || {
	echo "build_ref_fw: reference sources differ from the pinned SHA-256 (file named above)" >&2
	exit 1; }

# 2. compile: the same core and flags as the firmware's core library
# (cmake/rv32imc.cmake + CMakeLists.txt, Release), the reference's own
# configuration macros for integer-emulated FP and no OS randomness.
ARCH="-march=rv32imc -mabi=ilp32"
OPT=${REF_OPT:--O3 -DNDEBUG -fPIC}
LIBFLAGS="$ARCH -ffreestanding -fno-common $OPT -ffp-contract=off -fno-math-errno -std=gnu11 \
 -ffunction-sections -fdata-sections --specs=picolibc.specs \
 -DFALCON_FPEMU=1 -DFALCON_FPNATIVE=0 -DFALCON_ASM_CORTEXM4=0 -DFALCON_AVX2=0 -DFALCON_FMA=0 \
 -DFALCON_RAND_GETENTROPY=0 -DFALCON_RAND_URANDOM=0 -DFALCON_RAND_WIN32=0"
# the request loop and start-up code: as soc/fw/Makefile builds soc/fw/*.c
FWFLAGS="-march=rv32imc_zicsr -mabi=ilp32 -O2 -std=c11 -Wall -Wextra -ffreestanding -fno-common \
 -ffunction-sections -fdata-sections --specs=picolibc.specs -I$ROOT/soc/fw -I$SRC"
OBJ=$BUILD/obj
mkdir -p "$OBJ"
for f in $REF_SRCS; do
	nice "$CC" $LIBFLAGS -w -c "$SRC/$f" -o "$OBJ/${f%.c}.o"
done
nice "$CC" $FWFLAGS -c "$ROOT/soc/ref/ref_main.c" -o "$OBJ/ref_main.o"
nice "$CC" $FWFLAGS -c "$ROOT/soc/fw/fw_console.c" -o "$OBJ/fw_console.o"
nice "$CC" $FWFLAGS -c "$ROOT/soc/fw/fw_link.c" -o "$OBJ/fw_link.o"
# the firmware's memcpy/memset (soc/fw/fw_string.c), as in our images
nice "$CC" $FWFLAGS -fno-builtin -fno-tree-loop-distribute-patterns -c "$ROOT/soc/fw/fw_string.c" -o "$OBJ/fw_string.o"
"$CC" -march=rv32imc_zicsr -mabi=ilp32 -c "$ROOT/soc/fw/crt0.S" -o "$OBJ/crt0.o"
"$CC" $ARCH --specs=picolibc.specs -nostartfiles -T "$ROOT/soc/fw/link.ld" -Wl,--gc-sections \
	-Wl,-Map="$BUILD/ref_fw.map" "$OBJ/crt0.o" "$OBJ/ref_main.o" "$OBJ/fw_link.o" "$OBJ/fw_console.o" "$OBJ/fw_string.o" \
	$(for f in $REF_SRCS; do echo "$OBJ/${f%.c}.o"; done) -o "$BUILD/ref_fw.elf" 2>&1 \
	| grep -v "LOAD segment with RWX" >&2 || true
test -f "$BUILD/ref_fw.elf"
# what the reference needs from the C library: string functions only
UNDEF=$(${PREFIX}nm -u $(for f in $REF_SRCS; do echo "$OBJ/${f%.c}.o"; done) | awk '{print $2}' | sort -u \
	| grep -v -E '^(memcpy|memmove|memset|memcmp|falcon_.*|shake256_.*|falcon_inner_.*)$' || true)
if [ -n "$UNDEF" ]; then
	for s in $UNDEF; do
		${PREFIX}nm "$OBJ"/*.o 2>/dev/null | grep -q " T $s\$" || {
			echo "build_ref_fw: the reference needs $s from outside (not freestanding?)" >&2; exit 1; }
	done
fi
${PREFIX}size "$BUILD/ref_fw.elf"
{
	echo "ref_commit=$REF_COMMIT"
	echo "ref_url=$REF_URL"
	echo "cflags=$LIBFLAGS"
	echo "cc=$($CC --version | head -1)"
} >"$BUILD/ref_fw.info"
echo "build_ref_fw: $BUILD/ref_fw.elf"
