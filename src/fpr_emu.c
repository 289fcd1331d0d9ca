/*
 * fpr_emu.c -- IEEE-754 binary64 arithmetic with integer instructions only,
 * in constant time, for cores without an FPU (the FA_FPEMU build) and for
 * the tests, which compare it with the FPU in every build.
 *
 * Values are uint64_t bit patterns: sign (bit 63), biased exponent field
 * e (bits 52..62), fraction (bits 0..51). For 1 <= e <= 2046 the value is
 * (-1)^sign * (2^52 + fraction) * 2^(e - 1075).
 *
 * Rounding: round to nearest, ties to even, exactly as IEEE-754. For every
 * input that is zero or normal and whose IEEE result is zero or normal, the
 * result is the IEEE result, bit for bit (signs of zeros included).
 *
 * Outside Falcon's range (Falcon produces none of these):
 *  - Subnormal inputs (e = 0, fraction != 0) are read as zero of the same
 *    sign (fa_fpr_lt excepted: it compares every non-NaN input exactly).
 *  - A result that IEEE would round to a subnormal becomes zero of the same
 *    sign ("flush to zero"). A result that IEEE rounds up to the smallest
 *    normal 2^-1022 is returned as such.
 *  - Overflow gives infinity of the right sign, as IEEE does; so does
 *    division by zero, including 0/0 (IEEE: NaN). The square root of a
 *    negative nonzero value returns the NaN 0xFFF8000000000000 (what x86
 *    returns).
 *  - Infinities and NaNs as inputs are not supported: the exponent field
 *    2047 is processed as if it were an ordinary exponent and the result is
 *    an unspecified bit pattern (no trap, same timing).
 *  - fa_fpr_rint, fa_fpr_floor, fa_fpr_trunc need |x| < 2^63; otherwise the
 *    returned integer is unspecified.
 *
 * Constant time: no branch and no memory index depends on the operands.
 * Selections use masks; comparisons are computed from the borrow of a
 * subtraction; 64-bit shifts by a variable count go through u64_shr() and
 * u64_shl(), written on 32-bit halves so that a 32-bit target needs no
 * branch on "count >= 32" (on 64-bit hosts they are the native shift);
 * the 106-bit significand product is built from 32x32->64 products (on
 * 64-bit hosts with a 128-bit type, one 64x64->128 multiply); leading
 * zeros are counted by halving steps on one 32-bit word; division and
 * square root produce one bit per step of a loop whose trip count is
 * fixed. Shifts by a variable count (32-bit words on 32-bit cores, 64-bit
 * words on 64-bit hosts) and the multiplier are assumed constant-time
 * (true on RV32 cores such as Ibex with its single-cycle multiplier, and
 * on x86-64).
 *
 * Speed (what an FPU-less 32-bit core runs; bench/FPEMU.md): additions
 * share one path for x + y and x - y (fa_fpr_add_sub, the butterflies);
 * rounding is inlined, and its rare cases (overflow, the one subnormal
 * result that rounds up to 2^-1022) cost a few masks, not a second
 * rounding.
 */

#include <stdint.h>

#include "fpr.h"

#define FPR_SIGN_BIT   ((uint64_t)1 << 63)
#define FPR_FRAC_MASK  (((uint64_t)1 << 52) - 1)
#define FPR_IMPLICIT   ((uint64_t)1 << 52)
#define FPR_INF_BITS   ((uint64_t)0x7FF0000000000000)
#define FPR_NAN_BITS   ((uint64_t)0xFFF8000000000000)

/* ------------------------------------------------------------------ */
/* Constant-time helpers. A "flag" is 0 or 1; a "mask" is 0 or all-ones. */

/* 1 if x != 0, else 0. */
static inline uint32_t u64_nonzero(uint64_t x)
{
	return (uint32_t)((x | (0 - x)) >> 63);
}

/* 1 if x != 0, else 0 (32-bit word). */
static inline uint32_t u32_nonzero(uint32_t x)
{
	return (x | (0 - x)) >> 31;
}

/* 1 if a < b (signed, |a|, |b| < 2^30), else 0. */
static inline uint32_t i32_lt(int32_t a, int32_t b)
{
	return (uint32_t)(a - b) >> 31;
}

/* Flag (0 or 1) to a 64-bit mask. */
static inline uint64_t mask64(uint32_t flag)
{
	return 0 - (uint64_t)flag;
}

/* flag ? b : a */
static inline uint64_t u64_select(uint32_t flag, uint64_t a, uint64_t b)
{
	return a ^ ((a ^ b) & mask64(flag));
}

/*
 * Variable 64-bit shifts. A core with 64-bit registers (x86-64, AArch64,
 * RV64) shifts a 64-bit word by a variable count in one constant-time
 * instruction. On a 32-bit core a C shift of a uint64_t becomes a branch
 * on "count >= 32" (GCC for rv32), so the shift is written on 32-bit
 * halves with the "count >= 32" case selected by a mask.
 * FA_FPR_EMU_32 forces the 32-bit code (tests/test_fpr_emu32.c uses it to
 * check that code on a 64-bit host).
 */
#if !defined(FA_FPR_EMU_32)
#if defined(__x86_64__) || defined(_M_X64) || defined(__aarch64__) \
	|| (defined(__riscv_xlen) && __riscv_xlen == 64)
#define FA_FPR_EMU_32 0
#else
#define FA_FPR_EMU_32 1
#endif
#endif

#if FA_FPR_EMU_32

/* x >> n for n in [0, 63]. */
static inline uint64_t u64_shr(uint64_t x, uint32_t n)
{
	uint32_t lo = (uint32_t)x, hi = (uint32_t)(x >> 32);
	uint32_t by32 = 0 - (n >> 5);   /* mask: n >= 32 */
	uint32_t k = n & 31;

	lo ^= (lo ^ hi) & by32;
	hi &= ~by32;
	/* (hi << 1) << (31 - k) is hi << (32 - k), and 0 when k = 0. */
	lo = (lo >> k) | ((hi << 1) << (31 - k));
	hi >>= k;
	return ((uint64_t)hi << 32) | lo;
}

/* x << n for n in [0, 63]. */
static inline uint64_t u64_shl(uint64_t x, uint32_t n)
{
	uint32_t lo = (uint32_t)x, hi = (uint32_t)(x >> 32);
	uint32_t by32 = 0 - (n >> 5);
	uint32_t k = n & 31;

	hi ^= (hi ^ lo) & by32;
	lo &= ~by32;
	hi = (hi << k) | ((lo >> 1) >> (31 - k));
	lo <<= k;
	return ((uint64_t)hi << 32) | lo;
}

/* 2^n - 1 (the n low bits set) for n in [0, 63]. */
static inline uint64_t u64_low_mask(uint32_t n)
{
	uint32_t by32 = 0 - (n >> 5);
	uint32_t p = (uint32_t)1 << (n & 31);

	/* n < 32: (0, p - 1); n >= 32: (p - 1, 2^32 - 1) */
	return ((uint64_t)((p - 1) & by32) << 32)
		| (uint32_t)((p - 1) | by32);
}

#else

static inline uint64_t u64_shr(uint64_t x, uint32_t n) { return x >> n; }
static inline uint64_t u64_shl(uint64_t x, uint32_t n) { return x << n; }
static inline uint64_t u64_low_mask(uint32_t n)
{
	return ((uint64_t)1 << n) - 1;
}

#endif

/*
 * Number of leading zeros of w, in [0, 31] (31 for w = 0), in five
 * halving steps without branches; *shifted gets w << that count (bit 31
 * set unless w = 0).
 */
static inline uint32_t u32_clz(uint32_t w, uint32_t *shifted)
{
	uint32_t c, k, n = 0;

	/* c = 1 iff the top 16 (then 8, 4, 2, 1) bits of w are zero */
	c = ((w >> 16) - 1) >> 31;
	k = c << 4;
	w <<= k;
	n += k;
	c = ((w >> 24) - 1) >> 31;
	k = c << 3;
	w <<= k;
	n += k;
	c = ((w >> 28) - 1) >> 31;
	k = c << 2;
	w <<= k;
	n += k;
	c = ((w >> 30) - 1) >> 31;
	k = c << 1;
	w <<= k;
	n += k;
	c = (w >> 31) ^ 1;
	w <<= c;
	n += c;
	*shifted = w;
	return n;
}

/*
 * Shift x left until bit 63 is set; *count gets the shift, in [0, 63].
 * For x = 0: returns 0, *count = 63. The count is found on one 32-bit
 * word (the high word, or the low word when the high word is zero), then
 * x is shifted once.
 */
static inline uint64_t u64_normalize(uint64_t x, int32_t *count)
{
	uint32_t hi = (uint32_t)(x >> 32), lo = (uint32_t)x;
	uint32_t c, n, w;

	c = u32_nonzero(hi) ^ 1;                 /* high word zero */
	w = hi ^ ((hi ^ lo) & (0 - c));
	n = (c << 5) + u32_clz(w, &w);
	*count = (int32_t)n;
	return u64_shl(x, n);
}

/* x >> n with the shifted-out bits ORed into bit 0 ("sticky" bit), for n
   in [0, 63]. The result compares with the midpoints of any rounding step
   at least two bits above bit 0 exactly as x / 2^n does. Bit n of
   (x mod 2^n) + 2^n - 1 is set iff x mod 2^n != 0; ORed into x it lands
   on bit 0 after the shift (with bit n of x: both are "sticky" there). */
static inline uint64_t u64_shr_sticky(uint64_t x, uint32_t n)
{
	uint64_t low = u64_low_mask(n);

	return u64_shr(x | ((x & low) + low), n);
}

/* ------------------------------------------------------------------ */
/* Unpacking and final rounding. */

/* Biased exponent field, in [0, 2047]. */
static inline int32_t fpr_exp_field(uint64_t x)
{
	return (int32_t)((x >> 52) & 0x7FF);
}

/* Significand with its implicit bit: in [2^52, 2^53) for a normal x, 0 for
   a zero or subnormal x (flushed). */
static inline uint64_t fpr_significand(uint64_t x)
{
	uint32_t normal = u32_nonzero((uint32_t)fpr_exp_field(x));

	return ((x & FPR_FRAC_MASK) | FPR_IMPLICIT) & mask64(normal);
}

/* 1 if the low three bits (lsb, guard, sticky) of m call for rounding up
   under ties-to-even: guard set and (sticky or lsb) set, i.e. patterns
   011, 110, 111 -> bits 3, 6, 7 of 0xC8. */
static inline uint64_t round_up_flag(uint64_t m)
{
	return (0xC8u >> ((uint32_t)m & 7)) & 1;
}

/*
 * Round and encode (-1)^sign * m * 2^(e - 1077), where m is in [2^54, 2^55):
 * bits 54..2 of m are the 53 significant bits, bit 1 the guard bit, bit 0
 * the sticky bit (OR of everything below). e is the biased exponent of the
 * result before rounding, any value in [-2^29, 2^29].
 *  - 1 <= e <= 2046: normal; a carry of the rounding may raise the
 *    exponent, up to infinity (field 2047, fraction 0).
 *  - e > 2046: infinity.
 *  - e = 0: the value lies in [2^-1023, 2^-1022); IEEE rounds it at the
 *    subnormal spacing 2^-1074, i.e. to m / 8 rounded; that is either
 *    2^-1022 (kept) or a subnormal (flushed to zero).
 *  - e < 0: below 2^-1023, flushed to zero.
 */
static inline uint64_t fpr_round_pack(uint32_t sign, int32_t e, uint64_t m)
{
	uint64_t r;
	uint32_t is_normal, is_over, is_min;

	/* Normal case: the exponent field e - 1 plus m >> 2 (whose bit 52,
	   the implicit bit, adds the missing 1), plus the rounding
	   increment; a carry out of the fraction raises the exponent (up to
	   field 2047 with fraction 0: infinity). */
	r = ((uint64_t)(uint32_t)(e - 1) << 52)
		+ (m >> 2) + round_up_flag(m);
	is_over = i32_lt(2046, e);
	is_normal = i32_lt(0, e) & (is_over ^ 1);
	/* e = 0: m / 8 rounded (ties to even) is 2^52 iff m >= 2^55 - 4
	   (the tie m = 2^55 - 4 goes to the even 2^52); below that it is a
	   subnormal, flushed to zero. */
	is_min = (u32_nonzero((uint32_t)e) ^ 1) & (uint32_t)((m + 4) >> 55);

	return ((uint64_t)sign << 63)
		| (r & mask64(is_normal))
		| ((uint64_t)is_min << 52)
		| (FPR_INF_BITS & mask64(is_over));
}

/* ------------------------------------------------------------------ */
/* Conversion. */

/* i * 2^sc, correctly rounded. |sc| < 2^28. */
uint64_t fa_fpr_scaled(int64_t i, int sc)
{
	uint32_t sign = (uint32_t)((uint64_t)i >> 63);
	uint64_t u, m;
	int32_t lz;

	/* |i| in [0, 2^63] (INT64_MIN gives 2^63). */
	u = ((uint64_t)i ^ mask64(sign)) + sign;
	u = u64_normalize(u, &lz);
	/* u * 2^(sc - lz) is the value, top bit of u at 63; keep 55 bits. */
	m = (u >> 9) | u64_nonzero(u & 0x1FF);
	/* m * 2^(sc - lz + 9) = m * 2^(e - 1077) */
	return fpr_round_pack(sign, (int32_t)sc - lz + 1086, m)
		& mask64(u64_nonzero(u));
}

/* v as a binary64 (always exact: |v| <= 2^31 < 2^53). */
uint64_t fa_fpr_of32(int32_t v)
{
	uint32_t s = (uint32_t)v >> 31;
	uint32_t a = ((uint32_t)v ^ (0 - s)) + s;    /* |v| in [0, 2^31] */
	uint32_t w, n;

	n = u32_clz(a, &w);          /* w = a << n, n = 31 for a = 0 */
	/* a = w * 2^(-n), leading bit at 31: exponent 31 - n, the 31 bits
	   below the leading one are the top of the fraction. a = 0: +0. */
	return (((((uint64_t)(1054 - n) << 52)
		| ((uint64_t)(uint32_t)(w << 1) << 20)) & mask64(u32_nonzero(a))))
		| ((uint64_t)s << 63);
}

/* ------------------------------------------------------------------ */
/* Addition. */

/*
 * Shared first half of an addition: order x, y by magnitude (as bit
 * patterns without sign, which orders magnitudes; both are < 2^63, so the
 * borrow is bit 63), unpack, and align the smaller significand on the
 * larger. Returns swap = 1 when |x| < |y|. Out: *ea = exponent field of
 * the larger, *sa / *sb = signs of the larger / smaller, *ma = larger
 * significand << 3 in [2^55, 2^56) (0 when it is zero or subnormal; then
 * so is the smaller, and every sum is zero), *mb = smaller significand
 * << 3, shifted right by the exponent difference with sticky bit 0.
 * The same alignment serves x + y and x - y = x + (-y): negating y
 * changes no magnitude.
 */
static inline uint32_t add_align(uint64_t x, uint64_t y, int32_t *ea,
	uint32_t *sa, uint32_t *sb, uint64_t *ma, uint64_t *mb)
{
	uint64_t t;
	uint32_t swap, d;

	swap = (uint32_t)(((x & ~FPR_SIGN_BIT) - (y & ~FPR_SIGN_BIT)) >> 63);
	t = (x ^ y) & mask64(swap);
	x ^= t;
	y ^= t;
	*sa = (uint32_t)(x >> 63);
	*sb = (uint32_t)(y >> 63);
	*ea = fpr_exp_field(x);
	*ma = fpr_significand(x) << 3;
	/* d = ex - ey in [0, 2047] (y zero: my = 0 and d does not matter),
	   clamped to 63; any d >= 56 leaves only the sticky bit. */
	d = (uint32_t)(*ea - fpr_exp_field(y));
	d = (d | (0 - ((63 - d) >> 31))) & 63;
	*mb = u64_shr_sticky(fpr_significand(y) << 3, d);
	return swap;
}

/*
 * Second half: sum in [0, 2^57) is the exact-or-sticky magnitude of the
 * result in units of 2^(ea - 1078); sign is the sign of the larger
 * operand (after any negation), zero_sign the sign of an exactly zero sum
 * (round to nearest: -0 only when both addends are negative).
 * If the alignment shifted by d >= 2, sum >= 2^54 and the sticky bit 0
 * stays below the guard bit after normalization; if d <= 1 nothing was
 * shifted out and the sum is exact.
 */
static inline uint64_t add_finish(uint32_t sign, uint32_t zero_sign,
	int32_t ea, uint64_t sum)
{
	uint64_t t, m;
	uint32_t nz;
	int32_t lz;

	/* Top bit to 63, then 55 bits with sticky:
	   m * 2^(ea + 8 - lz - 1077). */
	t = u64_normalize(sum, &lz);
	m = (t >> 9) | u32_nonzero((uint32_t)t & 0x1FF);
	/* A zero sum (m = 0, top bit 54 clear): exponent 0, where
	   fpr_round_pack returns zero of the sign given, zero_sign. */
	nz = (uint32_t)(m >> 54);
	ea = (ea + 8 - lz) & -(int32_t)nz;
	sign = zero_sign ^ ((zero_sign ^ sign) & (0 - nz));
	return fpr_round_pack(sign, ea, m);
}

uint64_t fa_fpr_add(uint64_t x, uint64_t y)
{
	uint64_t ma, mb;
	uint32_t sa, sb, sub;
	int32_t ea;

	(void)add_align(x, y, &ea, &sa, &sb, &ma, &mb);
	/* effective subtraction when the signs differ: ma - mb >= 0 */
	sub = sa ^ sb;
	return add_finish(sa, sa & sb, ea, ma + ((mb ^ mask64(sub)) + sub));
}

/*
 * x + y and x - y, each rounded as by fa_fpr_add, with one ordering and
 * one alignment (the FFT butterflies need both).
 */
void fa_fpr_add_sub(uint64_t x, uint64_t y, uint64_t *sum, uint64_t *dif)
{
	uint64_t ma, mb, p, q, mdif;
	uint32_t sa, sb, swap, sub, sx, sy;
	int32_t ea;

	swap = add_align(x, y, &ea, &sa, &sb, &ma, &mb);
	sx = (uint32_t)(x >> 63);
	sy = (uint32_t)(y >> 63);
	sub = sa ^ sb;
	p = ma + mb;
	q = ma - mb;
	mdif = mask64(sub);
	/* x + y: magnitude sum q if the signs differ, else p; sign of the
	   larger. x - y = x + (-y): the other one; the larger of (x, -y) is
	   x or -y, sign sa ^ swap. */
	*sum = add_finish(sa, sx & sy, ea, p ^ ((p ^ q) & mdif));
	*dif = add_finish(sa ^ swap, sx & (sy ^ 1), ea, q ^ ((p ^ q) & mdif));
}

/* ------------------------------------------------------------------ */
/* Multiplication. */

uint64_t fa_fpr_mul(uint64_t x, uint64_t y)
{
	uint64_t mx, my, z;
	uint32_t sign, top;
	int32_t e;

	sign = (uint32_t)((x ^ y) >> 63);
	mx = fpr_significand(x);
	my = fpr_significand(y);

	/* P = mx * my, 106 bits, in [2^104, 2^106) for normal operands;
	   z = P >> 50 in [2^54, 2^56), with the 50 dropped bits ORed into
	   bit 0 (sticky). */
#if !FA_FPR_EMU_32 && defined(__SIZEOF_INT128__)
	{
		__extension__ typedef unsigned __int128 u128;
		u128 p = (u128)mx * my;

		z = (uint64_t)(p >> 50)
			| u64_nonzero((uint64_t)p & (((uint64_t)1 << 50) - 1));
	}
#else
	{
		/* From 32-bit halves (xh, yh < 2^21): P = hi * 2^64 + lo. */
		uint32_t xl = (uint32_t)mx, xh = (uint32_t)(mx >> 32);
		uint32_t yl = (uint32_t)my, yh = (uint32_t)(my >> 32);
		uint64_t lo_lo = (uint64_t)xl * yl, mid, hi;
		uint32_t lo_mid;

		/* each cross product < 2^53; mid < 2^55 */
		mid = (uint64_t)xl * yh + (uint64_t)xh * yl + (lo_lo >> 32);
		hi = (uint64_t)xh * yh + (mid >> 32);
		/* bits 32..63 of P: lo_mid; bits 0..31: (uint32_t)lo_lo.
		   z = P >> 50 = hi << 14 | lo_mid >> 18. */
		lo_mid = (uint32_t)mid;
		z = (hi << 14) | (lo_mid >> 18);
		z |= u32_nonzero((lo_mid & 0x3FFFF) | (uint32_t)lo_lo);
	}
#endif
	/* Bring z into [2^54, 2^55). */
	top = (uint32_t)(z >> 55);
	z = u64_select(top, z, (z >> 1) | (z & 1));
	/* value = P * 2^(ex + ey - 2150) = z * 2^(ex + ey - 2100 + top);
	   a zero operand gives z = 0: the exponent is set to 0, where
	   fpr_round_pack returns zero of the sign for m < 2^55 - 4. */
	e = fpr_exp_field(x) + fpr_exp_field(y) - 1023 + (int32_t)top;
	e &= -(int32_t)(uint32_t)(z >> 54);

	return fpr_round_pack(sign, e, z);
}

/* ------------------------------------------------------------------ */
/* Division. */

uint64_t fa_fpr_div(uint64_t x, uint64_t y)
{
	uint64_t mx, my, r, q, diff, ok, res;
	uint32_t sign, bit, top, qh, ql;
	int32_t e;
	int i;

	sign = (uint32_t)((x ^ y) >> 63);
	mx = fpr_significand(x);
	my = fpr_significand(y);

	/* Restoring division, one quotient bit per step:
	   q = floor(mx * 2^55 / my), in [2^54, 2^56) since mx/my in (1/2, 2).
	   Invariant: r < 2 * my < 2^54, so r - my fits and its bit 63 is the
	   borrow.
	   The 56 bits are collected in two 32-bit words (24 high bits, then
	   32 low bits), so that a 32-bit core shifts one word per step. */
	r = mx;
	qh = 0;
	for (i = 0; i < 24; i ++) {
		diff = r - my;
		bit = (uint32_t)(diff >> 63) ^ 1;       /* r >= my */
		r = u64_select(bit, r, diff);
		qh = (qh << 1) | bit;
		r <<= 1;
	}
	ql = 0;
	for (i = 0; i < 32; i ++) {
		diff = r - my;
		bit = (uint32_t)(diff >> 63) ^ 1;
		r = u64_select(bit, r, diff);
		ql = (ql << 1) | bit;
		r <<= 1;
	}
	q = ((uint64_t)qh << 32) | ql;
	/* remainder != 0: the quotient is inexact */
	q |= u64_nonzero(r);
	/* Bring q into [2^54, 2^55). */
	top = (uint32_t)(q >> 55);
	q = u64_select(top, q, (q >> 1) | (q & 1));
	/* value = (mx/my) * 2^(ex - ey) = q * 2^(ex - ey - 55 + top) */
	e = fpr_exp_field(x) - fpr_exp_field(y) + 1022 + (int32_t)top;
	res = fpr_round_pack(sign, e, q);

	/* x = 0: signed zero. y = 0: signed infinity (also for 0/0). */
	ok = mask64(u64_nonzero(mx));
	res = (res & ok) | ((uint64_t)sign << 63);
	return u64_select(u64_nonzero(my) ^ 1, res,
		((uint64_t)sign << 63) | FPR_INF_BITS);
}

/* ------------------------------------------------------------------ */
/* Square root. */

uint64_t fa_fpr_sqrt(uint64_t x)
{
	uint64_t mx, rem, s, bit, t, ge, root, res;
	uint32_t odd_field, is_neg;
	int32_t ex;
	int i;

	ex = fpr_exp_field(x);
	mx = fpr_significand(x);

	/* x = mx * 2^(ex - 1075). Make the power of two even: when ex is
	   even, use X = 2 mx and exponent ex - 1076. X in [2^52, 2^54). */
	odd_field = (uint32_t)ex & 1;
	mx = u64_select(odd_field, mx << 1, mx);
	ex -= (int32_t)(odd_field ^ 1);

	/*
	 * Root Q = floor(sqrt(X * 2^56)), in [2^54, 2^55), bit by bit from
	 * bit 54 down. With s = 2Q (bits decided so far) and the residual
	 * R = X * 2^56 - Q^2, bit b is set when R >= 2^(b+1) Q + 2^(2b),
	 * i.e. rem >= s + 2^b with rem = R / 2^b (an integer; rem < 2^57).
	 * Setting it: rem -= s + 2^b, s += 2^(b+1). Next step rem doubles.
	 */
	rem = mx << 2;          /* R / 2^54 at the start */
	s = 0;
	bit = (uint64_t)1 << 54;
	for (i = 0; i < 55; i ++) {
		t = s + bit;
		/* rem, t < 2^58: bit 63 of the difference is the borrow */
		ge = mask64((uint32_t)((rem - t) >> 63) ^ 1);
		rem -= t & ge;
		s += (bit << 1) & ge;
		rem <<= 1;
		bit >>= 1;
	}
	root = (s >> 1) | u64_nonzero(rem);
	/* sqrt(X * 2^(ex - 1075)) = root * 2^((ex - 1075) / 2 - 28);
	   (ex - 1075) / 2 = (ex + 1) / 2 - 538, with ex + 1 >= 0 even. */
	res = fpr_round_pack(0, ((ex + 1) >> 1) + 511, root);

	/* zero (or flushed subnormal): itself with its sign, like IEEE;
	   negative nonzero: NaN. */
	is_neg = (uint32_t)(x >> 63);
	res &= mask64(u64_nonzero(mx));
	res |= x & FPR_SIGN_BIT;
	return u64_select(is_neg & u64_nonzero(mx), res, FPR_NAN_BITS);
}

/* ------------------------------------------------------------------ */
/* Conversions to integers. */

/*
 * For |x| < 2^63: sets *ipart = floor(|x|), *half = the bit of weight 1/2
 * of |x|, *rest = 1 if any lower bit of |x| is set; returns the sign
 * (1 for negative).
 */
static inline uint32_t fpr_int_parts(uint64_t x, uint64_t *ipart,
	uint32_t *half, uint32_t *rest)
{
	uint64_t w, h;
	int32_t n;
	uint32_t in_range;

	/* 2|x| = w * 2^(ex - 1085), w = significand << 11 (bit 63 set). */
	w = fpr_significand(x) << 11;
	n = 1085 - fpr_exp_field(x);      /* >= 0 for |x| < 2^63 */
	/* n >= 64: |x| < 1/2, everything is below the half bit. */
	in_range = i32_lt(n, 64);
	n &= 63;
	h = u64_shr(w, (uint32_t)n) & mask64(in_range);   /* floor(2|x|) */
	*ipart = h >> 1;
	*half = (uint32_t)h & 1;
	*rest = u64_nonzero(w - u64_shl(h, (uint32_t)n));
	return (uint32_t)(x >> 63);
}

/* Apply sign (1 = negative) to magnitude u. */
static inline int64_t apply_sign(uint32_t sign, uint64_t u)
{
	return (int64_t)((u ^ mask64(sign)) + sign);
}

/* Nearest integer, ties to even. */
int64_t fa_fpr_rint(uint64_t x)
{
	uint64_t ip;
	uint32_t half, rest, sign;

	sign = fpr_int_parts(x, &ip, &half, &rest);
	ip += half & (rest | ((uint32_t)ip & 1));
	return apply_sign(sign, ip);
}

/*
 * Nearest integer, ties to even, for |x| < 2^31 (Falcon's rounding of
 * s = (t - z) B: every value is far below 2^31), on 32-bit words only:
 * the same value as (int32_t)fa_fpr_rint(x) there, without 64-bit shifts
 * (what the signature's two rounding passes of 2n values cost on RV32).
 * |x| >= 2^31: unspecified (0). Zeros and subnormals give 0.
 *
 * With w = the significand << 11 (bit 63 = the implicit one) split into
 * whi:wlo, 2|x| = w * 2^(e - 1085) for the exponent field e. For
 * |x| < 2^31, 2|x| < 2^32 and k = 1053 - e >= 0: floor(2|x|) = whi >> k
 * (0 for k >= 32, |x| < 1/2); its low bit is the half bit, and the bits
 * below it are those of whi shifted out, (whi << 1) << (31 - k), and
 * wlo. Constant time: the shift counts are masked to 0..31 and the range
 * is applied with a mask.
 */
int32_t fa_fpr_rint32(uint64_t x)
{
	uint32_t hi = (uint32_t)(x >> 32), lo = (uint32_t)x;
	int32_t k = 1053 - (int32_t)((hi >> 20) & 0x7FF);
	uint32_t in, sh, whi, h, ip, half, rest, s;

	/* 1 iff 0 <= k < 32 (k in [-994, 1053]: no overflow) */
	in = ((uint32_t)(k - 32) >> 31) & ((uint32_t)~k >> 31);
	sh = (uint32_t)k & 31;
	whi = (hi << 11) | (lo >> 21) | 0x80000000u;
	h = whi >> sh;
	ip = h >> 1;
	half = h & 1;
	rest = u32_nonzero(((whi << 1) << (31 - sh)) | (lo << 11));
	ip += half & (rest | (ip & 1));
	ip &= 0u - in;
	s = hi >> 31;
	return (int32_t)((ip ^ (0u - s)) + s);
}

/* Largest integer <= x. */
int64_t fa_fpr_floor(uint64_t x)
{
	uint64_t ip;
	uint32_t half, rest, sign;

	sign = fpr_int_parts(x, &ip, &half, &rest);
	/* negative non-integer: -(floor(|x|) + 1) */
	ip += sign & (half | rest);
	return apply_sign(sign, ip);
}

/* Integer part of x * 2^k (rounding towards zero), for 0 <= k < 2^20 and
   |x| * 2^k < 2^63: the same as fa_fpr_trunc(fa_fpr_mul(x, 2^k)) when that
   product is exact (no overflow), without the multiplication. */
int64_t fa_fpr_trunc_scaled(uint64_t x, int k)
{
	uint64_t w, t;
	int32_t n;

	/* |x| * 2^k = w * 2^(ex + k - 1085), w = significand << 10 < 2^63 */
	w = fpr_significand(x) << 10;
	n = 1085 - fpr_exp_field(x) - (int32_t)k;   /* >= 0 in range */
	t = u64_shr(w, (uint32_t)n & 63) & mask64(i32_lt(n, 64));
	return apply_sign((uint32_t)(x >> 63), t);
}

/* Integer part (rounding towards zero). */
int64_t fa_fpr_trunc(uint64_t x)
{
	uint64_t ip;
	uint32_t half, rest, sign;

	sign = fpr_int_parts(x, &ip, &half, &rest);
	return apply_sign(sign, ip);
}

/* ------------------------------------------------------------------ */
/* Comparison. */

/* 1 if x < y, else 0; exact for every non-NaN input, subnormals
   included; -0 and +0 are equal. */
int fa_fpr_lt(uint64_t x, uint64_t y)
{
	uint64_t kx, ky, d;
	uint32_t sx = (uint32_t)(x >> 63), sy = (uint32_t)(y >> 63);

	/* Signed integer keys ordered like the values: +-magnitude. */
	kx = ((x & ~FPR_SIGN_BIT) ^ mask64(sx)) + sx;
	ky = ((y & ~FPR_SIGN_BIT) ^ mask64(sy)) + sy;
	/* Signed kx < ky from kx - ky, corrected for overflow. */
	d = kx - ky;
	return (int)((d ^ ((kx ^ ky) & (d ^ kx))) >> 63);
}
