/*
 * backend.c -- the registry of kernel tables ("backends") and the portable
 * backend, which fills every slot and is the reference for the others.
 *
 * Optional backends are compiled in by their CMake parts, which define
 * FA_HAVE_BACKEND_<NAME> for this library. Selection: fa_backend_find(name),
 * or fa_backend_default(): $FALCON_ACCEL_BACKEND when set and available,
 * else the first available entry of the preference list (fastest first;
 * simulators such as "rtl" are never chosen by default).
 */

#include "inner.h"

#if !FA_FREESTANDING
#include <stdlib.h>
#endif

static int always_available(void)
{
	return 1;
}

const struct fa_kernels fa_backend_portable = {
	.name = "portable",
	.available = always_available,
	.simulated = 0,
	.fft = fa_fft_portable,
	.ifft = fa_ifft_portable,
	.poly_add = fa_poly_add_portable,
	.poly_sub = fa_poly_sub_portable,
	.poly_neg = fa_poly_neg_portable,
	.poly_adj_fft = fa_poly_adj_fft_portable,
	.poly_mul_fft = fa_poly_mul_fft_portable,
	.poly_muladj_fft = fa_poly_muladj_fft_portable,
	.poly_mulselfadj_fft = fa_poly_mulselfadj_fft_portable,
	.poly_mulconst = fa_poly_mulconst_portable,
	.poly_div_fft = fa_poly_div_fft_portable,
	.poly_invnorm2_fft = fa_poly_invnorm2_fft_portable,
	.poly_mul_autoadj_fft = fa_poly_mul_autoadj_fft_portable,
	.poly_div_autoadj_fft = fa_poly_div_autoadj_fft_portable,
	.poly_LDL_fft = fa_poly_LDL_fft_portable,
	.poly_LDLmv_fft = fa_poly_LDLmv_fft_portable,
	.poly_split_fft = fa_poly_split_fft_portable,
	.poly_merge_fft = fa_poly_merge_fft_portable,
	.mq_ntt = fa_mq_ntt_portable,
	.mq_intt = fa_mq_intt_portable,
	.mq_poly_mul_ntt = fa_mq_poly_mul_ntt_portable,
	.samplerz = fa_samplerz_portable,
	.samplerz_pair = fa_samplerz_pair_portable,
	.prng_refill = fa_prng_refill_portable,
};

#ifdef FA_HAVE_BACKEND_AVX2
extern const struct fa_kernels fa_backend_avx2;
#endif
#ifdef FA_HAVE_BACKEND_RTL
extern const struct fa_kernels fa_backend_rtl;
#endif

/* Preference order: fastest first. */
static const struct fa_kernels *const registry[] = {
#ifdef FA_HAVE_BACKEND_AVX2
	&fa_backend_avx2,
#endif
	&fa_backend_portable,
#ifdef FA_HAVE_BACKEND_RTL
	&fa_backend_rtl,
#endif
};

#define REGISTRY_LEN (sizeof registry / sizeof registry[0])

size_t fa_backend_count(void)
{
	return REGISTRY_LEN;
}

const fa_backend *fa_backend_at(size_t i)
{
	return i < REGISTRY_LEN ? registry[i] : NULL;
}

int fa_backend_available(const fa_backend *be)
{
	return be != NULL && be->available();
}

const char *fa_backend_name(const fa_backend *be)
{
	return be != NULL ? be->name : "(none)";
}

static int name_eq(const char *a, const char *b)
{
	while (*a != 0 && *a == *b) {
		a ++;
		b ++;
	}
	return *a == *b;
}

const fa_backend *fa_backend_find(const char *name)
{
	size_t i;

	if (name == NULL) {
		return NULL;
	}
	for (i = 0; i < REGISTRY_LEN; i ++) {
		if (name_eq(registry[i]->name, name)) {
			return registry[i]->available() ? registry[i] : NULL;
		}
	}
	return NULL;
}

const fa_backend *fa_backend_default(void)
{
	size_t i;

#if !FA_FREESTANDING
	const char *env = getenv("FALCON_ACCEL_BACKEND");

	if (env != NULL && *env != 0) {
		const fa_backend *be = fa_backend_find(env);

		if (be != NULL) {
			return be;
		}
	}
#endif
	for (i = 0; i < REGISTRY_LEN; i ++) {
		if (registry[i]->available() && !registry[i]->simulated) {
			return registry[i];
		}
	}
	return &fa_backend_portable;
}

const struct fa_kernels *fa_kernels_resolve(const fa_backend *be)
{
	return be != NULL ? be : fa_backend_default();
}
