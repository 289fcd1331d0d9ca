/*
 * div_recip_bound.c -- host check of the reciprocal steps of
 * fa_fpr_div_rv32 and fa_fpr_sqrt_rv32 (src/fpr_emu_rv32.S), whose error
 * bounds the quotient / root digit corrections rely on. The same 32-bit
 * operations as the assembly (mulhu = high word of a 32x32 product).
 * Division:
 *   V0 = (0xB4B4B4B4 - mulhu(D, 0xF0F0F0F0)) << 1
 *   3 x: E = mulhu(D, V) ^ 0x7FFFFFFF; V = floor(V E / 2^30)
 * For EVERY D in [2^30 + 1, 2^31]: V <= floor(2^62 / D) (a lower bound)
 * and (2^62 / D - V) / (2^62 / D) < 2^-29.
 * Square root: R = 0x93333333 - mulhu(A, 0xACCCCCCC), then 4 x
 *   W = 3 * 2^28 - 2 mulhu(A, mulhu(R, R)); R = floor(R W / 2^29),
 * then R - 10: for EVERY A in [2^29 + 1, 2^31] (u = A / 2^31),
 * 2^30 / sqrt(u) - 12 < R - 10 <= 2^30 / sqrt(u).
 * Exit 0 iff all hold. Run by scripts/test_fpr_asm.sh with FULL=1
 * (2^30 + 1.5 * 2^30 cases, ~1 min).
 */
#include <stdint.h>
#include <stdio.h>
#include <math.h>

static uint32_t mulhu(uint32_t a, uint32_t b)
{
	return (uint32_t)(((uint64_t)a * b) >> 32);
}

int main(void)
{
	uint64_t d, over = 0;
	double worst = 0;
	uint32_t worst_d = 0;
	int i;

	for (d = ((uint64_t)1 << 30) + 1; d <= ((uint64_t)1 << 31); d ++) {
		uint32_t D = (uint32_t)d;
		uint32_t V = (0xB4B4B4B4u - mulhu(D, 0xF0F0F0F0u)) << 1;
		uint64_t exact;
		double e;

		for (i = 0; i < 3; i ++) {
			uint32_t E = mulhu(D, V) ^ 0x7FFFFFFFu;
			V = (uint32_t)(((uint64_t)V * E) >> 30);
		}
		exact = ((uint64_t)1 << 62) / d;
		if (V > exact)
			over ++;
		e = ((double)((uint64_t)1 << 62) / (double)d - (double)V)
			/ ((double)((uint64_t)1 << 62) / (double)d);
		if (e > worst) {
			worst = e;
			worst_d = D;
		}
	}
	/* square root */
	{
		double over_r = -1e9, under_r = 0;
		for (d = ((uint64_t)1 << 29) + 1; d <= ((uint64_t)1 << 31); d ++) {
			uint32_t A = (uint32_t)d;
			uint32_t R = 0x93333333u - mulhu(A, 0xACCCCCCCu);
			long double rs, diff;

			for (i = 0; i < 4; i ++) {
				uint32_t W = (3u << 28) - (mulhu(A, mulhu(R, R)) << 1);
				R = (uint32_t)(((uint64_t)R * W) >> 29);
			}
			R -= 10;
			rs = 1073741824.0L / sqrtl((long double)A / 2147483648.0L);
			diff = (long double)R - rs;
			if ((double)diff > over_r)
				over_r = (double)diff;
			if ((double)-diff > under_r)
				under_r = (double)-diff;
		}
		printf("sqrt_recip_bound: R - 2^30/sqrt(u) in [%.3f, %.3f] "
			"(bounds (-12, 0])\n", -under_r, over_r);
		if (over_r > 0 || under_r >= 12) {
			printf("sqrt_recip_bound: FAIL\n");
			return 1;
		}
	}
	/* 2^-29 = 1.8626e-9 */
	printf("div_recip_bound: %llu values above 2^62/D, worst relative "
		"error %.4g at D = 0x%08x (bound 1.8626e-9)\n",
		(unsigned long long)over, worst, worst_d);
	if (over != 0 || worst >= 1.8626e-9) {
		printf("div_recip_bound: FAIL\n");
		return 1;
	}
	printf("div_recip_bound: OK\n");
	return 0;
}
