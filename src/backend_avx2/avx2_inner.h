/*
 * avx2_inner.h -- the AVX2 backend's kernels (src/backend_avx2/).
 *
 * Every function here is the kernel of the slot of the same name under the
 * seam's contract (src/kernels.h): bit-identical to the portable kernel, it
 * returns FA_KERNEL_DONE, or FA_KERNEL_FALLBACK without writing anything
 * for the sizes too small for its vectors (the dispatcher then runs the
 * portable kernel). These functions use AVX2 (and the sampler BMI2)
 * instructions and may be called only after fa_backend_avx2.available()
 * returned 1.
 */
#ifndef FA_AVX2_INNER_H
#define FA_AVX2_INNER_H

#include "inner.h"

#if FA_FPEMU
#error "the AVX2 backend needs the native floating-point build"
#endif

/* avx2_fft.c */
int fa_fft_avx2(fpr *f, unsigned logn);
int fa_ifft_avx2(fpr *f, unsigned logn);
int fa_poly_add_avx2(fpr *a, const fpr *b, unsigned logn);
int fa_poly_sub_avx2(fpr *a, const fpr *b, unsigned logn);
int fa_poly_neg_avx2(fpr *a, unsigned logn);
int fa_poly_adj_fft_avx2(fpr *a, unsigned logn);
int fa_poly_mul_fft_avx2(fpr *a, const fpr *b, unsigned logn);
int fa_poly_muladj_fft_avx2(fpr *a, const fpr *b, unsigned logn);
int fa_poly_mulselfadj_fft_avx2(fpr *a, unsigned logn);
int fa_poly_mulconst_avx2(fpr *a, fpr x, unsigned logn);
int fa_poly_div_fft_avx2(fpr *a, const fpr *b, unsigned logn);
int fa_poly_invnorm2_fft_avx2(fpr *d, const fpr *a, const fpr *b,
	unsigned logn);
int fa_poly_mul_autoadj_fft_avx2(fpr *a, const fpr *b, unsigned logn);
int fa_poly_div_autoadj_fft_avx2(fpr *a, const fpr *b, unsigned logn);
int fa_poly_LDL_fft_avx2(const fpr *g00, fpr *g01, fpr *g11,
	unsigned logn);
int fa_poly_LDLmv_fft_avx2(fpr *d11, fpr *l10, const fpr *g00,
	const fpr *g01, const fpr *g11, unsigned logn);
int fa_poly_split_fft_avx2(fpr *f0, fpr *f1, const fpr *f, unsigned logn);
int fa_poly_merge_fft_avx2(fpr *f, const fpr *f0, const fpr *f1,
	unsigned logn);

/* avx2_ntt.c */
int fa_mq_ntt_avx2(uint16_t *a, unsigned logn);
int fa_mq_intt_avx2(uint16_t *a, unsigned logn);
int fa_mq_poly_mul_ntt_avx2(uint16_t *a, const uint16_t *b, unsigned logn);

/* avx2_sampler.c */
int fa_samplerz_avx2(fa_sampler_ctx *ctx, int *z, fpr mu, fpr isigma);
int fa_samplerz_pair_avx2(fa_sampler_ctx *ctx, int *z, fpr mu0, fpr mu1,
	fpr isigma);
int fa_prng_refill_avx2(fa_prng *p);

/* avx2_fndsa.c */
int fa_fndsa_samplerz_pair_avx2(fa_fndsa_sampler *s, int *z, fpr mu0,
	fpr mu1, fpr isigma);

#endif
