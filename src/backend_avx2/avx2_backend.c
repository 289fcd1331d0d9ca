/*
 * avx2_backend.c -- the "avx2" kernel table (x86-64 with AVX2 and BMI2).
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
	return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi2");
#else
	return 0;
#endif
}

const struct fa_kernels fa_backend_avx2 = {
	.name = "avx2",
	.available = avx2_available,
	.simulated = 0,
	.fft = fa_fft_avx2,
	.ifft = fa_ifft_avx2,
	.poly_add = fa_poly_add_avx2,
	.poly_sub = fa_poly_sub_avx2,
	.poly_neg = fa_poly_neg_avx2,
	.poly_adj_fft = fa_poly_adj_fft_avx2,
	.poly_mul_fft = fa_poly_mul_fft_avx2,
	.poly_muladj_fft = fa_poly_muladj_fft_avx2,
	.poly_mulselfadj_fft = fa_poly_mulselfadj_fft_avx2,
	.poly_mulconst = fa_poly_mulconst_avx2,
	.poly_div_fft = fa_poly_div_fft_avx2,
	.poly_invnorm2_fft = fa_poly_invnorm2_fft_avx2,
	.poly_mul_autoadj_fft = fa_poly_mul_autoadj_fft_avx2,
	.poly_div_autoadj_fft = fa_poly_div_autoadj_fft_avx2,
	.poly_LDL_fft = fa_poly_LDL_fft_avx2,
	.poly_LDLmv_fft = fa_poly_LDLmv_fft_avx2,
	.poly_split_fft = fa_poly_split_fft_avx2,
	.poly_merge_fft = fa_poly_merge_fft_avx2,
	.mq_ntt = fa_mq_ntt_avx2,
	.mq_intt = fa_mq_intt_avx2,
	.mq_poly_mul_ntt = fa_mq_poly_mul_ntt_avx2,
	.samplerz = fa_samplerz_avx2,
	.samplerz_pair = fa_samplerz_pair_avx2,
	.prng_refill = fa_prng_refill_avx2,
	.mlkem_ntt = fa_mlkem_ntt_avx2,
	.mlkem_invntt = fa_mlkem_invntt_avx2,
	.mlkem_basemul_acc = fa_mlkem_basemul_acc_avx2,
	.keccak_x4 = fa_keccak_x4_avx2,
};
