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
 *  - trials of the rejection loop are computed speculatively, eight
 *    "slots" of random bytes at once, and the trial the sequential loop
 *    would stop at is selected (see "Speculative trials" below); a pair
 *    of calls with the same sigma (the two leaves of an ffSampling node,
 *    slot samplerz_pair) shares one set of slots, so the second call's
 *    latency overlaps the first's;
 *  - the base sampler compares each slot's 72-bit uniform value with the
 *    18 RCDT entries, eight slots in the eight 32-bit lanes (24-bit limbs,
 *    borrow chains);
 *  - the floating-point steps of four trials run in the four lanes of
 *    AVX2 registers (the same IEEE operations, lane by lane);
 *  - BerExp's first byte is decided from a double-precision evaluation of
 *    the exp polynomial with a proven error bound, and only the trials it
 *    cannot decide (about 1 in 256) run the exact 63-bit fixed-point chain
 *    (with single MULX products instead of four 32-bit ones, same value).
 * Timing: as in the portable code, the time depends on the number of
 * trials (how many random values were rejected), which the Falcon
 * analysis allows; within a set of slots the accept/reject decisions
 * select a trial with masks and a count of trailing zeros, not with
 * branches. What branches on data: "no trial accepted among the slots",
 * the undecided first byte (probability 1/256, as in the portable code)
 * and the uncertain first-byte decision (t within 2^-30 of an integer,
 * probability about 2^-29 per trial, a function of the secret centre:
 * a rare timing difference, not claimed constant-time).
 */

#include <immintrin.h>

#include "avx2_inner.h"
#include "ct_declassify.h"

/* src/backend_avx2/avx2_tables.c (generated). */
extern const uint32_t fa_avx2_rcdt_limbs[3][24];
extern const double fa_avx2_expm_poly[13];

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

int fa_prng_refill_avx2(fa_prng *p)
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
	return FA_KERNEL_DONE;
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
		/* declassified: the early exit on a random byte (README) */
	} while (!fa_declassify_u32(w) && i > 0);
	return (int)(w >> 31);
}

/*
 * Speculative trials. One trial of the rejection loop reads, in order,
 * 8 + 1 bytes (base sampler), 1 byte (sign bit b), then BerExp's bytes:
 * one, unless that byte equals the top byte of the threshold (probability
 * 1/256), when it reads more. So while no refill can occur, trial j
 * starts at byte 11j after the current position, provided the earlier
 * trials each read a single BerExp byte. We call the 11 bytes at
 * ptr + 11j "slot j". A slot's base sample z0, sign bit, z and first
 * BerExp byte depend only on its bytes, not on the centre; the centre's
 * fractional part r enters only x and the accept decision.
 *
 * The code computes z for eight slots at once, then the decisions of one
 * call for slots 0..3 (one SamplerZ call) or of two calls with the same
 * sigma (samplerz_pair): call A on slots 0..3, call B on slots 0..7, B's
 * trials starting at the slot after the one where A accepted. The slots
 * are then examined in order, exactly as the sequential loop would: the
 * first slot whose first BerExp byte decides "accept" ends a call; a slot
 * whose first byte is undecided (or whose fast decision is not certain,
 * see below) is finished by the exact code from its first BerExp byte,
 * and speculation stops there. Whenever speculation stops without a
 * result, the call goes on with the plain loop from the current position:
 * the rejected trials leave no state but the position. The bytes
 * consumed, and the results, are those of the sequential loop.
 *
 * Buffer boundary. A slot is usable when ptr + 11(j + 1) <= 512: its
 * 64-bit read then starts at most at 501 < 503 (the refill rule of
 * prng_u64). A slot may end exactly at the end of the buffer; reading
 * the last byte triggers a refill, so a position that reaches 512 is
 * followed by a refill (advance()). Slots beyond the usable ones are
 * computed on zero padding and ignored. When fewer than 9 bytes remain
 * (ptr >= 503), the next trial's first read, a 64-bit one, would refill
 * before reading anything: the refill is then done first and the trial
 * starts in slot 0 of the new buffer (refill_if_short()). Only a trial
 * starting at 502 (its first BerExp byte is in the next buffer) runs
 * the one-trial sequential code.
 */
#define TRIAL_BYTES 11
#define NSLOT 8
#define SLOT_SPAN (TRIAL_BYTES * NSLOT)

/* Slots usable from the current position (0..NSLOT). */
static inline unsigned usable_slots(const fa_prng *p)
{
	size_t room = (sizeof p->buf - p->ptr) / TRIAL_BYTES;

	return room < NSLOT ? (unsigned)room : NSLOT;
}

/* Set the position after bytes read; the end of the buffer refills. */
static inline void advance(fa_prng *p, size_t ptr)
{
	p->ptr = ptr;
	if (ptr == sizeof p->buf) {
		fa_prng_refill_avx2(p);
	}
}

/* Before a trial: a 64-bit read with fewer than 9 bytes left refills
   first, so the refill may as well happen now. */
static inline void refill_if_short(fa_prng *p)
{
	if (p->ptr >= sizeof p->buf - 9) {
		fa_prng_refill_avx2(p);
	}
}

/* The per-slot values that do not depend on the centre. */
typedef struct {
	__m256i z;      /* z = b + (2b - 1) z0 */
	__m256i z0sq;   /* z0^2 */
	__m256i ber;    /* first BerExp byte */
} slot_vals;

/* The low 32 bits of the 64-bit lanes of a (slots 0..3) and b (slots
   4..7), as eight 32-bit lanes. */
static inline __m256i pack_lo32(__m256i a, __m256i b)
{
	const __m256i idx = _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7);

	return _mm256_permute2x128_si256(
		_mm256_permutevar8x32_epi32(a, idx),
		_mm256_permutevar8x32_epi32(b, idx), 0x20);
}

/*
 * z of slots 0..7 from the 88 bytes at t. The base sampler counts the
 * RCDT entries above the 72-bit uniform value v = lo + 2^64 hi: for each
 * entry, the borrow of v - RCDT[i] over three 24-bit limbs, eight slots
 * in the eight 32-bit lanes (no data-dependent branch or index).
 */
static inline void slot_values(slot_vals *sv, const uint8_t *t)
{
	const __m256i m24 = _mm256_set1_epi64x(0xFFFFFF);
	uint64_t w[NSLOT];
	__m256i lo[2], hi[2], v0, v1, v2, z0, b, m;
	int j, i;

	for (j = 0; j < NSLOT; j ++) {
		memcpy(&w[j], t + TRIAL_BYTES * j, sizeof w[j]);
	}
	for (j = 0; j < 2; j ++) {
		const uint8_t *u = t + 4 * TRIAL_BYTES * j;

		lo[j] = _mm256_setr_epi64x((long long)w[4 * j],
			(long long)w[4 * j + 1], (long long)w[4 * j + 2],
			(long long)w[4 * j + 3]);
		hi[j] = _mm256_setr_epi64x(u[8], u[19], u[30], u[41]);
	}
	v0 = pack_lo32(_mm256_and_si256(lo[0], m24),
		_mm256_and_si256(lo[1], m24));
	v1 = pack_lo32(_mm256_and_si256(_mm256_srli_epi64(lo[0], 24), m24),
		_mm256_and_si256(_mm256_srli_epi64(lo[1], 24), m24));
	v2 = pack_lo32(
		_mm256_or_si256(_mm256_srli_epi64(lo[0], 48),
			_mm256_slli_epi64(hi[0], 16)),
		_mm256_or_si256(_mm256_srli_epi64(lo[1], 48),
			_mm256_slli_epi64(hi[1], 16)));
	z0 = _mm256_setzero_si256();
	for (i = 0; i < 18; i ++) {
		__m256i c;

		c = _mm256_srli_epi32(_mm256_sub_epi32(v0,
			_mm256_set1_epi32((int)fa_avx2_rcdt_limbs[0][i])), 31);
		c = _mm256_srli_epi32(_mm256_sub_epi32(_mm256_sub_epi32(v1,
			_mm256_set1_epi32((int)fa_avx2_rcdt_limbs[1][i])), c), 31);
		c = _mm256_srli_epi32(_mm256_sub_epi32(_mm256_sub_epi32(v2,
			_mm256_set1_epi32((int)fa_avx2_rcdt_limbs[2][i])), c), 31);
		z0 = _mm256_add_epi32(z0, c);
	}
	/* z = b + (2b - 1) z0: z0 + 1 if b = 1, -z0 if b = 0 */
	b = _mm256_and_si256(_mm256_setr_epi32(t[9], t[20], t[31], t[42],
		t[53], t[64], t[75], t[86]), _mm256_set1_epi32(1));
	m = _mm256_sub_epi32(b, _mm256_set1_epi32(1));
	sv->z = _mm256_add_epi32(_mm256_sub_epi32(_mm256_xor_si256(z0, m), m), b);
	sv->z0sq = _mm256_mullo_epi32(z0, z0);
	sv->ber = _mm256_setr_epi32(t[10], t[21], t[32], t[43],
		t[54], t[65], t[76], t[87]);
}

/*
 * BerExp's first byte without the fixed-point exp chain.
 *
 * The exact threshold of a trial is thr = (2X - 1) >> s' (s' = min(s, 63))
 * with X = mulhi(zccs, y12) and y12 the Horner chain of expm_p63_fixed;
 * the first BerExp byte b is compared with top = thr >> 56 = floor(T),
 * T = (2X - 1) / 2^(56 + s'). Since b is an integer:
 *     b < top   <=>  T >= b + 1      (accept)
 *     b > top   <=>  T <  b          (reject)
 *     b = top   otherwise            (undecided: more bytes needed).
 * T is approximated by t = ccs' * P(r) * 2^(8 - s') in double precision,
 * P the exp polynomial in ordinary form (fa_avx2_expm_poly, Estrin's
 * scheme) and ccs' = (zccs / 2) / 2^63. Error budget, |T - t|:
 *  - the fixed-point chain: 12 truncations of at most 2^-63 each on
 *    values scaled by r' < 1, r' = zr / 2^64 within 2^-63 of r, |P'| < 2,
 *    the final product and the "- 1": below 2^-58 on X / 2^63, i.e.
 *    below 2^-50 on T (T <= 2^8 * X / 2^63);
 *  - the double evaluation: 13 coefficients rounded to nearest, 16
 *    roundings in Estrin's tree on terms whose absolute values sum to
 *    less than e^(ln 2) = 2, two more products: below 40 * 2^-53 * 2^8
 *    < 2^-39 on t.
 * So |T - t| < 2^-38, and with the margin M = 2^-30 the decisions
 *     t - b >= 1 + M  =>  accept,     t - b < -M  =>  reject
 * are exactly those of the fixed-point code; a lane in neither case (an
 * undecided byte, probability 1/256, or t within M of an integer,
 * probability about 2^-29) is finished by the exact chain. The
 * approximation also requires 0 <= r < 1 (a negative r, which rounding
 * can produce when x is just above a multiple of ln 2, makes the exact
 * code wrap around; such lanes take the exact path) and
 * zccs >= 2^63 (ccs >= 1/2, always true in Falcon, checked per call).
 * FA_AVX2_BER_MARGIN may be set larger at compile time to exercise the
 * exact path in tests (tests/test_sampler_margin.c).
 */
#ifndef FA_AVX2_BER_MARGIN
#define FA_AVX2_BER_MARGIN 0x1p-30
#endif
/* Test hook: counts the trials finished by the exact path. */
#ifndef FA_AVX2_COUNT_EXACT
#define FA_AVX2_COUNT_EXACT() ((void)0)
#endif

static inline __m256d expm_poly_x4(__m256d r)
{
	const double *c = fa_avx2_expm_poly;
	__m256d r2 = _mm256_mul_pd(r, r);
	__m256d r4 = _mm256_mul_pd(r2, r2);
	__m256d r8 = _mm256_mul_pd(r4, r4);
	__m256d b[6], d[3], e0, e1;
	int i;

	for (i = 0; i < 6; i ++) {
		b[i] = _mm256_add_pd(_mm256_set1_pd(c[2 * i]),
			_mm256_mul_pd(_mm256_set1_pd(c[2 * i + 1]), r));
	}
	for (i = 0; i < 3; i ++) {
		d[i] = _mm256_add_pd(b[2 * i], _mm256_mul_pd(b[2 * i + 1], r2));
	}
	/* c[12] r^12 = (c[12] r^4) r^8 */
	e0 = _mm256_add_pd(d[0], _mm256_mul_pd(d[1], r4));
	e1 = _mm256_add_pd(d[2],
		_mm256_mul_pd(_mm256_mul_pd(_mm256_set1_pd(c[12]), r4), r4));
	return _mm256_add_pd(e0, _mm256_mul_pd(e1, r8));
}

/* 2^(8 - s) for s in [0, 63], four lanes (exponent field built directly) */
static inline __m256d pow2_8_minus(__m128i s)
{
	__m128i e = _mm_sub_epi32(_mm_set1_epi32(1023 + 8), s);

	return _mm256_castsi256_pd(_mm256_slli_epi64(
		_mm256_cvtepi32_epi64(e), 52));
}

/* What one call needs per trial: r = frac(mu), 1/(2 sigma^2), ccs. */
typedef struct {
	fpr r, dss, ccs_eff;
	uint64_t zccs;
	int fast;          /* the first-byte shortcut applies (zccs >= 2^63) */
} call_params;

static inline void call_init(call_params *cp, int *s, fpr mu, fpr isigma,
	fpr sigma_min)
{
	fpr ccs = fpr_mul(isigma, sigma_min);     /* sigma_min/sigma */

	*s = (int)fpr_floor(mu);
	cp->r = fpr_sub(mu, fpr_of(*s));           /* r in [0, 1) */
	cp->dss = fpr_half(fpr_sqr(isigma));       /* 1/(2 sigma^2) */
	cp->zccs = (uint64_t)fpr_trunc(fpr_mul(ccs, FPR_PTWO63)) << 1;
	cp->ccs_eff = (fpr)(cp->zccs >> 1) * 0x1p-63;
	/* declassified: sigma <= 2 sigma_min, true for every leaf of a key
	   that passes the decoder's checks (README) */
	cp->fast = fa_declassify_int((cp->zccs >> 63) != 0);
}

/* Decisions of one call for four slots (z, z0sq, ber: their 32-bit
   values). Sets the 4-bit masks *stop (accept, or exact path needed)
   and *slow (exact path needed); rv, sv receive r and s' per slot for
   the exact path. */
static inline void decide4(const call_params *cp, __m128i z, __m128i z0sq,
	__m128i ber, double *rv, int32_t *sv, uint32_t *stop, uint32_t *slow)
{
	__m256d x, vr, tt, dd, ok, acc, rej;
	__m128i s, s63;

	/* x = (z - r)^2 * dss - z0^2 * (1/(2 sigma0^2)), lane by lane */
	x = _mm256_sub_pd(_mm256_cvtepi32_pd(z), _mm256_set1_pd(cp->r));
	x = _mm256_mul_pd(_mm256_mul_pd(x, x), _mm256_set1_pd(cp->dss));
	x = _mm256_sub_pd(x, _mm256_mul_pd(_mm256_cvtepi32_pd(z0sq),
		_mm256_set1_pd(FPR_INV_2SQRSIGMA0)));

	/* s = trunc(x / ln 2), r = x - s ln 2, s' = min(s, 63) (x >= 0) */
	s = _mm256_cvttpd_epi32(_mm256_mul_pd(x, _mm256_set1_pd(FPR_INV_LOG2)));
	vr = _mm256_sub_pd(x, _mm256_mul_pd(_mm256_cvtepi32_pd(s),
		_mm256_set1_pd(FPR_LOG2)));
	s63 = _mm_min_epu32(s, _mm_set1_epi32(63));
	_mm256_storeu_pd(rv, vr);
	_mm_storeu_si128((__m128i *)(void *)sv, s63);

	/* t = ccs' P(r) 2^(8 - s'), d = t - (first BerExp byte) */
	tt = _mm256_mul_pd(_mm256_mul_pd(expm_poly_x4(vr),
		_mm256_set1_pd(cp->ccs_eff)), pow2_8_minus(s63));
	dd = _mm256_sub_pd(tt, _mm256_cvtepi32_pd(ber));
	ok = _mm256_and_pd(
		_mm256_cmp_pd(vr, _mm256_setzero_pd(), _CMP_GE_OQ),
		_mm256_cmp_pd(vr, _mm256_set1_pd(1.0), _CMP_LT_OQ));
	acc = _mm256_and_pd(ok, _mm256_cmp_pd(dd,
		_mm256_set1_pd(1.0 + FA_AVX2_BER_MARGIN), _CMP_GE_OQ));
	rej = _mm256_and_pd(ok, _mm256_cmp_pd(dd,
		_mm256_set1_pd(-FA_AVX2_BER_MARGIN), _CMP_LT_OQ));
	*stop = (uint32_t)_mm256_movemask_pd(rej) ^ 0xF;
	*slow = *stop & ~(uint32_t)_mm256_movemask_pd(acc);
}

/* The exact BerExp of one trial whose first byte is at p->ptr (the
   sequential code's byte loop, with the fixed-point chain). */
static int ber_exp_exact(fa_prng *p, fpr r, uint32_t sw, uint64_t zccs)
{
	uint64_t zr = (uint64_t)fpr_trunc(fpr_mul(r, FPR_PTWO63)) << 1;
	uint64_t z = ((expm_p63_fixed(zr, zccs) << 1) - 1) >> sw;
	uint32_t w;
	int i = 64;

	do {
		i -= 8;
		w = prng_u8(p) - ((uint32_t)(z >> i) & 0xFF);
		/* declassified: the early exit on a random byte (README) */
	} while (!fa_declassify_u32(w) && i > 0);
	/* declassified: the trial's accept/reject verdict (README) */
	return fa_declassify_int((int)(w >> 31));
}

/* Lane k of v (k < 8) without a variable-index memory access. */
static inline int32_t lane_select(__m256i v, uint32_t k)
{
	return _mm256_cvtsi256_si32(_mm256_permutevar8x32_epi32(v,
		_mm256_set1_epi32((int)k)));
}

/*
 * Ends a call at slot k of the speculation that started at `base`, given
 * the slot's stop/slow bits: a certain accept sets the position after the
 * slot and returns 1; a slow slot runs the exact BerExp from its first
 * byte and returns its outcome (the position is then after the bytes it
 * read). rv, sv: the call's r and s' per slot.
 */
static int finish_slot(fa_prng *p, size_t base, uint32_t k, int slow,
	const call_params *cp, const double *rv, const int32_t *sv)
{
	if (!slow) {
		advance(p, base + TRIAL_BYTES * (size_t)(k + 1));
		return 1;
	}
	FA_AVX2_COUNT_EXACT();
	p->ptr = base + TRIAL_BYTES * (size_t)k + (TRIAL_BYTES - 1);
	return ber_exp_exact(p, rv[k], (uint32_t)sv[k], cp->zccs);
}

/* The plain rejection loop from the current position: a trial at a
   time through the slots when any is usable, else one sequential trial
   (near the end of the buffer). Returns z (without the integer part). */
static int loop_from_here(fa_prng *p, const call_params *cp)
{
	uint8_t pad[SLOT_SPAN];
	double rv[4];
	int32_t sv[4];

	for (;;) {
		unsigned ns;
		int z0, b, z;
		fpr x;

		refill_if_short(p);
		ns = usable_slots(p);
		if (cp->fast && ns > 0) {
			const uint8_t *t = p->buf + p->ptr;
			size_t base = p->ptr;
			slot_vals v;
			uint32_t stop, slow, k;

			if (p->ptr + SLOT_SPAN > sizeof p->buf) {
				memset(pad, 0, sizeof pad);
				memcpy(pad, t, sizeof p->buf - p->ptr);
				t = pad;
			}
			slot_values(&v, t);
			decide4(cp, _mm256_castsi256_si128(v.z),
				_mm256_castsi256_si128(v.z0sq),
				_mm256_castsi256_si128(v.ber), rv, sv, &stop, &slow);
			if (ns < 4) {
				stop &= (1u << ns) - 1;
			}
			/* declassified: the first stopping slot only (the
			   trial count, README); later slots stay secret */
			stop = fa_declassify_u32(stop & (0u - stop));
			if (stop == 0) {
				advance(p, base + TRIAL_BYTES * (ns < 4 ? ns : 4));
				continue;
			}
			k = (uint32_t)__builtin_ctz(stop);
			/* declassified: the exact-path fallback (README) */
			if (finish_slot(p, base, k,
				fa_declassify_int((int)((slow >> k) & 1)), cp,
				rv, sv))
			{
				return lane_select(v.z, k);
			}
			continue;
		}
		/* one trial as the portable code */
		z0 = gaussian0(p);
		b = (int)prng_u8(p) & 1;
		z = b + ((b << 1) - 1) * z0;
		x = fpr_mul(fpr_sqr(fpr_sub(fpr_of(z), cp->r)), cp->dss);
		x = fpr_sub(x, fpr_mul(fpr_of(z0 * z0), FPR_INV_2SQRSIGMA0));
		/* declassified: the trial count (README) */
		if (fa_declassify_int(ber_exp(p, x, cp->zccs))) {
			return z;
		}
	}
}

int fa_samplerz_avx2(fa_sampler_ctx *sc, int *z, fpr mu, fpr isigma)
{
	call_params cp;
	int s;

	call_init(&cp, &s, mu, isigma, sc->sigma_min);
	*z = s + loop_from_here(&sc->p, &cp);
	return FA_KERNEL_DONE;
}

/*
 * Two calls with the same sigma, A (mu0) then B (mu1), on one set of
 * eight slots: A's decisions on slots 0..3, B's on slots 0..7; B's
 * trials begin at the slot after A's accepting one. Wherever the
 * speculation cannot settle a call (no accept among the usable slots, or
 * an exact BerExp that rejects), that call goes on with the plain loop
 * from the current position, and B's speculation is dropped if A's was.
 */
int fa_samplerz_pair_avx2(fa_sampler_ctx *sc, int *z, fpr mu0, fpr mu1,
	fpr isigma)
{
	fa_prng *p = &sc->p;
	uint8_t pad[SLOT_SPAN];
	const uint8_t *t;
	call_params ca, cb;
	slot_vals v;
	double rva[4], rvb[8];
	int32_t sva[4], svb[8];
	uint32_t stop_a, slow_a, stop_b, slow_b, sb1, wb1, valid, ka, kb;
	unsigned ns;
	size_t base;
	int sa, sbi;

	refill_if_short(p);
	ns = usable_slots(p);
	base = p->ptr;
	t = p->buf + base;
	call_init(&ca, &sa, mu0, isigma, sc->sigma_min);
	call_init(&cb, &sbi, mu1, isigma, sc->sigma_min);
	if (ns == 0 || !ca.fast) {
		z[0] = sa + loop_from_here(p, &ca);
		z[1] = sbi + loop_from_here(p, &cb);
		return FA_KERNEL_DONE;
	}
	if (base + SLOT_SPAN > sizeof p->buf) {
		memset(pad, 0, sizeof pad);
		memcpy(pad, t, sizeof p->buf - base);
		t = pad;
	}
	slot_values(&v, t);
	decide4(&ca, _mm256_castsi256_si128(v.z),
		_mm256_castsi256_si128(v.z0sq),
		_mm256_castsi256_si128(v.ber), rva, sva, &stop_a, &slow_a);
	decide4(&cb, _mm256_castsi256_si128(v.z),
		_mm256_castsi256_si128(v.z0sq),
		_mm256_castsi256_si128(v.ber), rvb, svb, &stop_b, &slow_b);
	decide4(&cb, _mm256_extracti128_si256(v.z, 1),
		_mm256_extracti128_si256(v.z0sq, 1),
		_mm256_extracti128_si256(v.ber, 1), rvb + 4, svb + 4, &sb1, &wb1);
	stop_b |= sb1 << 4;
	slow_b |= wb1 << 4;
	valid = (1u << ns) - 1;

	/* call A */
	stop_a &= valid;
	/* declassified: A's first stopping slot only (README) */
	stop_a = fa_declassify_u32(stop_a & (0u - stop_a));
	if (stop_a == 0) {
		advance(p, base + TRIAL_BYTES * (ns < 4 ? ns : 4));
		z[0] = sa + loop_from_here(p, &ca);
		z[1] = sbi + loop_from_here(p, &cb);
		return FA_KERNEL_DONE;
	}
	ka = (uint32_t)__builtin_ctz(stop_a);
	/* declassified: the exact-path fallback (README) */
	if (fa_declassify_u32((slow_a >> ka) & 1)) {
		if (finish_slot(p, base, ka, 1, &ca, rva, sva)) {
			z[0] = sa + lane_select(v.z, ka);
		} else {
			z[0] = sa + loop_from_here(p, &ca);
		}
		z[1] = sbi + loop_from_here(p, &cb);
		return FA_KERNEL_DONE;
	}
	z[0] = sa + lane_select(v.z, ka);

	/* call B, from slot ka + 1 */
	stop_b &= valid & (0xFFu << (ka + 1));
	/* declassified: B's first stopping slot only (README) */
	stop_b = fa_declassify_u32(stop_b & (0u - stop_b));
	if (stop_b == 0) {
		advance(p, base + TRIAL_BYTES * ns);
		z[1] = sbi + loop_from_here(p, &cb);
		return FA_KERNEL_DONE;
	}
	kb = (uint32_t)__builtin_ctz(stop_b);
	/* declassified: the exact-path fallback (README) */
	if (finish_slot(p, base, kb,
		fa_declassify_int((int)((slow_b >> kb) & 1)), &cb, rvb, svb))
	{
		z[1] = sbi + lane_select(v.z, kb);
	} else {
		z[1] = sbi + loop_from_here(p, &cb);
	}
	return FA_KERNEL_DONE;
}
