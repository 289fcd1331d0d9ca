/*
 * sign.c -- Falcon signature generation: private basis in FFT form, the
 * LDL tree (expanded key), fast Fourier sampling, with the tree
 * (sign_tree) or recomputing it on the fly (sign_dyn). For the same
 * randomness both produce the same signature: they run the same
 * floating-point operations on the same values.
 *
 * The private basis is B = [[g, -f], [G, -F]], with Gram matrix
 * G = B*adj(B)^T = [[g00, g01], [adj(g01), g11]]. To sign hm, the target
 * t = (hm, 0) * B^-1 = (hm*(-F), hm*f) / q... in FFT form
 * t0 = hm*b11/q and t1 = -hm*b01/q (b11 = -F, b01 = -f); the sampler
 * returns z close to t, and s = (hm, 0) - z*B is short: s1 = hm - (z*B)_0,
 * s2 = -(z*B)_1.
 */

#include "inner.h"
#include "ct_declassify.h"

#define TREESIZE(logn) (((size_t)(logn) + 1) << (logn))

static void small_to_fpr(fpr *r, const int8_t *t, unsigned logn)
{
	size_t u, n = MKN(logn);

	for (u = 0; u < n; u ++) {
		r[u] = fpr_of32(t[u]);
	}
}

/* b00 = FFT(g), b01 = FFT(-f), b10 = FFT(G), b11 = FFT(-F). */
static void basis_fft(fpr *b00, fpr *b01, fpr *b10, fpr *b11,
	const int8_t *f, const int8_t *g, const int8_t *F, const int8_t *G,
	unsigned logn, const struct fa_kernels *k)
{
	small_to_fpr(b00, g, logn);
	small_to_fpr(b01, f, logn);
	small_to_fpr(b10, G, logn);
	small_to_fpr(b11, F, logn);
	fa_k_fft(k, b00, logn);
	fa_k_fft(k, b01, logn);
	fa_k_fft(k, b10, logn);
	fa_k_fft(k, b11, logn);
	fa_k_poly_neg(k, b01, logn);
	fa_k_poly_neg(k, b11, logn);
}

/* Gram matrix of the basis; t is n fpr of scratch.
   g00 = b00 adj(b00) + b01 adj(b01), g01 = b00 adj(b10) + b01 adj(b11),
   g11 = b10 adj(b10) + b11 adj(b11). */
static void gram_fft(fpr *g00, fpr *g01, fpr *g11, const fpr *b00,
	const fpr *b01, const fpr *b10, const fpr *b11, fpr *t,
	unsigned logn, const struct fa_kernels *k)
{
	size_t n = MKN(logn);

	memcpy(g00, b00, n * sizeof *b00);
	fa_k_poly_mulselfadj_fft(k, g00, logn);
	memcpy(t, b01, n * sizeof *b01);
	fa_k_poly_mulselfadj_fft(k, t, logn);
	fa_k_poly_add(k, g00, t, logn);

	memcpy(g01, b00, n * sizeof *b00);
	fa_k_poly_muladj_fft(k, g01, b10, logn);
	memcpy(t, b01, n * sizeof *b01);
	fa_k_poly_muladj_fft(k, t, b11, logn);
	fa_k_poly_add(k, g01, t, logn);

	memcpy(g11, b10, n * sizeof *b10);
	fa_k_poly_mulselfadj_fft(k, g11, logn);
	memcpy(t, b11, n * sizeof *b11);
	fa_k_poly_mulselfadj_fft(k, t, logn);
	fa_k_poly_add(k, g11, t, logn);
}

/* Target: t0 = hm*b11/q, t1 = -hm*b01/q (FFT form). */
static void target_fft(fpr *t0, fpr *t1, const uint16_t *hm,
	const fpr *b01, const fpr *b11, unsigned logn,
	const struct fa_kernels *k)
{
	size_t u, n = MKN(logn);

	for (u = 0; u < n; u ++) {
		t0[u] = fpr_of_u16(hm[u]);
	}
	fa_k_fft(k, t0, logn);
	memcpy(t1, t0, n * sizeof *t0);
	fa_k_poly_mul_fft(k, t1, b01, logn);
	fa_k_poly_mulconst(k, t1, fpr_neg(FPR_INV_Q), logn);
	fa_k_poly_mul_fft(k, t0, b11, logn);
	fa_k_poly_mulconst(k, t0, FPR_INV_Q, logn);
}

/* ------------------------------------------------------------------ */
/* LDL tree. */

/* Node for the 2x2 Gram [[g0, g1], [adj(g1), g0]] (a split self-adjoint
   polynomial); g0 and g1 are consumed. tmp: n fpr. */
static void ldl_tree_inner(fpr *tree, fpr *g0, fpr *g1, unsigned logn,
	fpr *tmp, const struct fa_kernels *k)
{
	size_t n = MKN(logn), hn = n >> 1;

	if (logn == 0) {
		tree[0] = g0[0];
		return;
	}
	/* d11 -> tmp, l10 -> tree; d00 = g0. */
	fa_k_poly_LDLmv_fft(k, tmp, tree, g0, g1, g0, logn);
	fa_k_poly_split_fft(k, g1, g1 + hn, g0, logn);   /* split(d00) */
	fa_k_poly_split_fft(k, g0, g0 + hn, tmp, logn);  /* split(d11) */
	ldl_tree_inner(tree + n, g1, g1 + hn, logn - 1, tmp, k);
	ldl_tree_inner(tree + n + TREESIZE(logn - 1), g0, g0 + hn,
		logn - 1, tmp, k);
}

/* Full tree from the Gram matrix (inputs kept). tmp: 3n fpr. */
static void ldl_tree(fpr *tree, const fpr *g00, const fpr *g01,
	const fpr *g11, unsigned logn, fpr *tmp, const struct fa_kernels *k)
{
	size_t n = MKN(logn), hn = n >> 1;
	fpr *d00 = tmp, *d11 = tmp + n, *t = tmp + 2 * n;

	memcpy(d00, g00, n * sizeof *g00);
	fa_k_poly_LDLmv_fft(k, d11, tree, g00, g01, g11, logn);
	fa_k_poly_split_fft(k, t, t + hn, d00, logn);
	fa_k_poly_split_fft(k, d00, d00 + hn, d11, logn);
	memcpy(d11, t, n * sizeof *t);
	/* now d11 holds split(d00) (left child), d00 holds split(d11) */
	ldl_tree_inner(tree + n, d11, d11 + hn, logn - 1, t, k);
	ldl_tree_inner(tree + n + TREESIZE(logn - 1), d00, d00 + hn,
		logn - 1, t, k);
}

/* Leaves: tree value d -> sqrt(d)/sigma (the sampler's 1/sigma'). */
static void ldl_tree_normalize(fpr *tree, unsigned logn, fpr inv_sigma)
{
	size_t n = MKN(logn);

	if (logn == 0) {
		tree[0] = fpr_mul(fpr_sqrt(tree[0]), inv_sigma);
		return;
	}
	ldl_tree_normalize(tree + n, logn - 1, inv_sigma);
	ldl_tree_normalize(tree + n + TREESIZE(logn - 1), logn - 1, inv_sigma);
}

void fa_expand_privkey_inner(fpr *ek, const int8_t *f, const int8_t *g,
	const int8_t *F, const int8_t *G, unsigned logn, uint8_t *tmp,
	const struct fa_kernels *k)
{
	size_t n = MKN(logn);
	fpr *b00 = ek, *b01 = b00 + n, *b10 = b01 + n, *b11 = b10 + n;
	fpr *tree = b11 + n;
	fpr *g00 = (fpr *)fa_align8(tmp), *g01 = g00 + n, *g11 = g01 + n;
	fpr *t = g11 + n;

	basis_fft(b00, b01, b10, b11, f, g, F, G, logn, k);
	gram_fft(g00, g01, g11, b00, b01, b10, b11, t, logn, k);
	ldl_tree(tree, g00, g01, g11, logn, t, k);
	ldl_tree_normalize(tree, logn, fpr_from_bits(fa_inv_sigma[logn]));
}

/* ------------------------------------------------------------------ */
/* Fast Fourier sampling. */

/* A leaf pair: z0 near mu0, then z1 near mu1, the same sigma. */
static inline void samp_pair(fa_sampler_ctx *sc, fpr *z0, fpr *z1,
	fpr mu0, fpr mu1, fpr isigma)
{
	int z[2];

	fa_k_samplerz_pair(sc->k, sc, z, mu0, mu1, isigma);
	*z0 = fpr_of32(z[0]);
	*z1 = fpr_of32(z[1]);
}

/*
 * ffsamp_tree for n = 2 (logn = 1), written out: the FFT form of a
 * degree-1 polynomial is one complex value (re, im), split and merge are
 * copies, and the leaf sigmas are tree[2] (left) and tree[3] (right).
 * The floating-point operations are those of the kernels at logn = 1
 * (poly_sub, poly_mul_fft = one complex product, poly_add), in the same
 * order, so the result is the same for every backend.
 */
static void ffsamp_tree_n2(fa_sampler_ctx *sc, fpr *z0, fpr *z1,
	const fpr *tree, const fpr *t0, const fpr *t1)
{
	fpr d_re, d_im, a_re, a_im;

	samp_pair(sc, &z1[0], &z1[1], t1[0], t1[1], tree[3]);
	/* t0' = t0 + (t1 - z1) * l10, l10 = (tree[0], tree[1]) */
	d_re = fpr_sub(t1[0], z1[0]);
	d_im = fpr_sub(t1[1], z1[1]);
	a_re = fpr_sub(fpr_mul(d_re, tree[0]), fpr_mul(d_im, tree[1]));
	a_im = fpr_add(fpr_mul(d_re, tree[1]), fpr_mul(d_im, tree[0]));
	a_re = fpr_add(a_re, t0[0]);
	a_im = fpr_add(a_im, t0[1]);
	samp_pair(sc, &z0[0], &z0[1], a_re, a_im, tree[2]);
}

/* Split and merge for n = 4 (logn = 2), the kernels' operations at that
   size: f = (f[0] + i f[2], f[1] + i f[3]), w = root 2 of fa_fft_roots. */
static void split_n4(fpr *f0, fpr *f1, const fpr *f)
{
	fpr w_re = fpr_from_bits(fa_fft_roots[4]);
	fpr w_im = fpr_neg(fpr_from_bits(fa_fft_roots[5]));   /* conj(w) */
	fpr s_re, s_im, d_re, d_im;

	fpr_add_sub(f[0], f[1], &s_re, &d_re);
	fpr_add_sub(f[2], f[3], &s_im, &d_im);
	d_re = fpr_half(d_re);
	d_im = fpr_half(d_im);
	f0[0] = fpr_half(s_re);
	f0[1] = fpr_half(s_im);
	f1[0] = fpr_sub(fpr_mul(d_re, w_re), fpr_mul(d_im, w_im));
	f1[1] = fpr_add(fpr_mul(d_re, w_im), fpr_mul(d_im, w_re));
}

static void merge_n4(fpr *f, const fpr *f0, const fpr *f1)
{
	fpr w_re = fpr_from_bits(fa_fft_roots[4]);
	fpr w_im = fpr_from_bits(fa_fft_roots[5]);
	fpr t_re = fpr_sub(fpr_mul(f1[0], w_re), fpr_mul(f1[1], w_im));
	fpr t_im = fpr_add(fpr_mul(f1[0], w_im), fpr_mul(f1[1], w_re));

	/* f, f0, f1 are distinct */
	fpr_add_sub(f0[0], t_re, &f[0], &f[1]);
	fpr_add_sub(f0[1], t_im, &f[2], &f[3]);
}

/* ffsamp_tree for n = 4 (logn = 2), written out like the n = 2 case:
   l10 = tree[0..3], left subtree at tree + 4, right at tree + 8. */
static void ffsamp_tree_n4(fa_sampler_ctx *sc, fpr *z0, fpr *z1,
	const fpr *tree, const fpr *t0, const fpr *t1)
{
	fpr h[4], y[4], a[4];
	size_t u;

	split_n4(h, h + 2, t1);
	ffsamp_tree_n2(sc, y, y + 2, tree + 8, h, h + 2);
	merge_n4(z1, y, y + 2);
	/* t0' = t0 + (t1 - z1) * l10: two complex products */
	for (u = 0; u < 4; u ++) {
		a[u] = fpr_sub(t1[u], z1[u]);
	}
	for (u = 0; u < 2; u ++) {
		fpr d_re = a[u], d_im = a[u + 2];

		a[u] = fpr_sub(fpr_mul(d_re, tree[u]), fpr_mul(d_im, tree[u + 2]));
		a[u + 2] = fpr_add(fpr_mul(d_re, tree[u + 2]),
			fpr_mul(d_im, tree[u]));
	}
	for (u = 0; u < 4; u ++) {
		a[u] = fpr_add(a[u], t0[u]);
	}
	split_n4(h, h + 2, a);
	ffsamp_tree_n2(sc, y, y + 2, tree + 4, h, h + 2);
	merge_n4(z0, y, y + 2);
}

/* With the tree: (z0, z1) sampled near (t0, t1). tmp: 2n fpr (recursive
   use included). z0, z1, t0, t1 are distinct. */
static void ffsamp_tree(fa_sampler_ctx *sc, fpr *z0, fpr *z1,
	const fpr *tree, const fpr *t0, const fpr *t1, unsigned logn,
	fpr *tmp)
{
	const struct fa_kernels *k = sc->k;
	size_t n = MKN(logn), hn = n >> 1;
	const fpr *tree0, *tree1;

	if (logn == 2) {
		ffsamp_tree_n4(sc, z0, z1, tree, t0, t1);
		return;
	}
	if (logn == 1) {
		ffsamp_tree_n2(sc, z0, z1, tree, t0, t1);
		return;
	}
	if (logn == 0) {
		samp_pair(sc, &z0[0], &z1[0], t0[0], t1[0], tree[0]);
		return;
	}
	tree0 = tree + n;
	tree1 = tree0 + TREESIZE(logn - 1);

	/* z1 from t1 with the right subtree */
	fa_k_poly_split_fft(k, z1, z1 + hn, t1, logn);
	ffsamp_tree(sc, tmp, tmp + hn, tree1, z1, z1 + hn, logn - 1, tmp + n);
	fa_k_poly_merge_fft(k, z1, tmp, tmp + hn, logn);

	/* t0' = t0 + (t1 - z1) * l10 */
	memcpy(tmp, t1, n * sizeof *t1);
	fa_k_poly_sub(k, tmp, z1, logn);
	fa_k_poly_mul_fft(k, tmp, tree, logn);
	fa_k_poly_add(k, tmp, t0, logn);

	/* z0 from t0' with the left subtree */
	fa_k_poly_split_fft(k, z0, z0 + hn, tmp, logn);
	ffsamp_tree(sc, tmp, tmp + hn, tree0, z0, z0 + hn, logn - 1, tmp + n);
	fa_k_poly_merge_fft(k, z0, tmp, tmp + hn, logn);
}

void fa_ffsamp_tree_inner(fa_sampler_ctx *sc, fpr *z0, fpr *z1,
	const fpr *tree, const fpr *t0, const fpr *t1, unsigned logn,
	fpr *tmp)
{
	ffsamp_tree(sc, z0, z1, tree, t0, t1, logn, tmp);
}

/* The ffsampling slot's portable kernel (src/kernels.h): ffsamp_tree, its
   vector steps and leaf pairs through ctx->k's slots. */
void fa_ffsampling_portable(fa_sampler_ctx *ctx, fpr *z0, fpr *z1,
	const fpr *tree, const fpr *t0, const fpr *t1, unsigned logn,
	fpr *tmp)
{
	ffsamp_tree(ctx, z0, z1, tree, t0, t1, logn, tmp);
}

/*
 * Dynamic: same computation, building each LDL node when needed. g00,
 * g01, g11 (n each) are consumed; on output t0, t1 hold z0, z1.
 * tmp: 4n fpr.
 */
static void ffsamp_dyn(fa_sampler_ctx *sc, fpr *t0, fpr *t1, fpr *g00,
	fpr *g01, fpr *g11, unsigned orig_logn, unsigned logn, fpr *tmp)
{
	const struct fa_kernels *k = sc->k;
	size_t n = MKN(logn), hn = n >> 1;
	fpr *z, *w;

	if (logn == 0) {
		fpr leaf = fpr_mul(fpr_sqrt(g00[0]),
			fpr_from_bits(fa_inv_sigma[orig_logn]));

		samp_pair(sc, &t0[0], &t1[0], t0[0], t1[0], leaf);
		return;
	}

	/* g01 <- l10, g11 <- d11; d00 = g00. */
	fa_k_poly_LDL_fft(k, g00, g01, g11, logn);

	/* Children Gram matrices: split(d00) -> g00, split(d11) -> g11; the
	   l10 node is moved to tmp. Layout: g00 = [d00_0 | d00_1],
	   g11 = [d11_0 | d11_1]; child (g0, g1, g0) needs g0 twice, so
	   g01 receives [d00_0 | d11_0] copies. */
	fa_k_poly_split_fft(k, tmp, tmp + hn, g00, logn);
	memcpy(g00, tmp, n * sizeof *tmp);
	fa_k_poly_split_fft(k, tmp, tmp + hn, g11, logn);
	memcpy(g11, tmp, n * sizeof *tmp);
	memcpy(tmp, g01, n * sizeof *g01);       /* l10 */
	memcpy(g01, g00, hn * sizeof *g00);
	memcpy(g01 + hn, g11, hn * sizeof *g11);

	/* z1 from t1 (right child: d11). */
	z = tmp + n;
	fa_k_poly_split_fft(k, z, z + hn, t1, logn);
	ffsamp_dyn(sc, z, z + hn, g11, g11 + hn, g01 + hn, orig_logn,
		logn - 1, z + n);
	w = tmp + 2 * n;
	fa_k_poly_merge_fft(k, w, z, z + hn, logn);     /* w = z1 */

	/* t0' = t0 + (t1 - z1) * l10; t1 <- z1 */
	memcpy(z, t1, n * sizeof *t1);
	fa_k_poly_sub(k, z, w, logn);
	memcpy(t1, w, n * sizeof *w);
	fa_k_poly_mul_fft(k, tmp, z, logn);
	fa_k_poly_add(k, t0, tmp, logn);

	/* z0 from t0' (left child: d00). */
	z = tmp;
	fa_k_poly_split_fft(k, z, z + hn, t0, logn);
	ffsamp_dyn(sc, z, z + hn, g00, g00 + hn, g01, orig_logn, logn - 1,
		z + n);
	fa_k_poly_merge_fft(k, t0, z, z + hn, logn);
}

/*
 * From the sampled z (FFT form) and the basis: v = z*B, s1 = hm - v0,
 * s2 = -v1 (rounded). Writes s2 and returns 1 if (s1, s2) is short
 * enough, else 0. z0, z1 are clobbered; tmp: 2n fpr.
 */
static int finish_sig(int16_t *s2, fpr *z0, fpr *z1, const fpr *b00,
	const fpr *b01, const fpr *b10, const fpr *b11, const uint16_t *hm,
	unsigned logn, fpr *tmp, const struct fa_kernels *k)
{
	size_t u, n = MKN(logn);
	fpr *tx = tmp, *ty = tmp + n;
	uint32_t sqn = 0, ng = 0;
	int16_t *s2tmp;

	/* v0 = z0*b00 + z1*b10, v1 = z0*b01 + z1*b11 */
	memcpy(tx, z0, n * sizeof *z0);
	memcpy(ty, z1, n * sizeof *z1);
	fa_k_poly_mul_fft(k, tx, b00, logn);
	fa_k_poly_mul_fft(k, ty, b10, logn);
	fa_k_poly_add(k, tx, ty, logn);
	memcpy(ty, z0, n * sizeof *z0);
	fa_k_poly_mul_fft(k, ty, b01, logn);
	memcpy(z0, tx, n * sizeof *tx);
	fa_k_poly_mul_fft(k, z1, b11, logn);
	fa_k_poly_add(k, z1, ty, logn);
	fa_k_ifft(k, z0, logn);
	fa_k_ifft(k, z1, logn);

	/* ||s1||^2, saturating at 2^32-1 (constant time). fpr_rint32 is
	   exact for |x| < 2^31; here v0 = hm - s1 and v1 = -s2 with
	   (s1, s2) Gaussian of width ~1.17 sqrt(q) around 0 (a key that
	   passed the decoder's checks): |v| stays below q + 2^12. */
	for (u = 0; u < n; u ++) {
		int32_t z = (int32_t)hm[u] - fpr_rint32(z0[u]);

		sqn += (uint32_t)(z * z);
		ng |= sqn;
	}
	sqn |= -(ng >> 31);

	/* s2 into scratch (tx is free again), copied out only on success. */
	s2tmp = (int16_t *)(void *)tx;
	for (u = 0; u < n; u ++) {
		s2tmp[u] = (int16_t)(0u - (uint32_t)fpr_rint32(z1[u]));
	}
	/* declassified: a rejected attempt is discarded, an accepted s2 is
	   the public signature */
	if (!fa_declassify_int(fa_is_short_half(sqn, s2tmp, logn))) {
		return 0;
	}
	memcpy(s2, s2tmp, n * sizeof *s2);
	return 1;
}

static void sampler_init(fa_sampler_ctx *sc, fa_shake256_ctx *rng,
	unsigned logn, const struct fa_kernels *k)
{
	sc->k = k;
	sc->sigma_min = fpr_from_bits(fa_sigma_min[logn]);
	/* fa_prng_seed, with the SHAKE256 permutation on k's slot */
	fa_shake256_extract_k(k, rng, sc->p.state, sizeof sc->p.state);
	fa_k_prng_refill(k, &sc->p);
}

/* One attempt with the expanded key. tmp: 8n fpr. */
static int sign_tree_once(int16_t *s2, fa_sampler_ctx *sc, const fpr *ek,
	const uint16_t *hm, unsigned logn, fpr *tmp)
{
	const struct fa_kernels *k = sc->k;
	size_t n = MKN(logn);
	const fpr *b00 = ek, *b01 = b00 + n, *b10 = b01 + n, *b11 = b10 + n;
	const fpr *tree = b11 + n;
	fpr *t0 = tmp, *t1 = t0 + n, *z0 = t1 + n, *z1 = z0 + n;
	fpr *rest = z1 + n;

	target_fft(t0, t1, hm, b01, b11, logn, k);
	fa_k_ffsampling(k, sc, z0, z1, tree, t0, t1, logn, rest);
	return finish_sig(s2, z0, z1, b00, b01, b10, b11, hm, logn, rest, k);
}

unsigned fa_sign_tree_inner(int16_t *s2, fa_shake256_ctx *rng,
	const fpr *ek, const uint16_t *hm, unsigned logn, uint8_t *tmp,
	const struct fa_kernels *k, unsigned max_attempts)
{
	fa_sampler_ctx sc;
	fpr *ft = (fpr *)fa_align8(tmp);
	unsigned a;

	for (a = 1; a <= max_attempts; a ++) {
		sampler_init(&sc, rng, logn, k);
		if (sign_tree_once(s2, &sc, ek, hm, logn, ft)) {
			return a;
		}
	}
	return 0;
}

/* One dynamic attempt. tmp: 9n fpr. */
static int sign_dyn_once(int16_t *s2, fa_sampler_ctx *sc, const int8_t *f,
	const int8_t *g, const int8_t *F, const int8_t *G,
	const uint16_t *hm, unsigned logn, fpr *tmp)
{
	const struct fa_kernels *k = sc->k;
	size_t n = MKN(logn);
	fpr *b00 = tmp, *b01 = b00 + n, *b10 = b01 + n, *b11 = b10 + n;
	fpr *t0 = b11 + n, *t1 = t0 + n, *x = t1 + n;
	fpr *g00 = x + n, *g01 = g00 + n, *g11 = g01 + n;

	/* Basis, target, Gram (x: scratch). Layout [b00 b01 b10 b11 t0 t1 x
	   g00 g01 g11] = 10n, then move to [g00 g01 g11 t0 t1 | 4n rec]. */
	basis_fft(b00, b01, b10, b11, f, g, F, G, logn, k);
	target_fft(t0, t1, hm, b01, b11, logn, k);
	gram_fft(g00, g01, g11, b00, b01, b10, b11, x, logn, k);
	memmove(b00, g00, 3 * n * sizeof *g00);
	g00 = b00;
	g01 = g00 + n;
	g11 = g01 + n;
	memmove(b11, t0, 2 * n * sizeof *t0);
	t0 = b11;
	t1 = t0 + n;

	ffsamp_dyn(sc, t0, t1, g00, g01, g11, logn, logn, t1 + n);

	/* Recompute the basis next to z = (t0, t1): [b00 b01 b10 b11 z0 z1
	   tx ty]. */
	memmove(tmp + 4 * n, t0, 2 * n * sizeof *t0);
	t0 = tmp + 4 * n;
	t1 = t0 + n;
	basis_fft(b00, b01, b10, b11, f, g, F, G, logn, k);
	return finish_sig(s2, t0, t1, b00, b01, b10, b11, hm, logn, t1 + n, k);
}

unsigned fa_sign_dyn_inner(int16_t *s2, fa_shake256_ctx *rng,
	const int8_t *f, const int8_t *g, const int8_t *F, const int8_t *G,
	const uint16_t *hm, unsigned logn, uint8_t *tmp,
	const struct fa_kernels *k, unsigned max_attempts)
{
	fa_sampler_ctx sc;
	fpr *ft = (fpr *)fa_align8(tmp);
	unsigned a;

	for (a = 1; a <= max_attempts; a ++) {
		sampler_init(&sc, rng, logn, k);
		if (sign_dyn_once(s2, &sc, f, g, F, G, hm, logn, ft)) {
			return a;
		}
	}
	return 0;
}
