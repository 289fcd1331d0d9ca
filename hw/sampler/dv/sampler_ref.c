/*
 * sampler_ref.c -- ctypes entry points into the C library's SamplerZ, the
 * single reference model of the sampler RTL (hw/sampler/dv). Built with
 * the library's sources into a shared object by sampler_refmodel.py, in
 * the integer-emulated FP configuration (FA_FPEMU=1), whose binary64
 * semantics (round to nearest even, subnormals flushed) are those of
 * hw/fp64.
 *
 * The PRNG is passed flat: state[56] (ChaCha20 words 4..15, then the
 * 64-bit block counter), buf[512], *ptr (the next byte to read), exactly
 * the fields of fa_prng (src/inner.h).
 */
#include "inner.h"

static void load(fa_prng *p, const uint8_t *state, const uint8_t *buf,
	uint32_t ptr)
{
	memcpy(p->state, state, sizeof p->state);
	memcpy(p->buf, buf, sizeof p->buf);
	p->ptr = ptr;
}

static void store(const fa_prng *p, uint8_t *state, uint8_t *buf,
	uint32_t *ptr)
{
	memcpy(state, p->state, sizeof p->state);
	memcpy(buf, p->buf, sizeof p->buf);
	*ptr = (uint32_t)p->ptr;
}

/* One refill: buf <- blocks cc..cc+7, counter += 8, ptr = 0. */
void fa_hwref_prng_refill(uint8_t *state, uint8_t *buf, uint32_t *ptr)
{
	fa_prng p;

	load(&p, state, buf, 0);
	fa_prng_refill_portable(&p);
	store(&p, state, buf, ptr);
}

/* z = SamplerZ(mu, isigma) with sigma_min, from the given PRNG state;
   the state is updated in place (bytes consumed, refills). */
int fa_hwref_samplerz(uint8_t *state, uint8_t *buf, uint32_t *ptr,
	uint64_t mu, uint64_t isigma, uint64_t sigma_min)
{
	fa_sampler_ctx sc;
	int z;

	load(&sc.p, state, buf, *ptr);
	sc.sigma_min = fpr_from_bits(sigma_min);
	sc.k = &fa_backend_portable;
#ifdef FA_KERNEL_DONE
	/* kernel seam with fallback: void fa_samplerz_portable(ctx, &z, ..) */
	fa_samplerz_portable(&sc, &z, fpr_from_bits(mu), fpr_from_bits(isigma));
#else
	z = fa_samplerz_portable(&sc, fpr_from_bits(mu), fpr_from_bits(isigma));
#endif
	store(&sc.p, state, buf, ptr);
	return z;
}

/* Table constants, for the generated-file checks. */
uint64_t fa_hwref_sigma_min(unsigned logn)
{
	return logn <= 10 ? fa_sigma_min[logn] : 0;
}

uint64_t fa_hwref_inv_sigma(unsigned logn)
{
	return logn <= 10 ? fa_inv_sigma[logn] : 0;
}

/* ------------------------------------------------------------------ */
/* Fast-Fourier sampling (hw/ffsamp): the library's LDL tree and its
   ffsamp_tree, with the PRNG passed flat as above. fpr values are passed
   as their binary64 bit patterns. */

#include <stdlib.h>

/* The LDL tree of an expanded key from a keygen seeded with seed
   (TREESIZE(logn) = (logn + 1) 2^logn words into tree). 0 on success. */
int fa_hwref_expanded_tree(unsigned logn, const uint8_t *seed,
	size_t seed_len, uint64_t *tree)
{
	size_t n = (size_t)1 << logn, u;
	int8_t *f, *g, *F, *G;
	uint16_t *h;
	uint8_t *tmp;
	fpr *ek;
	fa_shake256_ctx rng;

	if (logn < 1 || logn > 10) {
		return -1;
	}
	f = malloc(4 * n);
	h = malloc(2 * n);
	tmp = malloc(FA_TMPSIZE_KEYGEN(logn) + FA_TMPSIZE_EXPAND(logn));
	ek = malloc(FA_EXPANDED_KEY_SIZE(logn));
	if (f == NULL || h == NULL || tmp == NULL || ek == NULL) {
		free(f); free(h); free(tmp); free(ek);
		return -1;
	}
	g = f + n; F = g + n; G = F + n;
	fa_shake256_init_prng_from_seed(&rng, seed, seed_len);
	fa_keygen_inner(&rng, f, g, F, G, h, logn, tmp, &fa_backend_portable);
	fa_expand_privkey_inner(ek, f, g, F, G, logn, tmp, &fa_backend_portable);
	for (u = 0; u < ((size_t)logn + 1) * n; u ++) {
		tree[u] = fpr_bits(ek[4 * n + u]);
	}
	free(f); free(h); free(tmp); free(ek);
	return 0;
}

/* (z0, z1) = ffsamp_tree(tree, t0, t1) from the given PRNG state (updated
   in place); n = 2^logn words each. 0 on success. */
int fa_hwref_ffsamp(uint8_t *state, uint8_t *buf, uint32_t *ptr,
	uint64_t sigma_min, const uint64_t *tree, const uint64_t *t0,
	const uint64_t *t1, unsigned logn, uint64_t *z0, uint64_t *z1)
{
	size_t n = (size_t)1 << logn, u;
	fa_sampler_ctx sc;
	fpr *w;

	if (logn < 1 || logn > 10) {
		return -1;
	}
	w = malloc(((size_t)logn + 1 + 6) * n * sizeof *w);
	if (w == NULL) {
		return -1;
	}
	/* w: tree, t0, t1, z0, z1, tmp (2n) */
	for (u = 0; u < ((size_t)logn + 1) * n; u ++) {
		w[u] = fpr_from_bits(tree[u]);
	}
	fpr *wt0 = w + ((size_t)logn + 1) * n, *wt1 = wt0 + n;
	fpr *wz0 = wt1 + n, *wz1 = wz0 + n, *wtmp = wz1 + n;
	for (u = 0; u < n; u ++) {
		wt0[u] = fpr_from_bits(t0[u]);
		wt1[u] = fpr_from_bits(t1[u]);
	}
	load(&sc.p, state, buf, *ptr);
	sc.sigma_min = fpr_from_bits(sigma_min);
	sc.k = &fa_backend_portable;
	fa_ffsamp_tree_inner(&sc, wz0, wz1, w, wt0, wt1, logn, wtmp);
	store(&sc.p, state, buf, ptr);
	for (u = 0; u < n; u ++) {
		z0[u] = fpr_bits(wz0[u]);
		z1[u] = fpr_bits(wz1[u]);
	}
	free(w);
	return 0;
}
