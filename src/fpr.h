/*
 * fpr.h -- IEEE-754 binary64 arithmetic for the Falcon core, in two builds
 * chosen at compile time, bit-identical on every value Falcon produces:
 *
 *  - FA_FPEMU == 0 (native): `fpr` is a C double. The build must not
 *    contract a*b+c into FMA (-ffp-contract=off) and must use SSE2-style
 *    binary64 evaluation (FLT_EVAL_METHOD == 0).
 *  - FA_FPEMU == 1 (emulated): `fpr` is the uint64_t bit pattern, every
 *    operation is done with integer instructions in constant time
 *    (src/fpr_emu.c). This is what a core without an FPU runs.
 *
 * Operations round to nearest, ties to even. Value ranges: Falcon never
 * produces infinities, NaNs or subnormals; the emulated build flushes
 * subnormal results and inputs to zero of the same sign (documented in
 * fpr_emu.c), which the native build would not do.
 */
#ifndef FA_FPR_H
#define FA_FPR_H

#include <stdint.h>
#include <string.h>

#ifndef FA_FPEMU
#define FA_FPEMU 0
#endif

/*
 * Integer-only binary64 operations on bit patterns (src/fpr_emu.c),
 * constant-time. Compiled in every build: the emulated `fpr` is built on
 * them, and the tests compare them with the FPU. Semantics: IEEE-754
 * round-to-nearest-even, bit-identical to the FPU on zero and normal
 * inputs with zero or normal results; subnormals flushed to signed zero
 * (details at the top of fpr_emu.c).
 */
uint64_t fa_fpr_scaled(int64_t i, int sc);       /* i * 2^sc, |sc| < 2^28 */
uint64_t fa_fpr_of32(int32_t v);                 /* exact */
uint64_t fa_fpr_add(uint64_t x, uint64_t y);
/* *sum = x + y, *dif = x - y (both as fa_fpr_add; shared alignment);
   sum and dif must be distinct (the rv32 assembly may store dif first) */
void fa_fpr_add_sub(uint64_t x, uint64_t y, uint64_t *sum, uint64_t *dif);
uint64_t fa_fpr_mul(uint64_t x, uint64_t y);
uint64_t fa_fpr_div(uint64_t x, uint64_t y);
uint64_t fa_fpr_sqrt(uint64_t x);
int64_t fa_fpr_rint(uint64_t x);                 /* ties to even, |x| < 2^63 */
int32_t fa_fpr_rint32(uint64_t x);               /* ties to even, |x| < 2^31 */
int64_t fa_fpr_floor(uint64_t x);                /* |x| < 2^63 */
int64_t fa_fpr_trunc(uint64_t x);                /* |x| < 2^63 */
/* trunc(x * 2^k), 0 <= k < 2^20, |x| * 2^k < 2^63 */
int64_t fa_fpr_trunc_scaled(uint64_t x, int k);
int fa_fpr_lt(uint64_t x, uint64_t y);

#if FA_FPEMU

/*
 * rv32 builds (CMake option FA_FPR_ASM, on in cmake/rv32imc.cmake): add,
 * add_sub, mul, div and sqrt run the RV32IMC assembly of src/fpr_emu_rv32.S, whose
 * results are bit-identical to the C functions above for every input
 * (scripts/test_fpr_asm.sh); elsewhere the C functions.
 */
#if defined(FA_FPR_ASM) && FA_FPR_ASM
uint64_t fa_fpr_add_rv32(uint64_t x, uint64_t y);
void fa_fpr_add_sub_rv32(uint64_t x, uint64_t y, uint64_t *sum, uint64_t *dif);
uint64_t fa_fpr_mul_rv32(uint64_t x, uint64_t y);
uint64_t fa_fpr_div_rv32(uint64_t x, uint64_t y);
uint64_t fa_fpr_sqrt_rv32(uint64_t x);
#define FA_FPR_ADD_FN fa_fpr_add_rv32
#define FA_FPR_ADD_SUB_FN fa_fpr_add_sub_rv32
#define FA_FPR_MUL_FN fa_fpr_mul_rv32
#define FA_FPR_DIV_FN fa_fpr_div_rv32
#define FA_FPR_SQRT_FN fa_fpr_sqrt_rv32
#else
#define FA_FPR_ADD_FN fa_fpr_add
#define FA_FPR_ADD_SUB_FN fa_fpr_add_sub
#define FA_FPR_MUL_FN fa_fpr_mul
#define FA_FPR_DIV_FN fa_fpr_div
#define FA_FPR_SQRT_FN fa_fpr_sqrt
#endif

typedef uint64_t fpr;

#define FA_FPR_SIGN_BIT ((uint64_t)1 << 63)

static inline fpr fpr_from_bits(uint64_t b) { return b; }
static inline uint64_t fpr_bits(fpr x) { return x; }

/* x * 2^sc, from a signed integer (exact when |i| < 2^53). */
static inline fpr fpr_scaled(int64_t i, int sc) { return fa_fpr_scaled(i, sc); }
static inline fpr fpr_of(int64_t i) { return fa_fpr_scaled(i, 0); }
/* From a 32-bit integer (exact; cheaper than fpr_of on 32-bit cores). */
static inline fpr fpr_of32(int32_t i) { return fa_fpr_of32(i); }
/*
 * From v in [0, 2^16) (exact): the hashed message's coefficients (< q)
 * on 32-bit words, inline. Leading zeros of v within 16 bits by four
 * halving steps (t = 1 when the top half of the window is zero, computed
 * from the borrow), then exponent 1023 + 15 - shift and the 15 bits below
 * the leading one as the top of the fraction; v = 0 gives +0. No branch
 * or index on v.
 */
static inline fpr fpr_of_u16(uint32_t v)
{
	uint32_t x = v, n = 0, t, hi;

	t = ((x >> 8) - 1) >> 31;
	x <<= t << 3;
	n += t << 3;
	t = (((x >> 12) & 0xF) - 1) >> 31;
	x <<= t << 2;
	n += t << 2;
	t = (((x >> 14) & 0x3) - 1) >> 31;
	x <<= t << 1;
	n += t << 1;
	t = (((x >> 15) & 0x1) - 1) >> 31;
	x <<= t;
	n += t;
	/* x: leading one at bit 15 (v != 0) */
	hi = ((1038u - n) << 20) | ((x & 0x7FFFu) << 5);
	hi &= 0u - ((v | (0u - v)) >> 31);
	return (uint64_t)hi << 32;
}
static inline fpr fpr_add(fpr x, fpr y) { return FA_FPR_ADD_FN(x, y); }
/* x - y = x + (-y), also for zeros (IEEE). */
static inline fpr fpr_sub(fpr x, fpr y) { return FA_FPR_ADD_FN(x, y ^ FA_FPR_SIGN_BIT); }
static inline fpr fpr_neg(fpr x) { return x ^ FA_FPR_SIGN_BIT; }
/* *s = x + y, *d = x - y, with one alignment (a butterfly). */
static inline void fpr_add_sub(fpr x, fpr y, fpr *s, fpr *d)
{
	FA_FPR_ADD_SUB_FN(x, y, s, d);
}
/*
 * x/2: exponent field minus one. A field of 0 or 1 (zero, subnormal, or
 * a result that would be subnormal) gives zero of the sign of x, as the
 * flush-to-zero rule of fpr_emu.c says. Constant-time.
 */
static inline fpr fpr_half(fpr x)
{
	uint32_t e = (uint32_t)(x >> 52) & 0x7FF;
	uint64_t keep = (uint64_t)((e - 2) >> 31) - 1;   /* all-ones iff e >= 2 */

	return ((x - ((uint64_t)1 << 52)) & keep) | (x & FA_FPR_SIGN_BIT);
}
/*
 * 2x: exponent field plus one (field 2046 becomes 2047: infinity, as IEEE
 * overflow gives). A field of 0 (zero or subnormal) gives zero of the
 * sign of x. Inputs with field 2047 (infinity, NaN) are not supported.
 * Constant-time.
 */
static inline fpr fpr_double(fpr x)
{
	uint32_t e = (uint32_t)(x >> 52) & 0x7FF;
	uint64_t keep = 0 - (uint64_t)((e | (0 - e)) >> 31);  /* all-ones iff e != 0 */
	uint64_t over = 0 - (uint64_t)((e + 2) >> 11);        /* all-ones iff e == 2046 */

	x = ((x + ((uint64_t)1 << 52)) & keep) | (x & FA_FPR_SIGN_BIT);
	/* overflow: infinity has a zero fraction */
	return x & ~(over & (((uint64_t)1 << 52) - 1));
}
static inline fpr fpr_mul(fpr x, fpr y) { return FA_FPR_MUL_FN(x, y); }
static inline fpr fpr_sqr(fpr x) { return FA_FPR_MUL_FN(x, x); }
static inline fpr fpr_div(fpr x, fpr y) { return FA_FPR_DIV_FN(x, y); }
static inline fpr fpr_inv(fpr x) { return FA_FPR_DIV_FN(0x3FF0000000000000u, x); }
static inline fpr fpr_sqrt(fpr x) { return FA_FPR_SQRT_FN(x); }
static inline int fpr_lt(fpr x, fpr y) { return fa_fpr_lt(x, y); }
/* Ties to even, |x| < 2^63. */
static inline int64_t fpr_rint(fpr x) { return fa_fpr_rint(x); }
/* (int32_t)fpr_rint(x) for |x| < 2^31, on 32-bit words */
static inline int32_t fpr_rint32(fpr x) { return fa_fpr_rint32(x); }
static inline int64_t fpr_floor(fpr x) { return fa_fpr_floor(x); }
static inline int64_t fpr_trunc(fpr x) { return fa_fpr_trunc(x); }
/* trunc(x * 2^k) for 0 <= k < 2^20, |x| * 2^k < 2^63 (x * 2^k exact). */
static inline int64_t fpr_trunc_scaled(fpr x, int k)
{
	return fa_fpr_trunc_scaled(x, k);
}

#else /* native binary64 */

typedef double fpr;

/* Bit-exactness needs every double operation rounded to binary64 (e.g.
   x86-64 SSE2); x87 extended evaluation would round twice. */
#if defined(__FLT_EVAL_METHOD__) && (__FLT_EVAL_METHOD__ == 1 || __FLT_EVAL_METHOD__ == 2)
#error "native fpr needs FLT_EVAL_METHOD == 0 (use SSE2 math, or FA_FPEMU=1)"
#endif

/* Under -ffreestanding (-fno-builtin) a plain memcpy would be a call. */
#if defined(__GNUC__)
#define FA_FPR_MEMCPY __builtin_memcpy
#else
#define FA_FPR_MEMCPY memcpy
#endif

static inline fpr fpr_from_bits(uint64_t b)
{
	fpr x;
	FA_FPR_MEMCPY(&x, &b, sizeof x);
	return x;
}
static inline uint64_t fpr_bits(fpr x)
{
	uint64_t b;
	FA_FPR_MEMCPY(&b, &x, sizeof b);
	return b;
}
static inline fpr fpr_of(int64_t i) { return (double)i; }
static inline fpr fpr_of32(int32_t i) { return (double)i; }
/* From v in [0, 2^16) (exact). */
static inline fpr fpr_of_u16(uint32_t v) { return (double)v; }
static inline fpr fpr_scaled(int64_t i, int sc)
{
	/* Multiply by 2^sc by building the power of two directly (exact for
	   -1076 <= sc <= 1023; sc is public). Below 2^-1022, multiply by
	   2^(sc + 54) then 2^-54: the first product is exact, the second is
	   the only rounding whenever the result is normal. */
	fpr p;
	if (sc >= -1022) {
		p = fpr_from_bits((uint64_t)(sc + 1023) << 52);
		return (double)i * p;
	}
	p = fpr_from_bits((uint64_t)(sc + 1023 + 54) << 52);
	return ((double)i * p) * fpr_from_bits((uint64_t)(1023 - 54) << 52);
}
static inline fpr fpr_add(fpr x, fpr y) { return x + y; }
static inline fpr fpr_sub(fpr x, fpr y) { return x - y; }
static inline fpr fpr_neg(fpr x) { return -x; }
static inline void fpr_add_sub(fpr x, fpr y, fpr *s, fpr *d)
{
	fpr a = x + y, b = x - y;

	*s = a;
	*d = b;
}
static inline fpr fpr_half(fpr x) { return x * 0.5; }
static inline fpr fpr_double(fpr x) { return x + x; }
static inline fpr fpr_mul(fpr x, fpr y) { return x * y; }
static inline fpr fpr_sqr(fpr x) { return x * x; }
static inline fpr fpr_div(fpr x, fpr y) { return x / y; }
static inline fpr fpr_inv(fpr x) { return 1.0 / x; }
/*
 * With GCC/Clang and -fno-math-errno (CMakeLists.txt sets it) on a target
 * with an FPU square root, __builtin_sqrt is one instruction and needs no
 * libm, also under -ffreestanding. Elsewhere, use the integer version
 * (identical on all values Falcon produces) rather than libm's sqrt.
 */
#if defined(__GNUC__) && defined(__NO_MATH_ERRNO__) \
	&& (defined(__SSE2_MATH__) || defined(__aarch64__))
static inline fpr fpr_sqrt(fpr x) { return __builtin_sqrt(x); }
#else
static inline fpr fpr_sqrt(fpr x)
{
	return fpr_from_bits(fa_fpr_sqrt(fpr_bits(x)));
}
#endif
static inline int fpr_lt(fpr x, fpr y) { return x < y; }

/*
 * Round to nearest integer, ties to even, for |x| < 2^52 (Falcon's range).
 * Adding then subtracting 2^52 rounds the fraction away in the current
 * (round-to-nearest-even) mode; done on |x| with the sign restored,
 * without a data-dependent branch.
 */
static inline int64_t fpr_rint(fpr x)
{
	const double two52 = 4503599627370496.0;
	uint64_t b = fpr_bits(x), s = b & ((uint64_t)1 << 63);
	double a = fpr_from_bits(b ^ s);
	double t = a + two52;
	int64_t r = (int64_t)(t - two52);
	int64_t m = -(int64_t)(s >> 63);
	return (r ^ m) - m;
}
/* (int32_t)fpr_rint(x), for |x| < 2^31 */
static inline int32_t fpr_rint32(fpr x) { return (int32_t)fpr_rint(x); }
/* Truncation towards zero (|x| < 2^63). */
static inline int64_t fpr_trunc(fpr x) { return (int64_t)x; }
/* trunc(x * 2^k), 0 <= k <= 1023, |x| * 2^k < 2^63: the product by a
   power of two is exact while it is normal; below that it truncates to
   0 either way. */
static inline int64_t fpr_trunc_scaled(fpr x, int k)
{
	return (int64_t)(x * fpr_from_bits((uint64_t)(1023 + k) << 52));
}
/* Largest integer <= x (|x| < 2^63). */
static inline int64_t fpr_floor(fpr x)
{
	int64_t t = (int64_t)x;
	/* Subtract 1 when x is negative and not an integer. */
	return t - (int64_t)(x < (double)t);
}

#endif

#endif
