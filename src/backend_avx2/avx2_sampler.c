/*
 * avx2_sampler.c -- the SamplerZ PRNG (ChaCha20, eight blocks in the
 * eight 32-bit lanes of AVX2 registers) and SamplerZ itself.
 *
 * Both produce exactly the portable outputs (src/prng.c, src/sampler.c):
 * the same ChaCha20 blocks in the same interleaved buffer layout, the
 * same bytes consumed in the same order, the same integer arithmetic
 * and the same floating-point operations.
 *
 * SamplerZ differs from the portable code only in how it computes:
 *  - four trials of the rejection loop are computed at once,
 *    speculatively, and the one the sequential loop would stop at is
 *    selected (see trial_batch below); the loop runs 1.74 trials per
 *    call on average, so this removes most of the serial latency;
 *  - the base sampler compares the 72-bit uniform value with the 18
 *    RCDT entries in three vectors of eight 32-bit lanes (24-bit limbs,
 *    borrow chains per lane, then horizontal sums);
 *  - the floating-point steps of the four trials run in the four lanes
 *    of AVX2 registers (the same IEEE operations, lane by lane);
 *  - the 64x64 -> high 64 products of the exp polynomial are single
 *    hardware multiplications (_mulx_u64, BMI2) instead of four 32-bit
 *    products (same value).
 * Timing: as in the portable code, the time depends on the number of
 * trials (how many random values were rejected), which the Falcon
 * analysis allows; within a batch the accept/reject decisions select a
 * trial with masks and a count of trailing zeros, not with branches, so
 * this version leaks less than the portable one (only "more than four
 * trials" and the 1/256 undecided-byte case branch).
 */

#include <immintrin.h>

#include "avx2_inner.h"

/* src/backend_avx2/avx2_tables.c (generated). */
extern const uint32_t fa_avx2_rcdt_limbs[3][24];

/* ------------------------------------------------------------------ */
/* ChaCha20, eight blocks at once: register v holds word v of blocks
   0..7 (lane u = block u), which is the buffer layout (word v of block u
   at byte 32*v + 4*u) on a little-endian machine. */

static inline __m256i rotl16(__m256i x)
{
	const __m256i idx = _mm256_setr_epi8(
		2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13,
		2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13);

	return _mm256_shuffle_epi8(x, idx);
}

static inline __m256i rotl8(__m256i x)
{
	const __m256i idx = _mm256_setr_epi8(
		3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14,
		3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14);

	return _mm256_shuffle_epi8(x, idx);
}

#define ROTL(x, c) _mm256_or_si256(_mm256_slli_epi32(x, c), \
	_mm256_srli_epi32(x, 32 - (c)))

#define VQR(a, b, c, d) do { \
		a = _mm256_add_epi32(a, b); d = rotl16(_mm256_xor_si256(d, a)); \
		c = _mm256_add_epi32(c, d); b = ROTL(_mm256_xor_si256(b, c), 12); \
		a = _mm256_add_epi32(a, b); d = rotl8(_mm256_xor_si256(d, a)); \
		c = _mm256_add_epi32(c, d); b = ROTL(_mm256_xor_si256(b, c), 7); \
	} while (0)

void fa_prng_refill_avx2(fa_prng *p)
{
	static const uint32_t chacha_const[4] = {
		0x61707865, 0x3320646e, 0x79622d32, 0x6b206574
	};
	__m256i init[16], s[16];
	uint32_t key[12], ctr_lo[8], ctr_hi[8];
	uint64_t cc;
	unsigned u, v;
	int r;

	/* words 4..15 and the counter, little-endian (x86) */
	memcpy(key, p->state, sizeof key);
	memcpy(&cc, p->state + 48, sizeof cc);
	for (u = 0; u < 8; u ++) {
		ctr_lo[u] = (uint32_t)(cc + u);
		ctr_hi[u] = (uint32_t)((cc + u) >> 32);
	}
	for (v = 0; v < 4; v ++) {
		init[v] = _mm256_set1_epi32((int)chacha_const[v]);
	}
	for (v = 0; v < 12; v ++) {
		init[4 + v] = _mm256_set1_epi32((int)key[v]);
	}
	init[14] = _mm256_xor_si256(init[14],
		_mm256_loadu_si256((const __m256i *)(const void *)ctr_lo));
	init[15] = _mm256_xor_si256(init[15],
		_mm256_loadu_si256((const __m256i *)(const void *)ctr_hi));
	for (v = 0; v < 16; v ++) {
		s[v] = init[v];
	}
	for (r = 0; r < 10; r ++) {
		VQR(s[0], s[4], s[8], s[12]);
		VQR(s[1], s[5], s[9], s[13]);
		VQR(s[2], s[6], s[10], s[14]);
		VQR(s[3], s[7], s[11], s[15]);
		VQR(s[0], s[5], s[10], s[15]);
		VQR(s[1], s[6], s[11], s[12]);
		VQR(s[2], s[7], s[8], s[13]);
		VQR(s[3], s[4], s[9], s[14]);
	}
	for (v = 0; v < 16; v ++) {
		_mm256_storeu_si256((__m256i *)(void *)(p->buf + 32 * v),
			_mm256_add_epi32(s[v], init[v]));
	}
	cc += 8;
	memcpy(p->state + 48, &cc, sizeof cc);
	p->ptr = 0;
}

/* ------------------------------------------------------------------ */
/* Random bytes, exactly as src/sampler.c consumes them. */

/* 64 bits little-endian; refill first when fewer than 9 bytes remain. */
static inline uint64_t prng_u64(fa_prng *p)
{
	size_t u = p->ptr;
	uint64_t x;

	if (u >= sizeof p->buf - 9) {
		fa_prng_refill_avx2(p);
		u = 0;
	}
	memcpy(&x, p->buf + u, sizeof x);
	p->ptr = u + 8;
	return x;
}

static inline unsigned prng_u8(fa_prng *p)
{
	unsigned v = p->buf[p->ptr ++];

	if (p->ptr == sizeof p->buf) {
		fa_prng_refill_avx2(p);
	}
	return v;
}

/*
 * Base sampler: z = #{i : v < RCDT[i]} for the uniform 72-bit
 * v = lo + 2^64 * hi, with the borrow of v - RCDT[i] over three 24-bit
 * limbs computed in each lane (lanes with a zero entry never borrow, v
 * being non-negative).
 */
static inline int gaussian0_value(uint64_t lo, uint32_t hi)
{
	__m256i v0 = _mm256_set1_epi32((int)(lo & 0xFFFFFF));
	__m256i v1 = _mm256_set1_epi32((int)((lo >> 24) & 0xFFFFFF));
	__m256i v2 = _mm256_set1_epi32((int)((lo >> 48) | (hi << 16)));
	__m256i acc = _mm256_setzero_si256();
	__m128i h;
	int k;

	for (k = 0; k < 3; k ++) {
		__m256i r0 = _mm256_load_si256((const __m256i *)(const void *)
			&fa_avx2_rcdt_limbs[0][8 * k]);
		__m256i r1 = _mm256_load_si256((const __m256i *)(const void *)
			&fa_avx2_rcdt_limbs[1][8 * k]);
		__m256i r2 = _mm256_load_si256((const __m256i *)(const void *)
			&fa_avx2_rcdt_limbs[2][8 * k]);
		__m256i b;

		b = _mm256_srli_epi32(_mm256_sub_epi32(v0, r0), 31);
		b = _mm256_srli_epi32(_mm256_sub_epi32(
			_mm256_sub_epi32(v1, r1), b), 31);
		b = _mm256_srli_epi32(_mm256_sub_epi32(
			_mm256_sub_epi32(v2, r2), b), 31);
		acc = _mm256_add_epi32(acc, b);
	}
	h = _mm_add_epi32(_mm256_castsi256_si128(acc),
		_mm256_extracti128_si256(acc, 1));
	h = _mm_add_epi32(h, _mm_shuffle_epi32(h, 0x4E));
	h = _mm_add_epi32(h, _mm_shuffle_epi32(h, 0xB1));
	return _mm_cvtsi128_si32(h);
}

static inline int gaussian0(fa_prng *p)
{
	uint64_t lo = prng_u64(p);
	uint32_t hi = prng_u8(p);

	return gaussian0_value(lo, hi);
}

/* High 64 bits of a*b. */
static inline uint64_t mulhi64(uint64_t a, uint64_t b)
{
	unsigned long long hi;

	(void)_mulx_u64(a, b, &hi);
	return hi;
}

/*
 * 2^63 * ccs * exp(-r) as the portable expm_p63, Horner's rule on the
 * FACCT polynomial in 63-bit fixed point: zr = trunc(r * 2^63) << 1,
 * zccs = trunc(ccs * 2^63) << 1 (the same for every trial of one call).
 */
static inline uint64_t expm_p63_fixed(uint64_t zr, uint64_t zccs)
{
	uint64_t y = fa_expm_coeffs[0];
	size_t u;

	for (u = 1; u < 13; u ++) {
		y = fa_expm_coeffs[u] - mulhi64(zr, y);
	}
	return mulhi64(zccs, y);
}

/* min(s, 63) for s >= 0, as the portable code computes it (branchless). */
static inline uint32_t shift_min63(int s)
{
	uint32_t sw = (uint32_t)s;

	sw ^= (sw ^ 63) & -((63 - sw) >> 31);
	return sw;
}

/* Bernoulli trial with probability ccs * exp(-x) (portable ber_exp). */
static inline int ber_exp(fa_prng *p, fpr x, uint64_t zccs)
{
	int s = (int)fpr_trunc(fpr_mul(x, FPR_INV_LOG2));
	fpr r = fpr_sub(x, fpr_mul(fpr_of(s), FPR_LOG2));
	uint64_t zr = (uint64_t)fpr_trunc(fpr_mul(r, FPR_PTWO63)) << 1;
	uint64_t z = ((expm_p63_fixed(zr, zccs) << 1) - 1) >> shift_min63(s);
	uint32_t w;
	int i;

	i = 64;
	do {
		i -= 8;
		w = prng_u8(p) - ((uint32_t)(z >> i) & 0xFF);
	} while (!w && i > 0);
	return (int)(w >> 31);
}

/*
 * Speculative trials. One trial of the rejection loop reads, in order,
 * 8 + 1 bytes (base sampler), 1 byte (sign bit b), then BerExp's bytes:
 * one, unless that byte equals the top byte of the threshold (probability
 * 1/256), when it reads more. So while no refill can occur, trial k
 * (k = 0..3) starts at byte 11k after the current position, provided
 * trials 0..k-1 each read a single BerExp byte. The four trials are
 * computed together (floating-point parts in the four lanes of AVX2
 * registers, the same IEEE operations lane by lane; the fixed-point
 * exp chains interleaved), then examined in order, exactly as the
 * sequential loop would: the first trial whose first BerExp byte decides
 * "accept" ends the call; a trial whose first byte is undecided finishes
 * its BerExp sequentially and the batch ends there. The bytes consumed,
 * and the result, are those of the sequential loop.
 *
 * Batching reads at most 44 bytes without a refill: it is used when
 * ptr <= 512 - 9 - 44 (then the first read of trial 3 is at most at
 * 492 < 503, and no byte read reaches offset 511); closer to the end of
 * the buffer, trials run one at a time as in the portable code. (Batches
 * of fewer trials near the end were measured slower.)
 */
#define TRIAL_BYTES 11
#define BATCH 4
#define BATCH_MAX_PTR (sizeof ((fa_prng *)0)->buf - 9 - BATCH * TRIAL_BYTES)

/*
 * trunc(d) as a 64-bit two's complement integer for |d| < 2^63, four
 * lanes (what fpr_trunc, i.e. (int64_t)d, gives): |d| = m * 2^(e-1075)
 * with m the 53-bit significand, shifted left or right (a variable shift
 * by 64 or more gives 0, which also makes d = 0 give 0), then the sign
 * applied.
 */
static inline __m256i trunc_i64x4(__m256d d)
{
	const __m256i mant_mask = _mm256_set1_epi64x(0x000FFFFFFFFFFFFF);
	const __m256i implicit = _mm256_set1_epi64x(0x0010000000000000);
	__m256i bits = _mm256_castpd_si256(d);
	__m256i neg = _mm256_cmpgt_epi64(_mm256_setzero_si256(), bits);
	__m256i e = _mm256_and_si256(_mm256_srli_epi64(bits, 52),
		_mm256_set1_epi64x(0x7FF));
	__m256i m = _mm256_or_si256(_mm256_and_si256(bits, mant_mask), implicit);
	__m256i t = _mm256_or_si256(
		_mm256_sllv_epi64(m, _mm256_sub_epi64(e, _mm256_set1_epi64x(1075))),
		_mm256_srlv_epi64(m, _mm256_sub_epi64(_mm256_set1_epi64x(1075), e)));

	return _mm256_sub_epi64(_mm256_xor_si256(t, neg), neg);
}

/* Borrow counts of v - RCDT[i] for one trial: the limbs of the trial are
   lane 2k of l0, l1, l2 (64-bit lanes, value in the low 32 bits).
   Returns eight partial counts (their sum is the base sample). */
static inline __m256i rcdt_count(__m256i l0, __m256i l1, __m256i l2, int k)
{
	__m256i sel = _mm256_set1_epi32(2 * k);
	__m256i v0 = _mm256_permutevar8x32_epi32(l0, sel);
	__m256i v1 = _mm256_permutevar8x32_epi32(l1, sel);
	__m256i v2 = _mm256_permutevar8x32_epi32(l2, sel);
	__m256i acc = _mm256_setzero_si256();
	int j;

	for (j = 0; j < 3; j ++) {
		__m256i r0 = _mm256_load_si256((const __m256i *)(const void *)
			&fa_avx2_rcdt_limbs[0][8 * j]);
		__m256i r1 = _mm256_load_si256((const __m256i *)(const void *)
			&fa_avx2_rcdt_limbs[1][8 * j]);
		__m256i r2 = _mm256_load_si256((const __m256i *)(const void *)
			&fa_avx2_rcdt_limbs[2][8 * j]);
		__m256i b;

		b = _mm256_srli_epi32(_mm256_sub_epi32(v0, r0), 31);
		b = _mm256_srli_epi32(_mm256_sub_epi32(
			_mm256_sub_epi32(v1, r1), b), 31);
		b = _mm256_srli_epi32(_mm256_sub_epi32(
			_mm256_sub_epi32(v2, r2), b), 31);
		acc = _mm256_add_epi32(acc, b);
	}
	return acc;
}

/*
 * Returns 1 and sets *zout if a trial accepted; 0 if the caller must go
 * on (p->ptr then points after the bytes of the examined trials).
 * Which trial ends the batch is found without branching on the random
 * decisions (bit masks, then a count of trailing zeros); the only
 * branches are on "no trial decided to accept" (probability about 3%)
 * and on an undecided first BerExp byte (about 1/64 per batch).
 */
static int trial_batch(fa_prng *p, fpr r, fpr dss, uint64_t zccs,
	int *zout)
{
	const uint8_t *t = p->buf + p->ptr;
	uint64_t w64[BATCH];
	int32_t zv[BATCH], sv[BATCH];
	uint64_t zr[BATCH], y[BATCH];
	__m256i lo, hi, l0, l1, l2;
	__m128i z0, bb, m, z, z0sq, s, ber;
	__m256d x, vr;
	uint32_t stop, undecided, kk;
	int k, zsel;
	size_t u;

	/* The four trials' 72-bit uniform values: lo (64 bits) at offsets
	   11k, hi byte at 11k + 8; sign bytes at 11k + 9; BerExp bytes at
	   11k + 10. */
	for (k = 0; k < BATCH; k ++) {
		memcpy(&w64[k], t + TRIAL_BYTES * k, sizeof w64[k]);
	}
	lo = _mm256_setr_epi64x((long long)w64[0], (long long)w64[1],
		(long long)w64[2], (long long)w64[3]);
	hi = _mm256_setr_epi64x(t[8], t[19], t[30], t[41]);
	bb = _mm_setr_epi32(t[9], t[20], t[31], t[42]);
	ber = _mm_setr_epi32(t[10], t[21], t[32], t[43]);
	l0 = _mm256_and_si256(lo, _mm256_set1_epi64x(0xFFFFFF));
	l1 = _mm256_and_si256(_mm256_srli_epi64(lo, 24),
		_mm256_set1_epi64x(0xFFFFFF));
	l2 = _mm256_or_si256(_mm256_srli_epi64(lo, 48),
		_mm256_slli_epi64(hi, 16));

	/* base samples z0 of the four trials (horizontal sums) */
	{
		__m256i a0 = rcdt_count(l0, l1, l2, 0);
		__m256i a1 = rcdt_count(l0, l1, l2, 1);
		__m256i a2 = rcdt_count(l0, l1, l2, 2);
		__m256i a3 = rcdt_count(l0, l1, l2, 3);
		__m256i h = _mm256_hadd_epi32(_mm256_hadd_epi32(a0, a1),
			_mm256_hadd_epi32(a2, a3));

		z0 = _mm_add_epi32(_mm256_castsi256_si128(h),
			_mm256_extracti128_si256(h, 1));
	}

	/* z = b + (2b - 1) z0: z0 + 1 if b = 1, -z0 if b = 0 */
	bb = _mm_and_si128(bb, _mm_set1_epi32(1));
	m = _mm_sub_epi32(bb, _mm_set1_epi32(1));
	z = _mm_add_epi32(_mm_sub_epi32(_mm_xor_si128(z0, m), m), bb);
	z0sq = _mm_mullo_epi32(z0, z0);
	_mm_storeu_si128((__m128i *)(void *)zv, z);

	/* x = (z - r)^2 * dss - z0^2 * (1/(2 sigma0^2)), lane by lane */
	x = _mm256_sub_pd(_mm256_cvtepi32_pd(z), _mm256_set1_pd(r));
	x = _mm256_mul_pd(_mm256_mul_pd(x, x), _mm256_set1_pd(dss));
	x = _mm256_sub_pd(x, _mm256_mul_pd(_mm256_cvtepi32_pd(z0sq),
		_mm256_set1_pd(FPR_INV_2SQRSIGMA0)));

	/* BerExp: s = trunc(x / ln 2), r = x - s ln 2,
	   zr = trunc(r 2^63) << 1, shift = min(s, 63) (s >= 0) */
	s = _mm256_cvttpd_epi32(_mm256_mul_pd(x, _mm256_set1_pd(FPR_INV_LOG2)));
	vr = _mm256_sub_pd(x, _mm256_mul_pd(_mm256_cvtepi32_pd(s),
		_mm256_set1_pd(FPR_LOG2)));
	_mm256_storeu_si256((__m256i *)(void *)zr, _mm256_slli_epi64(
		trunc_i64x4(_mm256_mul_pd(vr, _mm256_set1_pd(FPR_PTWO63))), 1));
	_mm_storeu_si128((__m128i *)(void *)sv,
		_mm_min_epu32(s, _mm_set1_epi32(63)));

	/* four independent fixed-point exp chains (interleaved) */
	for (k = 0; k < BATCH; k ++) {
		y[k] = fa_expm_coeffs[0];
	}
	for (u = 1; u < 13; u ++) {
		for (k = 0; k < BATCH; k ++) {
			y[k] = fa_expm_coeffs[u] - mulhi64(zr[k], y[k]);
		}
	}

	/* first BerExp byte of each trial against the threshold's top byte:
	   w < 0 (as int32): accept; w = 0: undecided; else reject */
	stop = 0;
	undecided = 0;
	for (k = 0; k < BATCH; k ++) {
		uint64_t thr = ((mulhi64(zccs, y[k]) << 1) - 1) >> sv[k];
		uint32_t w = (uint32_t)_mm_cvtsi128_si32(ber)
			- (uint32_t)(thr >> 56);

		/* lane k of ber, without a variable lane index */
		ber = _mm_shuffle_epi32(ber, 0x39);
		uint32_t zero = (((w | (0 - w)) >> 31) ^ 1);   /* w == 0 */

		y[k] = thr;
		stop |= ((w >> 31) | zero) << k;
		undecided |= zero << k;
	}
	if (stop == 0) {
		p->ptr += TRIAL_BYTES * BATCH;
		return 0;
	}
	kk = (uint32_t)__builtin_ctz(stop);
	p->ptr += TRIAL_BYTES * (size_t)(kk + 1);
	zsel = 0;
	for (k = 0; k < BATCH; k ++) {
		zsel |= zv[k] & -(int)((uint32_t)k == kk);
	}
	if ((undecided >> kk) & 1) {
		/* finish this trial's BerExp byte by byte (rare) */
		uint64_t thr = 0;
		uint32_t w;
		int i = 56;

		for (k = 0; k < BATCH; k ++) {
			thr |= y[k] & -(uint64_t)((uint32_t)k == kk);
		}
		do {
			i -= 8;
			w = prng_u8(p) - ((uint32_t)(thr >> i) & 0xFF);
		} while (!w && i > 0);
		if (!(w >> 31)) {
			return 0;
		}
	}
	*zout = zsel;
	return 1;
}

int fa_samplerz_avx2(fa_sampler_ctx *sc, fpr mu, fpr isigma)
{
	fa_prng *p = &sc->p;
	int s = (int)fpr_floor(mu);
	fpr r = fpr_sub(mu, fpr_of(s));            /* r in [0, 1) */
	fpr dss = fpr_half(fpr_sqr(isigma));       /* 1/(2 sigma^2) */
	fpr ccs = fpr_mul(isigma, sc->sigma_min);  /* sigma_min/sigma */
	uint64_t zccs = (uint64_t)fpr_trunc(fpr_mul(ccs, FPR_PTWO63)) << 1;

	for (;;) {
		int z0, b, z;
		fpr x;

		if (p->ptr <= BATCH_MAX_PTR) {
			if (trial_batch(p, r, dss, zccs, &z)) {
				return s + z;
			}
			continue;
		}
		/* near the end of the buffer: one trial as the portable code */
		z0 = gaussian0(p);
		b = (int)prng_u8(p) & 1;
		z = b + ((b << 1) - 1) * z0;
		x = fpr_mul(fpr_sqr(fpr_sub(fpr_of(z), r)), dss);
		x = fpr_sub(x, fpr_mul(fpr_of(z0 * z0), FPR_INV_2SQRSIGMA0));
		if (ber_exp(p, x, zccs)) {
			return s + z;
		}
	}
}
