/*
 * fndsa_ntru.c -- FN-DSA key generation's Gram-Schmidt bound and NTRU
 * solver, deciding exactly as fn-dsa 0.4.0 (its ntrugen procedure) does
 * which candidates (f, g) are kept, and solving them the same way:
 *
 *   - the Gram-Schmidt norm of (q adj f, q adj g)/(f adj f + g adj g) is
 *     computed in 32.32 fixed point (64-bit words, products truncated,
 *     quotients rounded by a fixed bit-serial division, FFT roots from
 *     fndsa_tables.c) and compared with (0.999 * 1.17)^2 q;
 *   - the solver goes down to degree 1 by field norms (N(f) = f(x) f(-x)
 *     in the NTT domain), over the residue number system of 31-bit
 *     primes (fndsa_tables.c), with fixed word counts per depth (the
 *     first table below); there, Res(f) G - Res(g) F = 1 by the binary
 *     extended GCD (rejected when the resultants are not coprime or
 *     q F overflows its words); back up, each level's unreduced
 *     F = F'(x^2) g(-x) is reduced by Babai rounds on approximations:
 *     k = round(F adj f / (f adj f)) from the top words of F and f in
 *     fixed point, F -= k f 2^s, with s lowered by a fixed number of
 *     bits per round (10; 9 for n = 512, 8 for n = 1024) and the working
 *     length of F cut on a fixed schedule; the candidate is rejected
 *     when a word cut from F is not a copy of the sign (the reduction
 *     fell short). The rounding, truncation and wrap-around of each step
 *     are reproduced: the residue counts, the 64-bit wrap of the fixed
 *     point, the two-prime arithmetic of depth 1 (with its restore of k
 *     between the two primes as fn-dsa does it). Only F travels up;
 *     G = (q + g F)/f is recomputed at depth 0, where k
 *     uses the full expression (F adj f + G adj g)/(f adj f + g adj g)
 *     (G mod one prime, division in fixed point), and the result must
 *     fit [-127, 127].
 *
 * Constant time: every loop count, word count and memory index depends
 * only on logn (and on public tables); data-dependent choices are masks.
 * What is declared public (ct_declassify.h) is each verdict that
 * rejects the candidate, which is then discarded: resultants not
 * coprime, q F overflowing, a reduction that fell short, f not
 * invertible mod the first prime, F or G out of range. Not covered:
 * 64-bit variable shifts by a secret count below 32 (the scale of f's
 * top words: on 32-bit targets the compiler's code may branch on the
 * count) and the multiplier's timing, as in fn-dsa.
 */

#include "fndsa_inner.h"
#include "ct_declassify.h"

/* Words per value at each depth: (f, g) and the reduced (F, G), then the
   unreduced F. */
static const uint16_t small_bl[11] = {
	1, 1, 2, 3, 4, 8, 14, 27, 53, 104, 207
};
static const uint16_t large_bl[10] = {
	1, 2, 3, 6, 11, 21, 40, 78, 155, 308
};
/* From which depth the (f, g) computed on the way down are kept (at the
   end of the scratch area) instead of recomputed on the way up. */
static const uint8_t min_save_fg[11] = { 0, 0, 1, 2, 2, 2, 2, 2, 3, 3, 4 };
/* Top words of f used for the approximation, per depth. */
static const uint8_t word_win[10] = { 1, 1, 2, 2, 2, 3, 3, 4, 5, 7 };
/* Bits shaved per reduction round, per logn of the key. */
static const uint8_t reduce_bits[11] = {
	10, 10, 10, 10, 10, 10, 10, 10, 10, 9, 8
};

#define PR_P(i)    (fa_fndsa_primes[i][0])
#define PR_P0I(i)  (fa_fndsa_primes[i][1])
#define PR_R2(i)   (fa_fndsa_primes[i][2])
#define PR_G(i)    (fa_fndsa_primes[i][3])
#define PR_IG(i)   (fa_fndsa_primes[i][4])
#define PR_S(i)    (fa_fndsa_primes[i][5])

#define Q 12289u

/* All ones if the top bit of x is set. */
static inline uint32_t top_mask(uint32_t x)
{
	return (uint32_t)0 - (x >> 31);
}

static inline uint64_t top_mask64(uint64_t x)
{
	return (uint64_t)0 - (x >> 63);
}

/* Arithmetic right shift of a 64-bit two's complement word, e < 64. */
static inline uint64_t sar64(uint64_t x, unsigned e)
{
	uint64_t s = top_mask64(x);

	return ((x ^ s) >> e) ^ s;
}

static inline int32_t as_i32(uint32_t x)
{
	return (int32_t)x;
}

/* Leading zeros (32 for 0), without branches or tables. */
static uint32_t clz32(uint32_t x)
{
	uint32_t n = 0;
	unsigned k;

	for (k = 16; k > 0; k >>= 1) {
		uint32_t z = x >> (32 - k);
		uint32_t m = ((z | ((uint32_t)0 - z)) >> 31) - 1;

		x = ((x << k) & m) | (x & ~m);
		n += k & m;
	}
	return n + 1 - (x >> 31);
}

static inline uint32_t bit_length(uint32_t x)
{
	return 32 - clz32(x);
}

/* x / 31 and x % 31 for x <= 63487. */
static inline void divrem31(uint32_t x, uint32_t *q, uint32_t *r)
{
	uint32_t d = (x * 67651u) >> 21;

	*q = d;
	*r = x - 31 * d;
}

/* ------------------------------------------------------------------ */
/* Arithmetic modulo a 31-bit prime p (values in [0, p); Montgomery
   products with R = 2^32). */

static inline uint32_t mp_set(int32_t v, uint32_t p)
{
	uint32_t w = (uint32_t)v;

	return w + (p & top_mask(w));
}

static inline uint32_t mp_set_u(uint32_t v, uint32_t p)
{
	uint32_t w = v - p;

	return w + (p & top_mask(w));
}

/* To (-p/2, p/2]. */
static inline int32_t mp_norm(uint32_t x, uint32_t p)
{
	uint32_t c = top_mask(x - ((p + 1) >> 1));

	return as_i32(x - (p & ~c));
}

static inline uint32_t mp_add(uint32_t a, uint32_t b, uint32_t p)
{
	uint32_t d = a + b - p;

	return d + (p & top_mask(d));
}

static inline uint32_t mp_sub(uint32_t a, uint32_t b, uint32_t p)
{
	uint32_t d = a - b;

	return d + (p & top_mask(d));
}

static inline uint32_t mp_half(uint32_t a, uint32_t p)
{
	return (a + (p & ((uint32_t)0 - (a & 1)))) >> 1;
}

static inline uint32_t mp_mmul(uint32_t a, uint32_t b, uint32_t p,
	uint32_t p0i)
{
	uint64_t z = (uint64_t)a * b;
	uint32_t w = (uint32_t)z * p0i;
	uint32_t d = (uint32_t)((z + (uint64_t)w * p) >> 32) - p;

	return d + (p & top_mask(d));
}

/* 2^(31 e) mod p (plain). */
static uint32_t mp_rx31(uint32_t e, uint32_t p, uint32_t p0i, uint32_t r2)
{
	uint32_t x = mp_half(r2, p), d = 1;

	for (;;) {
		if (e & 1) {
			d = mp_mmul(d, x, p, p0i);
		}
		e >>= 1;
		if (e == 0) {
			return d;
		}
		x = mp_mmul(x, x, p, p0i);
	}
}

/* x / y mod p (0 if y is 0 mod p): binary extended GCD, 60 fixed
   steps. */
static uint32_t mp_div(uint32_t x, uint32_t y, uint32_t p)
{
	uint32_t a = y, b = p, u = x, v = 0;
	int i;

	for (i = 0; i < 60; i ++) {
		uint32_t odd = (uint32_t)0 - (a & 1);
		uint32_t sw = top_mask(a - b) & odd, t;

		t = sw & (a ^ b);
		a ^= t;
		b ^= t;
		t = sw & (u ^ v);
		u ^= t;
		v ^= t;
		a -= odd & b;
		u = mp_sub(u, odd & v, p);
		a >>= 1;
		u = mp_half(u, p);
	}
	return v & top_mask(b - 2);
}

static uint32_t rev10(uint32_t x)
{
	uint32_t r = 0;
	int i;

	for (i = 0; i < 10; i ++) {
		r = (r << 1) | ((x >> i) & 1);
	}
	return r;
}

/* NTT roots of degree 2^logn from prime i (bit-reversed, Montgomery):
   gm from g, igm from 1/g starting at 1/2. Either may be NULL. */
static void mp_roots(uint32_t *gm, uint32_t *igm, unsigned logn, size_t i)
{
	uint32_t p = PR_P(i), p0i = PR_P0I(i);
	uint32_t g = PR_G(i), ig = PR_IG(i);
	uint32_t x1 = ((uint32_t)0 - p) << 1, x2 = 0x80000000u - p;
	unsigned k = 10 - logn, j;
	size_t u;

	for (j = logn; j < 10; j ++) {
		g = mp_mmul(g, g, p, p0i);
		ig = mp_mmul(ig, ig, p, p0i);
	}
	for (u = 0; u < MKN(logn); u ++) {
		uint32_t v = rev10((uint32_t)u << k);

		if (gm != NULL) {
			gm[v] = x1;
		}
		if (igm != NULL) {
			igm[v] = x2;
		}
		x1 = mp_mmul(x1, g, p, p0i);
		x2 = mp_mmul(x2, ig, p, p0i);
	}
}

static void mp_ntt(uint32_t *a, const uint32_t *gm, unsigned logn,
	uint32_t p, uint32_t p0i)
{
	size_t t = MKN(logn), m, i, j;

	for (m = 1; m < MKN(logn); m <<= 1) {
		size_t ht = t >> 1, j0 = 0;

		for (i = 0; i < m; i ++) {
			uint32_t s = gm[i + m];

			for (j = j0; j < j0 + ht; j ++) {
				uint32_t x1 = a[j];
				uint32_t x2 = mp_mmul(a[j + ht], s, p, p0i);

				a[j] = mp_add(x1, x2, p);
				a[j + ht] = mp_sub(x1, x2, p);
			}
			j0 += t;
		}
		t = ht;
	}
}

static void mp_intt(uint32_t *a, const uint32_t *igm, unsigned logn,
	uint32_t p, uint32_t p0i)
{
	size_t t = 1, hm, i, j;

	for (hm = MKN(logn) >> 1; hm > 0; hm >>= 1) {
		size_t dt = t << 1, j0 = 0;

		for (i = 0; i < hm; i ++) {
			uint32_t s = igm[i + hm];

			for (j = j0; j < j0 + t; j ++) {
				uint32_t x1 = a[j], x2 = a[j + t];

				a[j] = mp_half(mp_add(x1, x2, p), p);
				a[j + t] = mp_mmul(mp_sub(x1, x2, p), s, p, p0i);
			}
			j0 += dt;
		}
		t = dt;
	}
}

/* ------------------------------------------------------------------ */
/* Big integers: 31-bit words, little-endian, two's complement when
   signed; the words of one value `stride` apart. */

/* m *= x (x < 2^31, m unsigned, stride 1); returns the carry. */
static uint32_t zint_mul_small(uint32_t *m, size_t len, uint32_t x)
{
	uint32_t cc = 0;
	size_t u;

	for (u = 0; u < len; u ++) {
		uint64_t z = (uint64_t)m[u] * x + cc;

		m[u] = (uint32_t)z & 0x7FFFFFFF;
		cc = (uint32_t)(z >> 31);
	}
	return cc;
}

static uint32_t zint_mod_unsigned(const uint32_t *d, size_t len,
	size_t stride, uint32_t p, uint32_t p0i, uint32_t r2)
{
	uint32_t x = 0, z = mp_half(r2, p);
	size_t u = len;

	while (u -- > 0) {
		x = mp_mmul(x, z, p, p0i);
		x = mp_add(x, mp_set_u(d[u * stride], p), p);
	}
	return x;
}

/* rx = 2^(31 len) mod p. */
static uint32_t zint_mod_signed(const uint32_t *d, size_t len,
	size_t stride, uint32_t p, uint32_t p0i, uint32_t r2, uint32_t rx)
{
	uint32_t r;

	if (len == 0) {
		return 0;
	}
	r = zint_mod_unsigned(d, len, stride, p, p0i, r2);
	return mp_sub(r, rx & ((uint32_t)0 - (d[(len - 1) * stride] >> 30)),
		p);
}

/* d += a s (d: len words at stride, one more word receives the carry;
   a: len words, stride 1; s < 2^31). */
static void zint_add_mul_small(uint32_t *d, size_t stride,
	const uint32_t *a, size_t len, uint32_t s)
{
	uint32_t cc = 0;
	size_t u;

	for (u = 0; u < len; u ++) {
		uint64_t z = (uint64_t)s * a[u] + d[u * stride] + cc;

		d[u * stride] = (uint32_t)z & 0x7FFFFFFF;
		cc = (uint32_t)(z >> 31);
	}
	d[len * stride] = cc;
}

/* x in [0, m) (stride xs; m stride 1, len words): x - m if x > m/2. */
static void zint_norm_zero(uint32_t *x, size_t xs, const uint32_t *m,
	size_t len)
{
	uint32_t r = 0, bb = 0, cc, mk;
	size_t u = len;

	while (u -- > 0) {
		uint32_t mw = m[u];
		uint32_t hw = (mw >> 1) | (bb << 30);
		uint32_t c;

		bb = mw & 1;
		c = hw - x[u * xs];
		c = (((uint32_t)0 - c) >> 31) | top_mask(c);
		r |= c & ((r & 1) - 1);
	}
	mk = top_mask(r);
	cc = 0;
	for (u = 0; u < len; u ++) {
		uint32_t w = x[u * xs] - (m[u] & mk) - cc;

		x[u * xs] = w & 0x7FFFFFFF;
		cc = w >> 31;
	}
}

/* From residues (the first xlen primes) to words, in place: num_sets
   sets of n values, value k of a set at stride n; signed (centred) if
   sgn. tmp: xlen words. */
static void zint_rebuild_crt(uint32_t *xx, size_t xlen, size_t n,
	size_t num_sets, int sgn, uint32_t *tmp)
{
	size_t i, j, k;

	tmp[0] = PR_P(0);
	for (i = 1; i < xlen; i ++) {
		uint32_t p = PR_P(i), p0i = PR_P0I(i), r2 = PR_R2(i);
		uint32_t s = PR_S(i);

		for (j = 0; j < num_sets; j ++) {
			for (k = 0; k < n; k ++) {
				uint32_t *x = xx + j * n * xlen + k;
				uint32_t xr = zint_mod_unsigned(x, i, n, p, p0i, r2);
				uint32_t xt = mp_mmul(s, mp_sub(x[i * n], xr, p),
					p, p0i);

				zint_add_mul_small(x, n, tmp, i, xt);
			}
		}
		tmp[i] = zint_mul_small(tmp, i, p);
	}
	if (sgn) {
		for (j = 0; j < num_sets; j ++) {
			for (k = 0; k < n; k ++) {
				zint_norm_zero(xx + j * n * xlen + k, n, tmp, xlen);
			}
		}
	}
}

/* a <- -a if ctl is all ones (a unchanged if ctl is 0), as fn-dsa does
   it: the complement plus one, the carry out of each word then
   subtracted from the next (so a low word of zero gives a value that is
   not -a; the GCD below depends on it). */
static void zint_negate(uint32_t *a, size_t len, uint32_t ctl)
{
	uint32_t m = ctl >> 1, cc = ctl;
	size_t u;

	for (u = 0; u < len; u ++) {
		uint32_t z = (a[u] ^ m) - cc;

		cc = z >> 31;
		a[u] = z & 0x7FFFFFFF;
	}
}

/* (a, b) <- (|a xa + b xb| / 2^31, |a ya + b yb| / 2^31) (coefficients
   in [-2^31, 2^31] as two's complement 64-bit words); *na, *nb: all ones
   where the value was negative. */
static void zint_co_lin_div31_abs(uint32_t *a, uint32_t *b, size_t len,
	uint64_t xa, uint64_t xb, uint64_t ya, uint64_t yb,
	uint32_t *na, uint32_t *nb)
{
	uint64_t ca = 0, cb = 0;
	size_t u;

	for (u = 0; u < len; u ++) {
		uint64_t aw = a[u], bw = b[u];
		uint64_t za = aw * xa + bw * xb + ca;
		uint64_t zb = aw * ya + bw * yb + cb;

		if (u > 0) {
			a[u - 1] = (uint32_t)za & 0x7FFFFFFF;
			b[u - 1] = (uint32_t)zb & 0x7FFFFFFF;
		}
		ca = sar64(za, 31);
		cb = sar64(zb, 31);
	}
	a[len - 1] = (uint32_t)ca & 0x7FFFFFFF;
	b[len - 1] = (uint32_t)cb & 0x7FFFFFFF;
	*na = (uint32_t)top_mask64(ca);
	*nb = (uint32_t)top_mask64(cb);
	zint_negate(a, len, *na);
	zint_negate(b, len, *nb);
}

/* a in [-m, 0) (neg all ones) or [0, 2m) (neg zero; the top word may
   hold 32 bits) to [0, m). */
static void zint_finish_mod(uint32_t *a, const uint32_t *m, size_t len,
	uint32_t neg)
{
	uint32_t cc = 0, xm, ym;
	size_t u;

	for (u = 0; u < len; u ++) {
		cc = (a[u] - m[u] - cc) >> 31;
	}
	xm = neg >> 1;
	ym = neg | (cc - 1);
	cc = neg & 1;
	for (u = 0; u < len; u ++) {
		uint32_t z = a[u] - ((m[u] ^ xm) & ym) - cc;

		a[u] = z & 0x7FFFFFFF;
		cc = z >> 31;
	}
}

/* (a, b) <- ((a xa + b xb) / 2^31 mod m, (a ya + b yb) / 2^31 mod m)
   (Montgomery steps), m odd, m0i = -1/m mod 2^31. */
static void zint_co_lin_mod(uint32_t *a, uint32_t *b, const uint32_t *m,
	size_t len, uint32_t m0i, uint64_t xa, uint64_t xb, uint64_t ya,
	uint64_t yb)
{
	uint64_t ca = 0, cb = 0;
	uint32_t fa, fb;
	size_t u;

	fa = ((a[0] * (uint32_t)xa + b[0] * (uint32_t)xb) * m0i) & 0x7FFFFFFF;
	fb = ((a[0] * (uint32_t)ya + b[0] * (uint32_t)yb) * m0i) & 0x7FFFFFFF;
	for (u = 0; u < len; u ++) {
		uint64_t aw = a[u], bw = b[u], mw = m[u];
		uint64_t za = aw * xa + bw * xb + mw * fa + ca;
		uint64_t zb = aw * ya + bw * yb + mw * fb + cb;

		if (u > 0) {
			a[u - 1] = (uint32_t)za & 0x7FFFFFFF;
			b[u - 1] = (uint32_t)zb & 0x7FFFFFFF;
		}
		ca = sar64(za, 31);
		cb = sar64(zb, 31);
	}
	a[len - 1] = (uint32_t)ca;
	b[len - 1] = (uint32_t)cb;
	zint_finish_mod(a, m, len, (uint32_t)top_mask64(ca));
	zint_finish_mod(b, m, len, (uint32_t)top_mask64(cb));
}

/* -1/x mod 2^31, x odd. */
static uint32_t ninv31(uint32_t x)
{
	uint32_t y = 2 - x;
	int i;

	for (i = 0; i < 4; i ++) {
		y *= 2 - x * y;
	}
	return ((uint32_t)0 - y) & 0x7FFFFFFF;
}

/* x u - y v = 1 with 0 <= u <= y, 0 <= v <= x, for x, y odd of len
   words; returns all ones if gcd(x, y) = 1, else 0. tmp: 4 len words.
   Binary GCD on 63-bit approximations of the top words, 31 steps per
   round (eprint 2020/972), the coefficients kept by Montgomery
   reduction. */
static uint32_t zint_bezout(uint32_t *u, uint32_t *v, const uint32_t *x,
	const uint32_t *y, size_t len, uint32_t *tmp)
{
	uint32_t *u0, *v0, *a, *b, x0i, y0i, r;
	size_t num, i;

	if (len == 0) {
		return 0;
	}
	u0 = tmp;
	v0 = u0 + len;
	a = v0 + len;
	b = a + len;
	/* a = x u0 - y v0, b = x u - y v throughout */
	memcpy(a, x, len * sizeof *a);
	memcpy(b, y, len * sizeof *b);
	memset(u0, 0, len * sizeof *u0);
	u0[0] = 1;
	memset(v0, 0, len * sizeof *v0);
	memcpy(u, y, len * sizeof *u);
	memcpy(v, x, len * sizeof *v);
	v[0] = x[0] - 1;
	x0i = ninv31(x[0]);
	y0i = ninv31(y[0]);

	for (num = 62 * len + 31; num >= 31; num -= 31) {
		uint32_t c0 = 0xFFFFFFFFu, c1 = 0xFFFFFFFFu, cp = 0xFFFFFFFFu;
		uint32_t a0 = 0, a1 = 0, b0 = 0, b1 = 0, ha, hb, s, na, nb;
		uint64_t xa, xb, fg0, fg1, f0, g0, f1, g1;
		int j;

		/* the top two non-zero words of max(a, b) (or fewer) */
		i = len;
		while (i -- > 0) {
			uint32_t aw = a[i], bw = b[i];

			a1 ^= c1 & (a1 ^ aw);
			a0 ^= c0 & (a0 ^ aw);
			b1 ^= c1 & (b1 ^ bw);
			b0 ^= c0 & (b0 ^ bw);
			cp = c0;
			c0 = c1;
			c1 &= (((aw | bw) + 0x7FFFFFFF) >> 31) - 1;
		}
		s = clz32(a1 | b1 | ((cp & c0) >> 1));
		ha = (a1 << s) | (a0 >> (31 - s));
		hb = (b1 << s) | (b0 >> (31 - s));
		ha ^= cp & (ha ^ a1);
		hb ^= cp & (hb ^ b1);
		ha &= ~c0;
		hb &= ~c0;
		xa = ((uint64_t)ha << 31) | a[0];
		xb = ((uint64_t)hb << 31) | b[0];

		/* 31 steps on the approximations; the factors packed two per
		   word with a bias */
		fg0 = 1;
		fg1 = (uint64_t)1 << 32;
		for (j = 0; j < 31; j ++) {
			uint64_t odd = (uint64_t)0 - (xa & 1);
			uint64_t sw = odd & top_mask64(xa - xb), t;

			t = sw & (xa ^ xb);
			xa ^= t;
			xb ^= t;
			t = sw & (fg0 ^ fg1);
			fg0 ^= t;
			fg1 ^= t;
			xa -= odd & xb;
			fg0 -= odd & fg1;
			xa >>= 1;
			fg1 <<= 1;
		}
		fg0 += 0x7FFFFFFF7FFFFFFFu;
		fg1 += 0x7FFFFFFF7FFFFFFFu;
		f0 = (fg0 & 0xFFFFFFFFu) - 0x7FFFFFFFu;
		g0 = (fg0 >> 32) - 0x7FFFFFFFu;
		f1 = (fg1 & 0xFFFFFFFFu) - 0x7FFFFFFFu;
		g1 = (fg1 >> 32) - 0x7FFFFFFFu;

		zint_co_lin_div31_abs(a, b, len, f0, g0, f1, g1, &na, &nb);
		/* a, b were made non-negative: the factors follow */
		{
			uint64_t ma = (uint64_t)0 - (uint64_t)(na & 1);
			uint64_t mb = (uint64_t)0 - (uint64_t)(nb & 1);

			f0 = (f0 ^ ma) - ma;
			g0 = (g0 ^ ma) - ma;
			f1 = (f1 ^ mb) - mb;
			g1 = (g1 ^ mb) - mb;
		}
		zint_co_lin_mod(u0, u, y, len, y0i, f0, g0, f1, g1);
		zint_co_lin_mod(v0, v, x, len, x0i, f0, g0, f1, g1);
	}

	/* b = gcd(x, y) */
	r = b[0] ^ 1;
	for (i = 1; i < len; i ++) {
		r |= b[i];
	}
	r |= (x[0] & y[0] & 1) ^ 1;
	return ((r | ((uint32_t)0 - r)) >> 31) - 1;
}

/* x += k 2^(31 sch + scl) y, truncated to xlen words (x, y signed, the
   same stride; y sign-extended past ylen words). */
static void zint_add_scaled_mul_small(uint32_t *x, size_t xlen,
	const uint32_t *y, size_t ylen, size_t stride, int32_t k,
	uint32_t sch, uint32_t scl)
{
	uint32_t ysign, tw = 0;
	uint64_t cc = 0;
	size_t u;

	if (ylen == 0 || sch >= xlen) {
		return;
	}
	ysign = ((uint32_t)0 - (y[(ylen - 1) * stride] >> 30)) >> 1;
	for (u = sch; u < xlen; u ++) {
		size_t v = u - sch;
		uint32_t wy = v < ylen ? y[v * stride] : ysign;
		uint32_t wys = ((wy << scl) & 0x7FFFFFFF) | tw;
		uint64_t z;

		tw = wy >> (31 - scl);
		z = (uint64_t)((int64_t)wys * k) + x[u * stride] + cc;
		x[u * stride] = (uint32_t)z & 0x7FFFFFFF;
		cc = sar64(z, 31);
	}
}

/* x -= 2^(31 sch + scl) y, truncated to xlen words. */
static void zint_sub_scaled(uint32_t *x, size_t xlen, const uint32_t *y,
	size_t ylen, size_t stride, uint32_t sch, uint32_t scl)
{
	uint32_t ysign, tw = 0, cc = 0;
	size_t u;

	if (ylen == 0 || sch >= xlen) {
		return;
	}
	ysign = ((uint32_t)0 - (y[(ylen - 1) * stride] >> 30)) >> 1;
	for (u = sch; u < xlen; u ++) {
		size_t v = u - sch;
		uint32_t wy = v < ylen ? y[v * stride] : ysign;
		uint32_t wys = ((wy << scl) & 0x7FFFFFFF) | tw;
		uint32_t z;

		tw = wy >> (31 - scl);
		z = x[u * stride] - wys - cc;
		x[u * stride] = z & 0x7FFFFFFF;
		cc = z >> 31;
	}
}

/* ------------------------------------------------------------------ */
/* 32.32 fixed point in 64-bit two's complement words; a complex value
   in FFT form is (v[j], v[j + n/2]). */

typedef uint64_t fxr;

static inline fxr fxr_of(int32_t j)
{
	return (uint64_t)(uint32_t)j << 32;
}

static inline int32_t fxr_round(fxr x)
{
	return as_i32((uint32_t)((x + 0x80000000u) >> 32));
}

/* floor(x y / 2^32) mod 2^64 */
static inline fxr fxr_mul(fxr x, fxr y)
{
	uint32_t xl = (uint32_t)x, xh = (uint32_t)(x >> 32);
	uint32_t yl = (uint32_t)y, yh = (uint32_t)(y >> 32);
	uint64_t z0 = ((uint64_t)xl * yl) >> 32;
	uint64_t z1 = (uint64_t)((int64_t)xl * as_i32(yh));
	uint64_t z2 = (uint64_t)((int64_t)as_i32(xh) * yl);
	uint64_t z3 = (uint64_t)(xh * yh) << 32;

	return z0 + z1 + z2 + z3;
}

static inline fxr fxr_sqr(fxr x)
{
	return fxr_mul(x, x);
}

/* x / 2^e, rounded (halves up), e < 64 */
static inline fxr fxr_div2e(fxr x, unsigned e)
{
	return sar64(x + (((uint64_t)1 << e) >> 1), e);
}

/* x / y: sign-magnitude, bit by bit, the last bit rounded */
static fxr fxr_div(fxr x, fxr y)
{
	uint64_t sx = top_mask64(x), sy = top_mask64(y), q = 0, num, b, s;
	int i;

	x = (x ^ sx) - sx;
	y = (y ^ sy) - sy;
	num = x >> 31;
	for (i = 63; i >= 33; i --) {
		b = 1 ^ ((num - y) >> 63);
		q |= b << i;
		num -= y & ((uint64_t)0 - b);
		num <<= 1;
		num |= (x >> (i - 33)) & 1;
	}
	for (i = 32; i >= 0; i --) {
		b = 1 ^ ((num - y) >> 63);
		q |= b << i;
		num -= y & ((uint64_t)0 - b);
		num <<= 1;
	}
	q += 1 ^ ((num - y) >> 63);
	s = sx ^ sy;
	return (q ^ s) - s;
}

static inline int fxr_lt(fxr x, fxr y)
{
	return (x ^ 0x8000000000000000u) < (y ^ 0x8000000000000000u);
}

/* (a + ib)(c + id), in the three-product form (its truncations define
   the result). */
static inline void fxc_mul(fxr *re, fxr *im, fxr a, fxr b, fxr c, fxr d)
{
	fxr z0 = fxr_mul(a, c), z1 = fxr_mul(b, d);
	fxr z2 = fxr_mul(a + b, c + d);

	*re = z0 - z1;
	*im = z2 - (z0 + z1);
}

#define ROOT_RE(j)  (fa_fndsa_fxr_roots[j][0])
#define ROOT_IM(j)  (fa_fndsa_fxr_roots[j][1])

static void vect_fft(fxr *f, unsigned logn)
{
	size_t hn = MKN(logn) >> 1, t = hn, m, i, j;

	for (m = 2; m < MKN(logn); m <<= 1) {
		size_t ht = t >> 1, j0 = 0;

		for (i = 0; i < (m >> 1); i ++) {
			fxr sr = ROOT_RE(m + i), si = ROOT_IM(m + i);

			for (j = j0; j < j0 + ht; j ++) {
				fxr xr = f[j], xi = f[j + hn], zr, zi;

				fxc_mul(&zr, &zi, sr, si, f[j + ht], f[j + ht + hn]);
				f[j] = xr + zr;
				f[j + hn] = xi + zi;
				f[j + ht] = xr - zr;
				f[j + ht + hn] = xi - zi;
			}
			j0 += t;
		}
		t = ht;
	}
}

static void vect_ifft(fxr *f, unsigned logn)
{
	size_t hn = MKN(logn) >> 1, ht = 1, m, i, j;

	for (m = hn; m >= 2; m >>= 1) {
		size_t t = ht << 1, j0 = 0;

		for (i = 0; i < (m >> 1); i ++) {
			fxr sr = ROOT_RE(m + i), si = (fxr)0 - ROOT_IM(m + i);

			for (j = j0; j < j0 + ht; j ++) {
				fxr xr = f[j], xi = f[j + hn];
				fxr yr = f[j + ht], yi = f[j + ht + hn];

				f[j] = fxr_div2e(xr + yr, 1);
				f[j + hn] = fxr_div2e(xi + yi, 1);
				fxc_mul(&f[j + ht], &f[j + ht + hn], sr, si,
					fxr_div2e(xr - yr, 1), fxr_div2e(xi - yi, 1));
			}
			j0 += t;
		}
		ht = t;
	}
}

static void vect_of_small(fxr *d, const int8_t *f, unsigned logn)
{
	size_t u;

	for (u = 0; u < MKN(logn); u ++) {
		d[u] = fxr_of(f[u]);
	}
}

static void vect_mul_fft(fxr *a, const fxr *b, unsigned logn)
{
	size_t hn = MKN(logn) >> 1, u;

	for (u = 0; u < hn; u ++) {
		fxc_mul(&a[u], &a[u + hn], a[u], a[u + hn], b[u], b[u + hn]);
	}
}

/* 2^e / (a adj a + b adj b), self-adjoint: n/2 values. */
static void vect_invnorm_fft(fxr *d, const fxr *a, const fxr *b,
	unsigned e, unsigned logn)
{
	size_t hn = MKN(logn) >> 1, u;
	fxr r = fxr_of((int32_t)1 << e);

	for (u = 0; u < hn; u ++) {
		fxr z = fxr_sqr(a[u]) + fxr_sqr(a[u + hn])
			+ fxr_sqr(b[u]) + fxr_sqr(b[u + hn]);

		d[u] = fxr_div(r, z);
	}
}

/* a <- 2^e / a (in FFT form). */
static void vect_inv_mul2e_fft(fxr *a, unsigned e, unsigned logn)
{
	size_t hn = MKN(logn) >> 1, u;

	for (u = 0; u < hn; u ++) {
		fxr re = a[u], im = (fxr)0 - a[u + hn];
		fxr z = fxr_sqr(a[u]) + fxr_sqr(a[u + hn]);

		a[u] = fxr_div(re << e, z);
		a[u + hn] = fxr_div(im << e, z);
	}
}

/* ------------------------------------------------------------------ */
/* The Gram-Schmidt bound. tmp: 5n/2 fxr. */

int fa_fndsa_ortho_norm_ok(const int8_t *f, const int8_t *g, unsigned logn,
	uint64_t *tmp)
{
	size_t n = MKN(logn), hn = n >> 1, u;
	fxr *fx = tmp, *gx = fx + n, *rt = gx + n, sn = 0;
	fxr cq = fxr_of((int32_t)Q);

	vect_of_small(fx, f, logn);
	vect_of_small(gx, g, logn);
	vect_fft(fx, logn);
	vect_fft(gx, logn);
	vect_invnorm_fft(rt, fx, gx, 0, logn);
	for (u = hn; u < n; u ++) {
		fx[u] = (fxr)0 - fx[u];
		gx[u] = (fxr)0 - gx[u];
	}
	for (u = 0; u < n; u ++) {
		fx[u] = fxr_mul(fx[u], cq);
		gx[u] = fxr_mul(gx[u], cq);
	}
	for (u = 0; u < hn; u ++) {
		fx[u] = fxr_mul(fx[u], rt[u]);
		fx[u + hn] = fxr_mul(fx[u + hn], rt[u]);
		gx[u] = fxr_mul(gx[u], rt[u]);
		gx[u + hn] = fxr_mul(gx[u + hn], rt[u]);
	}
	vect_ifft(fx, logn);
	vect_ifft(gx, logn);
	for (u = 0; u < n; u ++) {
		sn += fxr_sqr(fx[u]) + fxr_sqr(gx[u]);
	}
	/* (0.999 * 1.17)^2 q, times 2^32 */
	return fxr_lt(sn, (fxr)72107278641426u);
}

/* ------------------------------------------------------------------ */
/* Polynomials over big integers: coefficient i's word j at i + (j << logn). */

/* The largest bit length of the len-word coefficients of x (signed). */
static uint32_t poly_max_bitlength(const uint32_t *x, size_t len,
	unsigned logn)
{
	size_t n = MKN(logn), i, j;
	uint32_t t = 0, tk = 0;

	for (i = 0; i < n; i ++) {
		uint32_t m = ((uint32_t)0 - (x[i + ((len - 1) << logn)] >> 30))
			& 0x7FFFFFFF;
		uint32_t c = 0, ck = 0, nz, z1, z2;

		for (j = 0; j < len; j ++) {
			uint32_t w = x[i + (j << logn)] ^ m;

			nz = ((w - 1) >> 31) - 1;
			c ^= nz & (c ^ w);
			ck ^= nz & (ck ^ (uint32_t)j);
		}
		z1 = tk - ck;
		z2 = ((tk ^ ck) - 1) & (t - c);
		nz = top_mask(z1 | z2);
		t ^= nz & (t ^ c);
		tk ^= nz & (tk ^ ck);
	}
	return 31 * tk + bit_length(t);
}

/* d[i] = x[i] / 2^sc in fixed point, from three words of x around
   position sc (|x| < 2^(30 + sc) assumed); flen words. */
static void poly_big_to_fixed(fxr *d, const uint32_t *x, size_t flen,
	uint32_t sc, unsigned logn)
{
	size_t n = MKN(logn), i, j;
	uint32_t sch, scl, t, t0, t1, t2;

	if (flen == 0) {
		memset(d, 0, n * sizeof *d);
		return;
	}
	/* sc = 31 sch + scl with scl in 1..31 (sch wraps for sc = 0) */
	divrem31(sc, &sch, &scl);
	t = (scl - 1) >> 5;
	sch -= t & 1;
	scl |= t & 31;
	t0 = (sch - 1) & 0xFFFF;
	t1 = sch & 0xFFFF;
	t2 = (sch + 1) & 0xFFFF;
	for (i = 0; i < n; i ++) {
		uint32_t w0 = 0, w1 = 0, w2 = 0, ws, xl, xh;
		int32_t ff;

		for (j = 0; j < flen; j ++) {
			uint32_t w = x[i + (j << logn)], jj = (uint32_t)j;

			w0 |= w & (uint32_t)(as_i32((jj ^ t0) - 1) >> 16);
			w1 |= w & (uint32_t)(as_i32((jj ^ t1) - 1) >> 16);
			w2 |= w & (uint32_t)(as_i32((jj ^ t2) - 1) >> 16);
		}
		/* words above the top one: copies of the sign */
		ws = ((uint32_t)0 - (x[i + ((flen - 1) << logn)] >> 30)) >> 1;
		ff = as_i32((uint32_t)flen - sch);
		w0 |= ws & top_mask((uint32_t)ff);
		w1 |= ws & top_mask((uint32_t)ff - 1);
		w2 |= ws & top_mask((uint32_t)ff - 2);
		w2 |= (w2 & 0x40000000) << 1;
		xl = (w0 >> (scl - 1)) | (w1 << (32 - scl));
		xh = (w1 >> scl) | (w2 << (31 - scl));
		d[i] = (uint64_t)xl | ((uint64_t)xh << 32);
	}
}

/* F -= (f k) 2^sc (schoolbook), F: Flen words, f: flen words. */
static void poly_sub_scaled(uint32_t *F, size_t Flen, const uint32_t *f,
	size_t flen, const uint32_t *k, uint32_t sc, unsigned logn)
{
	size_t n = MKN(logn), i, j;
	uint32_t sch, scl;

	if (flen == 0) {
		return;
	}
	divrem31(sc, &sch, &scl);
	if (sch >= Flen) {
		return;
	}
	if (flen > Flen - sch) {
		flen = Flen - sch;
	}
	for (i = 0; i < n; i ++) {
		int32_t kf = as_i32((uint32_t)0 - k[i]);

		for (j = i; j < n; j ++) {
			zint_add_scaled_mul_small(F + j, Flen, f + (j - i), flen,
				n, kf, sch, scl);
		}
		kf = as_i32((uint32_t)0 - (uint32_t)kf);
		for (j = 0; j < i; j ++) {
			zint_add_scaled_mul_small(F + j, Flen, f + (j + n - i),
				flen, n, kf, sch, scl);
		}
	}
}

/* F -= (f k) 2^sc with f in RNS+NTT form over flen + 1 primes; the
   product in RNS, then centred. tmp: (flen + 4) n words. */
static void poly_sub_scaled_ntt(uint32_t *F, size_t Flen, const uint32_t *f,
	size_t flen, const uint32_t *k, uint32_t sc, unsigned logn,
	uint32_t *tmp)
{
	size_t n = MKN(logn), tlen = flen + 1, i, j;
	uint32_t *gm = tmp, *igm = gm + n, *fk = igm + n, *t1 = fk + tlen * n;
	uint32_t sch, scl;

	for (i = 0; i < tlen; i ++) {
		uint32_t p = PR_P(i), p0i = PR_P0I(i), r2 = PR_R2(i);
		const uint32_t *fs = f + (i << logn);
		uint32_t *ff = fk + (i << logn);

		mp_roots(gm, igm, logn, i);
		for (j = 0; j < n; j ++) {
			t1[j] = mp_set(as_i32(k[j]), p);
		}
		mp_ntt(t1, gm, logn, p, p0i);
		for (j = 0; j < n; j ++) {
			ff[j] = mp_mmul(mp_mmul(t1[j], fs[j], p, p0i), r2, p, p0i);
		}
		mp_intt(ff, igm, logn, p, p0i);
	}
	zint_rebuild_crt(fk, tlen, n, 1, 1, t1);
	divrem31(sc, &sch, &scl);
	for (i = 0; i < n; i ++) {
		zint_sub_scaled(F + i, Flen, fk + i, tlen, n, sch, scl);
	}
}

/* Depth 1: F -= (N(f) k) 2^sc modulo the first FGlen (1 or 2) primes,
   N(f) recomputed from the top-level f, the result centred to 31 or 62
   bits. k is scaled in place for each prime and, between the two
   primes, brought back by the factor fn-dsa uses (2^(-sc mod 32) /
   2^(32 floor(sc / 32)), which restores k when 32 does not divide sc
   and leaves k / 2^32 mod p when it does). tmp: 3n' words (n' the
   degree here). */
static void poly_sub_kf_scaled_depth1(uint32_t *F, size_t FGlen,
	uint32_t *k, uint32_t sc, const int8_t *f, unsigned logn_top,
	uint32_t *tmp)
{
	unsigned logn = logn_top - 1;
	size_t n = MKN(logn), hn = n >> 1, i, j;
	uint32_t *gm = tmp, *t1 = gm + n, *t2 = t1 + n;

	if (FGlen == 1) {
		uint32_t p = PR_P(0);

		for (j = 0; j < n; j ++) {
			uint32_t x = F[j] | ((F[j] & 0x40000000) << 1);

			F[j] = mp_set(as_i32(x), p);
		}
	} else {
		uint32_t p0 = PR_P(0), p0i0 = PR_P0I(0);
		uint32_t p1 = PR_P(1), p0i1 = PR_P0I(1);
		uint32_t z0 = mp_half(PR_R2(0), p0), z1 = mp_half(PR_R2(1), p1);

		for (j = 0; j < n; j ++) {
			uint32_t xl = F[j];
			uint32_t xh = F[j + n] | ((F[j + n] & 0x40000000) << 1);
			uint32_t r0 = mp_add(mp_set_u(xl, p0),
				mp_mmul(mp_set(as_i32(xh), p0), z0, p0, p0i0), p0);
			uint32_t r1 = mp_add(mp_set_u(xl, p1),
				mp_mmul(mp_set(as_i32(xh), p1), z1, p1, p0i1), p1);

			F[j] = r0;
			F[j + n] = r1;
		}
	}

	for (i = 0; i < FGlen; i ++) {
		uint32_t p = PR_P(i), p0i = PR_P0I(i), r2 = PR_R2(i);
		uint32_t r3 = mp_mmul(r2, r2, p, p0i), scv;
		uint32_t *Fu = F + (i << logn);
		uint32_t e;

		mp_roots(gm, NULL, logn, i);
		scv = mp_mmul((uint32_t)1 << (sc & 31), r2, p, p0i);
		for (e = 0; e < (sc >> 5); e ++) {
			scv = mp_mmul(scv, r2, p, p0i);
		}
		for (j = 0; j < n; j ++) {
			k[j] = mp_mmul(scv, mp_set(as_i32(k[j]), p), p, p0i);
		}
		mp_ntt(k, gm, logn, p, p0i);
		mp_ntt(Fu, gm, logn, p, p0i);

		/* N(f) = fe^2 - x fo^2 for f = fe(x^2) + x fo(x^2); in this
		   NTT order, slots 2j and 2j + 1 are at x and -x with x =
		   gm[j + n/2] */
		for (j = 0; j < n; j ++) {
			t1[j] = mp_set(f[2 * j], p);
			t2[j] = mp_set(f[2 * j + 1], p);
		}
		mp_ntt(t1, gm, logn, p, p0i);
		mp_ntt(t2, gm, logn, p, p0i);
		for (j = 0; j < hn; j ++) {
			uint32_t xe0 = t1[2 * j], xe1 = t1[2 * j + 1];
			uint32_t xo0 = t2[2 * j], xo1 = t2[2 * j + 1];
			uint32_t xv0 = gm[j + hn], xv1 = p - xv0;
			uint32_t xf0, xf1;

			xe0 = mp_mmul(xe0, xe0, p, p0i);
			xe1 = mp_mmul(xe1, xe1, p, p0i);
			xo0 = mp_mmul(xo0, xo0, p, p0i);
			xo1 = mp_mmul(xo1, xo1, p, p0i);
			xf0 = mp_sub(xe0, mp_mmul(xo0, xv0, p, p0i), p);
			xf1 = mp_sub(xe1, mp_mmul(xo1, xv1, p, p0i), p);
			Fu[2 * j] = mp_sub(Fu[2 * j], mp_mmul(mp_mmul(xf0,
				k[2 * j], p, p0i), r3, p, p0i), p);
			Fu[2 * j + 1] = mp_sub(Fu[2 * j + 1], mp_mmul(mp_mmul(xf1,
				k[2 * j + 1], p, p0i), r3, p, p0i), p);
		}
		mp_roots(NULL, t1, logn, i);
		mp_intt(Fu, t1, logn, p, p0i);

		if (i + 1 < FGlen) {
			mp_intt(k, t1, logn, p, p0i);
			scv = (uint32_t)1 << (((uint32_t)0 - sc) & 31);
			for (e = 0; e < (sc >> 5); e ++) {
				scv = mp_mmul(scv, 1, p, p0i);
			}
			for (j = 0; j < n; j ++) {
				k[j] = (uint32_t)mp_norm(mp_mmul(scv, k[j], p, p0i),
					p);
			}
		}
	}

	if (FGlen == 1) {
		uint32_t p = PR_P(0);

		for (j = 0; j < n; j ++) {
			F[j] = (uint32_t)mp_norm(F[j], p) & 0x7FFFFFFF;
		}
	} else {
		uint32_t p0 = PR_P(0), p1 = PR_P(1), p0i1 = PR_P0I(1);
		uint32_t s = PR_S(1);
		uint64_t pp = (uint64_t)p0 * p1, hpp = pp >> 1;

		for (j = 0; j < n; j ++) {
			uint32_t x0 = F[j], x1 = F[j + n];
			uint32_t x0m1 = x0 - (p1 & ~top_mask(x0 - p1));
			uint32_t y = mp_mmul(mp_sub(x1, x0m1, p1), s, p1, p0i1);
			uint64_t z = (uint64_t)x0 + (uint64_t)p0 * y;

			z -= pp & top_mask64(hpp - z);
			F[j] = (uint32_t)z & 0x7FFFFFFF;
			F[j + n] = (uint32_t)(z >> 31) & 0x7FFFFFFF;
		}
	}
}

/* ------------------------------------------------------------------ */
/* (f, g) at each depth (RNS over small_bl[depth] primes, NTT form). */

/* Depth 0: f, g mod the first prime, NTT, into the first 2n words. */
static void make_fg_depth0(uint32_t *tmp, const int8_t *f, const int8_t *g,
	unsigned logn)
{
	size_t n = MKN(logn), u;
	uint32_t p = PR_P(0), p0i = PR_P0I(0);
	uint32_t *ft = tmp, *gt = ft + n, *gm = gt + n;

	for (u = 0; u < n; u ++) {
		ft[u] = mp_set(f[u], p);
		gt[u] = mp_set(g[u], p);
	}
	mp_roots(gm, NULL, logn, 0);
	mp_ntt(ft, gm, logn, p, p0i);
	mp_ntt(gt, gm, logn, p, p0i);
}

/* From depth to depth + 1, at the start of work (its length is what the
   caller has left). */
static void make_fg_step(uint32_t *work, unsigned logn_top, unsigned depth)
{
	unsigned logn = logn_top - depth;
	size_t n = MKN(logn), hn = n >> 1, i, j;
	size_t slen = small_bl[depth], tlen = small_bl[depth + 1];
	uint32_t *fd = work, *gd = fd + hn * tlen, *fs = gd + hn * tlen;
	uint32_t *gs = fs + n * slen, *data = gs + n * slen;

	memmove(fs, work, 2 * n * slen * sizeof *work);

	/* the first slen primes: the residues are there; products of
	   paired slots, then back out of NTT form */
	for (i = 0; i < slen; i ++) {
		uint32_t p = PR_P(i), p0i = PR_P0I(i), r2 = PR_R2(i);
		uint32_t *fi = fs + i * n, *gi = gs + i * n;

		for (j = 0; j < hn; j ++) {
			fd[i * hn + j] = mp_mmul(mp_mmul(fi[2 * j], fi[2 * j + 1],
				p, p0i), r2, p, p0i);
			gd[i * hn + j] = mp_mmul(mp_mmul(gi[2 * j], gi[2 * j + 1],
				p, p0i), r2, p, p0i);
		}
		mp_roots(NULL, data, logn, i);
		mp_intt(fi, data, logn, p, p0i);
		mp_intt(gi, data, logn, p, p0i);
	}

	/* further primes: from the rebuilt integers */
	if (tlen > slen) {
		uint32_t *gm = data, *t2 = gm + n;

		zint_rebuild_crt(fs, slen, n, 2, 1, data);
		for (i = slen; i < tlen; i ++) {
			uint32_t p = PR_P(i), p0i = PR_P0I(i), r2 = PR_R2(i);
			uint32_t rx = mp_rx31((uint32_t)slen, p, p0i, r2);

			mp_roots(gm, NULL, logn, i);
			for (j = 0; j < n; j ++) {
				t2[j] = zint_mod_signed(fs + j, slen, n, p, p0i, r2, rx);
			}
			mp_ntt(t2, gm, logn, p, p0i);
			for (j = 0; j < hn; j ++) {
				fd[i * hn + j] = mp_mmul(mp_mmul(t2[2 * j],
					t2[2 * j + 1], p, p0i), r2, p, p0i);
			}
			for (j = 0; j < n; j ++) {
				t2[j] = zint_mod_signed(gs + j, slen, n, p, p0i, r2, rx);
			}
			mp_ntt(t2, gm, logn, p, p0i);
			for (j = 0; j < hn; j ++) {
				gd[i * hn + j] = mp_mmul(mp_mmul(t2[2 * j],
					t2[2 * j + 1], p, p0i), r2, p, p0i);
			}
		}
	}
}

/* ------------------------------------------------------------------ */
/* The solver. tmp: 5n words (tlen its length); (f, g) of the deeper
   levels kept at its end. */

static int solve_deepest(const int8_t *f, const int8_t *g, unsigned logn,
	uint32_t *tmp, size_t tlen)
{
	size_t slen = small_bl[logn];
	uint32_t *work = tmp, *Fp, *Gp, *fp, *gp, *t1;
	size_t wlen = tlen;
	unsigned d;

	make_fg_depth0(work, f, g, logn);
	for (d = 0; d < logn; d ++) {
		unsigned d2 = d + 1;

		make_fg_step(work, logn, d);
		if (d2 < logn && d2 >= min_save_fg[logn]) {
			size_t fglen = (size_t)small_bl[d2] << (logn + 1 - d2);

			wlen -= fglen;
			memmove(work + wlen, work, fglen * sizeof *work);
		}
	}

	/* the resultants (degree 1, RNS) to integers; Res(f) G - Res(g) F
	   = 1, then F times q */
	memmove(tmp + 2 * slen, tmp, 2 * slen * sizeof *tmp);
	Fp = tmp;
	Gp = Fp + slen;
	fp = Gp + slen;
	gp = fp + slen;
	t1 = gp + slen;
	zint_rebuild_crt(fp, slen, 1, 2, 0, t1);
	if (fa_declassify_u32(zint_bezout(Gp, Fp, fp, gp, slen, t1))
		!= 0xFFFFFFFFu)
	{
		return 0;
	}
	if (fa_declassify_u32(zint_mul_small(Fp, slen, Q)) != 0) {
		return 0;
	}
	return 1;
}

static int solve_intermediate(const int8_t *f, const int8_t *g,
	unsigned logn_top, unsigned depth, uint32_t *tmp, size_t tmplen,
	fxr *ftmp)
{
	unsigned logn = logn_top - depth;
	size_t n = MKN(logn), hn = n >> 1, i, j;
	size_t slen = small_bl[depth], llen = large_bl[depth];
	size_t tlen = small_bl[depth + 1], rlen, blen, slen_adj, FGlen;
	unsigned msav = min_save_fg[logn_top];
	uint32_t *Ft, *ft, *gt, *Fd, *work, *k, *t2;
	uint32_t scale_fg, scale_FG, scale_x, scale_t, rbits;
	fxr *rt3, *rt1;
	int use_ntt;

	/* (f, g) of this level: recomputed or taken from the saved ones */
	if (depth < msav) {
		uint32_t *w = tmp + tlen * hn;
		unsigned d;

		make_fg_depth0(w, f, g, logn_top);
		for (d = 0; d < depth; d ++) {
			make_fg_step(w, logn_top, d);
		}
	} else {
		size_t off = tmplen;
		unsigned d;

		for (d = msav; d <= depth; d ++) {
			off -= (size_t)small_bl[d] << (logn_top + 1 - d);
		}
		memmove(tmp + tlen * hn, tmp + off, 2 * slen * n * sizeof *tmp);
	}

	/* layout: Ft (llen n), ft, gt (slen n each), Fd (tlen hn) */
	memmove(tmp + (llen + 2 * slen) * n, tmp, tlen * hn * sizeof *tmp);
	memmove(tmp + llen * n, tmp + tlen * hn, 2 * slen * n * sizeof *tmp);
	Ft = tmp;
	ft = Ft + llen * n;
	gt = ft + slen * n;
	Fd = gt + slen * n;
	work = gt + slen * n;

	/* Fd mod each prime, in the upper half of each row of Ft */
	for (i = 0; i < llen; i ++) {
		uint32_t p = PR_P(i), p0i = PR_P0I(i), r2 = PR_R2(i);
		uint32_t rx = mp_rx31((uint32_t)tlen, p, p0i, r2);

		for (j = 0; j < hn; j ++) {
			Ft[i * n + hn + j] = zint_mod_signed(Fd + j, tlen, hn,
				p, p0i, r2, rx);
		}
	}

	/* F = Fd(x^2) g(-x) mod each prime; (f, g) leave NTT form on the
	   way and become integers after slen primes */
	for (i = 0; i < llen; i ++) {
		uint32_t p = PR_P(i), p0i = PR_P0I(i), r2 = PR_R2(i);
		uint32_t *gm = work, *igm = gm + n, *gx = igm + n;
		uint32_t *Fi = Ft + i * n;

		mp_roots(gm, igm, logn, i);
		if (i < slen) {
			memcpy(gx, gt + i * n, n * sizeof *gx);
			mp_intt(ft + i * n, igm, logn, p, p0i);
			mp_intt(gt + i * n, igm, logn, p, p0i);
		} else {
			uint32_t rx = mp_rx31((uint32_t)slen, p, p0i, r2);

			for (j = 0; j < n; j ++) {
				gx[j] = zint_mod_signed(gt + j, slen, n, p, p0i, r2, rx);
			}
			mp_ntt(gx, gm, logn, p, p0i);
		}
		mp_ntt(Fi + hn, gm, logn - 1, p, p0i);
		for (j = 0; j < hn; j ++) {
			uint32_t ga = gx[2 * j], gb = gx[2 * j + 1];
			uint32_t mF = mp_mmul(Fi[hn + j], r2, p, p0i);

			Fi[2 * j] = mp_mmul(gb, mF, p, p0i);
			Fi[2 * j + 1] = mp_mmul(ga, mF, p, p0i);
		}
		mp_intt(Fi, igm, logn, p, p0i);
		if (i + 1 == slen) {
			zint_rebuild_crt(ft, slen, n, 2, 1, work);
		}
	}
	zint_rebuild_crt(Ft, llen, n, 1, 1, work);

	/* Babai rounds with k = round(F / f) from fixed-point
	   approximations */
	use_ntt = depth > 1 && logn >= 4;
	slen_adj = use_ntt ? slen + 1 : slen;
	rlen = word_win[depth];
	blen = slen - rlen;
	scale_fg = 31 * (uint32_t)blen;
	scale_FG = 31 * (uint32_t)llen;

	rt3 = ftmp;
	rt1 = rt3 + n;
	/* scale_x: the bit length of f's top words; scale_t = min(15 - logn,
	   scale_x) keeps f adj f below 2^31 */
	scale_x = poly_max_bitlength(ft + n * blen, rlen, logn);
	scale_t = 15 - logn;
	scale_t ^= (scale_t ^ scale_x) & top_mask(scale_x - scale_t);
	poly_big_to_fixed(rt3, ft + n * blen, rlen, scale_x - scale_t, logn);
	vect_fft(rt3, logn);
	vect_inv_mul2e_fft(rt3, scale_t, logn);

	k = ft + slen_adj * n;
	t2 = k + n;
	if (use_ntt) {
		uint32_t *gm = t2, *tn = gm + n;

		for (i = 0; i < slen_adj; i ++) {
			uint32_t p = PR_P(i), p0i = PR_P0I(i), r2 = PR_R2(i);
			uint32_t rx = mp_rx31((uint32_t)slen, p, p0i, r2);

			mp_roots(gm, NULL, logn, i);
			for (j = 0; j < n; j ++) {
				tn[(i << logn) + j] = zint_mod_signed(ft + j, slen, n,
					p, p0i, r2, rx);
			}
			mp_ntt(tn + (i << logn), gm, logn, p, p0i);
		}
		memcpy(ft, tn, slen_adj * n * sizeof *ft);
	}

	FGlen = llen;
	rbits = reduce_bits[logn_top];
	for (;;) {
		uint32_t sch, scoff, scale_k;

		divrem31(scale_FG, &sch, &scoff);
		poly_big_to_fixed(rt1, Ft + sch * n, FGlen - sch,
			scale_x + scoff, logn);
		vect_fft(rt1, logn);
		vect_mul_fft(rt1, rt3, logn);
		vect_ifft(rt1, logn);
		for (j = 0; j < n; j ++) {
			k[j] = (uint32_t)fxr_round(rt1[j]);
		}

		scale_k = scale_FG - scale_fg;
		if (depth == 1) {
			poly_sub_kf_scaled_depth1(Ft, FGlen, k, scale_k, f,
				logn_top, t2);
		} else if (use_ntt) {
			poly_sub_scaled_ntt(Ft, FGlen, ft, slen, k, scale_k, logn,
				t2);
		} else {
			poly_sub_scaled(Ft, FGlen, ft, slen, k, scale_k, logn);
		}

		if (scale_FG <= scale_fg) {
			break;
		}
		if (scale_FG <= scale_fg + rbits) {
			scale_FG = scale_fg;
		} else {
			scale_FG -= rbits;
		}
		/* cut the top word when the schedule says it is free: it
		   must then be a copy of the sign, else the reduction fell
		   short (rejected) */
		while (FGlen > slen
			&& 31 * (uint32_t)(FGlen - slen) > scale_FG - scale_fg + 30)
		{
			size_t off;
			uint32_t bad = 0;

			FGlen --;
			off = (FGlen - 1) << logn;
			for (j = 0; j < n; j ++) {
				uint32_t sw = ((uint32_t)0 - (Ft[off + j] >> 30)) >> 1;

				bad |= Ft[off + j + n] ^ sw;
			}
			if (fa_declassify_u32(bad) != 0) {
				return 0;
			}
		}
	}
	return 1;
}

static int solve_depth0(const int8_t *f, const int8_t *g, unsigned logn,
	uint32_t *tmp, fxr *ftmp)
{
	size_t n = MKN(logn), hn = n >> 1, u;
	uint32_t p = PR_P(0), p0i = PR_P0I(0), r2 = PR_R2(0);
	uint32_t *t1 = tmp, *t2 = t1 + n, *t3 = t2 + n, *t4 = t3 + n;
	uint32_t *t5 = t4 + n, zero;
	fxr *rt5, *rt3;

	/* Fd (one word per value, from depth 1) to NTT form, then the
	   unreduced F = Fd(x^2) g(-x) */
	mp_roots(t4, NULL, logn, 0);
	for (u = 0; u < hn; u ++) {
		uint32_t x = t1[u];

		t1[u] = mp_set(as_i32(x | ((x & 0x40000000) << 1)), p);
	}
	mp_ntt(t1, t4, logn - 1, p, p0i);
	memcpy(t3, t1, hn * sizeof *t3);
	for (u = 0; u < n; u ++) {
		t2[u] = mp_set(g[u], p);
	}
	mp_ntt(t2, t4, logn, p, p0i);
	for (u = 0; u < hn; u ++) {
		uint32_t ga = t2[2 * u], gb = t2[2 * u + 1];
		uint32_t mF = mp_mmul(t3[u], r2, p, p0i);

		t1[2 * u] = mp_mmul(gb, mF, p, p0i);
		t1[2 * u + 1] = mp_mmul(ga, mF, p, p0i);
	}

	/* f mod p must be invertible (it is divided by) */
	for (u = 0; u < n; u ++) {
		t3[u] = mp_set(f[u], p);
	}
	mp_ntt(t3, t4, logn, p, p0i);
	zero = 0;
	for (u = 0; u < n; u ++) {
		zero |= ((t3[u] | ((uint32_t)0 - t3[u])) >> 31) ^ 1;
	}
	if (fa_declassify_u32(zero) != 0) {
		return 0;
	}

	/* numerator F adj f + G adj g (G = (q + g F)/f) and denominator
	   f adj f + g adj g, mod p; adj swaps slots u and n - 1 - u */
	for (u = 0; u < hn; u ++) {
		uint32_t tf0 = t3[u], tf1 = t3[n - 1 - u];
		uint32_t tg0 = t2[u], tg1 = t2[n - 1 - u];
		uint32_t tF0 = t1[u], tF1 = t1[n - 1 - u];
		uint32_t mf0 = mp_mmul(tf0, r2, p, p0i);
		uint32_t mf1 = mp_mmul(tf1, r2, p, p0i);
		uint32_t mg0 = mp_mmul(tg0, r2, p, p0i);
		uint32_t mg1 = mp_mmul(tg1, r2, p, p0i);
		uint32_t tG0 = mp_div(mp_add(Q, mp_mmul(mg0, tF0, p, p0i), p),
			tf0, p);
		uint32_t tG1 = mp_div(mp_add(Q, mp_mmul(mg1, tF1, p, p0i), p),
			tf1, p);
		uint32_t kn0 = mp_add(mp_mmul(mf1, tF0, p, p0i),
			mp_mmul(mg1, tG0, p, p0i), p);
		uint32_t kn1 = mp_add(mp_mmul(mf0, tF1, p, p0i),
			mp_mmul(mg0, tG1, p, p0i), p);
		uint32_t kd = mp_add(mp_mmul(mf0, tf1, p, p0i),
			mp_mmul(mg0, tg1, p, p0i), p);

		t2[u] = kn0;
		t2[n - 1 - u] = kn1;
		t3[u] = kd;
		t3[n - 1 - u] = kd;
	}
	mp_roots(NULL, t4, logn, 0);
	mp_intt(t2, t4, logn, p, p0i);
	mp_intt(t3, t4, logn, p, p0i);
	for (u = 0; u < n; u ++) {
		t2[u] = (uint32_t)mp_norm(t2[u], p);
		t3[u] = (uint32_t)mp_norm(t3[u], p);
	}

	/* k = round(num / den) in fixed point, both scaled by 2^-10 */
	for (u = 0; u < n; u ++) {
		ftmp[u] = (uint64_t)(int64_t)as_i32(t3[u]) << 22;
	}
	vect_fft(ftmp, logn);
	rt5 = ftmp;
	rt3 = ftmp + hn;
	for (u = 0; u < n; u ++) {
		rt3[u] = (uint64_t)(int64_t)as_i32(t2[u]) << 22;
	}
	vect_fft(rt3, logn);
	for (u = 0; u < hn; u ++) {
		rt3[u] = fxr_div(rt3[u], rt5[u]);
		rt3[u + hn] = fxr_div(rt3[u + hn], rt5[u]);
	}
	vect_ifft(rt3, logn);
	for (u = 0; u < n; u ++) {
		t2[u] = mp_set(fxr_round(rt3[u]), p);
	}

	/* F -= k f; G = (q + g F)/f */
	mp_roots(t5, NULL, logn, 0);
	for (u = 0; u < n; u ++) {
		t3[u] = mp_set(f[u], p);
		t4[u] = mp_set(g[u], p);
	}
	mp_ntt(t2, t5, logn, p, p0i);
	mp_ntt(t3, t5, logn, p, p0i);
	mp_ntt(t4, t5, logn, p, p0i);
	for (u = 0; u < n; u ++) {
		uint32_t mf = mp_mmul(t3[u], r2, p, p0i);
		uint32_t mg = mp_mmul(t4[u], r2, p, p0i);
		uint32_t tF = mp_sub(t1[u], mp_mmul(mf, t2[u], p, p0i), p);
		uint32_t tG = mp_div(mp_add(Q, mp_mmul(mg, tF, p, p0i), p),
			t3[u], p);

		t1[u] = tF;
		t2[u] = tG;
	}
	mp_roots(NULL, t3, logn, 0);
	mp_intt(t1, t3, logn, p, p0i);
	mp_intt(t2, t3, logn, p, p0i);
	for (u = 0; u < n; u ++) {
		t1[u] = (uint32_t)mp_norm(t1[u], p);
		t2[u] = (uint32_t)mp_norm(t2[u], p);
	}
	return 1;
}

int fa_fndsa_ntru_solve(int8_t *F, int8_t *G, const int8_t *f,
	const int8_t *g, unsigned logn, uint32_t *tmp, uint64_t *ftmp)
{
	size_t n = MKN(logn), tlen = 5 * n, u;
	unsigned depth;
	uint32_t bad = 0;

	if (!solve_deepest(f, g, logn, tmp, tlen)) {
		return 0;
	}
	for (depth = logn - 1; depth > 0; depth --) {
		if (!solve_intermediate(f, g, logn, depth, tmp, tlen, ftmp)) {
			return 0;
		}
	}
	if (!solve_depth0(f, g, logn, tmp, ftmp)) {
		return 0;
	}
	for (u = 0; u < 2 * n; u ++) {
		uint32_t z = tmp[u] + 127;

		bad |= (uint32_t)(z > 254);
	}
	if (fa_declassify_u32(bad) != 0) {
		return 0;
	}
	for (u = 0; u < n; u ++) {
		F[u] = (int8_t)as_i32(tmp[u]);
		G[u] = (int8_t)as_i32(tmp[u + n]);
	}
	return 1;
}
