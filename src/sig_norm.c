/*
 * sig_norm.c -- the signature acceptance test: ||(s1, s2)||^2 against the
 * per-degree bound floor(beta^2).
 */

#include "inner.h"

/*
 * Acceptance bound on ||(s1, s2)||^2, inclusive: floor(beta^2) with
 * beta^2 = (1.1 * sigma)^2 * 2n (spec v1.2, beta = 1.1 * sigma * sqrt(2n)),
 * sigma the published per-degree signing sigma (scripts/gen_tables.py,
 * SIGMA). Recomputed by `scripts/gen_ntt_tables.py --l2bound`; e.g.
 * logn = 9: 1.21 * 165.73661718297757^2 * 1024 = 34034726.70...
 */
const uint32_t fa_l2bound[11] = {
	0,          /* unused */
	101498,     /* logn = 1 */
	208714,
	428865,
	892039,
	1852696,
	3842630,
	7959734,
	16468416,
	34034726,   /* logn = 9 */
	70265242    /* logn = 10 */
};

/*
 * Saturating accumulation of squares: every term is at most 2^30
 * (|z| <= 2^15), so as long as the sum stays below 2^31 the next
 * addition cannot wrap; once bit 31 has been seen the result is forced to
 * 2^32 - 1, which is above every bound. No data-dependent branch.
 */
static uint32_t
add_squares_sat(uint32_t sum, uint32_t overflow, const int16_t *z, size_t n)
{
	size_t u;

	for (u = 0; u < n; u ++) {
		int32_t v = z[u];

		sum += (uint32_t)(v * v);
		overflow |= sum;
	}
	return sum | -(overflow >> 31);
}

int
fa_is_short(const int16_t *s1, const int16_t *s2, unsigned logn)
{
	size_t n = MKN(logn);
	uint32_t sqn;

	sqn = add_squares_sat(0, 0, s1, n);
	return fa_is_short_half(sqn, s2, logn);
}

int
fa_is_short_half(uint32_t sqn, const int16_t *s2, unsigned logn)
{
	size_t n = MKN(logn);

	/* A saturated (>= 2^31) input stays saturated. */
	sqn = add_squares_sat(sqn, sqn, s2, n);
	return sqn <= fa_l2bound[logn];
}
