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
