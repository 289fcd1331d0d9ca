/*
 * div_recip_bound.c -- host check of the reciprocal step of
 * fa_fpr_div_rv32 (src/fpr_emu_rv32.S), whose error bound the division's
 * quotient-digit corrections rely on. The same 32-bit operations as the
 * assembly (mulhu = high word of a 32x32 product):
 *   V0 = (0xB4B4B4B4 - mulhu(D, 0xF0F0F0F0)) << 1
 *   3 x: E = mulhu(D, V) ^ 0x7FFFFFFF; V = floor(V E / 2^30)
 * For EVERY D in [2^30 + 1, 2^31]: V <= floor(2^62 / D) (a lower bound)
 * and (2^62 / D - V) / (2^62 / D) < 2^-29. Exit 0 iff both hold.
 * Run by scripts/test_fpr_asm.sh with FULL=1 (2^30 cases, ~10 s).
 */
#include <stdint.h>
#include <stdio.h>

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
