/*
 * fndsa_sign.c -- FN-DSA signature generation as fn-dsa 0.4.0: the
 * SHAKE256 sampler stream, SamplerZ with the 79-bit base sampler, fast
 * Fourier sampling over the Gram matrix (LDL with self-adjoint diagonal
 * terms, fn-dsa's operation order), the attempt loop with the L-infinity
 * bounds. FFT, inverse FFT, products, sums, split and merge run on the
 * kernel seam (fa_k_*): they are the round-3 kernels, bit-identical to
 * fn-dsa's. Constant-time as sign.c (same declassified events: the
 * SamplerZ trial count, BerExp's early exit on random bytes, the verdict
 * of an attempt).
 */

#include "fndsa_inner.h"
#include "ct_declassify.h"

/* ------------------------------------------------------------------ */
/* The SHAKE256 stream. */

void fa_fndsa_prng_init(fa_fndsa_prng *p, const void *seed, size_t len,
	const struct fa_kernels *k)
{
	p->k = k;
	fa_shake256_init(&p->sc);
	fa_shake256_inject_k(k, &p->sc, seed, len);
	fa_shake256_flip(&p->sc);
	p->ptr = sizeof p->buf;
}

static inline void prng_refill(fa_fndsa_prng *p)
{
	fa_shake256_extract_k(p->k, &p->sc, p->buf, sizeof p->buf);
	p->ptr = 0;
}

unsigned fa_fndsa_prng_u8(fa_fndsa_prng *p)
{
	if (p->ptr == sizeof p->buf) {
		prng_refill(p);
	}
	return p->buf[p->ptr ++];
}

uint32_t fa_fndsa_prng_u16(fa_fndsa_prng *p)
{
	uint32_t x;

	if (p->ptr + 2 > sizeof p->buf) {
		x = fa_fndsa_prng_u8(p);
		return x | ((uint32_t)fa_fndsa_prng_u8(p) << 8);
	}
	x = (uint32_t)p->buf[p->ptr] | ((uint32_t)p->buf[p->ptr + 1] << 8);
	p->ptr += 2;
	return x;
}

uint64_t fa_fndsa_prng_u64(fa_fndsa_prng *p)
{
	uint64_t x = 0;
	int i;

	if (p->ptr + 8 > sizeof p->buf) {
		for (i = 0; i < 8; i ++) {
			x |= (uint64_t)fa_fndsa_prng_u8(p) << (8 * i);
		}
		return x;
	}
	for (i = 7; i >= 0; i --) {
		x = (x << 8) | p->buf[p->ptr + (size_t)i];
	}
	p->ptr += 8;
	return x;
}

void fa_fndsa_prng_bytes(fa_fndsa_prng *p, void *out, size_t len)
{
	uint8_t *d = out;

	while (len > 0) {
		size_t c;

		if (p->ptr == sizeof p->buf) {
			prng_refill(p);
		}
		c = sizeof p->buf - p->ptr;
		if (c > len) {
			c = len;
		}
		memcpy(d, p->buf + p->ptr, c);
		p->ptr += c;
		d += c;
		len -= c;
	}
}

/* ------------------------------------------------------------------ */
/* The sampler stream (kernels.h, fa_fndsa_sampler). */

void fa_fndsa_sampler_init(fa_fndsa_sampler *s, const void *seed,
	size_t len, unsigned logn, const struct fa_kernels *k)
{
	s->k = k;
	fa_shake256_init(&s->sc);
	fa_shake256_inject_k(k, &s->sc, seed, len);
	fa_shake256_flip(&s->sc);
	s->ptr = s->end = 0;
	s->base = 0;
	s->sigma_min = fpr_from_bits(fa_fndsa_sigma_min[logn]);
}

void fa_fndsa_sampler_refill(fa_fndsa_sampler *s)
{
	size_t r = s->end - s->ptr;

	memmove(s->buf, s->buf + s->ptr, r);
	s->base += s->ptr;
	fa_shake256_extract_k(s->k, &s->sc, s->buf + r, FA_FNDSA_SAMP_CHUNK);
	s->ptr = 0;
	s->end = r + FA_FNDSA_SAMP_CHUNK;
}

/* The next m (<= FA_FNDSA_SAMP_KEEP) bytes of the stream. */
static inline const uint8_t *samp_take(fa_fndsa_sampler *s, size_t m)
{
	const uint8_t *t;

	if (s->end - s->ptr < m) {
		fa_fndsa_sampler_refill(s);
	}
	t = s->buf + s->ptr;
	s->ptr += m;
	return t;
}

/* ------------------------------------------------------------------ */
/* SamplerZ (the portable kernel of the fndsa_samplerz_pair slot). */

/* Half-Gaussian z0 >= 0 and a random bit b from 80 random bits (fn-dsa
   reads a 64-bit then a 16-bit word, little-endian): the low bit of the
   64-bit word is b, the other 79 bits are compared with every 79-bit
   table entry (three limbs, borrows). */
static int gaussian0(fa_fndsa_sampler *s, int *b)
{
	const uint8_t *t = samp_take(s, 10);
	uint64_t lo = 0;
	uint32_t hi = (uint32_t)t[8] | ((uint32_t)t[9] << 8);
	uint32_t v0, v1, v2;
	int z = 0, i;
	size_t j;

	for (i = 7; i >= 0; i --) {
		lo = (lo << 8) | t[i];
	}
	v0 = (uint32_t)(lo >> 1) & 0xFFFFFF;
	v1 = (uint32_t)(lo >> 25) & 0xFFFFFF;
	v2 = (uint32_t)(lo >> 49) | (hi << 15);
	*b = (int)(lo & 1);
	for (j = 0; j < 18; j ++) {
		uint32_t cc;

		cc = (v0 - fa_fndsa_gauss0[3 * j + 2]) >> 31;
		cc = (v1 - fa_fndsa_gauss0[3 * j + 1] - cc) >> 31;
		cc = (v2 - fa_fndsa_gauss0[3 * j + 0] - cc) >> 31;
		z += (int)cc;
	}
	return z;
}

static inline uint64_t mulhi64(uint64_t a, uint64_t b)
{
	uint64_t a0 = (uint32_t)a, a1 = a >> 32;
	uint64_t b0 = (uint32_t)b, b1 = b >> 32;
	uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
	uint64_t mid = (p00 >> 32) + (uint32_t)p01 + (uint32_t)p10;

	return p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
}

/* 2^63 ccs exp(-x), x in [0, ln 2) (the FACCT polynomial, as round 3). */
static uint64_t expm_p63(fpr x, fpr ccs)
{
	uint64_t z = (uint64_t)fpr_trunc_scaled(x, 63) << 1;
	uint64_t y = fa_expm_coeffs[0];
	size_t u;

	for (u = 1; u < 13; u ++) {
		y = fa_expm_coeffs[u] - mulhi64(z, y);
	}
	z = (uint64_t)fpr_trunc_scaled(ccs, 63) << 1;
	return mulhi64(z, y);
}

/* 1 with probability ccs exp(-x), x >= 0. */
static int ber_exp(fa_fndsa_sampler *s, fpr x, fpr ccs)
{
	int64_t si = fpr_trunc(fpr_mul(x, FPR_INV_LOG2));
	fpr r = fpr_sub(x, fpr_mul(fpr_of(si), FPR_LOG2));
	uint32_t sw = (uint32_t)si, sh;
	uint64_t z;
	int i;

	/* min(s, 63) without a branch */
	sh = (sw | ((63u - sw) >> 16)) & 63u;
	z = ((expm_p63(r, ccs) << 1) - 1) >> sh;
	for (i = 0; i < 8; i ++) {
		uint32_t w = *samp_take(s, 1);
		uint32_t bz = (uint32_t)(z >> (56 - 8 * i)) & 0xFF;

		/* declassified: the early exit on a random byte (README) */
		if (fa_declassify_u32(w ^ bz)) {
			return w < bz;
		}
	}
	return 0;
}

static int samplerz(fa_fndsa_sampler *s, fpr mu, fpr isigma)
{
	int64_t fl = fpr_floor(mu);
	fpr r = fpr_sub(mu, fpr_of(fl));
	fpr dss = fpr_half(fpr_sqr(isigma));
	fpr ccs = fpr_mul(isigma, s->sigma_min);

	for (;;) {
		int b, z0 = gaussian0(s, &b);
		int z = b + ((b << 1) - 1) * z0;
		fpr x;

		x = fpr_mul(fpr_sqr(fpr_sub(fpr_of(z), r)), dss);
		x = fpr_sub(x, fpr_mul(fpr_of(z0 * z0), FPR_INV_2SQRSIGMA0));
		/* declassified: the trial count (README) */
		if (fa_declassify_int(ber_exp(s, x, ccs))) {
			return (int)fl + z;
		}
	}
}

void fa_fndsa_samplerz_pair_portable(fa_fndsa_sampler *s, int *z, fpr mu0,
	fpr mu1, fpr isigma)
{
	z[0] = samplerz(s, mu0, isigma);
	z[1] = samplerz(s, mu1, isigma);
}

/* A leaf pair through the slot: (y0, y1) near (mu0, mu1). */
static inline void samp_pair(fa_fndsa_sampler *s, fpr *y0, fpr *y1,
	fpr mu0, fpr mu1, fpr isigma)
{
	int z[2];

	fa_k_fndsa_samplerz_pair(s->k, s, z, mu0, mu1, isigma);
	*y0 = fpr_of32(z[0]);
	*y1 = fpr_of32(z[1]);
}

/* ------------------------------------------------------------------ */
/* Fast Fourier sampling (fn-dsa's ffsamp_fft). */

/* LDL of [[g00, g01], [adj(g01), g11]] with g00, g11 self-adjoint (their
   n/2 real parts): g01 <- l10 = adj(g01/g00), g11 <- g11 - |g01|^2/g00. */
static void ldl_selfadj(const fpr *g00, fpr *g01, fpr *g11, unsigned logn)
{
	size_t i, hn = MKN(logn) >> 1;

	for (i = 0; i < hn; i ++) {
		fpr inv = fpr_inv(g00[i]);
		fpr mu_re = fpr_mul(g01[i], inv);
		fpr mu_im = fpr_mul(g01[i + hn], inv);
		fpr zo = fpr_add(fpr_mul(mu_re, g01[i]),
			fpr_mul(mu_im, g01[i + hn]));

		g11[i] = fpr_sub(g11[i], zo);
		g01[i] = mu_re;
		g01[i + hn] = fpr_neg(mu_im);
	}
}

/* Split of a self-adjoint f (n/2 real values): f0 self-adjoint (its
   imaginary halves set to 0), f1 = (a - b)/2 * conj(w). */
static void split_selfadj(fpr *f0, fpr *f1, const fpr *f, unsigned logn)
{
	size_t i, hn = MKN(logn) >> 1, qn = hn >> 1;

	if (logn == 1) {
		f0[0] = f[0];
		f1[0] = FPR_ZERO;
		return;
	}
	for (i = 0; i < qn; i ++) {
		fpr a = f[2 * i], b = f[2 * i + 1];
		fpr t = fpr_half(fpr_sub(a, b));

		f0[i] = fpr_half(fpr_add(a, b));
		f0[i + qn] = FPR_ZERO;
		f1[i] = fpr_mul(t, fpr_from_bits(fa_fft_roots[2 * (i + hn)]));
		f1[i + qn] = fpr_mul(t,
			fpr_neg(fpr_from_bits(fa_fft_roots[2 * (i + hn) + 1])));
	}
}

static void ffsamp(fa_fndsa_sampler *sc, fpr *t0, fpr *t1, fpr *g00,
	fpr *g01, fpr *g11, unsigned logn, fpr isig, fpr *tmp,
	const struct fa_kernels *k)
{
	size_t n = MKN(logn), hn = n >> 1;

	if (logn == 1) {
		fpr inv = fpr_inv(g00[0]);
		fpr mu_re = fpr_mul(g01[0], inv);
		fpr mu_im = fpr_mul(g01[1], inv);
		fpr zo = fpr_add(fpr_mul(mu_re, g01[0]), fpr_mul(mu_im, g01[1]));
		fpr d00 = g00[0], d11 = fpr_sub(g11[0], zo);
		fpr l_re = mu_re, l_im = fpr_neg(mu_im);
		fpr w0 = t1[0], w1 = t1[1], leaf, y0, y1, a_re, a_im, x0, x1;

		leaf = fpr_mul(fpr_sqrt(d11), isig);
		samp_pair(sc, &y0, &y1, w0, w1, leaf);
		a_re = fpr_sub(w0, y0);
		a_im = fpr_sub(w1, y1);
		x0 = fpr_add(t0[0], fpr_sub(fpr_mul(a_re, l_re),
			fpr_mul(a_im, l_im)));
		x1 = fpr_add(t0[1], fpr_add(fpr_mul(a_re, l_im),
			fpr_mul(a_im, l_re)));
		t1[0] = y0;
		t1[1] = y1;
		leaf = fpr_mul(fpr_sqrt(d00), isig);
		samp_pair(sc, &t0[0], &t0[1], x0, x1, leaf);
		return;
	}

	ldl_selfadj(g00, g01, g11, logn);
	split_selfadj(tmp, tmp + hn, g00, logn);
	memcpy(g00, tmp, n * sizeof *tmp);
	split_selfadj(tmp, tmp + hn, g11, logn);
	memcpy(g11, tmp, n * sizeof *tmp);
	memcpy(tmp, g01, n * sizeof *tmp);            /* l10 */
	memcpy(g01, g00, hn * sizeof *tmp);
	memcpy(g01 + hn, g11, hn * sizeof *tmp);

	/* z1 from t1 with the right subtree (g11 halves, g01 + hn),
	   merged into tmp + 2n. */
	fa_k_poly_split_fft(k, tmp + n, tmp + n + hn, t1, logn);
	ffsamp(sc, tmp + n, tmp + n + hn, g11, g11 + hn, g01 + hn, logn - 1,
		isig, tmp + 2 * n, k);
	fa_k_poly_merge_fft(k, tmp + 2 * n, tmp + n, tmp + n + hn, logn);

	/* t0 += (t1 - z1) l10; t1 <- z1 */
	memcpy(tmp + n, t1, n * sizeof *tmp);
	fa_k_poly_sub(k, tmp + n, tmp + 2 * n, logn);
	memcpy(t1, tmp + 2 * n, n * sizeof *tmp);
	fa_k_poly_mul_fft(k, tmp, tmp + n, logn);
	fa_k_poly_add(k, t0, tmp, logn);

	/* z0 from t0 with the left subtree */
	fa_k_poly_split_fft(k, tmp, tmp + hn, t0, logn);
	ffsamp(sc, tmp, tmp + hn, g00, g00 + hn, g01, logn - 1, isig,
		tmp + n, k);
	fa_k_poly_merge_fft(k, t0, tmp, tmp + hn, logn);
}

/* ------------------------------------------------------------------ */
/* The LDL tree of an expanded key: what ffsamp computes from the Gram
   matrix on its way down, computed once with the same operations in the
   same order (so sampling from it gives the same bits). A node of degree
   2^logn holds l10 (n values), then the tree of the z1 side (from the
   split of d11), then that of the z0 side (from d00); a node of logn 1
   holds l10 (re, im) and the two leaf sigmas sqrt(d11) / sigma and
   sqrt(d00) / sigma. Size (logn + 1) 2^logn values. */

#define TREE_SIZE(logn) (((size_t)(logn) + 1) << (logn))

static void tree_build(fpr *tree, fpr *g00, fpr *g01, fpr *g11,
	unsigned logn, fpr isig, fpr *tmp)
{
	size_t n = MKN(logn), hn = n >> 1;

	if (logn == 1) {
		fpr inv = fpr_inv(g00[0]);
		fpr mu_re = fpr_mul(g01[0], inv);
		fpr mu_im = fpr_mul(g01[1], inv);
		fpr zo = fpr_add(fpr_mul(mu_re, g01[0]), fpr_mul(mu_im, g01[1]));

		tree[0] = mu_re;
		tree[1] = fpr_neg(mu_im);
		tree[2] = fpr_mul(fpr_sqrt(fpr_sub(g11[0], zo)), isig);
		tree[3] = fpr_mul(fpr_sqrt(g00[0]), isig);
		return;
	}
	ldl_selfadj(g00, g01, g11, logn);
	split_selfadj(tmp, tmp + hn, g00, logn);
	memcpy(g00, tmp, n * sizeof *tmp);
	split_selfadj(tmp, tmp + hn, g11, logn);
	memcpy(g11, tmp, n * sizeof *tmp);
	memcpy(tree, g01, n * sizeof *tmp);            /* l10 */
	memcpy(g01, g00, hn * sizeof *tmp);
	memcpy(g01 + hn, g11, hn * sizeof *tmp);
	tree_build(tree + n, g11, g11 + hn, g01 + hn, logn - 1, isig, tmp);
	tree_build(tree + n + TREE_SIZE(logn - 1), g00, g00 + hn, g01,
		logn - 1, isig, tmp);
}

/* ffsamp with the tree. tmp: 4n values. */
static void ffsamp_tree(fa_fndsa_sampler *sc, fpr *t0, fpr *t1, const fpr *tree,
	unsigned logn, fpr *tmp, const struct fa_kernels *k)
{
	size_t n = MKN(logn), hn = n >> 1;

	if (logn == 1) {
		fpr l_re = tree[0], l_im = tree[1];
		fpr w0 = t1[0], w1 = t1[1], y0, y1, a_re, a_im, x0, x1;

		samp_pair(sc, &y0, &y1, w0, w1, tree[2]);
		a_re = fpr_sub(w0, y0);
		a_im = fpr_sub(w1, y1);
		x0 = fpr_add(t0[0], fpr_sub(fpr_mul(a_re, l_re),
			fpr_mul(a_im, l_im)));
		x1 = fpr_add(t0[1], fpr_add(fpr_mul(a_re, l_im),
			fpr_mul(a_im, l_re)));
		t1[0] = y0;
		t1[1] = y1;
		samp_pair(sc, &t0[0], &t0[1], x0, x1, tree[3]);
		return;
	}

	fa_k_poly_split_fft(k, tmp + n, tmp + n + hn, t1, logn);
	ffsamp_tree(sc, tmp + n, tmp + n + hn, tree + n, logn - 1,
		tmp + 2 * n, k);
	fa_k_poly_merge_fft(k, tmp + 2 * n, tmp + n, tmp + n + hn, logn);

	memcpy(tmp + n, t1, n * sizeof *tmp);
	fa_k_poly_sub(k, tmp + n, tmp + 2 * n, logn);
	memcpy(t1, tmp + 2 * n, n * sizeof *tmp);
	memcpy(tmp, tree, n * sizeof *tmp);
	fa_k_poly_mul_fft(k, tmp, tmp + n, logn);
	fa_k_poly_add(k, t0, tmp, logn);

	fa_k_poly_split_fft(k, tmp, tmp + hn, t0, logn);
	ffsamp_tree(sc, tmp, tmp + hn, tree + n + TREE_SIZE(logn - 1),
		logn - 1, tmp + n, k);
	fa_k_poly_merge_fft(k, t0, tmp, tmp + hn, logn);
}

/* ------------------------------------------------------------------ */

static void small_to_fpr(fpr *r, const int8_t *t, size_t n)
{
	size_t u;

	for (u = 0; u < n; u ++) {
		r[u] = fpr_of32(t[u]);
	}
}

#define SQBETA(logn) fa_l2bound[logn]

/* basis B = [[g, -f], [G, -F]] in FFT form */
static void make_basis(fpr *b00, fpr *b01, fpr *b10, fpr *b11,
	const int8_t *f, const int8_t *g, const int8_t *F, const int8_t *G,
	unsigned logn, const struct fa_kernels *k)
{
	size_t n = MKN(logn);

	small_to_fpr(b00, g, n);
	small_to_fpr(b01, f, n);
	small_to_fpr(b10, G, n);
	small_to_fpr(b11, F, n);
	fa_k_fft(k, b00, logn);
	fa_k_fft(k, b01, logn);
	fa_k_fft(k, b10, logn);
	fa_k_fft(k, b11, logn);
	fa_k_poly_neg(k, b01, logn);
	fa_k_poly_neg(k, b11, logn);
}

/* Gram matrix: g00 = b00 adj(b00) + b01 adj(b01), g01 = b00 adj(b10) +
   b01 adj(b11), g11 = b10 adj(b10) + b11 adj(b11) (w: n scratch) */
static void make_gram(fpr *g00, fpr *g01, fpr *g11, const fpr *b00,
	const fpr *b01, const fpr *b10, const fpr *b11, unsigned logn,
	fpr *w, const struct fa_kernels *k)
{
	size_t n = MKN(logn);

	memcpy(g00, b00, n * sizeof *w);
	fa_k_poly_mulselfadj_fft(k, g00, logn);
	memcpy(w, b01, n * sizeof *w);
	fa_k_poly_mulselfadj_fft(k, w, logn);
	fa_k_poly_add(k, g00, w, logn);
	memcpy(g01, b00, n * sizeof *w);
	fa_k_poly_muladj_fft(k, g01, b10, logn);
	memcpy(w, b01, n * sizeof *w);
	fa_k_poly_muladj_fft(k, w, b11, logn);
	fa_k_poly_add(k, g01, w, logn);
	memcpy(g11, b10, n * sizeof *w);
	fa_k_poly_mulselfadj_fft(k, g11, logn);
	memcpy(w, b11, n * sizeof *w);
	fa_k_poly_mulselfadj_fft(k, w, logn);
	fa_k_poly_add(k, g11, w, logn);
}

/* The attempts, from the basis; sampling with the Gram matrix
   recomputed each time into gram (3n values) when tree is NULL, else
   with the tree. work: 6n values then 4n bytes. */
static int sign_attempts(uint8_t *sig, const uint8_t seed[40],
	const fpr *b00, const fpr *b01, const fpr *b10, const fpr *b11,
	const fpr *tree, fpr *gram, const uint8_t mu[64], unsigned logn,
	fpr *work, const struct fa_kernels *k)
{
	size_t n = MKN(logn), u;
	fpr *t0 = work, *t1 = t0 + n, *w = t1 + n;
	uint16_t *hm = (uint16_t *)(void *)(w + 4 * n);
	int16_t *s2 = (int16_t *)(hm + n);
	unsigned counter;

	for (counter = 0; counter < 27; counter ++) {
		fa_fndsa_sampler sc;
		uint8_t s41[41], nonce[40];
		uint32_t sqn = 0, ng = 0;

		memcpy(s41, seed, 40);
		s41[40] = (uint8_t)counter;
		fa_fndsa_sampler_init(&sc, s41, sizeof s41, logn, k);
		memcpy(nonce, samp_take(&sc, 40), 40);
		fa_fndsa_hash_to_point(hm, nonce, mu, logn, k);

		if (tree == NULL) {
			make_gram(gram, gram + n, gram + 2 * n, b00, b01, b10,
				b11, logn, w, k);
		}

		/* target t0 = hm b11 / q, t1 = -hm b01 / q */
		for (u = 0; u < n; u ++) {
			t0[u] = fpr_of_u16(hm[u]);
		}
		fa_k_fft(k, t0, logn);
		memcpy(t1, t0, n * sizeof *w);
		fa_k_poly_mul_fft(k, t1, b01, logn);
		fa_k_poly_mulconst(k, t1, fpr_neg(FPR_INV_Q), logn);
		fa_k_poly_mul_fft(k, t0, b11, logn);
		fa_k_poly_mulconst(k, t0, FPR_INV_Q, logn);

		if (tree == NULL) {
			ffsamp(&sc, t0, t1, gram, gram + n, gram + 2 * n, logn,
				fpr_from_bits(fa_fndsa_inv_sigma[logn]), w, k);
		} else {
			ffsamp_tree(&sc, t0, t1, tree, logn, w, k);
		}

		/* v = z B: v0 = z0 b00 + z1 b10, v1 = z0 b01 + z1 b11 */
		memcpy(w, t0, n * sizeof *w);
		memcpy(w + n, t1, n * sizeof *w);
		fa_k_poly_mul_fft(k, w, b00, logn);
		fa_k_poly_mul_fft(k, w + n, b10, logn);
		fa_k_poly_add(k, w, w + n, logn);
		memcpy(w + n, t0, n * sizeof *w);
		fa_k_poly_mul_fft(k, w + n, b01, logn);
		memcpy(t0, w, n * sizeof *w);
		fa_k_poly_mul_fft(k, t1, b11, logn);
		fa_k_poly_add(k, t1, w + n, logn);
		fa_k_ifft(k, t0, logn);
		fa_k_ifft(k, t1, logn);

		/* s1 = hm - v0, s2 = -v1 (as int16), squared norm with
		   saturation, |s1| <= 840 */
		for (u = 0; u < n; u ++) {
			int32_t z = (int32_t)hm[u] - (int32_t)fpr_rint(t0[u]);

			z = (int16_t)z;
			sqn += (uint32_t)(z * z);
			ng |= sqn;
			ng |= (uint32_t)(FA_FNDSA_BINF - z);
			ng |= (uint32_t)(FA_FNDSA_BINF + z);
		}
		for (u = 0; u < n; u ++) {
			int32_t z = (int16_t)(-fpr_rint(t1[u]));

			s2[u] = (int16_t)z;
			sqn += (uint32_t)(z * z);
			ng |= sqn;
		}
		sqn |= -(ng >> 31);
		/* declassified: a rejected attempt is discarded, an accepted
		   s2 is the public signature */
		if (fa_declassify_u32(sqn > SQBETA(logn))) {
			continue;
		}
		if (fa_fndsa_comp_encode(sig + 41, FA_FNDSA_SIG_SIZE(logn) - 41,
			s2, n))
		{
			sig[0] = (uint8_t)(0x30 + logn);
			memcpy(sig + 1, nonce, 40);
			return FA_OK;
		}
	}
	return FA_ERR_SIGN_ATTEMPTS;
}

int fa_fndsa_sign_inner(uint8_t *sig, const uint8_t seed[40],
	const int8_t *f, const int8_t *g, const int8_t *F, const int8_t *G,
	const uint8_t mu[64], unsigned logn, uint8_t *tmp,
	const struct fa_kernels *k)
{
	size_t n = MKN(logn);
	fpr *b00 = (fpr *)(void *)tmp, *b01 = b00 + n, *b10 = b01 + n;
	fpr *b11 = b10 + n, *gram = b11 + n;

	make_basis(b00, b01, b10, b11, f, g, F, G, logn, k);
	return sign_attempts(sig, seed, b00, b01, b10, b11, NULL, gram, mu,
		logn, gram + 3 * n, k);
}

void fa_fndsa_expand_inner(fpr *body, const int8_t *f, const int8_t *g,
	const int8_t *F, const int8_t *G, unsigned logn, fpr *tmp,
	const struct fa_kernels *k)
{
	size_t n = MKN(logn);
	fpr *b00 = body, *b01 = b00 + n, *b10 = b01 + n, *b11 = b10 + n;
	fpr *g00 = tmp, *g01 = g00 + n, *g11 = g01 + n, *w = g11 + n;

	make_basis(b00, b01, b10, b11, f, g, F, G, logn, k);
	make_gram(g00, g01, g11, b00, b01, b10, b11, logn, w, k);
	tree_build(b11 + n, g00, g01, g11, logn,
		fpr_from_bits(fa_fndsa_inv_sigma[logn]), w);
}

int fa_fndsa_sign_tree_inner(uint8_t *sig, const uint8_t seed[40],
	const fpr *body, const uint8_t mu[64], unsigned logn, uint8_t *tmp,
	const struct fa_kernels *k)
{
	size_t n = MKN(logn);

	return sign_attempts(sig, seed, body, body + n, body + 2 * n,
		body + 3 * n, body + 4 * n, NULL, mu, logn,
		(fpr *)(void *)tmp, k);
}
