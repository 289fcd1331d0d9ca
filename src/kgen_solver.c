/*
 * kgen_solver.c -- the NTRU equation solver of Falcon key generation.
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
 *
 * Files: kgen_solver.c (this one: sizes, descent, deepest level,
 * lifting, final checks), kgen_reduce.c (the reference's size
 * reduction), kgen_bigint.c (big integers, binary GCD), kgen_rns.c (NTT
 * modulo small primes, CRT), ntru_primes.c (the primes, generated),
 * kgen_inner.h (what they share).
 */

#include "kgen_inner.h"
#include "ct_declassify.h"

/* ================================================================== */
/* Sizes. The reference's failures must be reproduced (a key it rejects
   must be rejected here too, or keygen would continue differently), and
   they depend on its fixed word lengths and on its reduction schedule.
   These are its parameters: limbs of f_d, g_d (also of the reduced F_d,
   G_d), limbs of the unreduced F_d, G_d, and the mean and standard
   deviation of the bit length of f_d, by depth d. */

const uint16_t SLEN[11] = {
	1, 1, 2, 2, 4, 7, 14, 27, 53, 106, 209
};
const uint16_t LLEN[10] = {
	2, 2, 5, 7, 12, 21, 40, 78, 157, 308
};
const int16_t BL_AVG[11] = {
	4, 11, 24, 50, 102, 202, 401, 794, 1577, 3138, 6308
};
const int16_t BL_STD[11] = {
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
