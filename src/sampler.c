/*
 * sampler.c -- SamplerZ (Falcon spec v1.2, algorithms 12-15), portable.
 *
 * All arithmetic on secret values is constant-time in the emulated-FP
 * build: the base sampler reads the whole RCDT table, BerExp's byte loop
 * ends early only on random data (the number of bytes read depends on the
 * fresh random bytes compared, not on x), and the rejection loop's number
 * of iterations is independent of the secret centre's sensitive bits in
 * the sense of the Falcon analysis (it leaks only with negligible bias).
 */

#include "inner.h"
#include "ct_declassify.h"

static inline void prng_need(fa_sampler_ctx *sc)
{
	fa_k_prng_refill(sc->k, &sc->p);
}

/* 64 random bits, little-endian from the buffer. As the reference, the
   buffer is refilled when fewer than 9 bytes remain. */
static inline uint64_t prng_u64(fa_sampler_ctx *sc)
{
	fa_prng *p = &sc->p;
	size_t u = p->ptr;
	uint64_t x = 0;
	int i;

	if (u >= sizeof p->buf - 9) {
		prng_need(sc);
		u = 0;
	}
	for (i = 7; i >= 0; i --) {
		x = (x << 8) | p->buf[u + (size_t)i];
	}
	p->ptr = u + 8;
	return x;
}

static inline unsigned prng_u8(fa_sampler_ctx *sc)
{
	fa_prng *p = &sc->p;
	unsigned v = p->buf[p->ptr ++];

	if (p->ptr == sizeof p->buf) {
		prng_need(sc);
	}
	return v;
}

/*
 * Base sampler: z >= 0 from the half-Gaussian of sigma0 = 1.8205, by
 * comparing a uniform 72-bit value v with every RCDT entry: z = #{i : v <
 * RCDT[i]}. The 72-bit comparison is done on three 24-bit limbs with
 * borrow propagation (constant time).
 */
static int gaussian0(fa_sampler_ctx *sc)
{
	uint64_t lo = prng_u64(sc);
	uint32_t hi = prng_u8(sc);
	uint32_t v0 = (uint32_t)lo & 0xFFFFFF;
	uint32_t v1 = (uint32_t)(lo >> 24) & 0xFFFFFF;
	uint32_t v2 = (uint32_t)(lo >> 48) | (hi << 16);
	int z = 0;
	size_t i;

	for (i = 0; i < 18; i ++) {
		/* borrow of v - RCDT[i]: 1 iff v < RCDT[i] */
		uint32_t b;

		b = (v0 - fa_rcdt[3 * i + 2]) >> 31;
		b = (v1 - fa_rcdt[3 * i + 1] - b) >> 31;
		b = (v2 - fa_rcdt[3 * i + 0] - b) >> 31;
		z += (int)b;
	}
	return z;
}

/* High 64 bits of the 128-bit product a*b (32-bit pieces, exact). */
static inline uint64_t mulhi64(uint64_t a, uint64_t b)
{
	uint64_t a0 = (uint32_t)a, a1 = a >> 32;
	uint64_t b0 = (uint32_t)b, b1 = b >> 32;
	uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
	uint64_t mid = (p00 >> 32) + (uint32_t)p01 + (uint32_t)p10;

	return p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
}

/*
 * 2^63 * ccs * exp(-x), for x in [0, ln 2] and ccs in [0, 1]: Horner's
 * rule on the FACCT polynomial in 63-bit fixed point (spec ApproxExp).
 */
static uint64_t expm_p63(fpr x, fpr ccs)
{
	uint64_t z = (uint64_t)fpr_trunc_scaled(x, 63) << 1;   /* x * 2^63 exact */
	uint64_t y = fa_expm_coeffs[0];
	size_t u;

	for (u = 1; u < 13; u ++) {
		y = fa_expm_coeffs[u] - mulhi64(z, y);
	}
	z = (uint64_t)fpr_trunc_scaled(ccs, 63) << 1;
	return mulhi64(z, y);
}

/*
 * Bernoulli trial with probability ccs * exp(-x), x >= 0: write
 * x = s*ln2 + r with r in [0, ln2), then compare random bytes with the
 * fixed-point value 2^64 * ccs * exp(-r) / 2^s, most significant first.
 */
static int ber_exp(fa_sampler_ctx *sc, fpr x, fpr ccs)
{
	int s = (int)fpr_trunc(fpr_mul(x, FPR_INV_LOG2));
	fpr r = fpr_sub(x, fpr_mul(fpr_of32(s), FPR_LOG2));
	uint32_t sw = (uint32_t)s, w;
	uint64_t z;
	int i;

	/* s = min(s, 63) without a branch */
	sw ^= (sw ^ 63) & -((63 - sw) >> 31);
	z = ((expm_p63(r, ccs) << 1) - 1) >> sw;
	i = 64;
	do {
		i -= 8;
		w = prng_u8(sc) - ((uint32_t)(z >> i) & 0xFF);
		/* declassified: the early exit on a random byte (README) */
	} while (!fa_declassify_u32(w) && i > 0);
	return (int)(w >> 31);
}

static int samplerz(fa_sampler_ctx *sc, fpr mu, fpr isigma)
{
	int s = (int)fpr_floor(mu);
	fpr r = fpr_sub(mu, fpr_of32(s));          /* r in [0, 1) */
	fpr dss = fpr_half(fpr_sqr(isigma));       /* 1/(2 sigma^2) */
	fpr ccs = fpr_mul(isigma, sc->sigma_min);  /* sigma_min/sigma */

	for (;;) {
		int z0 = gaussian0(sc);
		int b = (int)prng_u8(sc) & 1;
		int z = b + ((b << 1) - 1) * z0;       /* bimodal: z0+1 or -z0 */
		fpr x;

		/* x = (z - r)^2 / (2 sigma^2) - z0^2 / (2 sigma0^2) */
		x = fpr_mul(fpr_sqr(fpr_sub(fpr_of32(z), r)), dss);
		x = fpr_sub(x, fpr_mul(fpr_of32(z0 * z0), FPR_INV_2SQRSIGMA0));
		/* declassified: the trial count (README) */
		if (fa_declassify_int(ber_exp(sc, x, ccs))) {
			return s + z;
		}
	}
}

void fa_samplerz_portable(fa_sampler_ctx *sc, int *z, fpr mu, fpr isigma)
{
	*z = samplerz(sc, mu, isigma);
}

void fa_samplerz_pair_portable(fa_sampler_ctx *sc, int *z, fpr mu0, fpr mu1,
	fpr isigma)
{
	z[0] = samplerz(sc, mu0, isigma);
	z[1] = samplerz(sc, mu1, isigma);
}
