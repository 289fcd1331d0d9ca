/*
 * avx2_fndsa.c -- FN-DSA's SamplerZ (fn-dsa 0.4.0) on AVX2: the kernel of
 * the fndsa_samplerz_pair slot (src/kernels.h).
 *
 * The portable kernel (src/fndsa_sign.c) reads per trial 8 + 2 bytes of
 * the SHAKE256 stream (the base sampler's 79 bits and the sign bit b,
 * the low bit of the 64-bit word), then BerExp's bytes: one, unless it
 * equals the threshold's top byte (probability 1/256). The values and
 * the bytes consumed here are exactly those; what differs is how they are
 * computed, as in round 3's avx2 sampler (avx2_sampler.c, where the
 * method and the error bound of the first-byte shortcut are stated):
 *  - "slots": while every earlier trial reads one BerExp byte, trial j
 *    starts 11j bytes after the current position. The stream is
 *    contiguous (kernels.h, fa_fndsa_sampler) and every call first makes
 *    FNS_SPAN bytes available, so eight slots are always complete: no
 *    buffer-end cases;
 *  - the base sampler of eight slots at once (the 79-bit value as limbs
 *    of 24, 24 and 31 bits in 32-bit lanes, borrow chains against the 18
 *    table entries);
 *  - x, s, r of four trials in the four lanes of AVX2 registers (the
 *    same IEEE operations as the portable code, lane by lane);
 *  - BerExp's first byte from a double-precision evaluation of the exp
 *    polynomial with the proven margin of avx2_sampler.c (the BerExp of
 *    FN-DSA is round 3's: the same FACCT polynomial, the same
 *    fixed-point chain, the same byte comparison), the exact chain only
 *    for the undecided lanes;
 *  - a pair of calls with one sigma: call A on slots 0..3, call B on
 *    slots 0..7 from the slot after A's accepting one.
 * Timing: as the portable code, the time depends on the number of trials
 * and on BerExp's early exit (declassified, README); within a slot set
 * the decisions select with masks and a count of trailing zeros.
 * Branches on data besides those: "no accept among the slots", the
 * exact-path fallback (an undecided first byte, probability 1/256, or a
 * value within 2^-30 of a byte boundary, about 2^-29).
 */

/* AVX2 and BMI2 (MULX) for this file whatever the build's per-file
   flags (the library's CMake sets them; builds that glob the backend's
   sources, such as the constant-time test library, may not). */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC target("avx2,bmi2")
#endif

#include <immintrin.h>

#include "avx2_inner.h"
#include "fndsa_inner.h"
#include "ct_declassify.h"

/* src/backend_avx2/avx2_tables.c (generated) */
extern const double fa_avx2_expm_poly[13];

#define FNT_BYTES 11          /* one trial with a one-byte BerExp */
#define FNS 8                 /* slots per set */
/* Bytes a slot set may read: slot 7's BerExp starts at 11*7 + 10 and
   reads at most 8 bytes (95), and its 32-bit loads end at 11*7 + 14. */
#define FNS_SPAN 96

#ifndef FA_AVX2_BER_MARGIN
#define FA_AVX2_BER_MARGIN 0x1p-30
#endif
/* Test hook (tests/test_backends.c compiles this file again with a wide
   margin): counts the trials finished by the exact path. */
#ifndef FA_AVX2_COUNT_EXACT
#define FA_AVX2_COUNT_EXACT() ((void)0)
#endif

static inline void ensure_span(fa_fndsa_sampler *s)
{
	if (s->end - s->ptr < FNS_SPAN) {
		fa_fndsa_sampler_refill(s);
	}
}

static inline uint64_t mulhi64(uint64_t a, uint64_t b)
{
	unsigned long long hi;

	(void)_mulx_u64(a, b, &hi);
	return hi;
}

/* Per-slot values that do not depend on the centre. */
typedef struct {
	__m256i z;      /* b + (2b - 1) z0 */
	__m256i z0sq;   /* z0^2 */
	__m256i ber;    /* the first BerExp byte */
} fslots;

/*
 * Slots 0..7 from the bytes at t (FNS_SPAN readable). With L(o) the
 * 32-bit little-endian word at t + 11j + o, the 80-bit value
 * lo + 2^64 hi of slot j gives b = L(0) & 1 and the 79-bit v = (lo >> 1)
 * + 2^63 hi in limbs v0 = bits 1..24 = (L(0) >> 1) & m24, v1 = bits
 * 25..48 = (L(3) >> 1) & m24, v2 = bits 49..79 = L(6) >> 1.
 */
static inline void slot_values(fslots *sv, const uint8_t *t)
{
	const __m256i idx = _mm256_setr_epi32(0, 11, 22, 33, 44, 55, 66, 77);
	const __m256i m24 = _mm256_set1_epi32(0xFFFFFF);
	const int *b0 = (const int *)(const void *)t;
	__m256i w0, w3, w6, w10, v0, v1, v2, z0, b, m;
	size_t i;

	w0 = _mm256_i32gather_epi32(b0, idx, 1);
	w3 = _mm256_i32gather_epi32((const int *)(const void *)(t + 3), idx, 1);
	w6 = _mm256_i32gather_epi32((const int *)(const void *)(t + 6), idx, 1);
	w10 = _mm256_i32gather_epi32((const int *)(const void *)(t + 10), idx,
		1);
	v0 = _mm256_and_si256(_mm256_srli_epi32(w0, 1), m24);
	v1 = _mm256_and_si256(_mm256_srli_epi32(w3, 1), m24);
	v2 = _mm256_srli_epi32(w6, 1);
	z0 = _mm256_setzero_si256();
	for (i = 0; i < 18; i ++) {
		__m256i c;

		c = _mm256_srli_epi32(_mm256_sub_epi32(v0,
			_mm256_set1_epi32((int)fa_fndsa_gauss0[3 * i + 2])), 31);
		c = _mm256_srli_epi32(_mm256_sub_epi32(_mm256_sub_epi32(v1,
			_mm256_set1_epi32((int)fa_fndsa_gauss0[3 * i + 1])), c),
			31);
		c = _mm256_srli_epi32(_mm256_sub_epi32(_mm256_sub_epi32(v2,
			_mm256_set1_epi32((int)fa_fndsa_gauss0[3 * i])), c), 31);
		z0 = _mm256_add_epi32(z0, c);
	}
	/* z = z0 + 1 if b = 1, -z0 if b = 0 */
	b = _mm256_and_si256(w0, _mm256_set1_epi32(1));
	m = _mm256_sub_epi32(b, _mm256_set1_epi32(1));
	sv->z = _mm256_add_epi32(_mm256_sub_epi32(_mm256_xor_si256(z0, m), m),
		b);
	sv->z0sq = _mm256_mullo_epi32(z0, z0);
	sv->ber = _mm256_and_si256(w10, _mm256_set1_epi32(0xFF));
}

/* The FACCT polynomial in double precision, Estrin's scheme (as
   avx2_sampler.c; its error bound is the one used here). */
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
	e0 = _mm256_add_pd(d[0], _mm256_mul_pd(d[1], r4));
	e1 = _mm256_add_pd(d[2],
		_mm256_mul_pd(_mm256_mul_pd(_mm256_set1_pd(c[12]), r4), r4));
	return _mm256_add_pd(e0, _mm256_mul_pd(e1, r8));
}

/* 2^(8 - s) for s in [0, 63], four lanes */
static inline __m256d pow2_8_minus(__m128i s)
{
	__m128i e = _mm_sub_epi32(_mm_set1_epi32(1023 + 8), s);

	return _mm256_castsi256_pd(_mm256_slli_epi64(
		_mm256_cvtepi32_epi64(e), 52));
}

typedef struct {
	fpr r, dss, ccs_eff;
	uint64_t zccs;
	int fast;
} fcall;

/* fn-dsa's set-up: s = floor(mu), r = mu - s, dss = isigma^2 / 2,
   ccs = isigma sigma_min (here as zccs, its 63-bit fixed-point form). */
static inline int call_init(fcall *cp, fpr mu, fpr isigma, fpr sigma_min)
{
	int64_t fl = fpr_floor(mu);
	fpr ccs = fpr_mul(isigma, sigma_min);

	cp->r = fpr_sub(mu, fpr_of(fl));
	cp->dss = fpr_half(fpr_sqr(isigma));
	cp->zccs = (uint64_t)fpr_trunc_scaled(ccs, 63) << 1;
	cp->ccs_eff = (fpr)(cp->zccs >> 1) * 0x1p-63;
	/* declassified: ccs >= 1/2, true for every leaf of a key that passes
	   the decoder's checks (README) */
	cp->fast = fa_declassify_int((cp->zccs >> 63) != 0);
	return (int)fl;
}

/* Decisions of one call for four slots: *stop (accept, or exact path
   needed), *slow (exact path needed), 4-bit masks; rv, sv: r and
   min(s, 63) per slot for the exact path. */
static inline void decide4(const fcall *cp, __m128i z, __m128i z0sq,
	__m128i ber, double *rv, int32_t *sv, uint32_t *stop, uint32_t *slow)
{
	__m256d x, vr, tt, dd, ok, acc, rej;
	__m128i s, s63;

	x = _mm256_sub_pd(_mm256_cvtepi32_pd(z), _mm256_set1_pd(cp->r));
	x = _mm256_mul_pd(_mm256_mul_pd(x, x), _mm256_set1_pd(cp->dss));
	x = _mm256_sub_pd(x, _mm256_mul_pd(_mm256_cvtepi32_pd(z0sq),
		_mm256_set1_pd(FPR_INV_2SQRSIGMA0)));
	s = _mm256_cvttpd_epi32(_mm256_mul_pd(x, _mm256_set1_pd(FPR_INV_LOG2)));
	vr = _mm256_sub_pd(x, _mm256_mul_pd(_mm256_cvtepi32_pd(s),
		_mm256_set1_pd(FPR_LOG2)));
	s63 = _mm_min_epu32(s, _mm_set1_epi32(63));
	_mm256_storeu_pd(rv, vr);
	_mm_storeu_si128((__m128i *)(void *)sv, s63);

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

/* The exact BerExp of a trial whose first BerExp byte is at s->ptr
   (within the span made available): the fixed-point chain, then the
   byte comparison as the portable code. */
static int ber_exact(fa_fndsa_sampler *s, fpr r, uint32_t sh, uint64_t zccs)
{
	uint64_t zr = (uint64_t)fpr_trunc_scaled(r, 63) << 1;
	uint64_t y = fa_expm_coeffs[0], z;
	uint32_t w;
	size_t u;
	int i = 64;

	for (u = 1; u < 13; u ++) {
		y = fa_expm_coeffs[u] - mulhi64(zr, y);
	}
	z = ((mulhi64(zccs, y) << 1) - 1) >> sh;
	do {
		i -= 8;
		w = (uint32_t)s->buf[s->ptr ++] - ((uint32_t)(z >> i) & 0xFF);
		/* declassified: the early exit on a random byte (README) */
	} while (!fa_declassify_u32(w) && i > 0);
	/* declassified: the trial's verdict (README) */
	return fa_declassify_int((int)(w >> 31));
}

static inline int32_t lane_select(__m256i v, uint32_t k)
{
	return _mm256_cvtsi256_si32(_mm256_permutevar8x32_epi32(v,
		_mm256_set1_epi32((int)k)));
}

/* Ends a call at slot k of the set at base: a certain accept moves past
   the slot and returns 1; a slow slot runs the exact BerExp from its
   first byte and returns its verdict. */
static inline int finish_slot(fa_fndsa_sampler *s, size_t base, uint32_t k,
	int slow, const fcall *cp, const double *rv, const int32_t *sv)
{
	if (!slow) {
		s->ptr = base + FNT_BYTES * (size_t)(k + 1);
		return 1;
	}
	FA_AVX2_COUNT_EXACT();
	s->ptr = base + FNT_BYTES * (size_t)k + (FNT_BYTES - 1);
	return ber_exact(s, rv[k], (uint32_t)sv[k], cp->zccs);
}

/* The rejection loop from the current position, four trials of one set
   at a time (one trial at a time, all exact, when the shortcut does not
   apply). Returns z without the integer part. */
static int loop_from_here(fa_fndsa_sampler *s, const fcall *cp)
{
	double rv[4];
	int32_t sv[4];

	for (;;) {
		fslots v;
		uint32_t stop, slow, k;
		size_t base;

		ensure_span(s);
		base = s->ptr;
		slot_values(&v, s->buf + base);
		decide4(cp, _mm256_castsi256_si128(v.z),
			_mm256_castsi256_si128(v.z0sq),
			_mm256_castsi256_si128(v.ber), rv, sv, &stop, &slow);
		if (!cp->fast) {
			stop = slow = 1;
		}
		/* declassified: the first stopping slot only (the trial
		   count, README) */
		stop = fa_declassify_u32(stop & (0u - stop));
		if (stop == 0) {
			s->ptr = base + 4 * FNT_BYTES;
			continue;
		}
		k = (uint32_t)__builtin_ctz(stop);
		/* declassified: the exact-path fallback (README) */
		if (finish_slot(s, base, k,
			fa_declassify_int((int)((slow >> k) & 1)), cp, rv, sv))
		{
			return lane_select(v.z, k);
		}
	}
}

int fa_fndsa_samplerz_pair_avx2(fa_fndsa_sampler *s, int *z, fpr mu0,
	fpr mu1, fpr isigma)
{
	fcall ca, cb;
	fslots v;
	double rva[4], rvb[8];
	int32_t sva[4], svb[8];
	uint32_t stop_a, slow_a, stop_b, slow_b, sb1, wb1, ka, kb;
	size_t base;
	int sa, sb;

	sa = call_init(&ca, mu0, isigma, s->sigma_min);
	sb = call_init(&cb, mu1, isigma, s->sigma_min);
	if (!ca.fast) {
		z[0] = sa + loop_from_here(s, &ca);
		z[1] = sb + loop_from_here(s, &cb);
		return FA_KERNEL_DONE;
	}
	ensure_span(s);
	base = s->ptr;
	slot_values(&v, s->buf + base);
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

	/* call A */
	/* declassified: A's first stopping slot only (README) */
	stop_a = fa_declassify_u32(stop_a & (0u - stop_a));
	if (stop_a == 0) {
		s->ptr = base + 4 * FNT_BYTES;
		z[0] = sa + loop_from_here(s, &ca);
		z[1] = sb + loop_from_here(s, &cb);
		return FA_KERNEL_DONE;
	}
	ka = (uint32_t)__builtin_ctz(stop_a);
	/* declassified: the exact-path fallback (README) */
	if (fa_declassify_u32((slow_a >> ka) & 1)) {
		if (finish_slot(s, base, ka, 1, &ca, rva, sva)) {
			z[0] = sa + lane_select(v.z, ka);
		} else {
			z[0] = sa + loop_from_here(s, &ca);
		}
		z[1] = sb + loop_from_here(s, &cb);
		return FA_KERNEL_DONE;
	}
	z[0] = sa + lane_select(v.z, ka);

	/* call B, from slot ka + 1 */
	stop_b &= 0xFFu << (ka + 1);
	/* declassified: B's first stopping slot only (README) */
	stop_b = fa_declassify_u32(stop_b & (0u - stop_b));
	if (stop_b == 0) {
		s->ptr = base + FNS * FNT_BYTES;
		z[1] = sb + loop_from_here(s, &cb);
		return FA_KERNEL_DONE;
	}
	kb = (uint32_t)__builtin_ctz(stop_b);
	/* declassified: the exact-path fallback (README) */
	if (finish_slot(s, base, kb,
		fa_declassify_int((int)((slow_b >> kb) & 1)), &cb, rvb, svb))
	{
		z[1] = sb + lane_select(v.z, kb);
	} else {
		z[1] = sb + loop_from_here(s, &cb);
	}
	return FA_KERNEL_DONE;
}
