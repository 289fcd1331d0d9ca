/*
 * avx2_backend.c -- the "avx2" kernel table (x86-64 with AVX2, BMI2 and
 * POPCNT).
 *
 * This file is compiled without -mavx2: it only holds the table and the
 * run-time CPU check, so that merely linking the backend is safe on any
 * x86-64. The kernels (avx2_*.c) are compiled with -mavx2 (the sampler
 * also with -mbmi2) and run only once available() returned 1.
 */

#include "avx2_inner.h"
#include "avx2_mlkem.h"

static int avx2_available(void)
{
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
	/* __builtin_cpu_supports needs the CPU model data initialised;
	   the call is idempotent and cheap. */
	__builtin_cpu_init();
	return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi2")
		&& __builtin_cpu_supports("popcnt");
#else
	return 0;
#endif
}

/* Every slot has an AVX2 kernel named fa_<slot>_avx2 (avx2_inner.h). */
#define AVX2(slot) .slot = fa_##slot##_avx2

const struct fa_kernels fa_backend_avx2 = {
	.name = "avx2",
	.available = avx2_available,
	.simulated = 0,
	AVX2(fft), AVX2(ifft), AVX2(poly_add), AVX2(poly_sub), AVX2(poly_neg),
	AVX2(poly_adj_fft), AVX2(poly_mul_fft), AVX2(poly_muladj_fft),
	AVX2(poly_mulselfadj_fft), AVX2(poly_mulconst), AVX2(poly_div_fft),
	AVX2(poly_invnorm2_fft), AVX2(poly_mul_autoadj_fft),
	AVX2(poly_div_autoadj_fft), AVX2(poly_LDL_fft), AVX2(poly_LDLmv_fft),
	AVX2(poly_split_fft), AVX2(poly_merge_fft), AVX2(mq_ntt),
	AVX2(mq_intt), AVX2(mq_poly_mul_ntt), AVX2(samplerz),
	AVX2(samplerz_pair), AVX2(prng_refill), AVX2(mlkem_ntt),
	AVX2(mlkem_invntt), AVX2(mlkem_basemul_acc), AVX2(keccak_x4),
	AVX2(mlkem_rej_uniform), AVX2(mlkem_encode),
	AVX2(mlkem_decode), AVX2(mlkem_cbd), AVX2(fndsa_samplerz_pair),
};
