/*
 * ntru.c -- the NTRU equation solver of Falcon key generation.
 *
 * Given f, g in Z[x]/(x^n+1) (n = 2^logn, small coefficients, odd
 * coefficient sums), find F, G with f*G - g*F = q and |F|, |G| <= 127:
 * the F, G of the reference implementation, and a failure exactly when
 * the reference fails (keygen then draws new f, g; a key that one
 * accepts and the other rejects would make every later key differ).
 *
 * Tower of field norms (phi_d = x^(n/2^d) + 1, n_d = n/2^d):
 *
 *  1. Descent: f_{d+1}(x^2) = f_d(x) f_d(-x) mod phi_d (the field norm),
 *     same for g, down to the resultants f_logn = Res(f, phi), g_logn.
 *     Large degree: modulo 31-bit primes with the NTT (the roots w, -w of
 *     phi_d are adjacent slots, w^2 is a slot of the half-size NTT), then
 *     CRT; small degree, huge coefficients: schoolbook big integers.
 *     Every level is kept for the way back up.
 *  2. Deepest level: extended binary GCD, Res(f) u - Res(g) v = 1, and
 *     F = q v, G = q u (gcd != 1: failure).
 *  3. Lifting: from (F', G') for (f_{d+1}, g_{d+1}), F = F'(x^2) g_d(-x),
 *     G = G'(x^2) f_d(-x) solve the equation for (f_d, g_d) (NTT + CRT,
 *     or schoolbook at small degree), and are size-reduced: (F, G) -=
 *     k (f, g) with k = round((F adj f + G adj g) / (f adj f + g adj g)).
 *
 * Being exact is not enough to match the reference: its size reduction
 * works on floating-point approximations with a fixed schedule, and it
 * fails when a scaled quotient leaves its range, or when a value exceeds
 * its fixed word lengths (measured on its own keygen: 2 of 304 solves at
 * n = 512 and 9 of 91 at n = 1024 fail there while an exact solver would
 * succeed). So the size reduction below reproduces the reference's
 * procedure operation for operation (same top-limb approximations, same
 * scales, same range checks, same special steps at depths 1 and 0, the
 * floating-point work done by the kernel table's FFT, which is
 * bit-identical to the reference's), on the same values: the modular
 * computations use the reference's word lengths, its primes (the first
 * entries of the table are the same) and its centered CRT. What differs
 * is how the integers are obtained: all field norms are computed once
 * and stored, small degrees use schoolbook products instead of the RNS
 * (exact values; they fail where the reference's RNS would have wrapped,
 * which makes it fail too, its values then being no solution), the GCD
 * is the optimized binary GCD (same unique Bezout coefficients), the
 * reductions modulo p use independent products. (Only values beyond the
 * reference's word lengths by less than one bit, or a resultant above
 * half its RNS range at logn <= 4, could still be treated differently:
 * far outside its own statistical bounds, never seen.)
 *
 * Constant-time as the reference: no branch or memory index depends on
 * f, g except the exits on failure, which discard f, g; sizes and loop
 * counts depend on logn only. (The native floating-point build relies on
 * the FPU being constant-time, as the rest of the library.)
 *
 * No malloc: all memory is the caller's tmp (FA_TMPSIZE_NTRU(logn) bytes,
 * any alignment); every phase checks its bounds and fails rather than
 * overflow.
 */

#include "inner.h"
#include "ct_declassify.h"

/* ================================================================== */
/* Small primes and arithmetic modulo p.                               */

/* {p, g, s, p0i, r2}: see scripts/gen_ntru_primes.py. The modular paths
   run at degree >= 32 only (smaller degrees use schoolbook products), so
   at most LLEN[5] = 21 primes are used. */
#define NTRU_NPRIMES 32
extern const uint32_t fa_ntru_primes[NTRU_NPRIMES][5];

/* Mask of a 31-bit limb. */
#define M31 0x7FFFFFFFu

/* One prime and its Montgomery constants (R = 2^32). */
typedef struct {
	uint32_t p;     /* 2^31 - 2^24 < p < 2^31, p = 1 mod 2048 */
	uint32_t p0i;   /* -1/p mod 2^32 */
	uint32_t r2;    /* 2^64 mod p (R^2, turns x into Montgomery form) */
	uint32_t g;     /* primitive 2048-th root of 1 mod p */
	uint32_t s;     /* 1 / (p_0 * ... * p_{j-1}) mod p */
} modp;

/* a + b mod p; a, b in [0, p-1], result in [0, p-1]. */
static inline uint32_t mp_add(uint32_t a, uint32_t b, uint32_t p)
{
	uint32_t d = a + b - p;

	return d + (p & -(d >> 31));
}

/* a - b mod p; a, b in [0, p-1], result in [0, p-1]. */
static inline uint32_t mp_sub(uint32_t a, uint32_t b, uint32_t p)
{
	uint32_t d = a - b;

	return d + (p & -(d >> 31));
}

/* Montgomery product a*b/2^32 mod p; a < 2^31, b < p; result in
   [0, p-1]. (a*b + w*p)/2^32 < 1.5*p, one conditional subtraction. */
static inline uint32_t mp_mmul(uint32_t a, uint32_t b, uint32_t p,
	uint32_t p0i)
{
	uint64_t z = (uint64_t)a * b;
	uint32_t w = (uint32_t)z * p0i;
	uint32_t d = (uint32_t)((z + (uint64_t)w * p) >> 32) - p;

	return d + (p & -(d >> 31));
}

/* Signed x, |x| < p, to [0, p-1]. */
static inline uint32_t mp_set(int32_t x, uint32_t p)
{
	uint32_t w = (uint32_t)x;

	return w + (p & -(w >> 31));
}

/* x in [0, p-1] to the representative in [-(p-1)/2, (p-1)/2]. */
static inline int32_t mp_norm(uint32_t x, uint32_t p)
{
	uint32_t c = ((p >> 1) - x) >> 31;   /* 1 when x > (p-1)/2 */

	return (int32_t)(x - (p & -c));
}

static inline void modp_init(modp *m, size_t j)
{
	m->p = fa_ntru_primes[j][0];
	m->g = fa_ntru_primes[j][1];
	m->s = fa_ntru_primes[j][2];
	m->p0i = fa_ntru_primes[j][3];
	m->r2 = fa_ntru_primes[j][4];
}

/* Montgomery form of 1, i.e. 2^32 mod p. */
static inline uint32_t mp_one(const modp *m)
{
	return (uint32_t)0 - (m->p << 1);
}

/* Plain product a*b mod p (two Montgomery steps). */
static inline uint32_t mp_mul(uint32_t a, uint32_t b, const modp *m)
{
	return mp_mmul(mp_mmul(a, b, m->p, m->p0i), m->r2, m->p, m->p0i);
}

/* Montgomery-form power x^e (x and result in Montgomery form; e public). */
static uint32_t mp_mpow(uint32_t x, uint32_t e, const modp *m)
{
	uint32_t r = mp_one(m);

	while (e != 0) {
		if (e & 1) {
			r = mp_mmul(r, x, m->p, m->p0i);
		}
		x = mp_mmul(x, x, m->p, m->p0i);
		e >>= 1;
	}
	return r;
}

/* ================================================================== */
/* NTT modulo p. A polynomial mod x^m + 1 (m = 2^logm) in NTT form has in
   slot j its value at psi^(2*brv(j)+1), psi a primitive 2m-th root of 1;
   slots 2i and 2i+1 hold the values at w and -w, and slot i of the NTT
   of size m/2 the value at w^2. Twiddle tables gm[u] = psi^brv(u) and
   igm[u] = psi^-brv(u) (Montgomery form); the table of size m/2 is the
   first half of the one of size m. */

static inline uint32_t brv32(uint32_t x)
{
	x = ((x & 0x55555555u) << 1) | ((x >> 1) & 0x55555555u);
	x = ((x & 0x33333333u) << 2) | ((x >> 2) & 0x33333333u);
	x = ((x & 0x0F0F0F0Fu) << 4) | ((x >> 4) & 0x0F0F0F0Fu);
	x = ((x & 0x00FF00FFu) << 8) | ((x >> 8) & 0x00FF00FFu);
	return (x << 16) | (x >> 16);
}

static void mp_mkgm(uint32_t *gm, uint32_t *igm, unsigned logm,
	const modp *m)
{
	size_t u, n = (size_t)1 << logm;
	uint32_t psi, ipsi, x, ix;
	unsigned k;

	if (logm == 0) {
		gm[0] = igm[0] = mp_one(m);
		return;
	}
	/* psi = g^(1024/m), ipsi = psi^(2m-1) = 1/psi. */
	psi = mp_mmul(m->g, m->r2, m->p, m->p0i);
	for (k = logm; k < 10; k ++) {
		psi = mp_mmul(psi, psi, m->p, m->p0i);
	}
	ipsi = mp_mpow(psi, (uint32_t)(2 * n - 1), m);
	x = ix = mp_one(m);
	for (u = 0; u < n; u ++) {
		size_t v = brv32((uint32_t)u) >> (32 - logm);

		gm[v] = x;
		igm[v] = ix;
		x = mp_mmul(x, psi, m->p, m->p0i);
		ix = mp_mmul(ix, ipsi, m->p, m->p0i);
	}
}

/* Forward NTT (Cooley-Tukey), normal order in, bit-reversed order out. */
static void mp_ntt(uint32_t *a, const uint32_t *gm, unsigned logm,
	const modp *m)
{
	size_t n = (size_t)1 << logm, t = n, k, i, j;
	uint32_t p = m->p, p0i = m->p0i;

	for (k = 1; k < n; k <<= 1) {
		size_t ht = t >> 1;

		for (i = 0; i < k; i ++) {
			uint32_t s = gm[k + i];
			uint32_t *x = a + i * t, *y = x + ht;

			for (j = 0; j < ht; j ++) {
				uint32_t u = x[j], v = mp_mmul(y[j], s, p, p0i);

				x[j] = mp_add(u, v, p);
				y[j] = mp_sub(u, v, p);
			}
		}
		t = ht;
	}
}

/* Inverse NTT (Gentleman-Sande), including the division by m. */
static void mp_intt(uint32_t *a, const uint32_t *igm, unsigned logm,
	const modp *m)
{
	size_t n = (size_t)1 << logm, hn = n >> 1, t = 1, k, i, j;
	uint32_t p = m->p, p0i = m->p0i, ni, sni;

	/* 1/m = p - (p-1)/m (p = 1 mod m), in Montgomery form. */
	ni = mp_mmul(p - ((p - 1) >> logm), m->r2, p, p0i);
	if (logm == 0) {
		return;
	}
	for (k = hn; k >= 2; k >>= 1) {
		size_t dt = t << 1;

		for (i = 0; i < k; i ++) {
			uint32_t s = igm[k + i];
			uint32_t *x = a + i * dt, *y = x + t;

			for (j = 0; j < t; j ++) {
				uint32_t u = x[j], v = y[j];

				x[j] = mp_add(u, v, p);
				y[j] = mp_mmul(mp_sub(u, v, p), s, p, p0i);
			}
		}
		t = dt;
	}
	/* Last level with the division by m folded in. */
	sni = mp_mmul(igm[1], ni, p, p0i);
	for (j = 0; j < hn; j ++) {
		uint32_t u = a[j], v = a[j + hn];

		a[j] = mp_mmul(mp_add(u, v, p), ni, p, p0i);
		a[j + hn] = mp_mmul(mp_sub(u, v, p), sni, p, p0i);
	}
}

/* ================================================================== */
/* Big integers: little-endian arrays of 31-bit limbs (uint32_t, top bit
   clear). Signed values are two's complement over the 31*len bits of
   their array: bit 30 of the top limb is the sign. A polynomial is a
   sequence of such integers at a given stride (words apart). */

/* Arithmetic shift right by 31 of a signed 64-bit value. C leaves the
   right shift of a negative value implementation-defined; when the
   compiler's shift is arithmetic (checked at compile time) it is used,
   otherwise an equivalent unsigned expression. */
static inline int64_t asr31(int64_t z)
{
#if ((-1) >> 1) == -1
	return z >> 31;
#else
	uint64_t u = (uint64_t)z;

	return (int64_t)((u >> 31) | ((-(u >> 63)) << 33));
#endif
}

/* Number of significant bits of x (0 for x = 0), constant-time. */
static inline unsigned bitlen32(uint32_t x)
{
	unsigned r = 0, c;

	/* c = 16 if x >= 2^16 (v + 0xFFFF carries into bit 16 iff v != 0),
	   and so on down. */
	c = (((x >> 16) + 0xFFFFu) >> 16) << 4; r += c; x >>= c;
	c = (((x >> 8) + 0xFFu) >> 8) << 3;     r += c; x >>= c;
	c = (((x >> 4) + 0xFu) >> 4) << 2;      r += c; x >>= c;
	c = (((x >> 2) + 0x3u) >> 2) << 1;      r += c; x >>= c;
	c = x >> 1;                             r += c; x >>= c;
	return r + x;
}

/* Table for reductions mod p: pw[i] = Montgomery form of 2^(31 i) mod p,
   i = 0..len (so that mp_mmul(w, pw[i]) = w*2^(31 i) mod p). */
static void zint_pow_table(uint32_t *pw, size_t len, const modp *m)
{
	uint32_t c31 = mp_mmul(((uint32_t)1 << 31) - m->p, m->r2,
		m->p, m->p0i);
	size_t i;

	pw[0] = mp_one(m);
	for (i = 0; i < len; i ++) {
		pw[i + 1] = mp_mmul(pw[i], c31, m->p, m->p0i);
	}
}

/* Unsigned x (len limbs) mod p. The products are independent, which
   keeps the pipeline busy. */
static inline uint32_t zint_mod_unsigned(const uint32_t *x, size_t len,
	const uint32_t *pw, uint32_t p, uint32_t p0i)
{
	uint32_t r0 = 0, r1 = 0;
	size_t i;

	for (i = 0; i + 1 < len; i += 2) {
		r0 = mp_add(r0, mp_mmul(x[i], pw[i], p, p0i), p);
		r1 = mp_add(r1, mp_mmul(x[i + 1], pw[i + 1], p, p0i), p);
	}
	if (i < len) {
		r0 = mp_add(r0, mp_mmul(x[i], pw[i], p, p0i), p);
	}
	return mp_add(r0, r1, p);
}

/* Signed x (len limbs) mod p; top = 2^(31 len) mod p (plain). */
static inline uint32_t zint_mod_signed(const uint32_t *x, size_t len,
	const uint32_t *pw, uint32_t top, uint32_t p, uint32_t p0i)
{
	uint32_t r = zint_mod_unsigned(x, len, pw, p, p0i);

	return mp_sub(r, top & -(x[len - 1] >> 30), p);
}

/* Reduce count signed big integers (len limbs, given stride) mod p into
   d[0..count-1]. pw: table of at least len+1 entries for p. */
static void zint_poly_mod(uint32_t *d, const uint32_t *x, size_t len,
	size_t stride, size_t count, const uint32_t *pw, const modp *m)
{
	uint32_t top = mp_mmul(pw[len], 1, m->p, m->p0i);
	size_t u;

	for (u = 0; u < count; u ++) {
		d[u] = zint_mod_signed(x + u * stride, len, pw, top,
			m->p, m->p0i);
	}
}

/* x[0..len] = x[0..len-1] + y[0..len-1]*c (unsigned, c < 2^31). */
static void zint_add_mul_small(uint32_t *x, const uint32_t *y, size_t len,
	uint32_t c)
{
	uint64_t cc = 0;
	size_t i;

	for (i = 0; i < len; i ++) {
		uint64_t z = (uint64_t)y[i] * c + x[i] + cc;

		x[i] = (uint32_t)z & M31;
		cc = z >> 31;
	}
	x[len] = (uint32_t)cc;
}

/*
 * CRT rebuild (Garner), in place: count values at the given stride, each
 * holding in limb j its residue mod p_j (j < len), become big integers of
 * len limbs, signed (in (-P/2, P/2), P = p_0...p_{len-1}).
 * tmp: 2*len + 2 words.
 */
static void zint_crt(uint32_t *x, size_t len, size_t stride, size_t count,
	uint32_t *tmp)
{
	uint32_t *prod = tmp, *pw = prod + len;
	size_t j, u, i;

	if (len == 0) {
		return;
	}
	/* prod = p_0 * ... * p_{j-1}, j limbs. */
	prod[0] = fa_ntru_primes[0][0];
	for (j = 1; j < len; j ++) {
		modp m;
		uint32_t sm;

		modp_init(&m, j);
		zint_pow_table(pw, j, &m);
		sm = mp_mmul(m.s, m.r2, m.p, m.p0i);
		for (u = 0; u < count; u ++) {
			uint32_t *xu = x + u * stride;
			uint32_t xm = zint_mod_unsigned(xu, j, pw, m.p, m.p0i);
			uint32_t c = mp_mmul(mp_sub(xu[j], xm, m.p), sm,
				m.p, m.p0i);

			/* x < prod, x + c*prod < prod*p_j: j+1 limbs. */
			zint_add_mul_small(xu, prod, j, c);
		}
		/* prod *= p_j (j+1 limbs). */
		{
			uint64_t cc = 0;

			for (i = 0; i < j; i ++) {
				uint64_t z = (uint64_t)prod[i] * m.p + cc;

				prod[i] = (uint32_t)z & M31;
				cc = z >> 31;
			}
			prod[j] = (uint32_t)cc;
		}
	}
	/* Signed normalization: x > P/2 (i.e. 2x > P) -> x - P. */
	for (u = 0; u < count; u ++) {
		uint32_t *xu = x + u * stride;
		uint32_t cc = 0, sub;

		/* Borrow of P - 2x, computed limb by limb from the bottom:
		   2x limb i = (x[i] << 1 | x[i-1] >> 30) & M31. */
		for (i = 0; i < len; i ++) {
			uint32_t lo = i > 0 ? xu[i - 1] >> 30 : 0;
			uint32_t tw = ((xu[i] << 1) | lo) & M31;
			uint32_t w = prod[i] - tw - cc;

			cc = w >> 31;
		}
		/* A bit shifted out of 2x (bit 30 of the top limb) makes it
		   larger than P. */
		cc |= xu[len - 1] >> 30;
		sub = -cc;
		cc = 0;
		for (i = 0; i < len; i ++) {
			uint32_t w = xu[i] - (prod[i] & sub) - cc;

			xu[i] = w & M31;
			cc = w >> 31;
		}
	}
}

/* Largest bit length b (-2^b <= x < 2^b) over count signed values of len
   limbs at the given stride. acc: len words of scratch. */
static unsigned zint_poly_bitlen(const uint32_t *x, size_t len,
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
static void zint_poly_resize(uint32_t *d, size_t dlen, const uint32_t *s,
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
static void zint_mul_small_signed(uint32_t *x, size_t len, uint32_t c)
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
static void zint_sub_scaled(uint32_t *X, size_t xlen, const uint32_t *Y,
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
static uint32_t zint_abs(uint32_t *d, const uint32_t *x, size_t len)
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
static void zint_mul(uint32_t *d, const uint32_t *a, size_t la,
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
static void zint_addsub(uint32_t *acc, size_t alen, const uint32_t *y,
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
static int zint_bezout(uint32_t *u, uint32_t *v, const uint32_t *x,
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

/* ================================================================== */
/* Sizes. The reference's failures must be reproduced (a key it rejects
   must be rejected here too, or keygen would continue differently), and
   they depend on its fixed word lengths and on its reduction schedule.
   These are its parameters: limbs of f_d, g_d (also of the reduced F_d,
   G_d), limbs of the unreduced F_d, G_d, and the mean and standard
   deviation of the bit length of f_d, by depth d. */

static const uint16_t SLEN[11] = {
	1, 1, 2, 2, 4, 7, 14, 27, 53, 106, 209
};
static const uint16_t LLEN[10] = {
	2, 2, 5, 7, 12, 21, 40, 78, 157, 308
};
static const int16_t BL_AVG[11] = {
	4, 11, 24, 50, 102, 202, 401, 794, 1577, 3138, 6308
};
static const int16_t BL_STD[11] = {
	0, 1, 1, 1, 1, 2, 4, 5, 8, 13, 25
};

/*
 * Modular computations use the reference's number of primes, the same
 * primes (the first ones of the table, which are the reference's) and
 * the same centered CRT, so that even a value that would not fit (which
 * does not happen in practice) comes out as in the reference: f_{d+1}
 * with SLEN[d+1] primes, the unreduced F_d with LLEN[d] primes, k*f_d
 * with SLEN[d]+1 primes. The schoolbook paths compute exact values
 * (2*SLEN[d]+1 and SLEN[d+1]+SLEN[d]+1 limbs) and fail if they do not
 * fit, which is then the reference's outcome too.
 */

/* Degree from which k*f is computed with the NTT (else schoolbook). */
#define NTT_MUL_MIN_LOGM 5

typedef struct {
	unsigned logn;
	const struct fa_kernels *k;
	uint32_t *base;          /* tmp, aligned to 8 bytes */
	uint32_t *fd[11];        /* f_d then g_d, SLEN[d] limbs each */
	size_t slot[12];         /* word offset of the store of depth d */
} ntru_ctx;

static inline fpr *as_fpr(uint32_t *p)
{
	return (fpr *)(void *)p;
}

/* Round a word offset up to an even number (8-byte alignment for fpr). */
static inline size_t even(size_t x)
{
	return (x + 1) & ~(size_t)1;
}

/* 1 if all count signed values (len limbs, stride) fit in nlen limbs. */
static int zint_poly_fits(const uint32_t *x, size_t len, size_t stride,
	size_t count, size_t nlen, uint32_t *acc)
{
	return zint_poly_bitlen(x, len, stride, count, acc) <= 31 * nlen - 1;
}

/* Two's complement word to a signed value. */
static inline int64_t word_to_signed(uint32_t w)
{
	return (int64_t)w - (int64_t)((uint64_t)(w >> 31) << 32);
}

/* ================================================================== */
/* Descent: f_d, g_d for d = 1..logn into the store (exact values, which
   must fit in SLEN[d] limbs as in the reference). */

#define DESC_SCHOOL_MAX_LOGM 4

/* Schoolbook: acc (m/2 values of np limbs, for f then for g) = the norms
   of f_d, g_d: coefficient t of f(x) f(-x) is the sum of (-1)^j f_i f_j
   over i + j = 2t (mod m, negated when wrapping); terms i != j come in
   equal pairs. */
static int desc_school(const uint32_t *fd, size_t len, unsigned logm,
	uint32_t *acc, size_t np, uint32_t *tmp, const uint32_t *end)
{
	size_t m = (size_t)1 << logm, hm = m >> 1, i, j;
	uint32_t *af = tmp, *sf = af + 2 * m * len, *P = sf + 2 * m;
	int w;

	if (P + 2 * len > end) {
		return 0;
	}
	for (i = 0; i < 2 * m; i ++) {
		sf[i] = zint_abs(af + i * len, fd + i * len, len);
	}
	memset(acc, 0, 2 * hm * np * sizeof *acc);
	for (w = 0; w < 2; w ++) {
		const uint32_t *a = af + (size_t)w * m * len;
		const uint32_t *sa = sf + (size_t)w * m;
		uint32_t *dst = acc + (size_t)w * hm * np;

		for (i = 0; i < m; i ++) {
			for (j = i; j < m; j += 2) {
				size_t t = i + j;
				uint32_t neg = sa[i] ^ sa[j];
				uint32_t *acc_t;

				/* (-1)^j, and -1 when wrapping */
				neg ^= (uint32_t)j & 1;
				if (t >= m) {
					t -= m;
					neg ^= 1;
				}
				acc_t = dst + (t >> 1) * np;
				zint_mul(P, a + i * len, len, a + j * len, len);
				zint_addsub(acc_t, np, P, 2 * len, neg);
				if (j != i) {
					zint_addsub(acc_t, np, P, 2 * len, neg);
				}
			}
		}
	}
	return 1;
}

/* t = f_d (w = 0) or g_d (w = 1) mod p, NTT form (size m = 2^logm);
   d = 0: from the int8 inputs. */
static void desc_load(const ntru_ctx *c, unsigned d, int w, const int8_t *f,
	const int8_t *g, uint32_t *t, const uint32_t *gm, const uint32_t *pw,
	const modp *mp)
{
	unsigned logm = c->logn - d;
	size_t m = (size_t)1 << logm, len = SLEN[d], i;

	if (d == 0) {
		const int8_t *s8 = w ? g : f;

		for (i = 0; i < m; i ++) {
			t[i] = mp_set(s8[i], mp->p);
		}
	} else {
		zint_poly_mod(t, c->fd[d] + (size_t)w * m * len, len, len, m,
			pw, mp);
	}
	mp_ntt(t, gm, logm, mp);
}

/*
 * RNS: X (for f then g, m/2 values of np = SLEN[d+1] limbs) = the norms of
 * f_d, g_d, N(f)(w^2) = f(w) f(-w). res: f_d, g_d mod p_j for j < have
 * (NTT form, prime-major), reused; the others come from the big integers.
 * nres receives f_{d+1}, g_{d+1} mod p_j (j < np), NTT form.
 */
static int desc_rns(const ntru_ctx *c, unsigned d, const int8_t *f,
	const int8_t *g, const uint32_t *res, size_t have, uint32_t *nres,
	uint32_t *X, uint32_t *tmp, const uint32_t *end)
{
	unsigned logm = c->logn - d;
	size_t m = (size_t)1 << logm, hm = m >> 1, np = SLEN[d + 1], j, i;
	uint32_t *gm = tmp, *igm = gm + m, *t = igm + m, *t2 = t + m;
	uint32_t *pw = t2 + hm, *ctmp = pw + SLEN[d] + 2;
	int w;

	if (np > NTRU_NPRIMES || ctmp + 2 * np + 2 > end) {
		return 0;
	}
	for (j = 0; j < np; j ++) {
		modp mp;

		modp_init(&mp, j);
		mp_mkgm(gm, igm, logm, &mp);
		if (j >= have && d > 0) {
			zint_pow_table(pw, SLEN[d], &mp);
		}
		for (w = 0; w < 2; w ++) {
			const uint32_t *src = t;
			uint32_t *dst = nres + ((size_t)w * np + j) * hm;

			if (j < have) {
				src = res + ((size_t)w * have + j) * m;
			} else {
				desc_load(c, d, w, f, g, t, gm, pw, &mp);
			}
			for (i = 0; i < hm; i ++) {
				dst[i] = mp_mul(src[2 * i], src[2 * i + 1],
					&mp);
			}
			memcpy(t2, dst, hm * sizeof *t2);
			mp_intt(t2, igm, logm - 1, &mp);
			for (i = 0; i < hm; i ++) {
				X[((size_t)w * hm + i) * np + j] = t2[i];
			}
		}
	}
	zint_crt(X, np, np, 2 * hm, ctmp);
	return 1;
}

static int ntru_descend(ntru_ctx *c, const int8_t *f, const int8_t *g)
{
	unsigned D = c->logn, d;
	uint32_t *res = c->base;
	const uint32_t *end = c->base + c->slot[D];
	size_t have = 0;

	for (d = 0; d < D; d ++) {
		unsigned logm = D - d;
		size_t m = (size_t)1 << logm, hm = m >> 1;
		size_t len = SLEN[d], nlen = SLEN[d + 1], np;
		uint32_t *X, *nres, *t;

		if (d > 0 && logm <= DESC_SCHOOL_MAX_LOGM) {
			/* Exact: the values must fit in nlen limbs. */
			np = 2 * len + 1;
			X = res;
			t = X + 2 * hm * np;
			/* declassified: solver failure exits (README) */
			if (!fa_declassify_int(desc_school(c->fd[d], len, logm,
					X, np, t, end))
				|| t + np > end
				|| !fa_declassify_int(zint_poly_fits(X, np, np,
					2 * hm, nlen, t)))
			{
				return 0;
			}
			nres = NULL;
		} else {
			/* The reference's computation (modulo nlen primes). */
			np = nlen;
			nres = res + 2 * m * have;
			X = nres + 2 * hm * np;
			t = X + 2 * hm * np;
			if (!desc_rns(c, d, f, g, res, have, nres, X, t, end)) {
				return 0;
			}
		}
		c->fd[d + 1] = c->base + c->slot[d + 1];
		zint_poly_resize(c->fd[d + 1], nlen, X, np, 2 * hm);
		if (nres != NULL) {
			memmove(res, nres, 2 * hm * np * sizeof *res);
			have = np;
		}
	}
	return 1;
}

/* ================================================================== */
/* Deepest level: F_D = q*v, G_D = q*u from the Bezout relation of the
   resultants, SLEN[D] limbs each at work[]. The reference rejects when
   q*v or q*u does not fit (its value would be wrong: same outcome). */

static int ntru_deepest(ntru_ctx *c, uint32_t *work)
{
	unsigned D = c->logn;
	size_t len = SLEN[D];
	const uint32_t *rf = c->fd[D], *rg = rf + len;
	uint32_t *Fv = work, *Gu = Fv + len + 1, *t = Gu + len + 1;

	if ((size_t)(t + 4 * len - c->base) > c->slot[D]) {
		return 0;
	}
	/* Odd, positive (a centered CRT value that is negative is not the
	   resultant: the reference then fails too). */
	if (fa_declassify_int((((rf[0] & rg[0]) & 1) == 0)
		| (((rf[len - 1] | rg[len - 1]) >> 30) != 0)))
	{
		return 0;
	}
	if (!fa_declassify_int(zint_bezout(Gu, Fv, rf, rg, len, t))) {
		return 0;
	}
	zint_mul_small_signed(Fv, len, FA_Q);
	zint_mul_small_signed(Gu, len, FA_Q);
	if (!fa_declassify_int(zint_poly_fits(work, len + 1, len + 1, 2,
		len, t)))
	{
		return 0;
	}
	zint_poly_resize(work, len, work, len + 1, 2);
	return 1;
}

/* ================================================================== */
/* Unreduced F_d = F_{d+1}(x^2) g_d(-x), G_d = G_{d+1}(x^2) f_d(-x), exact,
   as LLEN[d]-limb values (the reference's RNS is exact only if they fit).
   In: F_{d+1} then G_{d+1} at work[] (SLEN[d+1] limbs). Out: F_d then
   G_d at out[] (m values each, stride LLEN[d]). At low degree, with few
   huge coefficients, schoolbook products beat the RNS. */

#define LIFT_SCHOOL_MAX_LOGM 4

/* Schoolbook: acc (2m values of np limbs) = the unreduced F_d, G_d. */
static int lift_school(const uint32_t *Fin, size_t Flen, const uint32_t *fd,
	size_t len, unsigned logm, uint32_t *acc, size_t np, uint32_t *tmp,
	const uint32_t *end)
{
	size_t m = (size_t)1 << logm, hm = m >> 1, i, j;
	uint32_t *aF = tmp, *af = aF + m * Flen, *sF = af + 2 * m * len;
	uint32_t *sf = sF + m, *P = sf + 2 * m;

	if (P + Flen + len > end) {
		return 0;
	}
	/* Magnitudes and signs of F', G' (m/2 each) and f, g (m each). */
	for (i = 0; i < m; i ++) {
		sF[i] = zint_abs(aF + i * Flen, Fin + i * Flen, Flen);
	}
	for (i = 0; i < 2 * m; i ++) {
		sf[i] = zint_abs(af + i * len, fd + i * len, len);
	}
	memset(acc, 0, 2 * m * np * sizeof *acc);
	for (i = 0; i < hm; i ++) {
		for (j = 0; j < m; j ++) {
			size_t t = 2 * i + j;
			uint32_t wrap = 0, sgn = (uint32_t)j & 1;

			/* x^(2i) * (-x)^j, with x^m = -1. */
			if (t >= m) {
				t -= m;
				wrap = 1;
			}
			/* F += F'_i g_j, G += G'_i f_j. */
			zint_mul(P, aF + i * Flen, Flen,
				af + (m + j) * len, len);
			zint_addsub(acc + t * np, np, P, Flen + len,
				sF[i] ^ sf[m + j] ^ sgn ^ wrap);
			zint_mul(P, aF + (hm + i) * Flen, Flen,
				af + j * len, len);
			zint_addsub(acc + (m + t) * np, np, P, Flen + len,
				sF[hm + i] ^ sf[j] ^ sgn ^ wrap);
		}
	}
	return 1;
}

/* RNS: acc (2m values, np limbs) = the unreduced F_d, G_d. */
static int lift_rns(const uint32_t *Fin, size_t Flen, const uint32_t *fd,
	size_t len, unsigned logm, uint32_t *acc, size_t np, uint32_t *tmp,
	const uint32_t *end)
{
	size_t m = (size_t)1 << logm, hm = m >> 1, j, i, plen;
	const uint32_t *Gin = Fin + hm * Flen, *gd = fd + m * len;
	uint32_t *gm, *igm, *fx, *gx, *oF, *oG, *Fx, *Gx, *pw, *ctmp;

	gm = tmp;
	igm = gm + m;
	fx = igm + m;
	gx = fx + m;
	oF = gx + m;
	oG = oF + m;
	Fx = oG + m;
	Gx = Fx + hm;
	pw = Gx + hm;
	plen = len > Flen ? len : Flen;
	ctmp = pw + plen + 2;
	if (ctmp + 2 * np + 2 > end) {
		return 0;
	}
	for (j = 0; j < np; j ++) {
		modp mp;
		uint32_t p, p0i;

		modp_init(&mp, j);
		p = mp.p;
		p0i = mp.p0i;
		mp_mkgm(gm, igm, logm, &mp);
		zint_pow_table(pw, plen, &mp);
		zint_poly_mod(fx, fd, len, len, m, pw, &mp);
		zint_poly_mod(gx, gd, len, len, m, pw, &mp);
		mp_ntt(fx, gm, logm, &mp);
		mp_ntt(gx, gm, logm, &mp);
		zint_poly_mod(Fx, Fin, Flen, Flen, hm, pw, &mp);
		zint_poly_mod(Gx, Gin, Flen, Flen, hm, pw, &mp);
		mp_ntt(Fx, gm, logm - 1, &mp);
		mp_ntt(Gx, gm, logm - 1, &mp);
		/* F(w) = F'(w^2) g(-w), F(-w) = F'(w^2) g(w); same for G, f. */
		for (i = 0; i < hm; i ++) {
			uint32_t mF = mp_mmul(Fx[i], mp.r2, p, p0i);
			uint32_t mG = mp_mmul(Gx[i], mp.r2, p, p0i);

			oF[2 * i] = mp_mmul(gx[2 * i + 1], mF, p, p0i);
			oF[2 * i + 1] = mp_mmul(gx[2 * i], mF, p, p0i);
			oG[2 * i] = mp_mmul(fx[2 * i + 1], mG, p, p0i);
			oG[2 * i + 1] = mp_mmul(fx[2 * i], mG, p, p0i);
		}
		mp_intt(oF, igm, logm, &mp);
		mp_intt(oG, igm, logm, &mp);
		for (i = 0; i < m; i ++) {
			acc[i * np + j] = oF[i];
			acc[(m + i) * np + j] = oG[i];
		}
	}
	zint_crt(acc, np, np, 2 * m, ctmp);
	return 1;
}

static int ntru_unreduced(ntru_ctx *c, unsigned d, const uint32_t *work,
	uint32_t *out, uint32_t *tmp, size_t limit)
{
	unsigned logm = c->logn - d;
	size_t m = (size_t)1 << logm;
	size_t len = SLEN[d], Flen = SLEN[d + 1], llen = LLEN[d];
	int school = logm <= LIFT_SCHOOL_MAX_LOGM;
	size_t np = school ? Flen + len + 1 : llen;
	uint32_t *acc = tmp, *t2 = acc + 2 * m * np;
	const uint32_t *end = c->base + limit;
	int ok;

	if (t2 > end || (!school && np > NTRU_NPRIMES)) {
		return 0;
	}
	if (school) {
		ok = lift_school(work, Flen, c->fd[d], len, logm, acc, np,
			t2, end);
	} else {
		ok = lift_rns(work, Flen, c->fd[d], len, logm, acc, np,
			t2, end);
	}
	if (!fa_declassify_int(ok)
		|| !fa_declassify_int(zint_poly_fits(acc, np, np, 2 * m, llen,
		t2)))
	{
		return 0;
	}
	zint_poly_resize(out, llen, acc, np, 2 * m);
	return 1;
}

/* ================================================================== */
/* The reference's Babai reduction (depths logn-1 .. 2, or .. 0 when
   logn <= 2), reproduced operation for operation: the same floating-point
   approximations (top limbs), the same schedule of scales, the same
   range check on k (a failure there is a reference failure). */

/* The reference's conversion of len-limb signed values to fpr: magnitude
   limbs, each signed as the value, summed from the low limb up. */
static void ref_big_to_fpr(fpr *d, const uint32_t *x, size_t len,
	size_t stride, size_t m)
{
	fpr p31 = fpr_scaled(1, 31);
	size_t u, v;

	for (u = 0; u < m; u ++) {
		const uint32_t *xu = x + u * stride;
		uint32_t neg = -(xu[len - 1] >> 30);
		uint32_t xm = neg >> 1, cc = neg & 1;
		fpr acc = FPR_ZERO, sc = FPR_ONE;

		for (v = 0; v < len; v ++) {
			uint32_t w = (xu[v] ^ xm) + cc;
			fpr t;

			cc = w >> 31;
			w &= M31;
			w -= (w << 1) & neg;
			t = fpr_mul(fpr_of(word_to_signed(w)), sc);
			acc = fpr_add(acc, t);
			sc = fpr_mul(sc, p31);
		}
		d[u] = acc;
	}
}

/* d = x * 2^scl (x signed, len limbs; d: len+1 limbs), scl in [0, 30]. */
static void zint_shift_small(uint32_t *d, const uint32_t *x, size_t len,
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
static void zint_add_mul2(uint32_t *X, uint32_t *Z, size_t xlen,
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

/* (F, G) -= k*(f, g)*2^(31 sch + scl) mod x^m+1, schoolbook; F, G: m
   values of stride limbs, xlen used; fs, gs: f, g shifted by scl (m
   values of slen limbs each). */
static void poly_sub_kfg_school(uint32_t *F, uint32_t *G, size_t xlen,
	size_t stride, const uint32_t *fs, const uint32_t *gs, size_t slen,
	const int32_t *kk, size_t m, size_t sch)
{
	size_t i, j;

	if (sch >= xlen) {
		return;
	}
	for (i = 0; i < m; i ++) {
		int32_t kv = kk[i];

		for (j = 0; j < m; j ++) {
			size_t t = i + j;
			int32_t c = -kv;

			/* x^m = -1: wrapped terms change sign. */
			if (t >= m) {
				t -= m;
				c = kv;
			}
			zint_add_mul2(F + t * stride + sch,
				G + t * stride + sch, xlen - sch,
				fs + j * slen, gs + j * slen, slen, c);
		}
	}
}

/*
 * Reduce F_d, G_d (at Ft, m values each, LLEN[d] limbs) against f_d, g_d;
 * on success they are left as SLEN[d]-limb values (stride SLEN[d]) at Ft.
 * tmp: 8-byte aligned, up to c->base + limit.
 */
static int ref_reduce(ntru_ctx *c, unsigned d, uint32_t *Ft, uint32_t *tmp,
	size_t limit)
{
	const struct fa_kernels *k = c->k;
	unsigned logm = c->logn - d;
	size_t m = (size_t)1 << logm, hm = m >> 1, u, j;
	size_t slen = SLEN[d], llen = LLEN[d], rlen, FGlen;
	const uint32_t *ft = c->fd[d], *gt = ft + m * slen;
	uint32_t *Gt = Ft + m * llen;
	int use_ntt = logm >= NTT_MUL_MIN_LOGM;
	size_t nk = use_ntt ? slen + 1 : 0;
	int scale_fg, minbl_fg, maxbl_fg, maxbl_FG, scale_k;
	fpr *rf, *rg, *rF, *rG, *rinv, lim;
	int32_t *kk;
	uint32_t *fh, *gh, *T, *gm, *igm, *t1, *t2, *t3, *pw, *ctmp, *fs, *gs;

	rf = as_fpr(tmp);
	rg = rf + m;
	rF = rg + m;
	rG = rF + m;
	rinv = rG + m;
	kk = (int32_t *)(void *)(rinv + hm);
	fh = (uint32_t *)(void *)(kk + m);
	gh = fh + m * nk;
	T = gh + m * nk;
	gm = T + 2 * m * nk;
	igm = gm + m * nk;
	t1 = igm + m * nk;
	t2 = t1 + m;
	t3 = t2 + m;
	pw = t3 + m;
	ctmp = pw + slen + 2;
	fs = ctmp + 2 * nk + 2;
	gs = fs + (use_ntt ? 0 : m * (slen + 1));
	if ((size_t)(gs + (use_ntt ? 0 : m * (slen + 1)) - c->base) > limit
		|| nk > NTRU_NPRIMES)
	{
		return 0;
	}

	/* f, g: top (at most) 10 limbs, scaled by 2^(-scale_fg); keep
	   adj(f), adj(g) and 1/(f adj f + g adj g) in FFT form. */
	rlen = slen > 10 ? 10 : slen;
	ref_big_to_fpr(rf, ft + slen - rlen, rlen, slen, m);
	ref_big_to_fpr(rg, gt + slen - rlen, rlen, slen, m);
	scale_fg = 31 * (int)(slen - rlen);
	minbl_fg = BL_AVG[d] - 6 * BL_STD[d];
	maxbl_fg = BL_AVG[d] + 6 * BL_STD[d];
	fa_k_fft(k, rf, logm);
	fa_k_fft(k, rg, logm);
	fa_k_poly_invnorm2_fft(k, rinv, rf, rg, logm);
	fa_k_poly_adj_fft(k, rf, logm);
	fa_k_poly_adj_fft(k, rg, logm);

	/* For the NTT product: f, g mod the primes, NTT, Montgomery form. */
	for (j = 0; j < nk; j ++) {
		modp mp;

		modp_init(&mp, j);
		mp_mkgm(gm + j * m, igm + j * m, logm, &mp);
		zint_pow_table(pw, slen, &mp);
		zint_poly_mod(t1, ft, slen, slen, m, pw, &mp);
		zint_poly_mod(t2, gt, slen, slen, m, pw, &mp);
		mp_ntt(t1, gm + j * m, logm, &mp);
		mp_ntt(t2, gm + j * m, logm, &mp);
		for (u = 0; u < m; u ++) {
			fh[j * m + u] = mp_mmul(t1[u], mp.r2, mp.p, mp.p0i);
			gh[j * m + u] = mp_mmul(t2[u], mp.r2, mp.p, mp.p0i);
		}
	}

	/*
	 * Schedule: (F, G) is assumed to have at most maxbl_FG bits (FGlen
	 * limbs), k is computed scaled by 2^(-scale_k), with scale_k going
	 * down by 25 per round to 0; after a round the size of (F, G) is
	 * taken as scale_k + maxbl_fg + 10 bits.
	 */
	lim = fpr_of(2147483647);
	FGlen = llen;
	maxbl_FG = 31 * (int)llen;
	scale_k = maxbl_FG - minbl_fg;
	for (;;) {
		int scale_FG, dc, new_maxbl_FG;
		size_t sch;
		unsigned scl;
		fpr pdc;

		rlen = FGlen > 10 ? 10 : FGlen;
		scale_FG = 31 * (int)(FGlen - rlen);
		ref_big_to_fpr(rF, Ft + FGlen - rlen, rlen, llen, m);
		ref_big_to_fpr(rG, Gt + FGlen - rlen, rlen, llen, m);
		fa_k_fft(k, rF, logm);
		fa_k_fft(k, rG, logm);
		fa_k_poly_mul_fft(k, rF, rf, logm);
		fa_k_poly_mul_fft(k, rG, rg, logm);
		fa_k_poly_add(k, rG, rF, logm);
		fa_k_poly_mul_autoadj_fft(k, rG, rinv, logm);
		fa_k_ifft(k, rG, logm);

		/* rG is the quotient scaled by 2^(scale_fg - scale_FG); k is
		   the quotient scaled by 2^(-scale_k), within +-(2^31 - 1). */
		dc = scale_k - scale_FG + scale_fg;
		pdc = fpr_scaled(1, -dc);
		for (u = 0; u < m; u ++) {
			fpr xv = fpr_mul(rG[u], pdc);

			if (!fa_declassify_int(fpr_lt(fpr_neg(lim), xv)
				& fpr_lt(xv, lim)))
			{
				return 0;
			}
			kk[u] = (int32_t)fpr_rint(xv);
		}

		sch = (size_t)scale_k / 31;
		scl = (unsigned)scale_k % 31;
		if (!use_ntt) {
			for (u = 0; u < m; u ++) {
				zint_shift_small(fs + u * (slen + 1),
					ft + u * slen, slen, scl);
				zint_shift_small(gs + u * (slen + 1),
					gt + u * slen, slen, scl);
			}
			poly_sub_kfg_school(Ft, Gt, FGlen, llen, fs, gs,
				slen + 1, kk, m, sch);
		} else {
			for (j = 0; j < nk; j ++) {
				modp mp;

				modp_init(&mp, j);
				for (u = 0; u < m; u ++) {
					t1[u] = mp_set(kk[u], mp.p);
				}
				mp_ntt(t1, gm + j * m, logm, &mp);
				for (u = 0; u < m; u ++) {
					t2[u] = mp_mmul(t1[u], fh[j * m + u],
						mp.p, mp.p0i);
					t3[u] = mp_mmul(t1[u], gh[j * m + u],
						mp.p, mp.p0i);
				}
				mp_intt(t2, igm + j * m, logm, &mp);
				mp_intt(t3, igm + j * m, logm, &mp);
				for (u = 0; u < m; u ++) {
					T[u * nk + j] = t2[u];
					T[(m + u) * nk + j] = t3[u];
				}
			}
			zint_crt(T, nk, nk, 2 * m, ctmp);
			for (u = 0; u < 2 * m; u ++) {
				zint_sub_scaled(Ft + u * llen, FGlen,
					T + u * nk, nk, sch, scl);
			}
		}

		new_maxbl_FG = scale_k + maxbl_fg + 10;
		if (new_maxbl_FG < maxbl_FG) {
			maxbl_FG = new_maxbl_FG;
			if ((int)FGlen * 31 >= maxbl_FG + 31) {
				FGlen --;
			}
		}
		if (scale_k <= 0) {
			break;
		}
		scale_k -= 25;
		if (scale_k < 0) {
			scale_k = 0;
		}
	}

	/* The values use FGlen limbs: they must fit in slen limbs (the
	   reference truncates them, a wrong value then makes it fail). */
	if (FGlen > slen
		&& !fa_declassify_int(zint_poly_fits(Ft, FGlen, llen, 2 * m,
		slen, tmp)))
	{
		return 0;
	}
	for (u = 0; u < 2 * m; u ++) {
		uint32_t *xu = Ft + u * llen;
		uint32_t sw = -(xu[FGlen - 1] >> 30) & M31;
		size_t i;

		for (i = FGlen; i < slen; i ++) {
			xu[i] = sw;
		}
	}
	zint_poly_resize(Ft, slen, Ft, llen, 2 * m);
	return 1;
}

/* ================================================================== */
/* Depth 1 (logn >= 3): the reference's single floating-point round.
   In: unreduced F_1, G_1 at Ft (LLEN[1] limbs). Out: F1w, G1w, the
   32-bit words the reference keeps (low bits of the rounded values). */

static int ref_depth1(ntru_ctx *c, const uint32_t *Ft, uint32_t *F1w,
	uint32_t *tmp, size_t limit)
{
	const struct fa_kernels *k = c->k;
	unsigned logm = c->logn - 1;
	size_t m = (size_t)1 << logm, u;
	size_t slen = SLEN[1], llen = LLEN[1];
	const uint32_t *ft = c->fd[1], *gt = ft + m * slen;
	fpr *rt1, *rt2, *rt3, *rt4, *rt5, *rt6, *rt7, lim;

	rt1 = as_fpr(tmp);
	rt2 = rt1 + m;
	rt3 = rt2 + m;
	rt4 = rt3 + m;
	rt5 = rt4 + m;
	rt7 = rt5 + m;
	rt6 = rt7 + m;
	if ((size_t)((uint32_t *)(void *)(rt6 + (m >> 1)) - c->base) > limit) {
		return 0;
	}
	ref_big_to_fpr(rt1, Ft, llen, llen, m);
	ref_big_to_fpr(rt2, Ft + m * llen, llen, llen, m);
	ref_big_to_fpr(rt3, ft, slen, slen, m);
	ref_big_to_fpr(rt4, gt, slen, slen, m);
	fa_k_fft(k, rt1, logm);
	fa_k_fft(k, rt2, logm);
	fa_k_fft(k, rt3, logm);
	fa_k_fft(k, rt4, logm);
	/* rt5 = F adj f + G adj g, rt6 = 1/(f adj f + g adj g). */
	memcpy(rt5, rt1, m * sizeof *rt5);
	fa_k_poly_muladj_fft(k, rt5, rt3, logm);
	memcpy(rt7, rt2, m * sizeof *rt7);
	fa_k_poly_muladj_fft(k, rt7, rt4, logm);
	fa_k_poly_add(k, rt5, rt7, logm);
	fa_k_poly_invnorm2_fft(k, rt6, rt3, rt4, logm);
	fa_k_poly_mul_autoadj_fft(k, rt5, rt6, logm);
	fa_k_ifft(k, rt5, logm);
	/* k = round(quotient), then (F, G) -= k (f, g) in FFT form. */
	lim = fpr_scaled(1, 63);
	for (u = 0; u < m; u ++) {
		fpr z = rt5[u];

		if (!fa_declassify_int(fpr_lt(z, lim)
			& fpr_lt(fpr_neg(lim), z)))
		{
			return 0;
		}
		rt5[u] = fpr_of(fpr_rint(z));
	}
	fa_k_fft(k, rt5, logm);
	fa_k_poly_mul_fft(k, rt3, rt5, logm);
	fa_k_poly_mul_fft(k, rt4, rt5, logm);
	fa_k_poly_sub(k, rt1, rt3, logm);
	fa_k_poly_sub(k, rt2, rt4, logm);
	fa_k_ifft(k, rt1, logm);
	fa_k_ifft(k, rt2, logm);
	for (u = 0; u < m; u ++) {
		F1w[u] = (uint32_t)fpr_rint(rt1[u]);
		F1w[m + u] = (uint32_t)fpr_rint(rt2[u]);
	}
	return 1;
}

/* ================================================================== */
/* Depth 0 (logn >= 3): the reference's final round, modulo p_0: F_0 =
   F_1(x^2) g(-x), G_0 likewise; k = round((F_0 adj f + G_0 adj g) /
   (f adj f + g adj g)), with numerator and denominator taken modulo p_0
   (centered) as the reference does, in FFT form; (F, G) = (F_0, G_0) -
   k (f, g) mod p_0, centered. */

/* A 31-bit signed limb word (the reference's one-word integers) as the
   32-bit value it reads; then mod p as its modp_set does. */
static inline uint32_t one_word_mod(uint32_t w, uint32_t p)
{
	w |= (w & 0x40000000u) << 1;
	return w + (p & -(w >> 31));
}

static int ref_depth0(ntru_ctx *c, const uint32_t *F1w, const int8_t *f,
	const int8_t *g, int32_t *Fo, uint32_t *tmp)
{
	const struct fa_kernels *k = c->k;
	unsigned logn = c->logn;
	size_t n = (size_t)1 << logn, hn = n >> 1, u;
	uint32_t *gm, *igm, *fx, *gx, *Fx, *Gx, *F0, *G0, *t1, *t2, p, p0i;
	uint32_t bad = 0;
	fpr *rt2, *rt3;
	modp m0;

	modp_init(&m0, 0);
	p = m0.p;
	p0i = m0.p0i;
	gm = tmp;
	igm = gm + n;
	fx = igm + n;
	gx = fx + n;
	F0 = gx + n;
	G0 = F0 + n;
	t1 = G0 + n;
	t2 = t1 + n;
	Fx = t2 + n;
	Gx = Fx + hn;
	mp_mkgm(gm, igm, logn, &m0);
	for (u = 0; u < hn; u ++) {
		Fx[u] = one_word_mod(F1w[u], p);
		Gx[u] = one_word_mod(F1w[hn + u], p);
	}
	mp_ntt(Fx, gm, logn - 1, &m0);
	mp_ntt(Gx, gm, logn - 1, &m0);
	for (u = 0; u < n; u ++) {
		fx[u] = mp_set(f[u], p);
		gx[u] = mp_set(g[u], p);
	}
	mp_ntt(fx, gm, logn, &m0);
	mp_ntt(gx, gm, logn, &m0);
	for (u = 0; u < hn; u ++) {
		uint32_t mF = mp_mmul(Fx[u], m0.r2, p, p0i);
		uint32_t mG = mp_mmul(Gx[u], m0.r2, p, p0i);

		F0[2 * u] = mp_mmul(gx[2 * u + 1], mF, p, p0i);
		F0[2 * u + 1] = mp_mmul(gx[2 * u], mF, p, p0i);
		G0[2 * u] = mp_mmul(fx[2 * u + 1], mG, p, p0i);
		G0[2 * u + 1] = mp_mmul(fx[2 * u], mG, p, p0i);
	}
	/* adj(a) in NTT form is a with the slots reversed. */
	for (u = 0; u < n; u ++) {
		size_t v = n - 1 - u;

		t1[u] = mp_add(mp_mul(F0[u], fx[v], &m0),
			mp_mul(G0[u], gx[v], &m0), p);
		t2[u] = mp_add(mp_mul(fx[u], fx[v], &m0),
			mp_mul(gx[u], gx[v], &m0), p);
	}
	mp_intt(t1, igm, logn, &m0);
	mp_intt(t2, igm, logn, &m0);

	/* Quotient in FFT form (fpr arrays over Fx..: 2n fpr after t2). */
	rt2 = as_fpr(c->base + even((size_t)(Fx - c->base)));
	rt3 = rt2 + n;
	for (u = 0; u < n; u ++) {
		rt2[u] = fpr_of(mp_norm(t2[u], p));
		rt3[u] = fpr_of(mp_norm(t1[u], p));
	}
	fa_k_fft(k, rt2, logn);
	fa_k_fft(k, rt3, logn);
	fa_k_poly_div_autoadj_fft(k, rt3, rt2, logn);
	fa_k_ifft(k, rt3, logn);
	for (u = 0; u < n; u ++) {
		/* (int32_t) of the rounded value, then mod p (modp_set). */
		uint32_t w = (uint32_t)fpr_rint(rt3[u]);

		t1[u] = w + (p & -(w >> 31));
	}
	mp_ntt(t1, gm, logn, &m0);
	for (u = 0; u < n; u ++) {
		uint32_t z;

		F0[u] = mp_sub(F0[u], mp_mul(t1[u], fx[u], &m0), p);
		G0[u] = mp_sub(G0[u], mp_mul(t1[u], gx[u], &m0), p);
		/* f*G - g*F = q (q in every slot), checked here in NTT form,
		   equivalent to the reference's check on the final values. */
		z = mp_sub(mp_mul(fx[u], G0[u], &m0), mp_mul(gx[u], F0[u], &m0),
			p);
		bad |= z ^ FA_Q;
	}
	mp_intt(F0, igm, logn, &m0);
	mp_intt(G0, igm, logn, &m0);
	for (u = 0; u < n; u ++) {
		Fo[u] = mp_norm(F0[u], p);
		Fo[n + u] = mp_norm(G0[u], p);
	}
	return bad == 0;
}

/* ================================================================== */
/* Final checks (as the reference): |F|, |G| <= 127, then f*G - g*F = q
   modulo p_0 (exact: the true coefficients are below p_0/2). */

/* F, G from the 31-bit centered values in Fo; 0 if one exceeds 127. */
static int ntru_output(int8_t *F, int8_t *G, const int32_t *Fo, size_t n)
{
	uint32_t bad = 0;
	size_t u;

	for (u = 0; u < 2 * n; u ++) {
		bad |= (uint32_t)(Fo[u] + 127) > 254;
	}
	if (fa_declassify_u32(bad)) {
		return 0;
	}
	for (u = 0; u < n; u ++) {
		F[u] = (int8_t)Fo[u];
		G[u] = (int8_t)Fo[n + u];
	}
	return 1;
}

/* f*G - g*F = q, modulo p_0, for small F, G. tmp: 6n words. */
static int ntru_check_eq(unsigned logn, const int8_t *F, const int8_t *G,
	const int8_t *f, const int8_t *g, uint32_t *tmp)
{
	size_t n = (size_t)1 << logn, u;
	uint32_t *gm = tmp, *igm = gm + n, *a = igm + n, *b = a + n;
	uint32_t *cF = b + n, *cG = cF + n, bad = 0, p;
	modp m0;

	modp_init(&m0, 0);
	p = m0.p;
	mp_mkgm(gm, igm, logn, &m0);
	for (u = 0; u < n; u ++) {
		a[u] = mp_set(f[u], p);
		b[u] = mp_set(g[u], p);
		cF[u] = mp_set(F[u], p);
		cG[u] = mp_set(G[u], p);
	}
	mp_ntt(a, gm, logn, &m0);
	mp_ntt(b, gm, logn, &m0);
	mp_ntt(cF, gm, logn, &m0);
	mp_ntt(cG, gm, logn, &m0);
	for (u = 0; u < n; u ++) {
		uint32_t z = mp_sub(mp_mul(a[u], cG[u], &m0),
			mp_mul(b[u], cF[u], &m0), p);

		bad |= z ^ FA_Q;
	}
	return bad == 0;
}

/* ================================================================== */

/* The solver for a tmp buffer of tmp_len bytes (fa_ntru_solve gives
   FA_TMPSIZE_NTRU(logn); the memory needed is fixed for each logn, every
   phase checks its bounds and fails rather than overflow). */
static int ntru_solve(int8_t *F, int8_t *G, const int8_t *f, const int8_t *g,
	unsigned logn, void *tmp, size_t tmp_len, const struct fa_kernels *k)
{
	ntru_ctx c;
	uintptr_t a = (uintptr_t)tmp, b = (a + 7) & ~(uintptr_t)7;
	size_t n, words, off, u;
	uint32_t *work;
	int32_t *Fo;
	unsigned d;
	int eq;

	if (logn < 1 || logn > 10) {
		return 0;
	}
	n = (size_t)1 << logn;
	if (tmp_len < (size_t)(b - a) + 4) {
		return 0;
	}
	words = (tmp_len - (size_t)(b - a)) / sizeof(uint32_t);
	/* The last steps need 15n words (logn >= 3) or 10n (logn <= 2);
	   the other phases check their own bounds. */
	if (words < (logn <= 2 ? 10 : 15) * n) {
		return 0;
	}
	c.logn = logn;
	c.k = k;
	c.base = (uint32_t *)(void *)b;
	/* Store at the end: f_1 last, f_logn first, so that the work area
	   of depth d can grow over the slots of the deeper levels. With
	   logn <= 2, depth 0 is reduced like the others: f, g as 1-limb
	   values in slot 0. */
	off = words;
	for (d = logn <= 2 ? 0 : 1; d <= logn; d ++) {
		size_t sz = ((size_t)2 << (logn - d)) * SLEN[d];

		if (sz > off) {
			return 0;
		}
		off -= sz;
		c.slot[d] = off;
	}
	if (logn > 2) {
		c.slot[0] = words;
	}
	work = c.base;

	if (!ntru_descend(&c, f, g) || !ntru_deepest(&c, work)) {
		return 0;
	}
	if (logn <= 2) {
		uint32_t *f0 = c.base + c.slot[0];

		for (u = 0; u < n; u ++) {
			f0[u] = (uint32_t)f[u] & M31;
			f0[n + u] = (uint32_t)g[u] & M31;
		}
		c.fd[0] = f0;
	}

	/* Lifting: F_{d+1}, G_{d+1} at work[], the unreduced F_d, G_d after
	   them, scratch after that, up to the store of depth d. */
	for (d = logn - 1;; d --) {
		size_t m = (size_t)1 << (logn - d);
		size_t limit = c.slot[d];
		uint32_t *Ft = work + m * SLEN[d + 1];
		uint32_t *t = c.base + even((size_t)(Ft + 2 * m * LLEN[d]
			- c.base));

		if (!ntru_unreduced(&c, d, work, Ft, t, limit)) {
			return 0;
		}
		if (d == 1 && logn > 2) {
			/* Depth 1 then 0, the reference's special steps.
			   Layout: F_1, G_1 words (n), F, G (2n), scratch
			   (12n). */
			if (!ref_depth1(&c, Ft, t, t + 2 * m, limit)) {
				return 0;
			}
			memmove(work, t, 2 * m * sizeof *work);
			Fo = (int32_t *)(void *)(work + n);
			eq = ref_depth0(&c, work, f, g, Fo, work + 3 * n);
			return ntru_output(F, G, Fo, n) && eq;
		}
		if (!ref_reduce(&c, d, Ft, t, limit)) {
			return 0;
		}
		memmove(work, Ft, 2 * m * SLEN[d] * sizeof *work);
		if (d == 0) {
			break;
		}
	}

	/* logn <= 2: F_0, G_0 are one-limb (31-bit signed) values. */
	Fo = (int32_t *)(void *)(work + 2 * n);
	for (u = 0; u < 2 * n; u ++) {
		uint32_t w = work[u];

		Fo[u] = (int32_t)word_to_signed(w | ((w & 0x40000000u) << 1));
	}
	return ntru_output(F, G, Fo, n)
		&& ntru_check_eq(logn, F, G, f, g, work + 4 * n);
}

int fa_ntru_solve(int8_t *F, int8_t *G, const int8_t *f, const int8_t *g,
	unsigned logn, void *tmp, const struct fa_kernels *k)
{
	if (logn < 1 || logn > 10) {
		return 0;
	}
	return ntru_solve(F, G, f, g, logn, tmp, FA_TMPSIZE_NTRU(logn), k);
}
