/*
 * fndsa_kgen_solver.c -- the fallback NTRU solver of FN-DSA key generation
 * (fa_fndsa_ntru_solve, fndsa_inner.h).
 *
 * fn-dsa's solver (ntrugen) and ours (kgen_solver.c, the round-3
 * reference's procedure) reach the same F, G whenever both succeed, but
 * ours also fails where the reference's size reduction does: its k is
 * computed on a fixed schedule (25 bits per round, sizes assumed from
 * statistics) and it gives up when a scaled quotient leaves the 31-bit
 * range. On keys fn-dsa accepts that happens for about 1 key in 200 at
 * n = 512 and 1 in 40 at n = 1024 (measured on fn-dsa keys), always
 * there (kgen_reduce.c's range check), never elsewhere at these degrees.
 *
 * This file compiles the solver of kgen_solver.c a second time (the
 * same source, included below), with its size reduction replaced by an
 * adaptive one: when a quotient does not fit, the round is redone with a
 * scale 25 bits higher; the working length of (F, G) follows the actual
 * bit length of the values instead of the assumed one; rounds at scale 0
 * repeat until the values fit their final length (bounded). The result is
 * the same Babai-reduced F, G at the top (depth 0 reduces exactly as in
 * the reference); only the intermediate representatives may differ, which
 * the top level's reduction does not see (they are in the same coset).
 * Unlike the reference schedule, the number of rounds and the working
 * length depend on the sizes of the intermediate values, a timing leak of
 * these sizes for the keys (rare) that reach this path.
 */

#include "kgen_inner.h"
#include "fndsa_inner.h"
#include "ct_declassify.h"

/* The second copy of the solver: its exported names renamed, its size
   reduction ours. */
#undef SLEN
#undef LLEN
#undef BL_AVG
#undef BL_STD
#undef ref_reduce
#define SLEN          fa_fndsa_kgen_slen
#define LLEN          fa_fndsa_kgen_llen
#define BL_AVG        fa_fndsa_kgen_bl_avg
#define BL_STD        fa_fndsa_kgen_bl_std
#define ref_reduce    fndsa_adaptive_reduce
#define fa_ntru_solve fa_fndsa_ntru_solve

extern const uint16_t SLEN[11];
extern const uint16_t LLEN[10];
extern const int16_t BL_AVG[11];
extern const int16_t BL_STD[11];
int ref_reduce(ntru_ctx *c, unsigned d, uint32_t *Ft, uint32_t *tmp,
	size_t limit);

#include "kgen_solver.c"

/* len-limb signed values to fpr (the reference's conversion). */
static void big_to_fpr(fpr *d, const uint32_t *x, size_t len, size_t stride,
	size_t m)
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

			cc = w >> 31;
			w &= M31;
			w -= (w << 1) & neg;
			acc = fpr_add(acc, fpr_mul(fpr_of(word_to_signed(w)), sc));
			sc = fpr_mul(sc, p31);
		}
		d[u] = acc;
	}
}

/* (F, G) -= k (f, g) 2^(31 sch + scl), schoolbook (small degrees). */
static void sub_kfg_school(uint32_t *F, uint32_t *G, size_t xlen,
	size_t stride, const uint32_t *fs, const uint32_t *gs, size_t slen,
	const int32_t *kk, size_t m, size_t sch)
{
	size_t i, j;

	if (sch >= xlen) {
		return;
	}
	for (i = 0; i < m; i ++) {
		for (j = 0; j < m; j ++) {
			int32_t kv = kk[i];
			size_t t = i + j;

			if (t >= m) {
				t -= m;
				kv = -kv;
			}
			zint_add_mul2(F + t * stride + sch, G + t * stride + sch,
				xlen - sch, fs + j * slen, gs + j * slen, slen,
				-kv);
		}
	}
}

/* Bit length of (F, G) (2m values of FGlen limbs at stride). */
static unsigned fg_bitlen(const uint32_t *Ft, size_t FGlen, size_t stride,
	size_t m, uint32_t *acc)
{
	return zint_poly_bitlen(Ft, FGlen, stride, 2 * m, acc);
}

#define MAX_ROUNDS 400

int ref_reduce(ntru_ctx *c, unsigned d, uint32_t *Ft, uint32_t *tmp,
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
	int scale_fg, minbl_fg, scale_k, rounds;
	fpr *rf, *rg, *rF, *rG, *rinv, lim;
	int32_t *kk;
	uint32_t *fh, *gh, *T, *gm, *igm, *t1, *t2, *t3, *pw, *ctmp, *fs, *gs;
	uint32_t *acc;

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
	acc = gs + (use_ntt ? 0 : m * (slen + 1));
	if ((size_t)(acc + llen - c->base) > limit || nk > NTRU_NPRIMES) {
		return 0;
	}

	rlen = slen > 10 ? 10 : slen;
	big_to_fpr(rf, ft + slen - rlen, rlen, slen, m);
	big_to_fpr(rg, gt + slen - rlen, rlen, slen, m);
	scale_fg = 31 * (int)(slen - rlen);
	minbl_fg = BL_AVG[d] - 6 * BL_STD[d];
	fa_k_fft(k, rf, logm);
	fa_k_fft(k, rg, logm);
	fa_k_poly_invnorm2_fft(k, rinv, rf, rg, logm);
	fa_k_poly_adj_fft(k, rf, logm);
	fa_k_poly_adj_fft(k, rg, logm);

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

	lim = fpr_of(2147483647);
	FGlen = llen;
	scale_k = 31 * (int)llen - minbl_fg;
	if (scale_k < 0) {
		scale_k = 0;
	}
	for (rounds = 0; rounds < MAX_ROUNDS; rounds ++) {
		int scale_FG, dc, fits = 1;
		size_t sch;
		unsigned scl, bl;
		fpr pdc;

		/* working length: the actual size of (F, G) */
		bl = fg_bitlen(Ft, FGlen, llen, m, acc);
		while (FGlen > 1 && 31 * (FGlen - 1) >= bl + 1) {
			FGlen --;
		}
		rlen = FGlen > 10 ? 10 : FGlen;
		scale_FG = 31 * (int)(FGlen - rlen);
		big_to_fpr(rF, Ft + FGlen - rlen, rlen, llen, m);
		big_to_fpr(rG, Gt + FGlen - rlen, rlen, llen, m);
		fa_k_fft(k, rF, logm);
		fa_k_fft(k, rG, logm);
		fa_k_poly_mul_fft(k, rF, rf, logm);
		fa_k_poly_mul_fft(k, rG, rg, logm);
		fa_k_poly_add(k, rG, rF, logm);
		fa_k_poly_mul_autoadj_fft(k, rG, rinv, logm);
		fa_k_ifft(k, rG, logm);

		dc = scale_k - scale_FG + scale_fg;
		pdc = fpr_scaled(1, -dc);
		for (u = 0; u < m; u ++) {
			fpr xv = fpr_mul(rG[u], pdc);

			if (!(fpr_lt(fpr_neg(lim), xv) & fpr_lt(xv, lim))) {
				fits = 0;
				break;
			}
			kk[u] = (int32_t)fpr_rint(xv);
		}
		if (!fits) {
			/* the quotient is larger than this scale allows */
			scale_k += 25;
			continue;
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
			sub_kfg_school(Ft, Gt, FGlen, llen, fs, gs, slen + 1, kk,
				m, sch);
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

		if (scale_k > 0) {
			scale_k -= 25;
			if (scale_k < 0) {
				scale_k = 0;
			}
			continue;
		}
		/* a round at scale 0: done once the values fit slen limbs and
		   k was zero (nothing left to reduce) */
		{
			uint32_t nz = 0;

			for (u = 0; u < m; u ++) {
				nz |= (uint32_t)kk[u];
			}
			if (nz == 0 && zint_poly_fits(Ft, FGlen, llen, 2 * m,
				slen, acc))
			{
				break;
			}
		}
	}
	if (rounds >= MAX_ROUNDS) {
		return 0;
	}
	if (FGlen > slen
		&& !zint_poly_fits(Ft, FGlen, llen, 2 * m, slen, acc))
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
