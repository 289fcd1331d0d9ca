/*
 * test_fpr.c -- the integer-only binary64 functions (src/fpr_emu.c) against
 * the FPU of this machine (C doubles, built with -ffp-contract=off and
 * SSE2 rounding), bit for bit, on millions of inputs; plus a few fixed
 * vectors that do not depend on the FPU, and the fpr.h API of whichever
 * build this is (native or FA_FPEMU).
 *
 * The reference for an operation is: subnormal inputs replaced by zero of
 * the same sign, the FPU result, then a subnormal result replaced by zero
 * of the same sign. This is exactly the contract of fpr_emu.c: on zero and
 * normal inputs with a normal result it is the plain FPU result.
 */
#include <stdio.h>
#include <stdint.h>
#include <string.h>
#include <float.h>
#include <time.h>

#include "fpr.h"
#include "test_util.h"

#if defined(__FLT_EVAL_METHOD__) && __FLT_EVAL_METHOD__ != 0
#error "test_fpr needs binary64 evaluation of doubles (FLT_EVAL_METHOD 0)"
#endif

/* tests/test_fpr_emu32.c runs this file on the 32-bit code of fpr_emu.c */
#ifndef TEST_FPR_NAME
#define TEST_FPR_NAME "test_fpr"
#endif
#ifndef TEST_FPR_N
#define TEST_FPR_N 400000
#endif

#define SIGN_BIT ((uint64_t)1 << 63)
#define FRAC_MASK (((uint64_t)1 << 52) - 1)

static uint64_t rng_state = 0x243F6A8885A308D3u;

static uint64_t rnd(void) { return tu_rand64(&rng_state); }
/* uniform in [0, n), n small */
static uint32_t rnd_below(uint32_t n) { return (uint32_t)((rnd() >> 32) % n); }

static double u2d(uint64_t u) { double d; memcpy(&d, &u, 8); return d; }
static uint64_t d2u(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }

static unsigned field(uint64_t u) { return (unsigned)(u >> 52) & 0x7FF; }
static int is_subnormal(uint64_t u) { return field(u) == 0 && (u & FRAC_MASK) != 0; }

/* The flush-to-zero rule on one value. */
static uint64_t flush(uint64_t u) { return is_subnormal(u) ? (u & SIGN_BIT) : u; }

/* Normal number: random sign, field in [emin, emax], random fraction
   whose low `zero_low` bits are cleared (short significands make exact
   results and rounding ties frequent). */
static uint64_t gen_normal(unsigned emin, unsigned emax, unsigned zero_low)
{
	uint64_t s = rnd() & SIGN_BIT;
	uint64_t e = emin + rnd_below(emax - emin + 1);
	uint64_t f = rnd() & FRAC_MASK;
	f &= ~(((uint64_t)1 << zero_low) - 1);
	return s | (e << 52) | f;
}

/* Random number of cleared low bits: 0 half the time, else 0..52. */
static unsigned gen_zero_low(void)
{
	return (rnd() & 1) ? 0 : rnd_below(53);
}

/* A few "special" finite values: zeros, subnormals, extremes. */
static uint64_t gen_special(void)
{
	static const uint64_t tab[] = {
		0, SIGN_BIT, 1, SIGN_BIT | 1, FRAC_MASK, SIGN_BIT | FRAC_MASK,
		(uint64_t)1 << 52, SIGN_BIT | ((uint64_t)1 << 52),
		0x7FEFFFFFFFFFFFFFu, 0xFFEFFFFFFFFFFFFFu,
		0x3FF0000000000000u, 0xBFF0000000000000u,
		0x0000000000012345u, 0x0008000000000000u,
	};
	return tab[rnd_below(sizeof tab / sizeof tab[0])];
}

/* Mismatch bookkeeping: one CHECK per test category. */
static unsigned long n_cmp, n_bad;

static void start(void) { n_cmp = 0; n_bad = 0; }

static void cmp_u64(const char *what, uint64_t x, uint64_t y,
	uint64_t got, uint64_t want)
{
	n_cmp ++;
	if (got != want) {
		if (n_bad < 5)
			fprintf(stderr, "  %s(%016llx, %016llx) = %016llx,"
				" expected %016llx\n", what,
				(unsigned long long)x, (unsigned long long)y,
				(unsigned long long)got,
				(unsigned long long)want);
		n_bad ++;
	}
}

static void finish(const char *what)
{
	CHECK(n_bad == 0, "%s: %lu of %lu results differ", what, n_bad, n_cmp);
	CHECK(n_cmp > 0, "%s: nothing compared", what);
}

/* ------------------------------------------------------------------ */
/* References from the FPU. */

static uint64_t ref_add(uint64_t x, uint64_t y)
{
	return flush(d2u(u2d(flush(x)) + u2d(flush(y))));
}
static uint64_t ref_mul(uint64_t x, uint64_t y)
{
	return flush(d2u(u2d(flush(x)) * u2d(flush(y))));
}
static uint64_t ref_div(uint64_t x, uint64_t y)
{
	return flush(d2u(u2d(flush(x)) / u2d(flush(y))));
}
static uint64_t ref_sqrt(uint64_t x)
{
	return flush(d2u(__builtin_sqrt(u2d(flush(x)))));
}

/* floor and trunc of |x| < 2^63 through the C conversion (truncates). */
static int64_t ref_trunc(uint64_t x)
{
	return (int64_t)u2d(flush(x));
}
static int64_t ref_floor(uint64_t x)
{
	double d = u2d(flush(x));
	int64_t t = (int64_t)d;
	return t - (d < (double)t);
}
/* Nearest, ties to even: from the exact fraction d - trunc(d). */
static int64_t ref_rint(uint64_t x)
{
	double d = u2d(flush(x)), a = d < 0 ? -d : d, f;
	int64_t t = (int64_t)a;

	f = a - (double)t;   /* exact: a < 2^63, f in [0, 1) */
	if (f > 0.5 || (f == 0.5 && (t & 1)))
		t ++;
	return d < 0 ? -t : t;
}

/* ------------------------------------------------------------------ */
/* Fixed vectors (bit patterns worked out by hand or well known). */

static void test_fixed(void)
{
	static const struct { char op; uint64_t x, y, r; } v[] = {
		/* 0.1 + 0.2 = 0.30000000000000004 */
		{ '+', 0x3FB999999999999Au, 0x3FC999999999999Au, 0x3FD3333333333334u },
		/* 1 + 2^-53 (tie, to even) = 1; 1 + 3*2^-53 -> 1 + 2^-51 */
		{ '+', 0x3FF0000000000000u, 0x3CA0000000000000u, 0x3FF0000000000000u },
		{ '+', 0x3FF0000000000000u, 0x3CB8000000000000u, 0x3FF0000000000002u },
		/* 1 - 1 = +0; -0 + -0 = -0; +0 + -0 = +0 */
		{ '+', 0x3FF0000000000000u, 0xBFF0000000000000u, 0 },
		{ '+', SIGN_BIT, SIGN_BIT, SIGN_BIT },
		{ '+', 0, SIGN_BIT, 0 },
		/* 1/3, 1/12289 (FPR_INV_Q in inner.h), 1/0 = inf */
		{ '/', 0x3FF0000000000000u, 0x4008000000000000u, 0x3FD5555555555555u },
		{ '/', 0x3FF0000000000000u, 0x40C8008000000000u, 0x3F1554E39097A782u },
		{ '/', 0xBFF0000000000000u, 0, 0xFFF0000000000000u },
		/* sqrt(2), sqrt(-0) = -0, sqrt(-1) = NaN (x86 default NaN) */
		{ 'r', 0x4000000000000000u, 0, 0x3FF6A09E667F3BCDu },
		{ 'r', SIGN_BIT, 0, SIGN_BIT },
		{ 'r', 0xBFF0000000000000u, 0, 0xFFF8000000000000u },
		/* 2^-1022 * (1 - 2^-53): IEEE subnormal rounding is a tie
		   between 0x000FFFFFFFFFFFFF and 2^-1022, to even: 2^-1022 */
		{ '*', 0x0010000000000000u, 0x3FEFFFFFFFFFFFFFu, 0x0010000000000000u },
		/* 2^-1022 * (1 - 2^-52) is subnormal: flushed to zero */
		{ '*', 0x0010000000000000u, 0x3FEFFFFFFFFFFFFEu, 0 },
		{ '*', 0x8010000000000000u, 0x3FEFFFFFFFFFFFFEu, SIGN_BIT },
		/* 2^1023 * 2 overflows to infinity */
		{ '*', 0x7FE0000000000000u, 0x4000000000000000u, 0x7FF0000000000000u },
		/* subnormal input read as zero: 2^-1074 * 2^1000 = 0 */
		{ '*', 1, 0x7E70000000000000u, 0 },
	};
	size_t i;

	start();
	for (i = 0; i < sizeof v / sizeof v[0]; i ++) {
		uint64_t r = 0;
		switch (v[i].op) {
		case '+': r = fa_fpr_add(v[i].x, v[i].y); break;
		case '*': r = fa_fpr_mul(v[i].x, v[i].y); break;
		case '/': r = fa_fpr_div(v[i].x, v[i].y); break;
		case 'r': r = fa_fpr_sqrt(v[i].x); break;
		}
		cmp_u64("fixed", v[i].x, v[i].y, r, v[i].r);
	}
	/* integers */
	cmp_u64("rint(2.5)", 0, 0, (uint64_t)fa_fpr_rint(0x4004000000000000u), 2);
	cmp_u64("rint(-3.5)", 0, 0, (uint64_t)fa_fpr_rint(0xC00C000000000000u),
		(uint64_t)-4);
	cmp_u64("floor(-0.5)", 0, 0, (uint64_t)fa_fpr_floor(0xBFE0000000000000u),
		(uint64_t)-1);
	cmp_u64("trunc(-0.5)", 0, 0, (uint64_t)fa_fpr_trunc(0xBFE0000000000000u), 0);
	cmp_u64("trunc(2^62+1...)", 0, 0, (uint64_t)fa_fpr_trunc(0x43DFFFFFFFFFFFFFu),
		0x7FFFFFFFFFFFFC00u);
	cmp_u64("scaled(-1, 63)", 0, 0, fa_fpr_scaled(INT64_MIN, 0), 0xC3E0000000000000u);
	cmp_u64("scaled(2^53+1)", 0, 0, fa_fpr_scaled(((int64_t)1 << 53) + 1, 0),
		0x4340000000000000u);
	cmp_u64("scaled(2^53+3)", 0, 0, fa_fpr_scaled(((int64_t)1 << 53) + 3, 0),
		0x4340000000000002u);
	cmp_u64("lt(-0,+0)", 0, 0, (uint64_t)fa_fpr_lt(SIGN_BIT, 0), 0);
	cmp_u64("lt(-1,-0)", 0, 0, (uint64_t)fa_fpr_lt(0xBFF0000000000000u, SIGN_BIT), 1);
	finish("fixed vectors");
}

/* ------------------------------------------------------------------ */
/* Binary operations on random inputs. */

typedef uint64_t (*binop)(uint64_t, uint64_t);

static void run_binop(const char *name, binop emu, binop ref,
	uint64_t (*genx)(void), uint64_t (*geny)(uint64_t), long count)
{
	long i;

	start();
	for (i = 0; i < count; i ++) {
		uint64_t x = genx(), y = geny(x);
		cmp_u64(name, x, y, emu(x, y), ref(x, y));
	}
	finish(name);
}

/* x: normal, full range or mid-range, with short significands sometimes */
static uint64_t gx_full(void) { return gen_normal(1, 2046, gen_zero_low()); }
static uint64_t gx_mid(void) { return gen_normal(1023 - 60, 1023 + 60, gen_zero_low()); }
static uint64_t gx_short(void) { return gen_normal(1023 - 30, 1023 + 30, 26 + rnd_below(27)); }
static uint64_t gx_special_mix(void)
{
	return (rnd() & 3) ? gx_mid() : gen_special();
}

static uint64_t gy_full(uint64_t x) { (void)x; return gx_full(); }
static uint64_t gy_mid(uint64_t x) { (void)x; return gx_mid(); }
static uint64_t gy_short(uint64_t x) { (void)x; return gx_short(); }
static uint64_t gy_special_mix(uint64_t x) { (void)x; return gx_special_mix(); }

/* y with exponent close to x's (0..60 below or 0..3 above), random sign,
   and a significand that is often short: exercises alignment, sticky
   bits, rounding ties and massive cancellation. */
static uint64_t gy_close(uint64_t x)
{
	int e = (int)field(x) - (int)rnd_below(61) + (int)rnd_below(4);
	uint64_t y;

	if (e < 1)
		e = 1;
	if (e > 2046)
		e = 2046;
	y = gen_normal(1, 1, gen_zero_low());
	return (y & ~((uint64_t)0x7FF << 52)) | ((uint64_t)e << 52);
}

/* y = -x nudged by a few units in the last place (or of its exponent
   neighbor): x + y cancels to a few ulps or exactly. */
static uint64_t gy_cancel(uint64_t x)
{
	uint64_t y = (x ^ SIGN_BIT) + (rnd() & 7) - 3;

	if (rnd() & 1)
		y ^= (uint64_t)1 << 52;   /* exponent off by one either way */
	if (field(y) == 0 || field(y) == 2047)
		y = x ^ SIGN_BIT;
	return y;
}

/* Products and quotients that land near 2^-1022 (underflow boundary, the
   rounding to the smallest normal) and near 2^1024 (overflow). */
static uint64_t gx_edge(void)
{
	return gen_normal(1, 1 + 60, gen_zero_low());
}
static uint64_t gy_edge_mul(uint64_t x)
{
	/* y ~ 2^-1022 / x * (1 +- small): y = (1/x rounded) * 2^-1022 */
	uint64_t r = d2u(1.0 / u2d(x & ~SIGN_BIT));
	int e = (int)field(r) - 1022;
	uint64_t y;

	if (rnd() & 1) {
		/* near overflow instead: x * y ~ 2^1023..2^1024 */
		e = (int)field(r) + 1023 + (int)rnd_below(2);
	}
	if (e < 1 || e > 2046)
		return gen_normal(1023, 1023, 0);
	y = (r & FRAC_MASK) | ((uint64_t)e << 52) | (rnd() & SIGN_BIT);
	return y + (rnd() & 3) - 1;
}
static uint64_t gy_edge_div(uint64_t x)
{
	/* y ~ x * 2^1022 (quotient ~ 2^-1022) or x * 2^-1023 (overflow) */
	int e = (int)field(x) + 1022 + (int)rnd_below(3) - 1;
	uint64_t y;

	if (rnd() & 1)
		e = (int)field(x) - 1023 - (int)rnd_below(2);
	if (e < 1 || e > 2046)
		return gen_normal(1023, 1023, 0);
	y = (x & FRAC_MASK) | ((uint64_t)e << 52) | (rnd() & SIGN_BIT);
	return y + (rnd() & 7) - 3;
}
/* Exact quotients: x = y * z with y, z short so the product is exact. */
static uint64_t gen_exact_quotient_pair(uint64_t *y)
{
	uint64_t z;

	*y = gen_normal(1023 - 20, 1023 + 20, 26);
	z = gen_normal(1023 - 20, 1023 + 20, 26 + rnd_below(27));
	return d2u(u2d(*y) * u2d(z));
}
static uint64_t saved_y;
static uint64_t gx_exact_div(void) { return gen_exact_quotient_pair(&saved_y); }
static uint64_t gy_saved(uint64_t x) { (void)x; return saved_y; }

/* fa_fpr_add_sub: the sum goes through run_binop, the difference is
   compared here with the FPU's x - y (in the same tally). */
static uint64_t emu_add_sub(uint64_t x, uint64_t y)
{
	uint64_t s, d;

	fa_fpr_add_sub(x, y, &s, &d);
	cmp_u64("add_sub (x - y)", x, y, d, ref_add(x, y ^ SIGN_BIT));
	return s;
}

static void test_add(long n)
{
	run_binop("add_sub full", emu_add_sub, ref_add, gx_full, gy_full, n / 2);
	run_binop("add_sub close", emu_add_sub, ref_add, gx_full, gy_close, n);
	run_binop("add_sub close short", emu_add_sub, ref_add, gx_short,
		gy_close, n / 2);
	run_binop("add_sub cancel", emu_add_sub, ref_add, gx_full, gy_cancel, n / 2);
	run_binop("add_sub tiny", emu_add_sub, ref_add, gx_edge, gy_close, n / 4);
	run_binop("add_sub special", emu_add_sub, ref_add, gx_special_mix,
		gy_special_mix, n / 4);
	run_binop("add full", fa_fpr_add, ref_add, gx_full, gy_full, n);
	run_binop("add close", fa_fpr_add, ref_add, gx_full, gy_close, 3 * n);
	run_binop("add close short", fa_fpr_add, ref_add, gx_short, gy_close, n);
	run_binop("add cancel", fa_fpr_add, ref_add, gx_full, gy_cancel, n);
	run_binop("add tiny", fa_fpr_add, ref_add, gx_edge, gy_close, n / 4);
	run_binop("add special", fa_fpr_add, ref_add, gx_special_mix,
		gy_special_mix, n / 4);
}

static void test_mul(long n)
{
	run_binop("mul full", fa_fpr_mul, ref_mul, gx_full, gy_full, n);
	run_binop("mul mid", fa_fpr_mul, ref_mul, gx_mid, gy_mid, n);
	run_binop("mul short (ties)", fa_fpr_mul, ref_mul, gx_short, gy_short, n);
	run_binop("mul edge", fa_fpr_mul, ref_mul, gx_mid, gy_edge_mul, n);
	run_binop("mul special", fa_fpr_mul, ref_mul, gx_special_mix,
		gy_special_mix, n / 4);
}

/* 0/0 is the one case where the emulation (infinity) and IEEE (NaN)
   differ by design; this reference encodes the documented choice. */
static uint64_t ref_div_doc(uint64_t x, uint64_t y)
{
	if ((flush(x) << 1) == 0 && (flush(y) << 1) == 0)
		return ((x ^ y) & SIGN_BIT) | 0x7FF0000000000000u;
	return ref_div(x, y);
}

static void test_div(long n)
{
	run_binop("div full", fa_fpr_div, ref_div, gx_full, gy_full, n);
	run_binop("div mid", fa_fpr_div, ref_div, gx_mid, gy_mid, n);
	run_binop("div close", fa_fpr_div, ref_div, gx_full, gy_close, n);
	run_binop("div exact", fa_fpr_div, ref_div, gx_exact_div, gy_saved, n);
	run_binop("div edge", fa_fpr_div, ref_div, gx_mid, gy_edge_div, n);
	run_binop("div special", fa_fpr_div, ref_div_doc, gx_special_mix,
		gy_special_mix, n / 4);
}

static void test_sqrt(long n)
{
	long i;

	start();
	for (i = 0; i < n; i ++) {
		uint64_t x = gen_normal(1, 2046, gen_zero_low()) & ~SIGN_BIT;
		cmp_u64("sqrt", x, 0, fa_fpr_sqrt(x), ref_sqrt(x));
	}
	finish("sqrt full");

	start();
	for (i = 0; i < n; i ++) {
		/* perfect squares and their neighbors */
		uint64_t r = gen_normal(1023 - 500, 1023 + 500, 26 + rnd_below(27));
		uint64_t x = d2u(u2d(r) * u2d(r)) + (rnd() & 3) - 1;
		cmp_u64("sqrt", x, 0, fa_fpr_sqrt(x), ref_sqrt(x));
	}
	finish("sqrt squares");

	start();
	for (i = 0; i < n / 16; i ++) {
		/* zeros, subnormals, negatives (NaN, as x86 returns) */
		uint64_t x = (rnd() & 1) ? gen_special() : gen_normal(1, 2046, 0);
		cmp_u64("sqrt", x, 0, fa_fpr_sqrt(x), ref_sqrt(x));
	}
	finish("sqrt special");
}

/* ------------------------------------------------------------------ */
/* Conversions. */

/* |x| < 2^63: field up to 1085. Mostly small magnitudes. */
static uint64_t gen_for_int(void)
{
	switch (rnd_below(6)) {
	case 0:
		return gen_normal(1, 1085, gen_zero_low());
	case 1: {
		/* k + 1/2, exact halves, |k| < 2^52 */
		int64_t k = (int64_t)(rnd() >> (12 + rnd_below(52)));
		double d = (double)k + 0.5;
		return d2u((rnd() & 1) ? -d : d);
	}
	case 2: {
		/* neighbors of integers and halves */
		int64_t k = (int64_t)(rnd() >> (11 + rnd_below(53)));
		double d = (double)k + ((rnd() & 1) ? 0.5 : 0.0);
		uint64_t u = d2u((rnd() & 1) ? -d : d);
		u += (rnd() & 3) - 1;
		return (field(u) > 1085 || field(u) == 0) ? 0 : u;
	}
	case 3:
		return gen_special() & ~(uint64_t)0x4000000000000000u;
	default:
		return gen_normal(1023 - 8, 1023 + 62, gen_zero_low());
	}
}

static void test_int(long n)
{
	long i;

	start();
	for (i = 0; i < n; i ++) {
		uint64_t x = gen_for_int();
		cmp_u64("rint", x, 0, (uint64_t)fa_fpr_rint(x), (uint64_t)ref_rint(x));
	}
	finish("rint");
	start();
	for (i = 0; i < n; i ++) {
		uint64_t x = gen_for_int();
		cmp_u64("floor", x, 0, (uint64_t)fa_fpr_floor(x), (uint64_t)ref_floor(x));
	}
	finish("floor");
	start();
	for (i = 0; i < n; i ++) {
		uint64_t x = gen_for_int();
		cmp_u64("trunc", x, 0, (uint64_t)fa_fpr_trunc(x), (uint64_t)ref_trunc(x));
	}
	finish("trunc");
}

/* fa_fpr_rint32 (|x| < 2^31, 32-bit words only) against (int32_t) of
   fa_fpr_rint and of the FPU reference: edge values (zeros, halves and
   their neighbours, 2^k - 1/2 and 2^k +- 1 ulp, the ends of the range,
   tiny and subnormal magnitudes), then random values over every
   exponent of the range with random and with short fractions. */
static void check_rint32(uint64_t x)
{
	uint64_t want = (uint64_t)(uint32_t)(int32_t)ref_rint(x);

	cmp_u64("rint32", x, 0, (uint64_t)(uint32_t)fa_fpr_rint32(x), want);
	cmp_u64("rint32 vs rint", x, 0, (uint64_t)(uint32_t)fa_fpr_rint32(x),
		(uint64_t)(uint32_t)(int32_t)fa_fpr_rint(x));
}

static void test_rint32(long n)
{
	static const double edge[] = {
		0.0, 0.5, 1.0, 1.5, 2.5, 3.5, 0.49999999999999994,
		0.5000000000000001, 1.4999999999999998, 2.5000000000000004,
		12288.5, 12289.5, 4095.5, 4096.5, 65535.5, 1048575.5,
		2147483646.5, 2147483647.0, 2147483647.25, 2147483646.75,
		1073741823.5, 1073741824.5, 4503599627370495.5 / 2097152.0,
		1e-300, 4.9e-324, 2.2250738585072014e-308, 1e-9, 0.25, 0.75,
	};
	size_t k;
	long i;
	int j;

	start();
	for (k = 0; k < sizeof edge / sizeof edge[0]; k ++) {
		check_rint32(d2u(edge[k]));
		check_rint32(d2u(-edge[k]));
	}
	/* 2^j - 1/2, 2^j, and their neighbours, 2^-40 <= 2^j <= 2^30 */
	for (j = -40; j <= 30; j ++) {
		double p = __builtin_ldexp(1.0, j);
		uint64_t b[4];
		int q;

		b[0] = d2u(p);
		b[1] = d2u(p - 0.5 > 0 ? p - 0.5 : p);
		b[2] = d2u(p + 0.5);
		b[3] = d2u(p * 1.5);
		for (q = 0; q < 4; q ++) {
			check_rint32(b[q]);
			check_rint32(b[q] - 1);
			check_rint32(b[q] + 1);
			check_rint32(b[q] | SIGN_BIT);
			check_rint32((b[q] - 1) | SIGN_BIT);
			check_rint32((b[q] + 1) | SIGN_BIT);
		}
	}
	for (i = 0; i < n; i ++) {
		/* exponent field 1023 - 60 .. 1023 + 30 (|x| < 2^31) */
		uint64_t e = 963 + rnd() % 91;
		uint64_t f = rnd() & ((((uint64_t)1) << 52) - 1);
		uint64_t x;

		if (i & 1) {
			/* few fraction bits: halves and integers */
			f &= ~((((uint64_t)1) << (rnd() % 53)) - 1);
		}
		x = (e << 52) | f | ((rnd() & 1) ? SIGN_BIT : 0);
		check_rint32(x);
	}
	finish("rint32");
}

/* fa_fpr_of32 against the C conversion (every int32 is exact), and
   fa_fpr_trunc_scaled against truncating the FPU's x * 2^k. */
static void test_of32_trunc_scaled(long n)
{
	static const int32_t edge[] = {
		0, 1, -1, 2, -2, 3, 0x7FFFFFFF, -0x7FFFFFFF, INT32_MIN,
		0x40000000, -0x40000000, 0xFFFF, 0x10000, 324, -18, 19,
	};
	long i;
	size_t j;

	start();
	for (j = 0; j < sizeof edge / sizeof edge[0]; j ++) {
		cmp_u64("of32", (uint64_t)(int64_t)edge[j], 0,
			fa_fpr_of32(edge[j]), d2u((double)edge[j]));
	}
	for (i = 0; i < n; i ++) {
		/* random bit length 0..32, random sign */
		uint32_t u = (uint32_t)((uint64_t)(uint32_t)rnd() >> rnd_below(33));
		int32_t v = (int32_t)u;
		cmp_u64("of32", (uint64_t)(int64_t)v, 0, fa_fpr_of32(v),
			d2u((double)v));
	}
	finish("of32");

	start();
	for (i = 0; i < n; i ++) {
		int k = (int)rnd_below(64);
		/* |x| * 2^k < 2^63: field + k <= 1085 */
		uint64_t x = (rnd_below(16) == 0) ? gen_special()
			: gen_normal(1, (unsigned)(1085 - k), gen_zero_low());
		double p = u2d((uint64_t)(1023 + k) << 52);
		if (field(x) + (unsigned)k > 1085)
			x &= SIGN_BIT;
		cmp_u64("trunc_scaled", x, (uint64_t)k,
			(uint64_t)fa_fpr_trunc_scaled(x, k),
			(uint64_t)(int64_t)(u2d(flush(x)) * p));
		/* as the sampler used it: trunc(x * 2^63), x in [0, 1) */
		x = gen_normal(1, 1022, gen_zero_low()) & ~SIGN_BIT;
		cmp_u64("trunc_scaled 63", x, 63, (uint64_t)fa_fpr_trunc_scaled(x, 63),
			(uint64_t)fa_fpr_trunc(fa_fpr_mul(x, 0x43E0000000000000u)));
	}
	finish("trunc_scaled");
}

/* Random int64 of random bit length (0..63 bits, sign random, INT64_MIN
   sometimes). */
static int64_t gen_int64(void)
{
	uint32_t len = rnd_below(65);
	uint64_t u;

	if (len == 64)
		return (rnd() & 1) ? INT64_MIN : 0;
	u = rnd() >> (64 - len - (len == 0));
	if (len == 0)
		u = 0;
	/* sometimes a run of ones/zeros after the top bit: rounding ties */
	if (rnd() & 1)
		u &= ~((((uint64_t)1 << (len / 2)) - 1));
	return (rnd() & 1) ? -(int64_t)u : (int64_t)u;
}

/* i * 2^sc with one rounding (the int64 -> double conversion) and an
   exact scaling, for results in the normal range. */
static uint64_t ref_scaled(int64_t i, int sc)
{
	double d = (double)i;
	d *= u2d((uint64_t)(sc / 2 + 1023) << 52);
	d *= u2d((uint64_t)(sc - sc / 2 + 1023) << 52);
	return d2u(d);
}

static void test_scaled(long n)
{
	long i;

	start();
	for (i = 0; i < n; i ++) {
		int64_t v = gen_int64();
		int sc = (int)rnd_below(2100) - 1080;
		uint64_t want = ref_scaled(v, sc);
		unsigned f = field(want);
		/* normal results not too close to 2^-1022 (where the reference
		   rounds twice), and zero */
		if (f < 3 && v != 0)
			continue;
		cmp_u64("scaled", (uint64_t)v, (uint64_t)(int64_t)sc,
			fa_fpr_scaled(v, sc), want);
		/* the fpr.h API of this build, for Falcon's range */
		if (sc >= -1076 && sc <= 1023)
			cmp_u64("fpr_scaled", (uint64_t)v, (uint64_t)(int64_t)sc,
				fpr_bits(fpr_scaled(v, sc)), want);
	}
	finish("scaled");
	start();
	for (i = 0; i < n / 8; i ++) {
		int64_t v = gen_int64();
		cmp_u64("of", (uint64_t)v, 0, fpr_bits(fpr_of(v)), d2u((double)v));
		cmp_u64("scaled0", (uint64_t)v, 0, fa_fpr_scaled(v, 0), d2u((double)v));
	}
	finish("of");
}

static void test_lt(long n)
{
	long i;

	start();
	for (i = 0; i < n; i ++) {
		uint64_t x, y;
		switch (rnd_below(4)) {
		case 0: x = gen_normal(1, 2046, 0); y = gen_normal(1, 2046, 0); break;
		case 1: x = gx_mid(); y = x + (rnd() & 3) - 1; break;
		case 2: x = gx_mid(); y = x ^ SIGN_BIT; break;
		default: x = gen_special(); y = gx_special_mix(); break;
		}
		if (rnd() & 1) {
			uint64_t t = x;
			x = y;
			y = t;
		}
		cmp_u64("lt", x, y, (uint64_t)fa_fpr_lt(x, y),
			(uint64_t)(u2d(x) < u2d(y)));
	}
	finish("lt");
}

/* ------------------------------------------------------------------ */
/* fpr.h API of this build (native or emulated) on normal values. */

static void test_api(long n)
{
	long i;

	start();
	for (i = 0; i < n; i ++) {
		uint64_t x = gx_mid(), y = (rnd() & 1) ? gy_close(x) : gx_mid();
		fpr fx = fpr_from_bits(x), fy = fpr_from_bits(y);
		double dx = u2d(x), dy = u2d(y);
		cmp_u64("fpr_add", x, y, fpr_bits(fpr_add(fx, fy)), d2u(dx + dy));
		cmp_u64("fpr_sub", x, y, fpr_bits(fpr_sub(fx, fy)), d2u(dx - dy));
		{
			fpr fs, fd;
			fpr_add_sub(fx, fy, &fs, &fd);
			cmp_u64("fpr_add_sub (+)", x, y, fpr_bits(fs), d2u(dx + dy));
			cmp_u64("fpr_add_sub (-)", x, y, fpr_bits(fd), d2u(dx - dy));
		}
		cmp_u64("fpr_neg", x, 0, fpr_bits(fpr_neg(fx)), d2u(-dx));
		cmp_u64("fpr_half", x, 0, fpr_bits(fpr_half(fx)), d2u(dx * 0.5));
		cmp_u64("fpr_double", x, 0, fpr_bits(fpr_double(fx)), d2u(dx + dx));
		cmp_u64("fpr_mul", x, y, fpr_bits(fpr_mul(fx, fy)), d2u(dx * dy));
		cmp_u64("fpr_sqr", x, 0, fpr_bits(fpr_sqr(fx)), d2u(dx * dx));
		cmp_u64("fpr_div", x, y, fpr_bits(fpr_div(fx, fy)), d2u(dx / dy));
		cmp_u64("fpr_inv", x, 0, fpr_bits(fpr_inv(fx)), d2u(1.0 / dx));
		cmp_u64("fpr_sqrt", x, 0, fpr_bits(fpr_sqrt(fpr_from_bits(x & ~SIGN_BIT))),
			d2u(__builtin_sqrt(u2d(x & ~SIGN_BIT))));
		cmp_u64("fpr_lt", x, y, (uint64_t)fpr_lt(fx, fy), (uint64_t)(dx < dy));
	}
	/* half/double at the edges of the normal range, zeros */
	{
		static const uint64_t e[] = {
			0, SIGN_BIT, 0x0020000000000000u, 0x8020000000000000u,
			0x002FFFFFFFFFFFFFu, 0x7FDFFFFFFFFFFFFFu, 0xFFDFFFFFFFFFFFFFu,
			0x7FEFFFFFFFFFFFFFu, 0x0010000000000000u, 0x8010000000000000u,
		};
		size_t k;
		for (k = 0; k < sizeof e / sizeof e[0]; k ++) {
			fpr fx = fpr_from_bits(e[k]);
			cmp_u64("fpr_double", e[k], 0, fpr_bits(fpr_double(fx)),
				flush(d2u(u2d(e[k]) + u2d(e[k]))));
			/* half of 2^-1022 is subnormal: only the emulated
			   build flushes it */
			if (FA_FPEMU || field(e[k]) != 1)
				cmp_u64("fpr_half", e[k], 0, fpr_bits(fpr_half(fx)),
					flush(d2u(u2d(e[k]) * 0.5)));
		}
	}
	for (i = 0; i < n; i ++) {
		/* integer conversions in Falcon's range |x| < 2^52 */
		uint64_t x = gen_for_int();
		fpr fx = fpr_from_bits(x);
		if (field(x) >= 1023 + 52 || is_subnormal(x))
			continue;
		cmp_u64("fpr_rint", x, 0, (uint64_t)fpr_rint(fx), (uint64_t)ref_rint(x));
		if (field(x) < 1023 + 31)
			cmp_u64("fpr_rint32", x, 0,
				(uint64_t)(uint32_t)fpr_rint32(fx),
				(uint64_t)(uint32_t)(int32_t)ref_rint(x));
		cmp_u64("fpr_floor", x, 0, (uint64_t)fpr_floor(fx), (uint64_t)ref_floor(x));
		cmp_u64("fpr_trunc", x, 0, (uint64_t)fpr_trunc(fx), (uint64_t)ref_trunc(x));
	}
	/* fpr_of_u16: every input, against the C conversion */
	for (i = 0; i < 65536; i ++) {
		cmp_u64("fpr_of_u16", (uint64_t)i, 0,
			fpr_bits(fpr_of_u16((uint32_t)i)), d2u((double)i));
	}
	finish(FA_FPEMU ? "fpr.h API (emulated build)" : "fpr.h API (native build)");
}

int main(int argc, char **argv)
{
	/* n: base count per category; total is about 35 n operations. */
	long n = TEST_FPR_N;
	clock_t t0 = clock();

	if (argc > 1)
		n = atol(argv[1]);
	test_fixed();
	test_add(n);
	test_mul(n);
	test_div(n);
	test_sqrt(n);
	test_int(n);
	test_rint32(n);
	test_of32_trunc_scaled(n / 2);
	test_scaled(n);
	test_lt(n);
	test_api(n / 4);
	printf("test_fpr: n = %ld, %.2f s\n", n,
		(double)(clock() - t0) / CLOCKS_PER_SEC);
	return tu_finish(TEST_FPR_NAME);
}
