/*
 * kgen_rns.c -- the residue number system of the NTRU solver
 * (kgen_solver.c): the NTT modulo the solver's 31-bit primes
 * (src/ntru_primes.c), big integers reduced modulo a prime, and the CRT
 * back to big integers. Declarations, the prime type and the inline
 * arithmetic modulo p: kgen_inner.h. Constant-time (indices and loop
 * counts depend on the sizes only).
 */

#include "kgen_inner.h"

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

void mp_mkgm(uint32_t *gm, uint32_t *igm, unsigned logm,
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
void mp_ntt(uint32_t *a, const uint32_t *gm, unsigned logm,
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
void mp_intt(uint32_t *a, const uint32_t *igm, unsigned logm,
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
/* Big integers modulo p and back (CRT). */

/* Table for reductions mod p: pw[i] = Montgomery form of 2^(31 i) mod p,
   i = 0..len (so that mp_mmul(w, pw[i]) = w*2^(31 i) mod p). */
void zint_pow_table(uint32_t *pw, size_t len, const modp *m)
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
void zint_poly_mod(uint32_t *d, const uint32_t *x, size_t len,
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
void zint_crt(uint32_t *x, size_t len, size_t stride, size_t count,
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
