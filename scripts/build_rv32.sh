#!/usr/bin/env bash
# build_rv32.sh -- build the core library for rv32imc (no FPU, freestanding)
# with cmake/rv32imc.cmake, then check what it needs from outside:
#
#   allowed:   memcpy, memset, memmove, memcmp (the firmware provides them)
#              libgcc integer helpers (__mulsi3, __udivdi3, __ashldi3, ...)
#   forbidden: floating-point helpers (__adddf3, __muldf3, __floatsidf, ...),
#              anything else from libc or an OS (malloc, printf, getrandom...)
#   reported:  fa_* symbols referenced but defined by no source (library not
#              finished), sources that do not compile freestanding.
#
# Also checks that src/fpr_emu.c compiled to code whose only conditional
# branches are loop back-edges (fixed trip counts): no forward branch on data.
#
# Usage: scripts/build_rv32.sh [build-dir]     (default: build-rv32)
# Env:   FA_RV32_PREFIX (default riscv64-unknown-elf-), BUILD_TYPE (Release)
# Exit:  0 all checks pass, 1 a check failed, 2 tools/configure problem.
set -u

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${1:-$ROOT/build-rv32}
PREFIX=${FA_RV32_PREFIX:-riscv64-unknown-elf-}
NM=${PREFIX}nm
OBJDUMP=${PREFIX}objdump
SIZE=${PREFIX}size

for tool in "${PREFIX}gcc" "$NM" "$OBJDUMP"; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		echo "build_rv32: $tool not found" \
			"(Debian: apt-get install -y gcc-riscv64-unknown-elf)" >&2
		exit 2
	fi
done

# Keep-going flag for the generator in use (an existing build dir keeps
# its generator; a new one uses Unix Makefiles).
mkdir -p "$BUILD" || exit 2
GEN_ARGS=()
if [ ! -f "$BUILD/CMakeCache.txt" ]; then
	GEN_ARGS=(-G "Unix Makefiles")
fi
cmake -S "$ROOT" -B "$BUILD" "${GEN_ARGS[@]}" \
	-DCMAKE_TOOLCHAIN_FILE="$ROOT/cmake/rv32imc.cmake" \
	-DCMAKE_BUILD_TYPE="${BUILD_TYPE:-Release}" \
	-DFA_FPEMU=ON -DFA_FREESTANDING=ON -DFA_BUILD_TESTS=OFF >"$BUILD/rv32-configure.log" 2>&1
if [ $? -ne 0 ]; then
	cat "$BUILD/rv32-configure.log" >&2
	echo "build_rv32: configure failed" >&2
	exit 2
fi
if grep -q '^CMAKE_GENERATOR:INTERNAL=Ninja' "$BUILD/CMakeCache.txt"; then
	KEEP_GOING=(-k 0)
else
	KEEP_GOING=(-k)
fi

status=0

# Clean first so that an object left from an earlier run cannot hide a
# source that no longer compiles.
echo "== building libfalcon_accel.a for rv32imc/ilp32 (FA_FPEMU, freestanding)"
if ! cmake --build "$BUILD" --target falcon_accel --clean-first -j2 -- \
	"${KEEP_GOING[@]}" >"$BUILD/rv32-build.log" 2>&1; then
	status=1
fi
grep -E 'error|warning' "$BUILD/rv32-build.log" | head -40

OBJDIR="$BUILD/CMakeFiles/falcon_accel.dir/src"
failed_src=()
objs=()
# src/*.c and the ML-KEM part src/mlkem/*.c (both in the core library)
for src in "$ROOT"/src/*.c "$ROOT"/src/mlkem/*.c; do
	base=${src#"$ROOT"/src/}
	obj=""
	for ext in obj o; do
		if [ -f "$OBJDIR/$base.$ext" ]; then
			obj="$OBJDIR/$base.$ext"
		fi
	done
	if [ -z "$obj" ]; then
		failed_src+=("src/$base")
	else
		objs+=("$obj")
	fi
done
# assembly sources of the library (src/fpr_emu_rv32.S when FA_FPR_ASM is on)
asm_objs=()
for obj in "$OBJDIR"/*.S.o "$OBJDIR"/*.S.obj; do
	[ -f "$obj" ] && asm_objs+=("$obj")
done
objs+=("${asm_objs[@]}")
if grep -q '^FA_FPR_ASM:BOOL=ON' "$BUILD/CMakeCache.txt" \
	&& [ ! -f "$OBJDIR/fpr_emu_rv32.S.o" ] && [ ! -f "$OBJDIR/fpr_emu_rv32.S.obj" ]; then
	failed_src+=("src/fpr_emu_rv32.S")
fi
if [ ${#failed_src[@]} -ne 0 ]; then
	echo "FAIL: sources that do not compile freestanding for rv32imc:"
	printf '  %s\n' "${failed_src[@]}"
	echo "  (compiler output: $BUILD/rv32-build.log)"
	status=1
fi
if [ ${#objs[@]} -eq 0 ]; then
	echo "build_rv32: no object built" >&2
	exit 1
fi

# Undefined symbols of the library as a whole: referenced by some object,
# defined (globally, or weak) by none. "obj: sym U" lines from nm -P -A.
export LC_ALL=C
defined=$("$NM" -P -A -g --defined-only "${objs[@]}" 2>/dev/null \
	| awk '{print $2}' | sort -u)
undef_refs=$("$NM" -P -A -u "${objs[@]}" 2>/dev/null \
	| awk '{f = $1; sub(/:$/, "", f); n = split(f, p, "/"); print $2, p[n]}' \
	| sort -u)
unresolved=$(join -v 1 <(echo "$undef_refs" | sort -k1,1) <(echo "$defined") \
	| sort -u)

LIBC_OK='^(memcpy|memset|memmove|memcmp)$'
# libgcc integer helpers: names ending in si/di + arity digit, e.g.
# __mulsi3 __udivdi3 __umoddi3 __udivmoddi4 __ashldi3 __clzsi2 __bswapdi2.
LIBGCC_INT='^__(mul|div|udiv|mod|umod|udivmod|divmod|ashl|ashr|lshr|neg|cmp|ucmp|clz|ctz|ffs|popcount|parity|bswap)(si|di)[0-9]$'
# Floating-point helpers (soft-float): __adddf3, __floatsidf, __fixdfdi,
# __ltdf2, __unorddf2, __extendsfdf2, ...
FP_HELPER='^__.*(sf|df|tf|xf|hf)[0-9]?$|^__(float|fix|extend|trunc|unord)'

bad_fp=""; bad_other=""; internal=""; libgcc_used=""; libc_used=""
while read -r sym obj; do
	[ -z "$sym" ] && continue
	if [[ $sym =~ $LIBC_OK ]]; then
		libc_used+="  $sym ($obj)"$'\n'
	elif [[ $sym =~ $LIBGCC_INT ]]; then
		libgcc_used+="  $sym ($obj)"$'\n'
	elif [[ $sym =~ $FP_HELPER ]]; then
		bad_fp+="  $sym ($obj)"$'\n'
	elif [[ $sym =~ ^fa_ ]]; then
		internal+="  $sym ($obj)"$'\n'
	else
		bad_other+="  $sym ($obj)"$'\n'
	fi
done <<<"$unresolved"

echo "== undefined symbols of the library (symbol (object))"
[ -n "$libc_used" ] && printf 'ok, libc memory functions:\n%s' "$libc_used"
[ -n "$libgcc_used" ] && printf 'ok, libgcc integer helpers:\n%s' "$libgcc_used"
if printf '%s' "$libgcc_used" | grep -qE '__(u?div|u?mod|udivmod|divmod)[sd]i'; then
	echo "note: libgcc division helpers are variable-time: check they never see secret data"
fi
if [ -n "$bad_fp" ]; then
	printf 'FAIL, floating-point helpers (FPU-free build must not need them):\n%s' "$bad_fp"
	status=1
fi
if [ -n "$bad_other" ]; then
	printf 'FAIL, not allowed in the freestanding core (libc/OS/other):\n%s' "$bad_other"
	status=1
fi
if [ -n "$internal" ]; then
	printf 'FAIL, fa_* symbols referenced but defined by no source (library unfinished?):\n%s' "$internal"
	status=1
fi

# fpr_emu.c: conditional branches must all be loop back-edges.
emu=""
for o in "${objs[@]}"; do
	case "$o" in */fpr_emu.c.*) emu=$o ;; esac
done
if [ -n "$emu" ]; then
	fwd=$("$OBJDUMP" -d --no-show-raw-insn "$emu" | awk '
		function hex(s,   i, v) {
			v = 0
			for (i = 1; i <= length(s); i ++)
				v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
			return v
		}
		/^[0-9a-f]+ <[^>]*>:$/ { fn = $2 }
		$2 ~ /^(c\.)?(beq|bne|blt|bge|bltu|bgeu|beqz|bnez|blez|bgez|bltz|bgtz|bgt|ble|bgtu|bleu)$/ {
			at = hex(substr($1, 1, length($1) - 1))
			n = split($3, ops, ",")
			to = hex(ops[n])
			if (to > at) print "  " fn " " $0
		}')
	if [ -n "$fwd" ]; then
		printf 'FAIL, forward conditional branches in fpr_emu (not constant-time):\n%s\n' "$fwd"
		status=1
	else
		echo "ok, fpr_emu: only loop back-edge branches"
	fi
else
	echo "FAIL: fpr_emu object not built"
	status=1
fi

# assembly (src/fpr_emu_rv32.S): straight-line, constant-time code: no
# conditional branch at all, no jump but the returns.
for o in "${asm_objs[@]}"; do
	br=$("$OBJDUMP" -d --no-show-raw-insn "$o" | awk '
		/^[0-9a-f]+ <[^>]*>:$/ { fn = $2 }
		$2 ~ /^(c\.)?(beq|bne|blt|bge|bltu|bgeu|beqz|bnez|blez|bgez|bltz|bgtz|bgt|ble|bgtu|bleu|j|jal|jr|jalr)$/ \
			&& $0 !~ /ret/ { print "  " fn " " $0 }')
	if [ -n "$br" ]; then
		printf 'FAIL, branches in %s (must be straight-line):\n%s\n' "${o##*/}" "$br"
		status=1
	else
		echo "ok, ${o##*/}: no branch (straight-line)"
	fi
done

if command -v "$SIZE" >/dev/null 2>&1; then
	echo "== code size (rv32imc, ${BUILD_TYPE:-Release})"
	"$SIZE" -t "${objs[@]}" | awk 'NR == 1 || /TOTALS/ { print "  " $0 }'
fi
if [ -f "$BUILD/libfalcon_accel.a" ] && [ $status -eq 0 ]; then
	echo "build_rv32: OK ($BUILD/libfalcon_accel.a)"
else
	echo "build_rv32: FAILED"
fi
exit $status
