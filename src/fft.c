/*
 * fft.c -- portable FFT over R[x]/(x^n+1) and the FFT-domain vector
 * operations (the "portable" backend's floating-point kernels).
 *
 * Representation (see inner.h): f has n = 2^logn real coefficients; in FFT
 * form slot j < n/2 holds f(w_j), w_j = exp(i*pi*(2*brv_logn(j)+1)/n), real
 * part at f[j], imaginary part at f[j + n/2].
 *
 * The exact operation sequence below is the contract every backend (AVX2,
 * RTL) reproduces bit for bit:
 *
 *  - complex product (a_re + i a_im)(b_re + i b_im):
 *        re = a_re*b_re - a_im*b_im,   im = a_re*b_im + a_im*b_re
 *    (each product rounded, then the sum/difference rounded);
 *  - forward FFT: the negacyclic Cooley-Tukey network whose first level
 *    (twiddle i) is the layout itself. For u = 1 .. logn-1, with
 *    m = 2^u and half-distance ht = n/2^(u+1): for block b < m/2, twiddle
 *    s = root[m + b] (root[k] = exp(i*pi*brv_10(k)/1024)), and for each
 *    j in the block:  t = c[j+ht]*s;  c[j] = c[j] + t;  c[j+ht] = c[j] - t;
 *  - inverse FFT: the same network in reverse (Gentleman-Sande): for
 *    u = logn-1 down to 1: x = c[j], y = c[j+ht]; c[j] = x + y;
 *    c[j+ht] = (x - y) * conj(s); then every value times 2/n (exact).
 */

#include "inner.h"

/* Twiddle k as a complex number (binary64 values from the table). */
static inline void root_at(fpr *re, fpr *im, size_t k)
{
	*re = fpr_from_bits(fa_fft_roots[2 * k]);
	*im = fpr_from_bits(fa_fft_roots[2 * k + 1]);
}

/* (d_re, d_im) = (a_re + i a_im) * (b_re + i b_im), order as documented. */
#define CMUL(d_re, d_im, a_re, a_im, b_re, b_im) do { \
		fpr cm_ar = (a_re), cm_ai = (a_im), cm_br = (b_re), cm_bi = (b_im); \
		(d_re) = fpr_sub(fpr_mul(cm_ar, cm_br), fpr_mul(cm_ai, cm_bi)); \
		(d_im) = fpr_add(fpr_mul(cm_ar, cm_bi), fpr_mul(cm_ai, cm_br)); \
	} while (0)

void fa_fft_portable(fpr *f, unsigned logn)
{
	size_t hn = MKN(logn) >> 1, ht = hn, m, b, j;
	unsigned u;

	for (u = 1, m = 2; u < logn; u ++, m <<= 1) {
		size_t t = ht;          /* block length (complex values) */
		ht = t >> 1;
		for (b = 0; b < (m >> 1); b ++) {
			size_t j1 = b * t;
			fpr s_re, s_im;

			root_at(&s_re, &s_im, m + b);
			for (j = j1; j < j1 + ht; j ++) {
				fpr x_re = f[j], x_im = f[j + hn];
				fpr t_re, t_im;

				CMUL(t_re, t_im, f[j + ht], f[j + ht + hn], s_re, s_im);
				/* x + t and x - t share one alignment */
				fpr_add_sub(x_re, t_re, &f[j], &f[j + ht]);
				fpr_add_sub(x_im, t_im, &f[j + hn], &f[j + ht + hn]);
			}
		}
	}
}

void fa_ifft_portable(fpr *f, unsigned logn)
{
	size_t n = MKN(logn), hn = n >> 1, ht = 1, m, b, j;
	unsigned u;
	fpr scale;

	/* stages u = logn-1 down to 1 (none for logn <= 1); m = 2^u */
	for (u = logn; u > 1; u --) {
		size_t t = ht << 1;     /* block length (complex values) */

		m = (size_t)1 << (u - 1);
		for (b = 0; b < (m >> 1); b ++) {
			size_t j1 = b * t;
			fpr s_re, s_im;

			root_at(&s_re, &s_im, m + b);
			s_im = fpr_neg(s_im);
			for (j = j1; j < j1 + ht; j ++) {
				fpr x_re = f[j], x_im = f[j + hn];
				fpr y_re = f[j + ht], y_im = f[j + ht + hn];
				fpr d_re, d_im;

				fpr_add_sub(x_re, y_re, &f[j], &d_re);
				fpr_add_sub(x_im, y_im, &f[j + hn], &d_im);
				CMUL(f[j + ht], f[j + ht + hn], d_re, d_im, s_re, s_im);
			}
		}
		ht = t;
	}
	if (logn > 1) {
		/* 2/n = 2^(1-logn): exact scaling. */
		scale = fpr_scaled(1, 1 - (int)logn);
		for (j = 0; j < n; j ++) {
			f[j] = fpr_mul(f[j], scale);
		}
	}
}

void fa_poly_add_portable(fpr *a, const fpr *b, unsigned logn)
{
	size_t u, n = MKN(logn);

	for (u = 0; u < n; u ++) {
		a[u] = fpr_add(a[u], b[u]);
	}
}

void fa_poly_sub_portable(fpr *a, const fpr *b, unsigned logn)
{
	size_t u, n = MKN(logn);

	for (u = 0; u < n; u ++) {
		a[u] = fpr_sub(a[u], b[u]);
	}
}

void fa_poly_neg_portable(fpr *a, unsigned logn)
{
	size_t u, n = MKN(logn);

	for (u = 0; u < n; u ++) {
		a[u] = fpr_neg(a[u]);
	}
}

/* adj(f)(x) = f(1/x): in FFT form, the complex conjugate of every slot. */
void fa_poly_adj_fft_portable(fpr *a, unsigned logn)
{
	size_t u, n = MKN(logn);

	for (u = n >> 1; u < n; u ++) {
		a[u] = fpr_neg(a[u]);
	}
}

void fa_poly_mul_fft_portable(fpr *a, const fpr *b, unsigned logn)
{
	size_t u, hn = MKN(logn) >> 1;

	for (u = 0; u < hn; u ++) {
		CMUL(a[u], a[u + hn], a[u], a[u + hn], b[u], b[u + hn]);
	}
}

/* a * conj(b): re = a_re*b_re + a_im*b_im, im = a_im*b_re - a_re*b_im. */
void fa_poly_muladj_fft_portable(fpr *a, const fpr *b, unsigned logn)
{
	size_t u, hn = MKN(logn) >> 1;

	for (u = 0; u < hn; u ++) {
		fpr ar = a[u], ai = a[u + hn], br = b[u], bi = b[u + hn];

		a[u] = fpr_add(fpr_mul(ar, br), fpr_mul(ai, bi));
		a[u + hn] = fpr_sub(fpr_mul(ai, br), fpr_mul(ar, bi));
	}
}

/* a * conj(a) = |a|^2 (real): re = a_re^2 + a_im^2, im = 0. */
void fa_poly_mulselfadj_fft_portable(fpr *a, unsigned logn)
{
	size_t u, hn = MKN(logn) >> 1;

	for (u = 0; u < hn; u ++) {
		a[u] = fpr_add(fpr_sqr(a[u]), fpr_sqr(a[u + hn]));
		a[u + hn] = FPR_ZERO;
	}
}

void fa_poly_mulconst_portable(fpr *a, fpr x, unsigned logn)
{
	size_t u, n = MKN(logn);

	for (u = 0; u < n; u ++) {
		a[u] = fpr_mul(a[u], x);
	}
}

/* a / b = a * conj(b) / |b|^2:  w = 1/(b_re^2 + b_im^2);
   re = (a_re*b_re + a_im*b_im) * w,  im = (a_im*b_re - a_re*b_im) * w. */
void fa_poly_div_fft_portable(fpr *a, const fpr *b, unsigned logn)
{
	size_t u, hn = MKN(logn) >> 1;

	for (u = 0; u < hn; u ++) {
		fpr ar = a[u], ai = a[u + hn], br = b[u], bi = b[u + hn];
		fpr w = fpr_inv(fpr_add(fpr_sqr(br), fpr_sqr(bi)));

		a[u] = fpr_mul(fpr_add(fpr_mul(ar, br), fpr_mul(ai, bi)), w);
		a[u + hn] = fpr_mul(fpr_sub(fpr_mul(ai, br), fpr_mul(ar, bi)), w);
	}
}

/* d = 1/(|a|^2 + |b|^2), n/2 real values. */
void fa_poly_invnorm2_fft_portable(fpr *d, const fpr *a, const fpr *b,
	unsigned logn)
{
	size_t u, hn = MKN(logn) >> 1;

	for (u = 0; u < hn; u ++) {
		fpr na = fpr_add(fpr_sqr(a[u]), fpr_sqr(a[u + hn]));
		fpr nb = fpr_add(fpr_sqr(b[u]), fpr_sqr(b[u + hn]));

		d[u] = fpr_inv(fpr_add(na, nb));
	}
}

void fa_poly_mul_autoadj_fft_portable(fpr *a, const fpr *b, unsigned logn)
{
	size_t u, hn = MKN(logn) >> 1;

	for (u = 0; u < hn; u ++) {
		a[u] = fpr_mul(a[u], b[u]);
		a[u + hn] = fpr_mul(a[u + hn], b[u]);
	}
}

void fa_poly_div_autoadj_fft_portable(fpr *a, const fpr *b, unsigned logn)
{
	size_t u, hn = MKN(logn) >> 1;

	for (u = 0; u < hn; u ++) {
		fpr w = fpr_inv(b[u]);

		a[u] = fpr_mul(a[u], w);
		a[u + hn] = fpr_mul(a[u + hn], w);
	}
}

/*
 * One slot of the LDL decomposition of [[g00, g01], [adj(g01), g11]]:
 * mu = g01/g00, d11 = g11 - mu*adj(g01), l10 = adj(mu). g00 and g11 are
 * self-adjoint, so only their real parts matter; the imaginary part of
 * d11 is written as 0... kept as computed: g11_im - (mu*adj(g01))_im,
 * which is exactly 0 - 0 for real g00 (mu*adj(g01) = |g01|^2/g00).
 */
static inline void ldl_slot(fpr *d11_re, fpr *d11_im, fpr *l10_re,
	fpr *l10_im, fpr g00_re, fpr g01_re, fpr g01_im, fpr g11_re,
	fpr g11_im)
{
	fpr w = fpr_inv(g00_re);
	fpr mu_re = fpr_mul(g01_re, w), mu_im = fpr_mul(g01_im, w);
	/* mu * adj(g01) = (mu_re*g01_re + mu_im*g01_im)
	                   + i (mu_im*g01_re - mu_re*g01_im) */
	fpr p_re = fpr_add(fpr_mul(mu_re, g01_re), fpr_mul(mu_im, g01_im));
	fpr p_im = fpr_sub(fpr_mul(mu_im, g01_re), fpr_mul(mu_re, g01_im));

	*d11_re = fpr_sub(g11_re, p_re);
	*d11_im = fpr_sub(g11_im, p_im);
	*l10_re = mu_re;
	*l10_im = fpr_neg(mu_im);
}

void fa_poly_LDL_fft_portable(const fpr *g00, fpr *g01, fpr *g11,
	unsigned logn)
{
	size_t u, hn = MKN(logn) >> 1;

	for (u = 0; u < hn; u ++) {
		ldl_slot(&g11[u], &g11[u + hn], &g01[u], &g01[u + hn],
			g00[u], g01[u], g01[u + hn], g11[u], g11[u + hn]);
	}
}

void fa_poly_LDLmv_fft_portable(fpr *d11, fpr *l10, const fpr *g00,
	const fpr *g01, const fpr *g11, unsigned logn)
{
	size_t u, hn = MKN(logn) >> 1;

	for (u = 0; u < hn; u ++) {
		ldl_slot(&d11[u], &d11[u + hn], &l10[u], &l10[u + hn],
			g00[u], g01[u], g01[u + hn], g11[u], g11[u + hn]);
	}
}

/*
 * Split: f(x) = f0(x^2) + x f1(x^2). Slots 2k and 2k+1 of f hold f(w) and
 * f(-w) for w = w_{2k}, and slot k of f0/f1 holds f0(w^2), f1(w^2):
 *   f0(w^2) = (f(w) + f(-w)) / 2,   f1(w^2) = (f(w) - f(-w)) / (2w).
 * w_{2k} = root[n/2... ] : w = exp(i*pi*(2*brv_logn(2k)+1)/n) is the
 * twiddle root[hn + k] of the table (see the forward FFT's last level).
 */
void fa_poly_split_fft_portable(fpr *f0, fpr *f1, const fpr *f,
	unsigned logn)
{
	size_t n = MKN(logn), hn = n >> 1, qn = hn >> 1, k;

	if (logn == 1) {
		/* n = 2: f = f[0] + f[1] x; FFT form is (f[0], f[1]). */
		f0[0] = f[0];
		f1[0] = f[1];
		return;
	}
	for (k = 0; k < qn; k ++) {
		fpr a_re = f[2 * k], a_im = f[2 * k + hn];
		fpr b_re = f[2 * k + 1], b_im = f[2 * k + 1 + hn];
		fpr s_re, s_im, d_re, d_im, p_re, p_im;

		fpr_add_sub(a_re, b_re, &p_re, &d_re);
		fpr_add_sub(a_im, b_im, &p_im, &d_im);
		f0[k] = fpr_half(p_re);
		f0[k + qn] = fpr_half(p_im);
		d_re = fpr_half(d_re);
		d_im = fpr_half(d_im);
		/* multiply by conj(w) = 1/w (|w| = 1) */
		root_at(&s_re, &s_im, hn + k);
		CMUL(f1[k], f1[k + qn], d_re, d_im, s_re, fpr_neg(s_im));
	}
}

/* Merge (inverse of split): f(w) = f0(w^2) + w f1(w^2),
   f(-w) = f0(w^2) - w f1(w^2). */
void fa_poly_merge_fft_portable(fpr *f, const fpr *f0, const fpr *f1,
	unsigned logn)
{
	size_t n = MKN(logn), hn = n >> 1, qn = hn >> 1, k;

	if (logn == 1) {
		f[0] = f0[0];
		f[1] = f1[0];
		return;
	}
	for (k = 0; k < qn; k ++) {
		fpr a_re = f0[k], a_im = f0[k + qn];
		fpr s_re, s_im, t_re, t_im;

		root_at(&s_re, &s_im, hn + k);
		CMUL(t_re, t_im, f1[k], f1[k + qn], s_re, s_im);
		fpr_add_sub(a_re, t_re, &f[2 * k], &f[2 * k + 1]);
		fpr_add_sub(a_im, t_im, &f[2 * k + hn], &f[2 * k + 1 + hn]);
	}
}
