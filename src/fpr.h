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

#if FA_FPEMU

typedef uint64_t fpr;

static inline fpr fpr_from_bits(uint64_t b) { return b; }
static inline uint64_t fpr_bits(fpr x) { return x; }

/* Implemented in fpr_emu.c. */
fpr fa_fpr_scaled(int64_t i, int sc);
fpr fa_fpr_add(fpr x, fpr y);
fpr fa_fpr_mul(fpr x, fpr y);
fpr fa_fpr_div(fpr x, fpr y);
fpr fa_fpr_sqrt(fpr x);
int64_t fa_fpr_rint(fpr x);
int64_t fa_fpr_floor(fpr x);
int64_t fa_fpr_trunc(fpr x);
int fa_fpr_lt(fpr x, fpr y);

/* x * 2^sc, from a signed integer (exact when |i| < 2^53). */
static inline fpr fpr_scaled(int64_t i, int sc) { return fa_fpr_scaled(i, sc); }
static inline fpr fpr_of(int64_t i) { return fa_fpr_scaled(i, 0); }
static inline fpr fpr_add(fpr x, fpr y) { return fa_fpr_add(x, y); }
static inline fpr fpr_sub(fpr x, fpr y) { return fa_fpr_add(x, y ^ ((uint64_t)1 << 63)); }
static inline fpr fpr_neg(fpr x) { return x ^ ((uint64_t)1 << 63); }
/* x/2 and 2x, exact (no subnormal/overflow reached in Falcon). */
static inline fpr fpr_half(fpr x)
{
	/* Decrement the exponent; zero (exponent 0) stays zero. */
	uint32_t t;
	x -= (uint64_t)1 << 52;
	t = (((uint32_t)(x >> 52) & 0x7FF) + 1) >> 11;
	x &= (uint64_t)t - 1;
	return x;
}
static inline fpr fpr_double(fpr x)
{
	/* Increment the exponent, unless x is zero. */
	x += (uint64_t)((((unsigned)(x >> 52) & 0x7FF) + 0x7FF) >> 11) << 52;
	return x;
}
static inline fpr fpr_mul(fpr x, fpr y) { return fa_fpr_mul(x, y); }
static inline fpr fpr_sqr(fpr x) { return fa_fpr_mul(x, x); }
static inline fpr fpr_div(fpr x, fpr y) { return fa_fpr_div(x, y); }
static inline fpr fpr_inv(fpr x) { return fa_fpr_div(4607182418800017408u, x); }
static inline fpr fpr_sqrt(fpr x) { return fa_fpr_sqrt(x); }
static inline int fpr_lt(fpr x, fpr y) { return fa_fpr_lt(x, y); }
static inline int64_t fpr_rint(fpr x) { return fa_fpr_rint(x); }
static inline int64_t fpr_floor(fpr x) { return fa_fpr_floor(x); }
static inline int64_t fpr_trunc(fpr x) { return fa_fpr_trunc(x); }

#else /* native binary64 */

typedef double fpr;

static inline fpr fpr_from_bits(uint64_t b)
{
	fpr x;
	memcpy(&x, &b, sizeof x);
	return x;
}
static inline uint64_t fpr_bits(fpr x)
{
	uint64_t b;
	memcpy(&b, &x, sizeof b);
	return b;
}
static inline fpr fpr_of(int64_t i) { return (double)i; }
static inline fpr fpr_scaled(int64_t i, int sc)
{
	/* Multiply by 2^sc by building the power of two directly (exact for
	   the exponents Falcon uses: -1074 < sc < 1024). */
	fpr p;
	if (sc >= -1022) {
		p = fpr_from_bits((uint64_t)(sc + 1023) << 52);
		return (double)i * p;
	}
	p = fpr_from_bits((uint64_t)(sc + 1022 + 54) << 52);
	return ((double)i * p) * fpr_from_bits((uint64_t)(1023 - 54) << 52);
}
static inline fpr fpr_add(fpr x, fpr y) { return x + y; }
static inline fpr fpr_sub(fpr x, fpr y) { return x - y; }
static inline fpr fpr_neg(fpr x) { return -x; }
static inline fpr fpr_half(fpr x) { return x * 0.5; }
static inline fpr fpr_double(fpr x) { return x + x; }
static inline fpr fpr_mul(fpr x, fpr y) { return x * y; }
static inline fpr fpr_sqr(fpr x) { return x * x; }
static inline fpr fpr_div(fpr x, fpr y) { return x / y; }
static inline fpr fpr_inv(fpr x) { return 1.0 / x; }
static inline fpr fpr_sqrt(fpr x) { return __builtin_sqrt(x); }
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
/* Truncation towards zero (|x| < 2^63). */
static inline int64_t fpr_trunc(fpr x) { return (int64_t)x; }
/* Largest integer <= x (|x| < 2^63). */
static inline int64_t fpr_floor(fpr x)
{
	int64_t t = (int64_t)x;
	/* Subtract 1 when x is negative and not an integer. */
	return t - (int64_t)(x < (double)t);
}

#endif

#endif
