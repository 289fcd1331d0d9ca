/*
 * keygen.c -- Falcon key pair generation (top level; the NTRU solver is
 * in kgen_*.c). Follows the round-3 reference procedure exactly, so that
 * the same SHAKE256 seed gives the same keys (NIST KATs):
 *
 *  1. f, g: each coefficient is the sum of 2^(10-logn) samples of the
 *     n = 1024 keygen Gaussian (sigma = 1.17*sqrt(q/2048)), re-drawn while
 *     outside [-127, 127]; the last coefficient is re-drawn until the sum
 *     of all coefficients is odd (Res(f, x^n+1) odd, needed by the solver).
 *  2. reject if a coefficient of f or g reaches 2^(FA_FG_BITS-1) in
 *     absolute value, or ||(f, g)||^2 >= 16823;
 *  3. reject if the Gram-Schmidt norm of (q*adj(g), -q*adj(f))/(f adj f +
 *     g adj g) (floating point, FFT form) squared is >= 16822.4121;
 *  4. reject if f is not invertible mod q; h = g/f mod q;
 *  5. solve fG - gF = q with |F|, |G| <= 127, else reject.
 * Every rejection restarts at step 1 with more SHAKE256 output.
 */

#include "inner.h"
#include "ct_declassify.h"

static inline uint64_t rng_u64(fa_shake256_ctx *rng)
{
	return fa_shake256_extract_u64(rng);
}

/*
 * One sample of the n = 1024 keygen Gaussian, constant-time: a first 63-bit
 * value decides x = 0 (probability fa_keygen_gauss[0]/2^63) and its top bit
 * the sign; a second 63-bit value r gives |x| = the first k >= 1 with
 * r >= fa_keygen_gauss[k]. The table is strictly decreasing from k = 1 to
 * its last entry 0, so that k is 1 + #{k in [1, 25] : r < table[k]}: a
 * sum of borrows over the whole table (no early exit, no secret index).
 */
static int gauss1024(fa_shake256_ctx *rng)
{
	uint64_t r = rng_u64(rng);
	uint32_t neg = (uint32_t)(r >> 63);
	uint32_t nonzero, v = 1;
	size_t k;

	r &= ~((uint64_t)1 << 63);
	nonzero = (uint32_t)((r - fa_keygen_gauss[0]) >> 63) ^ 1;  /* 0: x = 0 */
	r = rng_u64(rng) & ~((uint64_t)1 << 63);
	for (k = 1; k < 26; k ++) {
		v += (uint32_t)((r - fa_keygen_gauss[k]) >> 63);   /* r < T[k] */
	}
	v &= -nonzero;
	/* conditional negation: v -> -v when neg = 1 */
	return (int)((v ^ -neg) + neg);
}

static int gauss_logn(fa_shake256_ctx *rng, unsigned logn)
{
	unsigned u, cnt = 1u << (10 - logn);
	int s = 0;

	for (u = 0; u < cnt; u ++) {
		s += gauss1024(rng);
	}
	return s;
}

/* Sample a small polynomial with odd coefficient sum. The re-draw loops
   depend on the secret value only through range/parity rejection, as in
   the reference (they leak nothing about accepted values). */
static void sample_small(fa_shake256_ctx *rng, int8_t *f, unsigned logn)
{
	size_t u, n = MKN(logn);
	unsigned parity = 0;

	for (u = 0; u < n; u ++) {
		int s;

		for (;;) {
			s = gauss_logn(rng, logn);
			/* declassified: a rejected sample is discarded */
			if (fa_declassify_int(s < -127 || s > 127)) {
				continue;
			}
			if (u == n - 1 && fa_declassify_int(
				((parity ^ (unsigned)s) & 1) == 0))
			{
				continue;
			}
			break;
		}
		parity ^= (unsigned)s & 1;
		f[u] = (int8_t)s;
	}
}

/* Squared norm, saturated to 2^32-1 (cannot overflow for int8 values and
   n <= 1024, kept for uniformity). */
static uint32_t small_sqnorm(const int8_t *f, unsigned logn)
{
	size_t u, n = MKN(logn);
	uint32_t s = 0, ng = 0;

	for (u = 0; u < n; u ++) {
		int32_t z = f[u];

		s += (uint32_t)(z * z);
		ng |= s;
	}
	return s | -(ng >> 31);
}

static int small_in_range(const int8_t *f, unsigned logn, int lim)
{
	size_t u, n = MKN(logn);
	int ok = 1;

	for (u = 0; u < n; u ++) {
		ok &= (f[u] < lim) & (f[u] > -lim);
	}
	return ok;
}

/* Step 3: squared Gram-Schmidt norm of the second basis vector is below
   the bound. tmp: 3n fpr. Also the private-key decoder's quality check
   (api.c), so that a decoded key meets the bounds keygen guarantees. */
int fa_gs_norm_ok(const int8_t *f, const int8_t *g, unsigned logn,
	fpr *tmp, const struct fa_kernels *k)
{
	size_t u, n = MKN(logn);
	fpr *rf = tmp, *rg = rf + n, *rd = rg + n;
	fpr acc = FPR_ZERO;

	for (u = 0; u < n; u ++) {
		rf[u] = fpr_of(f[u]);
		rg[u] = fpr_of(g[u]);
	}
	fa_k_fft(k, rf, logn);
	fa_k_fft(k, rg, logn);
	fa_k_poly_invnorm2_fft(k, rd, rf, rg, logn);
	fa_k_poly_adj_fft(k, rf, logn);
	fa_k_poly_adj_fft(k, rg, logn);
	fa_k_poly_mulconst(k, rf, FPR_Q, logn);
	fa_k_poly_mulconst(k, rg, FPR_Q, logn);
	fa_k_poly_mul_autoadj_fft(k, rf, rd, logn);
	fa_k_poly_mul_autoadj_fft(k, rg, rd, logn);
	fa_k_ifft(k, rf, logn);
	fa_k_ifft(k, rg, logn);
	for (u = 0; u < n; u ++) {
		acc = fpr_add(acc, fpr_sqr(rf[u]));
		acc = fpr_add(acc, fpr_sqr(rg[u]));
	}
	return fpr_lt(acc, FPR_BNORM_MAX);
}

/*
 * The private-key decoder's form of step 3 (api.c). Parseval's identity
 * for x in R[X]/(X^n + 1) in the FFT representation (n/2 complex values,
 * one per conjugate pair): sum_u x_u^2 = (2/n) sum_j |x^_j|^2. Step 3's
 * vector is q (f^*, g^*) / (f f^* + g g^*) (adjoints), so its squared
 * norm is (2 q^2 / n) sum_{j < n/2} 1 / (|f^_j|^2 + |g^_j|^2): two FFTs
 * and n/2 inversions instead of fa_gs_norm_ok's two FFTs, two inverse
 * FFTs and six vector operations. The two sums round differently (both
 * within a relative 2^-40 or so of the exact value for |f|, |g| < 128),
 * so the bound here is 16822.4121 (1 + 2^-20): every key keygen accepts
 * passes, and the guarantee (leaf sigmas within [sigma_min, sigma_max])
 * is unchanged to six digits. Keygen keeps fa_gs_norm_ok, so its keys,
 * and the KATs, do not change. tmp: 3n fpr. Constant time.
 */
int fa_gs_norm_ok_parseval(const int8_t *f, const int8_t *g, unsigned logn,
	fpr *tmp, const struct fa_kernels *k)
{
	size_t u, n = MKN(logn), hn = n >> 1;
	fpr *rf = tmp, *rg = rf + n, *rd = rg + n;
	fpr acc = FPR_ZERO, bound;

	for (u = 0; u < n; u ++) {
		rf[u] = fpr_of(f[u]);
		rg[u] = fpr_of(g[u]);
	}
	fa_k_fft(k, rf, logn);
	fa_k_fft(k, rg, logn);
	/* rd[j] = 1 / (|f^_j|^2 + |g^_j|^2), j < n/2 */
	fa_k_poly_invnorm2_fft(k, rd, rf, rg, logn);
	for (u = 0; u < hn; u ++) {
		acc = fpr_add(acc, rd[u]);
	}
	/* (2 q^2 / n) acc < B (1 + 2^-20)  <=>  2 q^2 acc < n B (1 + 2^-20) */
	acc = fpr_mul(acc, fpr_of(2 * (int64_t)FA_Q * FA_Q));
	bound = fpr_mul(FPR_BNORM_MAX, fpr_of((int64_t)n));
	bound = fpr_add(bound,
		fpr_mul(bound, fpr_from_bits(0x3EB0000000000000u)));  /* 2^-20 */
	return fpr_lt(acc, bound);
}

void fa_keygen_inner(fa_shake256_ctx *rng, int8_t *f, int8_t *g,
	int8_t *F, int8_t *G, uint16_t *h, unsigned logn, uint8_t *tmp,
	const struct fa_kernels *k)
{
	fpr *ft = (fpr *)fa_align8(tmp);

	for (;;) {
		int lim = 1 << (FA_FG_BITS(logn) - 1);
		uint32_t nf, ng, norm;

		sample_small(rng, f, logn);
		sample_small(rng, g, logn);
		/* declassified: each verdict below only discards (f, g) */
		if (!fa_declassify_int(small_in_range(f, logn, lim)
			& small_in_range(g, logn, lim)))
		{
			continue;
		}
		nf = small_sqnorm(f, logn);
		ng = small_sqnorm(g, logn);
		norm = (nf + ng) | -((nf | ng) >> 31);
		if (fa_declassify_int(norm >= 16823)) {
			continue;
		}
		if (!fa_declassify_int(fa_gs_norm_ok(f, g, logn, ft, k))) {
			continue;
		}
		if (!fa_declassify_int(fa_compute_public(h, f, g, logn,
			(uint8_t *)ft, k)))
		{
			continue;
		}
		if (!fa_declassify_int(fa_ntru_solve(F, G, f, g, logn, ft, k))) {
			continue;
		}
		return;
	}
}
