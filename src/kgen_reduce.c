/*
 * kgen_reduce.c -- the size reduction of the NTRU solver (kgen_solver.c):
 * the reference's Babai reduction reproduced operation for operation
 * (see kgen_solver.c for why), its special steps at depths 1 and 0.
 * Constant-time as the solver: the only branches on data are the
 * failure exits (declassified).
 */

#include "kgen_inner.h"
#include "ct_declassify.h"

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

int ref_depth1(ntru_ctx *c, const uint32_t *Ft, uint32_t *F1w,
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

int ref_depth0(ntru_ctx *c, const uint32_t *F1w, const int8_t *f,
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

