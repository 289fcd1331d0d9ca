/*
 * sampler_margin.c -- the exact fallback of the avx2 SamplerZ.
 *
 * src/backend_avx2/avx2_sampler.c decides BerExp's first byte from a
 * double-precision value with a proven error margin (2^-30) and finishes
 * the trials it cannot decide with the exact fixed-point chain. With the
 * real margin that path is taken about once per 256 trials, so here the
 * sampler is compiled again (under other names) with a margin of 32: a
 * large share of the trials then go through the exact path, from every
 * slot position of single calls and of pairs. Every result and every
 * buffer position must equal those of the portable sampler.
 */
#define FA_AVX2_BER_MARGIN 32.0
#define FA_AVX2_COUNT_EXACT() (exact_count ++)
#define fa_samplerz_avx2 margin_samplerz
#define fa_samplerz_pair_avx2 margin_samplerz_pair
#define fa_prng_refill_avx2 margin_prng_refill

static unsigned long exact_count;

#include "avx2_sampler.c"
#include "test_util.h"

static uint64_t seed = 0x5A3D1E;

/* A centre with a full 52-bit fractional part, |mu| < 2^12. */
static fpr rand_mu(void)
{
	return fpr_scaled((int64_t)(tu_rand64(&seed) >> 1) - (INT64_C(1) << 62),
		-50);
}

/* 1/sigma for sigma in [sigma_min, 1.8205]. */
static fpr rand_isigma(fpr sigma_min)
{
	fpr span = fpr_sub(fpr_from_bits(0x3FFD2083126E978Du), sigma_min);
	fpr u = fpr_scaled((int64_t)(tu_rand64(&seed) >> 11), -53);

	return fpr_inv(fpr_add(sigma_min, fpr_mul(span, u)));
}

static void run(unsigned logn)
{
	fa_sampler_ctx s1, s2;
	fa_shake256_ctx r1, r2;
	int i, ok = 1;
	unsigned long before = exact_count;

	fa_shake256_init_prng_from_seed(&r1, "margin", 6);
	fa_shake256_init_prng_from_seed(&r2, "margin", 6);
	s1.k = &fa_backend_portable;
	s2.k = &fa_backend_portable;   /* not used by the avx2 code */
	s1.sigma_min = s2.sigma_min = fpr_from_bits(fa_sigma_min[logn]);
	fa_prng_init(&s1.p, &r1);
	fa_prng_init(&s2.p, &r2);
	for (i = 0; i < 40000; i ++) {
		fpr mu0 = rand_mu(), mu1 = rand_mu();
		fpr is = rand_isigma(s1.sigma_min);
		int za[2], zb[2];

		if (i & 1) {
			fa_samplerz_portable(&s1, &za[0], mu0, is);
			fa_samplerz_portable(&s1, &za[1], mu1, is);
			margin_samplerz_pair(&s2, zb, mu0, mu1, is);
		} else {
			fa_samplerz_portable(&s1, &za[0], mu0, is);
			margin_samplerz(&s2, &zb[0], mu0, is);
			za[1] = zb[1] = 0;
		}
		ok &= za[0] == zb[0] && za[1] == zb[1] && s1.p.ptr == s2.p.ptr
			&& memcmp(s1.p.buf, s2.p.buf, sizeof s1.p.buf) == 0;
	}
	CHECK(ok, "logn %u: singles and pairs equal the portable sampler", logn);
	/* the exact path must really have been exercised */
	CHECK(exact_count - before > 5000, "logn %u: %lu exact trials", logn,
		exact_count - before);
	printf("logn %u: %lu trials finished by the exact path\n", logn,
		exact_count - before);
}

int main(void)
{
	if (!fa_backend_available(fa_backend_find("avx2"))) {
		printf("avx2 not available here: skipped\n");
		return 77;
	}
	run(9);
	run(10);
	return tu_finish("test_avx2_sampler_margin");
}
