/*
 * kgen_bigint.c -- big-integer arithmetic of the NTRU solver
 * (kgen_solver.c, kgen_reduce.c): products, sums, shifts, sizes and the
 * extended binary GCD. Representation (kgen_inner.h): little-endian
 * arrays of 31-bit limbs, signed values in two's complement. Constant-time
 * for given lengths.
 */

#include "kgen_inner.h"

/* Largest bit length b (-2^b <= x < 2^b) over count signed values of len
   limbs at the given stride. acc: len words of scratch. */
unsigned zint_poly_bitlen(const uint32_t *x, size_t len,
	size_t stride, size_t count, uint32_t *acc)
{
	size_t u, i;
	unsigned b = 0;

	memset(acc, 0, len * sizeof *acc);
	for (u = 0; u < count; u ++) {
		const uint32_t *xu = x + u * stride;
		uint32_t sm = -(xu[len - 1] >> 30) & M31;

		for (i = 0; i < len; i ++) {
			acc[i] |= xu[i] ^ sm;
		}
	}
	for (i = 0; i < len; i ++) {
		uint32_t nz = -((acc[i] + M31) >> 31);

		b = (b & ~nz) | ((31 * (unsigned)i + bitlen32(acc[i])) & nz);
	}
	return b;
}

/* Copy count signed values from stride/len slen to stride/len dlen,
   truncating (the value must fit) or sign-extending. dst may equal src
   or lie below it (values are processed in increasing order). */
void zint_poly_resize(uint32_t *d, size_t dlen, const uint32_t *s,
	size_t slen, size_t count)
{
	size_t u, i;

	for (u = 0; u < count; u ++) {
		const uint32_t *su = s + u * slen;
		uint32_t *du = d + u * dlen;
		uint32_t sw = -(su[slen - 1] >> 30) & M31;

		if (dlen <= slen) {
			memmove(du, su, dlen * sizeof *du);
		} else {
			memmove(du, su, slen * sizeof *du);
			for (i = slen; i < dlen; i ++) {
				du[i] = sw;
			}
		}
	}
}

/* x[0..len] = c * x[0..len-1] (x signed, c < 2^31 positive); the top limb
   gets the sign-extended carry. */
void zint_mul_small_signed(uint32_t *x, size_t len, uint32_t c)
{
	int64_t cc = 0;
	size_t i;
	uint32_t sw = -(x[len - 1] >> 30) & M31;

	for (i = 0; i < len; i ++) {
		int64_t z = (int64_t)((uint64_t)x[i] * c) + cc;

		x[i] = (uint32_t)z & M31;
		cc = asr31(z);
	}
	/* The sign extension word contributes -c (if negative) at limb len. */
	cc -= (int64_t)(c & -(sw >> 30));
	x[len] = (uint32_t)cc & M31;
}

/* X -= Y * 2^(31*sch + scl) modulo 2^(31*xlen); X, Y signed. */
void zint_sub_scaled(uint32_t *X, size_t xlen, const uint32_t *Y,
	size_t ylen, size_t sch, unsigned scl)
{
	uint32_t ysign = -(Y[ylen - 1] >> 30) & M31, prev = 0, cc = 0;
	size_t u;

	if (sch >= xlen) {
		return;
	}
	for (u = 0; u < xlen - sch; u ++) {
		uint32_t yw = u < ylen ? Y[u] : ysign;
		uint32_t sw = ((yw << scl) | (prev >> (31 - scl))) & M31;
		uint32_t w;

		prev = yw;
		w = X[u + sch] - sw - cc;
		X[u + sch] = w & M31;
		cc = w >> 31;
	}
}

/* d = |x| (len limbs, x signed); returns 1 if x < 0. */
uint32_t zint_abs(uint32_t *d, const uint32_t *x, size_t len)
{
	uint32_t neg = x[len - 1] >> 30, m = -neg & M31, cc = neg;
	size_t i;

	for (i = 0; i < len; i ++) {
		uint32_t w = (x[i] ^ m) + cc;

		d[i] = w & M31;
		cc = w >> 31;
	}
	return neg;
}

/* d[0..la+lb) = a*b (unsigned). */
void zint_mul(uint32_t *d, const uint32_t *a, size_t la,
	const uint32_t *b, size_t lb)
{
	size_t i, j;

	memset(d, 0, (la + lb) * sizeof *d);
	for (i = 0; i < la; i ++) {
		uint64_t cc = 0, ai = a[i];

		for (j = 0; j < lb; j ++) {
			uint64_t z = ai * b[j] + d[i + j] + cc;

			d[i + j] = (uint32_t)z & M31;
			cc = z >> 31;
		}
		d[i + lb] = (uint32_t)cc;
	}
}

/* acc += y (neg = 0) or acc -= y (neg = 1) modulo 2^(31 alen); y is
   unsigned, ylen <= alen limbs. */
void zint_addsub(uint32_t *acc, size_t alen, const uint32_t *y,
	size_t ylen, uint32_t neg)
{
	uint32_t m = -neg & M31, cc = neg;
	size_t i;

	for (i = 0; i < alen; i ++) {
		uint32_t w = acc[i] + ((i < ylen ? y[i] : 0) ^ m) + cc;

		acc[i] = w & M31;
		cc = w >> 31;
	}
}

/* d = x * 2^scl (x signed, len limbs; d: len+1 limbs), scl in [0, 30]. */
void zint_shift_small(uint32_t *d, const uint32_t *x, size_t len,
	unsigned scl)
{
	uint32_t prev = 0, sw = -(x[len - 1] >> 30) & M31;
	size_t i;

	for (i = 0; i <= len; i ++) {
		uint32_t w = i < len ? x[i] : sw;

		/* prev >> 31 is 0 when scl = 0 (limbs have 31 bits). */
		d[i] = ((w << scl) | (prev >> (31 - scl))) & M31;
		prev = w;
	}
}

/* X += k*Y and Z += k*W modulo 2^(31 xlen); Y, W signed (ylen limbs,
   sign-extended beyond), |k| < 2^31. Two independent carry chains. */
void zint_add_mul2(uint32_t *X, uint32_t *Z, size_t xlen,
	const uint32_t *Y, const uint32_t *W, size_t ylen, int32_t k)
{
	int64_t cx = 0, cz = 0, kk = k;
	size_t u, lim = xlen < ylen ? xlen : ylen;
	uint32_t ys, ws;

	for (u = 0; u < lim; u ++) {
		int64_t zx = (int64_t)X[u] + kk * (int64_t)Y[u] + cx;
		int64_t zz = (int64_t)Z[u] + kk * (int64_t)W[u] + cz;

		X[u] = (uint32_t)zx & M31;
		Z[u] = (uint32_t)zz & M31;
		cx = asr31(zx);
		cz = asr31(zz);
	}
	ys = -(Y[ylen - 1] >> 30) & M31;
	ws = -(W[ylen - 1] >> 30) & M31;
	for (; u < xlen; u ++) {
		int64_t zx = (int64_t)X[u] + kk * (int64_t)ys + cx;
		int64_t zz = (int64_t)Z[u] + kk * (int64_t)ws + cz;

		X[u] = (uint32_t)zx & M31;
		Z[u] = (uint32_t)zz & M31;
		cx = asr31(zx);
		cz = asr31(zz);
	}
}

/* ================================================================== */
/* Extended binary GCD (the binary GCD with batched approximations: 31
   steps run on 64-bit approximations of a and b; the resulting 2x2
   matrix is then applied to the big values). Constant-time for a given
   length. Each batch applies the matrix to a and b, makes them
   nonnegative while scanning them for the next approximations, then
   applies the matrix to the Bezout coefficients u0, u1 modulo y. */

/* 1 if x < y (unsigned), constant-time. */
static inline uint64_t lt64(uint64_t x, uint64_t y)
{
	return ((~x & y) | (~(x ^ y) & (x - y))) >> 63;
}

/* Scan state for the approximations of a and b: with h the index of the
   top nonzero limb of a|b, the limbs h, h-1, h-2 of each (a in the high
   half of each 64-bit word, b in the low half). */
typedef struct {
	uint64_t h, m, l, w1, w2;
	uint32_t top, i;
} approx_scan;

static inline void approx_init(approx_scan *s)
{
	memset(s, 0, sizeof *s);
}

/* Feed limb i (in increasing order) of a and b. */
static inline void approx_feed(approx_scan *s, uint32_t aw, uint32_t bw)
{
	uint64_t w = ((uint64_t)aw << 32) | bw;
	uint64_t nz = -(uint64_t)(((aw | bw) + M31) >> 31);

	s->h ^= (s->h ^ w) & nz;
	s->m ^= (s->m ^ s->w1) & nz;
	s->l ^= (s->l ^ s->w2) & nz;
	s->top ^= (s->top ^ s->i) & (uint32_t)nz;
	s->w2 = s->w1;
	s->w1 = w;
	s->i ++;
}

/*
 * 64-bit approximations of a and b (nonnegative, len limbs, all fed to
 * the scan): their exact values when below 2^64; otherwise, with c the
 * bit length of limb h, the 33 top bits (positions 31h+c-33 .. 31h+c-1)
 * followed by the 31 low bits.
 */
static void approx_finish(const approx_scan *s, uint64_t *xa, uint64_t *xb,
	const uint32_t *a, const uint32_t *b, size_t len)
{
	uint32_t ah = (uint32_t)(s->h >> 32), bh = (uint32_t)s->h;
	uint32_t am = (uint32_t)(s->m >> 32), bm = (uint32_t)s->m;
	uint32_t al = (uint32_t)(s->l >> 32), bl = (uint32_t)s->l;
	unsigned c = bitlen32(ah | bh);
	uint64_t ta, tb, ea, eb, mbig;

	ta = ((((uint64_t)ah << 31) | am) << (31 - c)) | (al >> c);
	tb = ((((uint64_t)bh << 31) | bm) << (31 - c)) | (bl >> c);
	ta = ((ta >> 29) << 31) | (a[0] & M31);
	tb = ((tb >> 29) << 31) | (b[0] & M31);
	ea = a[0];
	eb = b[0];
	if (len >= 2) {
		ea |= (uint64_t)a[1] << 31;
		eb |= (uint64_t)b[1] << 31;
	}
	if (len >= 3) {
		ea |= (uint64_t)a[2] << 62;
		eb |= (uint64_t)b[2] << 62;
	}
	/* 31*top + c > 64: the values exceed 2^64. */
	mbig = -(uint64_t)((64 - (31 * s->top + c)) >> 31);
	*xa = (ta & mbig) | (ea & ~mbig);
	*xb = (tb & mbig) | (eb & ~mbig);
}

/*
 * a' = (pa*a + pb*b)/2^31 and b' = (qa*a + qb*b)/2^31 (exact),
 * left possibly negative (two's complement). Returns bit 0 set if a' < 0,
 * bit 1 if b' < 0. |pa| + |pb| <= 2^31, |qa| + |qb| <= 2^31.
 */
static uint32_t bezout_pass1(uint32_t *a, uint32_t *b, size_t len,
	int64_t pa, int64_t pb, int64_t qa, int64_t qb)
{
	int64_t ca = 0, cb = 0;
	size_t i;

	for (i = 0; i < len; i ++) {
		int64_t wa = a[i], wb = b[i];
		int64_t za = pa * wa + pb * wb + ca;
		int64_t zb = qa * wa + qb * wb + cb;

		if (i > 0) {
			a[i - 1] = (uint32_t)za & M31;
			b[i - 1] = (uint32_t)zb & M31;
		}
		ca = asr31(za);
		cb = asr31(zb);
	}
	a[len - 1] = (uint32_t)ca & M31;
	b[len - 1] = (uint32_t)cb & M31;
	return (uint32_t)((uint64_t)ca >> 63)
		| ((uint32_t)((uint64_t)cb >> 63) << 1);
}

/* a = |a'|, b = |b'| (neg: bit 0 for a, bit 1 for b), scanned for the
   approximations of the next batch. */
static void bezout_negate_scan(uint32_t *a, uint32_t *b, size_t len,
	uint32_t neg, uint64_t *xa, uint64_t *xb)
{
	uint32_t na = neg & 1, nb = neg >> 1;
	uint32_t ma = -na & M31, mb = -nb & M31, ca = na, cb = nb;
	approx_scan sc;
	size_t i;

	approx_init(&sc);
	for (i = 0; i < len; i ++) {
		uint32_t wa = (a[i] ^ ma) + ca, wb = (b[i] ^ mb) + cb;

		ca = wa >> 31;
		cb = wb >> 31;
		wa &= M31;
		wb &= M31;
		a[i] = wa;
		b[i] = wb;
		approx_feed(&sc, wa, wb);
	}
	approx_finish(&sc, xa, xb, a, b, len);
}

/*
 * u0' = (pa*u0 + pb*u1)/2^31 mod y, u1' = (qa*u0 + qb*u1)/2^31 mod y;
 * u0, u1 in [0, y); the division by 2^31 adds the multiple of y that
 * clears the low 31 bits (y0i = -1/y mod 2^31). The results are in
 * (-y, 2y) before the final correction (add y if negative, subtract y
 * if >= y; the comparison with y runs along the main pass).
 */
static void zint_co_reduce_mod(uint32_t *u0, uint32_t *u1,
	const uint32_t *y, size_t len, uint32_t y0i,
	int64_t pa, int64_t pb, int64_t qa, int64_t qb)
{
	int64_t ca = 0, cb = 0;
	uint32_t fa, fb, ba = 0, bb = 0, na, nb, adda, suba, addb, subb;
	size_t i;

	fa = ((uint32_t)(pa * u0[0] + pb * u1[0]) * y0i) & M31;
	fb = ((uint32_t)(qa * u0[0] + qb * u1[0]) * y0i) & M31;
	for (i = 0; i < len; i ++) {
		int64_t wa = u0[i], wb = u1[i], wy = y[i];
		int64_t za = pa * wa + pb * wb + (int64_t)fa * wy + ca;
		int64_t zb = qa * wa + qb * wb + (int64_t)fb * wy + cb;

		if (i > 0) {
			uint32_t ra = (uint32_t)za & M31;
			uint32_t rb = (uint32_t)zb & M31;

			u0[i - 1] = ra;
			u1[i - 1] = rb;
			ba = (ra - y[i - 1] - ba) >> 31;
			bb = (rb - y[i - 1] - bb) >> 31;
		}
		ca = asr31(za);
		cb = asr31(zb);
	}
	u0[len - 1] = (uint32_t)ca & M31;
	u1[len - 1] = (uint32_t)cb & M31;
	ba = (u0[len - 1] - y[len - 1] - ba) >> 31;
	bb = (u1[len - 1] - y[len - 1] - bb) >> 31;
	na = (uint32_t)((uint64_t)ca >> 63);
	nb = (uint32_t)((uint64_t)cb >> 63);
	adda = -na & M31;
	suba = -((na | ba) ^ 1) & M31;
	addb = -nb & M31;
	subb = -((nb | bb) ^ 1) & M31;
	ca = cb = 0;
	for (i = 0; i < len; i ++) {
		int64_t wy = y[i];
		int64_t za = (int64_t)u0[i] + (wy & adda) - (wy & suba) + ca;
		int64_t zb = (int64_t)u1[i] + (wy & addb) - (wy & subb) + cb;

		u0[i] = (uint32_t)za & M31;
		u1[i] = (uint32_t)zb & M31;
		ca = asr31(za);
		cb = asr31(zb);
	}
}

/*
 * x, y odd and positive, len limbs, below 2^(31*len-1). If gcd(x, y) = 1,
 * writes u in [0, y) with x*u = 1 mod y and v = (x*u - 1)/y (signed,
 * in [-1, x)) and returns 1; otherwise returns 0. tmp: 4*len words.
 */
int zint_bezout(uint32_t *u, uint32_t *v, const uint32_t *x,
	const uint32_t *y, size_t len, uint32_t *tmp)
{
	uint32_t *a = tmp, *b = a + len, *u0 = b + len, *w = u0 + len;
	uint32_t yi, r;
	size_t i, j, nbatch;
	uint64_t xa, xb;
	approx_scan sc;

	/* 1/y mod 2^32 (Newton from y*y = 1 mod 8). */
	yi = y[0];
	for (i = 0; i < 4; i ++) {
		yi *= 2 - y[0] * yi;
	}
	memcpy(a, x, len * sizeof *a);
	memcpy(b, y, len * sizeof *b);
	memset(u0, 0, len * sizeof *u0);
	memset(u, 0, len * sizeof *u);
	u0[0] = 1;
	approx_init(&sc);
	for (i = 0; i < len; i ++) {
		approx_feed(&sc, a[i], b[i]);
	}
	approx_finish(&sc, &xa, &xb, a, b, len);

	/*
	 * Invariants: a = x*u0 mod y, b = x*u1 mod y (u1 is u), b odd.
	 * Each binary GCD step lowers len(a) + len(b) by at least one bit;
	 * with the approximations, at most 62*len + 30 steps are needed
	 * (2*len + 1 batches, one more is run).
	 */
	nbatch = 2 * len + 2;
	while (nbatch -- > 0) {
		uint64_t pa = 1, pb = 0, qa = 0, qb = 1, m;
		uint32_t neg;

		for (i = 0; i < 31; i ++) {
			uint64_t odd = -(xa & 1);
			uint64_t sw = odd & -lt64(xa, xb), t;

			t = (xa ^ xb) & sw; xa ^= t; xb ^= t;
			t = (pa ^ qa) & sw; pa ^= t; qa ^= t;
			t = (pb ^ qb) & sw; pb ^= t; qb ^= t;
			xa -= xb & odd;
			pa -= qa & odd;
			pb -= qb & odd;
			xa >>= 1;
			qa <<= 1;
			qb <<= 1;
		}
		neg = bezout_pass1(a, b, len, (int64_t)pa, (int64_t)pb,
			(int64_t)qa, (int64_t)qb);
		m = -(uint64_t)(neg & 1);
		pa = (pa ^ m) - m;
		pb = (pb ^ m) - m;
		m = -(uint64_t)(neg >> 1);
		qa = (qa ^ m) - m;
		qb = (qb ^ m) - m;
		bezout_negate_scan(a, b, len, neg, &xa, &xb);
		zint_co_reduce_mod(u0, u, y, len, (-yi) & M31, (int64_t)pa,
			(int64_t)pb, (int64_t)qa, (int64_t)qb);
	}

	/* Success iff a = 0 and b = 1. */
	r = b[0] ^ 1;
	for (i = 0; i < len; i ++) {
		r |= a[i];
		if (i > 0) {
			r |= b[i];
		}
	}

	/* v = (x*u - 1) / y, exact: computed as (x*u - 1) * y^-1 modulo
	   2^(31*len) (Hensel division), which is v since |v| < 2^(31len-1). */
	memset(w, 0, len * sizeof *w);
	for (i = 0; i < len; i ++) {
		uint64_t cc = 0;

		for (j = 0; i + j < len; j ++) {
			uint64_t z = (uint64_t)x[i] * u[j] + w[i + j] + cc;

			w[i + j] = (uint32_t)z & M31;
			cc = z >> 31;
		}
	}
	{
		uint32_t cc = 1;

		for (i = 0; i < len; i ++) {
			uint32_t t = w[i] - cc;

			w[i] = t & M31;
			cc = t >> 31;
		}
	}
	for (i = 0; i < len; i ++) {
		uint32_t qd = (w[i] * yi) & M31;
		int64_t cc = 0;

		/* w -= qd*y*2^(31 i); limb i becomes 0. */
		v[i] = qd;
		for (j = 0; i + j < len; j ++) {
			int64_t z = (int64_t)w[i + j]
				- (int64_t)((uint64_t)qd * y[j]) + cc;

			w[i + j] = (uint32_t)z & M31;
			cc = asr31(z);
		}
	}
	return r == 0;
}
