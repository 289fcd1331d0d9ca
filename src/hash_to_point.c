/*
 * hash_to_point.c -- hash-to-point (spec v1.2, Algorithm 3): SHAKE256
 * output to n values mod q, by rejection sampling (vartime) or by a fixed
 * number of samples and a compaction network (constant time).
 */

#include "inner.h"

/* ------------------------------------------------------------------ */
/*
 * Hash-to-point (spec v1.2, Algorithm 3, HashToPoint): read 16-bit
 * big-endian samples w from the SHAKE256 output; keep w mod q when
 * w < 5q = 61445 (so that every residue is equally likely), skip it
 * otherwise; stop after n kept values.
 */

#define HTP_LIMIT (5u * FA_Q)   /* 61445 */

void
fa_hash_to_point_vartime(fa_shake256_ctx *sc, uint16_t *x, unsigned logn)
{
	fa_hash_to_point_vartime_k(&fa_backend_portable, sc, x, logn);
}

void
fa_hash_to_point_vartime_k(const struct fa_kernels *k, fa_shake256_ctx *sc,
	uint16_t *x, unsigned logn)
{
	size_t n = MKN(logn);
	size_t done = 0;
	uint8_t buf[128];

	/*
	 * Each kept value needs one sample, so the next (n - done) samples
	 * are always consumed: extracting them at once reads the same
	 * SHAKE256 output as sample-by-sample extraction.
	 */
	while (done < n) {
		size_t ns = n - done, u;

		if (ns > sizeof buf / 2) {
			ns = sizeof buf / 2;
		}
		fa_shake256_extract_k(k, sc, buf, 2 * ns);
		for (u = 0; u < ns; u ++) {
			uint32_t w = ((uint32_t)buf[2 * u] << 8) | buf[2 * u + 1];

			if (w < HTP_LIMIT) {
				x[done ++] = (uint16_t)fa_mod_q_small(w);
			}
		}
	}
}

/*
 * Constant-time version. Reading a fixed number m = n + over(logn) of
 * samples gives at least n acceptable ones except with probability below
 * 2^-256 (each sample is rejected with probability 1 - 61445/65536,
 * about 0.0624; the exact binomial tails, from -258.1 to -256.2 in log2,
 * are checked by `scripts/gen_ntt_tables.py --htp`). over(logn) is the
 * reference implementation's oversampling, so that m matches it. In that negligible event the output
 * differs from the vartime version (the last values are garbage), as in
 * the reference.
 *
 * The m samples are reduced in constant time, rejected ones marked by
 * bit 15, then the accepted ones are moved to the front, keeping their
 * order, by a compaction network (see compact_samples()). Memory access
 * pattern and branches depend on logn only.
 */

static const uint16_t htp_oversample[11] = {
	0, 65, 67, 71, 77, 86, 100, 122, 154, 205, 287
};

#define HTP_MAX_OVER 287
#define HTP_INVALID 0x8000u

/*
 * Samples are indexed 0..m-1 over two arrays: index i < n is x[i], the
 * others tail[i - n]. The selection depends on the public index only.
 */
static inline uint16_t *
sample_at(uint16_t *x, uint16_t *tail, size_t n, size_t i)
{
	return i < n ? &x[i] : &tail[i - n];
}

/* w (16 bits) -> w mod q if w < 5q, HTP_INVALID | junk otherwise. */
static inline uint16_t
reduce_sample_ct(uint32_t w)
{
	uint32_t r = w;

	/* r in [0, 65535]: conditional subtractions of 4q, 2q, q. */
	r -= (4u * FA_Q) & ~(uint32_t)-((r - 4u * FA_Q) >> 31);
	r -= (2u * FA_Q) & ~(uint32_t)-((r - 2u * FA_Q) >> 31);
	r -= FA_Q & ~(uint32_t)-((r - FA_Q) >> 31);
	/* Mark rejected samples (w >= 61445): bit 31 of w - 61445 clear. */
	r |= HTP_INVALID & ((uint32_t)((w - HTP_LIMIT) >> 31) - 1u);
	return (uint16_t)r;
}

/*
 * One step of a pass: the sample at src (index i, remaining distance
 * dist if valid) moves to dst (index i - p) iff it is valid and dist has
 * bit p set; the displaced sample goes to src. Returns 1 if valid.
 */
static inline uint32_t
compact_step(uint16_t *src, uint16_t *dst, uint32_t dist, uint32_t p)
{
	uint32_t sv = *src, dv = *dst;
	uint32_t valid = ((sv >> 15) & 1u) ^ 1u;
	uint32_t bit = dist & p;                          /* 0 or p */
	uint32_t move = -(valid & ((bit | (0u - bit)) >> 31));
	uint32_t diff = move & (sv ^ dv);

	*dst = (uint16_t)(dv ^ diff);
	*src = (uint16_t)(sv ^ diff);
	return valid;
}

/*
 * Compaction. Number the valid samples k = 0, 1, ... in order; valid
 * sample k starts at index i_k and must end at index k, i.e. move down
 * by d_k = i_k - k, the number of invalid samples before it. d_k is
 * non-decreasing in k, and d_k <= m - n = over for every k when at least
 * n samples are valid.
 *
 * Pass j (p = 2^j) moves down by p, by swapping it with the sample
 * there, every valid sample whose d_k has bit j set. Invariant: before
 * pass j, sample k is at index k + p*e_k with e_k = floor(d_k / p).
 *
 * The scan is upward, so when it reaches an index it has already seen
 * every valid sample below (each exactly once: moved samples go down,
 * behind the scan, and the invalid ones they displace go up, behind it
 * too). Hence the count of valid samples seen so far is the rank k, and
 * (index - k) = p*e_k: bit j of it tells whether to move.
 *
 * The destination t = k + p*(e_k - 1) (e_k odd) holds an invalid sample:
 *   - a valid sample k' > k is still at k' + p*e_k' > k + p*e_k > t;
 *   - a valid sample k' < k is already at k' + p*E with E = e_k' rounded
 *     down to even, E <= e_k - 1 (e_k' <= e_k, e_k odd), so below t.
 * Also t >= 0 and the source index is >= p, so the "i < p" skip below
 * never skips a move. After the passes for p <= over, d_k is exhausted
 * and valid sample k sits at index k.
 */
static void
compact_samples(uint16_t *x, uint16_t *tail, size_t n, size_t m,
	size_t over)
{
	size_t p;

	for (p = 1; p <= over; p <<= 1) {
		size_t i;
		uint32_t rank = 0;   /* valid samples seen so far */

		/*
		 * Index ranges by where source and destination lie (bounds
		 * depend on p, n and m only). i < p: no destination, count.
		 */
		for (i = 0; i < p && i < m; i ++) {
			rank += ((*sample_at(x, tail, n, i) >> 15) & 1u) ^ 1u;
		}
		/* Both in x. */
		for (; i < n; i ++) {
			rank += compact_step(&x[i], &x[i - p],
				(uint32_t)i - rank, (uint32_t)p);
		}
		/* Source in tail, destination in x. */
		for (; i < n + p && i < m; i ++) {
			rank += compact_step(&tail[i - n], &x[i - p],
				(uint32_t)i - rank, (uint32_t)p);
		}
		/* Both in tail. */
		for (; i < m; i ++) {
			rank += compact_step(&tail[i - n], &tail[i - n - p],
				(uint32_t)i - rank, (uint32_t)p);
		}
	}
}

void
fa_hash_to_point_ct(fa_shake256_ctx *sc, uint16_t *x, unsigned logn,
	uint8_t *tmp)
{
	fa_hash_to_point_ct_k(&fa_backend_portable, sc, x, logn, tmp);
}

void
fa_hash_to_point_ct_k(const struct fa_kernels *k, fa_shake256_ctx *sc,
	uint16_t *x, unsigned logn, uint8_t *tmp)
{
	size_t n = MKN(logn);
	size_t over = htp_oversample[logn];
	size_t m = n + over;
	size_t i;
	uint16_t tail[HTP_MAX_OVER];
	uint8_t buf[128];

	/* tmp is not needed: the oversampled part fits a 574-byte stack
	   array. The parameter stays for interface compatibility. */
	(void)tmp;

	for (i = 0; i < m; i += sizeof buf / 2) {
		size_t ns = m - i, u;

		if (ns > sizeof buf / 2) {
			ns = sizeof buf / 2;
		}
		fa_shake256_extract_k(k, sc, buf, 2 * ns);
		for (u = 0; u < ns; u ++) {
			*sample_at(x, tail, n, i + u) = reduce_sample_ct(
				((uint32_t)buf[2 * u] << 8) | buf[2 * u + 1]);
		}
	}
	compact_samples(x, tail, n, m, over);
}
