/*
 * mlkem_ntt.c -- the 7-layer incomplete NTT of ML-KEM (q = 3329), its
 * inverse and base multiplication (FIPS 203, Algorithms 9, 10, 11): the
 * portable kernels. Representation and domains: src/mlkem/mlkem_inner.h.
 *
 * All reductions are Montgomery (R = 2^16) or Barrett products: no
 * division, no data-dependent branch or index.
 */

#include "mlkem/mlkem_inner.h"

/*
 * Algorithm 9, Cooley-Tukey butterflies: at layer len = 128, 64, ..., 2
 * the block starting at `start` uses zeta^brv7(i), i = 1, 2, ... in
 * order: t = zeta * a[j + len], a[j + len] = a[j] - t, a[j] = a[j] + t.
 * With |a| < q on input, each layer adds less than q to the bound
 * (|t| < q), so |a| < 8q < 2^15 after seven layers; a final Barrett pass
 * brings every value to [-(q-1)/2, (q-1)/2].
 */
void
fa_mlkem_ntt_portable(int16_t *a)
{
	unsigned len, start, j, i = 1;

	for (len = 128; len >= 2; len >>= 1) {
		for (start = 0; start < MLKEM_N; start += 2 * len) {
			int32_t zeta = fa_mlkem_zetas[i ++];

			for (j = start; j < start + len; j ++) {
				int16_t t = fa_mlkem_mont(zeta * a[j + len]);

				a[j + len] = (int16_t)(a[j] - t);
				a[j] = (int16_t)(a[j] + t);
			}
		}
	}
	for (j = 0; j < MLKEM_N; j ++) {
		a[j] = fa_mlkem_barrett(a[j]);
	}
}

/*
 * Algorithm 10, Gentleman-Sande butterflies: layers len = 2, ..., 128,
 * zeta^brv7(i) for i = 127 down to 1: t = a[j], a[j] = t + a[j + len],
 * a[j + len] = zeta * (a[j + len] - t). Sums are Barrett-reduced at once
 * (|a[j]| <= (q-1)/2 afterwards) and the products are Montgomery products
 * (|.| < q), so with |a| < 4q on input no intermediate value leaves
 * (-8q, 8q). The final Montgomery product by R^2/128 divides by 128 and
 * multiplies by R: out = NTT^-1(in) * R mod q, then a Barrett pass gives
 * the centred representative (|out| <= (q-1)/2).
 */
void
fa_mlkem_invntt_portable(int16_t *a)
{
	unsigned len, start, j, i = 127;
	int32_t f = fa_mlkem_invntt_f;

	for (len = 2; len <= 128; len <<= 1) {
		for (start = 0; start < MLKEM_N; start += 2 * len) {
			int32_t zeta = fa_mlkem_zetas[i --];

			for (j = start; j < start + len; j ++) {
				int16_t t = a[j];

				a[j] = fa_mlkem_barrett((int16_t)(t + a[j + len]));
				a[j + len] = fa_mlkem_mont(
					zeta * (int16_t)(a[j + len] - t));
			}
		}
	}
	for (j = 0; j < MLKEM_N; j ++) {
		a[j] = fa_mlkem_barrett(fa_mlkem_mont(f * a[j]));
	}
}




/*
 * Algorithm 11 accumulated over k products: pair i of r is
 *   sum_l (a0 b0 + a1 b1 gamma_i, a0 b1 + a1 b0) * R^-1,
 * each product a Montgomery product (|.| < q since |a|, |b| <= 4095
 * keeps |a*b| < q * 2^15). Per product term |.| < 2q, summed over at
 * most 4 terms in 32 bits, then Barrett: |r| <= (q-1)/2.
 */
void
fa_mlkem_basemul_acc_portable(int16_t *r, const int16_t *a,
	const int16_t *b, unsigned k)
{
	unsigned i, l;

	for (i = 0; i < MLKEM_N / 2; i ++) {
		int32_t c0 = 0, c1 = 0;
		int32_t gamma = fa_mlkem_gammas[i];

		for (l = 0; l < k; l ++) {
			const int16_t *x = a + l * MLKEM_N + 2 * i;
			const int16_t *y = b + l * MLKEM_N + 2 * i;
			int16_t hi = fa_mlkem_mont((int32_t)x[1] * y[1]);

			c0 += fa_mlkem_mont((int32_t)x[0] * y[0]);
			c0 += fa_mlkem_mont(gamma * hi);
			c1 += fa_mlkem_mont((int32_t)x[0] * y[1]);
			c1 += fa_mlkem_mont((int32_t)x[1] * y[0]);
		}
		r[2 * i] = fa_mlkem_barrett((int16_t)c0);
		r[2 * i + 1] = fa_mlkem_barrett((int16_t)c1);
	}
}
