/*
 * avx2_mlkem.c -- AVX2 kernels of ML-KEM (compiled with -mavx2): the NTT,
 * its inverse and base multiplication on 16 int16 coefficients per
 * vector, and four Keccak-f[1600] permutations at once (one state per
 * 64-bit lane). Each computes the same integers as the portable kernel
 * (src/mlkem/mlkem_ntt.c, src/shake256.c): the Montgomery and Barrett
 * reductions below are the portable formulas on vectors, and every
 * result is the centred representative, so outputs are bit-identical
 * (tests/test_backends.c and tests/test_mlkem_backends.c check it). They
 * are the avx2 backend's ML-KEM slots (avx2_backend.c) and never decline.
 *
 * Vector arithmetic (q = 3329, R = 2^16, lanes int16):
 *   mont(a*z) = hi16(a*z) - hi16(lo16(a * lo16(z q^-1)) * q)
 *     (exact: a*z and t*q have the same low 16 bits), in (-q, q);
 *   barrett(a) = a - q * ((hi16(a * 20159) + 512) >> 10), which is
 *     a - q * floor((20159 a + 2^25) / 2^26) as in the portable code.
 *
 * NTT layout: layers len = 128..16 pair whole vectors (one broadcast
 * zeta). For len = 8, 4, 2 the vectors v[2p], v[2p+1] (A, B) are
 * rearranged so that butterfly partners sit in the same lane of two
 * vectors:
 *   len 8: X = [A0-7 | B0-7],   Y = [A8-15 | B8-15]   (permute2x128);
 *   len 4: P = [A0-3 A8-11 | B0-3 B8-11], Q = [A4-7 A12-15 | B4-7 B12-15]
 *          (unpack 64-bit words of X, Y);
 *   len 2: the 32-bit words of P, Q reordered (0, 2, 1, 3), then
 *          R = [A0A1 A8A9 A4A5 A12A13 | B...], S = [A2A3 A10A11 A6A7 A14A15 | B...]
 *          (unpack 64-bit words).
 * Per-lane zetas for these three layers come from avx2_mlkem_tables.c
 * (generated; lane orders in scripts/gen_mlkem_tables.py). The inverse
 * NTT walks the same rearrangements in the other direction.
 */
#include <immintrin.h>

#include "mlkem/mlkem_inner.h"
#include "avx2_mlkem.h"

static inline __m256i
mont_c(__m256i a, __m256i z, __m256i zq)
{
	__m256i t = _mm256_mullo_epi16(a, zq);
	__m256i hi = _mm256_mulhi_epi16(a, z);

	return _mm256_sub_epi16(hi,
		_mm256_mulhi_epi16(t, _mm256_set1_epi16(MLKEM_Q)));
}

static inline __m256i
mont_mul(__m256i a, __m256i b)
{
	__m256i lo = _mm256_mullo_epi16(a, b);
	__m256i hi = _mm256_mulhi_epi16(a, b);
	__m256i t = _mm256_mullo_epi16(lo, _mm256_set1_epi16(MLKEM_QINV));

	return _mm256_sub_epi16(hi,
		_mm256_mulhi_epi16(t, _mm256_set1_epi16(MLKEM_Q)));
}

static inline __m256i
barrett(__m256i a)
{
	__m256i t = _mm256_mulhi_epi16(a, _mm256_set1_epi16(20159));

	t = _mm256_srai_epi16(_mm256_add_epi16(t, _mm256_set1_epi16(512)), 10);
	return _mm256_sub_epi16(a,
		_mm256_mullo_epi16(t, _mm256_set1_epi16(MLKEM_Q)));
}

/* Cooley-Tukey: t = z y, y = x - t, x = x + t. */
#define CT(x, y, z, zq) do { \
		__m256i t_ = mont_c((y), (z), (zq)); \
		(y) = _mm256_sub_epi16((x), t_); \
		(x) = _mm256_add_epi16((x), t_); \
	} while (0)

/* Gentleman-Sande: t = x, x = barrett(t + y), y = z (y - t). */
#define GS(x, y, z, zq) do { \
		__m256i t_ = (x); \
		(x) = barrett(_mm256_add_epi16(t_, (y))); \
		(y) = mont_c(_mm256_sub_epi16((y), t_), (z), (zq)); \
	} while (0)

#define LOADZ(tab, p, h) \
	_mm256_load_si256((const __m256i *)(const void *)(tab)[p][h])

static inline __m256i
bcast_zeta(unsigned i)
{
	return _mm256_set1_epi16(fa_mlkem_zetas[i]);
}

static inline __m256i
bcast_zeta_q(unsigned i)
{
	return _mm256_set1_epi16((int16_t)(uint16_t)(
		(uint32_t)(uint16_t)fa_mlkem_zetas[i] * (uint16_t)MLKEM_QINV));
}

#define SHUF_0213 _MM_SHUFFLE(3, 1, 2, 0)

int
fa_mlkem_ntt_avx2(int16_t *a)
{
	__m256i v[16];
	unsigned i, len, start, j, k = 1;

	for (i = 0; i < 16; i ++) {
		v[i] = _mm256_loadu_si256((const __m256i *)(const void *)(a + 16 * i));
	}
	for (len = 8; len >= 1; len >>= 1) {   /* 128, 64, 32, 16 */
		for (start = 0; start < 16; start += 2 * len) {
			__m256i z = bcast_zeta(k), zq = bcast_zeta_q(k);

			k ++;
			for (j = start; j < start + len; j ++) {
				CT(v[j], v[j + len], z, zq);
			}
		}
	}
	for (i = 0; i < 8; i ++) {
		__m256i A = v[2 * i], B = v[2 * i + 1];
		__m256i X, Y, P, Q, R, S;

		X = _mm256_permute2x128_si256(A, B, 0x20);
		Y = _mm256_permute2x128_si256(A, B, 0x31);
		CT(X, Y, LOADZ(fa_mlkem_avx2_fwd8, i, 0),
			LOADZ(fa_mlkem_avx2_fwd8, i, 1));
		P = _mm256_unpacklo_epi64(X, Y);
		Q = _mm256_unpackhi_epi64(X, Y);
		CT(P, Q, LOADZ(fa_mlkem_avx2_fwd4, i, 0),
			LOADZ(fa_mlkem_avx2_fwd4, i, 1));
		P = _mm256_shuffle_epi32(P, SHUF_0213);
		Q = _mm256_shuffle_epi32(Q, SHUF_0213);
		R = _mm256_unpacklo_epi64(P, Q);
		S = _mm256_unpackhi_epi64(P, Q);
		CT(R, S, LOADZ(fa_mlkem_avx2_fwd2, i, 0),
			LOADZ(fa_mlkem_avx2_fwd2, i, 1));
		R = barrett(R);
		S = barrett(S);
		/* back to natural order */
		P = _mm256_shuffle_epi32(_mm256_unpacklo_epi64(R, S), SHUF_0213);
		Q = _mm256_shuffle_epi32(_mm256_unpackhi_epi64(R, S), SHUF_0213);
		X = _mm256_unpacklo_epi64(P, Q);
		Y = _mm256_unpackhi_epi64(P, Q);
		_mm256_storeu_si256((__m256i *)(void *)(a + 32 * i),
			_mm256_permute2x128_si256(X, Y, 0x20));
		_mm256_storeu_si256((__m256i *)(void *)(a + 32 * i + 16),
			_mm256_permute2x128_si256(X, Y, 0x31));
	}
	return FA_KERNEL_DONE;
}

int
fa_mlkem_invntt_avx2(int16_t *a)
{
	__m256i v[16];
	__m256i f = _mm256_set1_epi16(fa_mlkem_invntt_f);
	__m256i fq = _mm256_set1_epi16((int16_t)(uint16_t)(
		(uint32_t)(uint16_t)fa_mlkem_invntt_f * (uint16_t)MLKEM_QINV));
	unsigned i, len, start, j, k = 15;

	for (i = 0; i < 8; i ++) {
		__m256i A = _mm256_loadu_si256(
			(const __m256i *)(const void *)(a + 32 * i));
		__m256i B = _mm256_loadu_si256(
			(const __m256i *)(const void *)(a + 32 * i + 16));
		__m256i X, Y, P, Q, R, S;

		X = _mm256_permute2x128_si256(A, B, 0x20);
		Y = _mm256_permute2x128_si256(A, B, 0x31);
		P = _mm256_shuffle_epi32(_mm256_unpacklo_epi64(X, Y), SHUF_0213);
		Q = _mm256_shuffle_epi32(_mm256_unpackhi_epi64(X, Y), SHUF_0213);
		R = _mm256_unpacklo_epi64(P, Q);
		S = _mm256_unpackhi_epi64(P, Q);
		GS(R, S, LOADZ(fa_mlkem_avx2_inv2, i, 0),
			LOADZ(fa_mlkem_avx2_inv2, i, 1));
		P = _mm256_shuffle_epi32(_mm256_unpacklo_epi64(R, S), SHUF_0213);
		Q = _mm256_shuffle_epi32(_mm256_unpackhi_epi64(R, S), SHUF_0213);
		GS(P, Q, LOADZ(fa_mlkem_avx2_inv4, i, 0),
			LOADZ(fa_mlkem_avx2_inv4, i, 1));
		X = _mm256_unpacklo_epi64(P, Q);
		Y = _mm256_unpackhi_epi64(P, Q);
		GS(X, Y, LOADZ(fa_mlkem_avx2_inv8, i, 0),
			LOADZ(fa_mlkem_avx2_inv8, i, 1));
		v[2 * i] = _mm256_permute2x128_si256(X, Y, 0x20);
		v[2 * i + 1] = _mm256_permute2x128_si256(X, Y, 0x31);
	}
	for (len = 1; len <= 8; len <<= 1) {   /* 16, 32, 64, 128 */
		for (start = 0; start < 16; start += 2 * len) {
			__m256i z = bcast_zeta(k), zq = bcast_zeta_q(k);

			k --;
			for (j = start; j < start + len; j ++) {
				GS(v[j], v[j + len], z, zq);
			}
		}
	}
	for (i = 0; i < 16; i ++) {
		_mm256_storeu_si256((__m256i *)(void *)(a + 16 * i),
			barrett(mont_c(v[i], f, fq)));
	}
	return FA_KERNEL_DONE;
}

int
fa_mlkem_basemul_acc_avx2(int16_t *r, const int16_t *a, const int16_t *b,
	unsigned k)
{
	unsigned i, l;

	for (i = 0; i < 16; i ++) {
		__m256i g = LOADZ(fa_mlkem_avx2_gamma, i, 0);
		__m256i gq = LOADZ(fa_mlkem_avx2_gamma, i, 1);
		__m256i acc = _mm256_setzero_si256();

		for (l = 0; l < k; l ++) {
			__m256i x = _mm256_loadu_si256((const __m256i *)(const void *)
				(a + l * MLKEM_N + 16 * i));
			__m256i y = _mm256_loadu_si256((const __m256i *)(const void *)
				(b + l * MLKEM_N + 16 * i));
			/* [x0 y0, x1 y1] R^-1, gamma x1 y1 R^-2 in odd lanes */
			__m256i p = mont_mul(x, y);
			__m256i gp = mont_c(p, g, gq);
			/* y with its pair halves swapped: [x0 y1, x1 y0] R^-1 */
			__m256i ys = _mm256_or_si256(_mm256_slli_epi32(y, 16),
				_mm256_srli_epi32(y, 16));
			__m256i m = mont_mul(x, ys);
			__m256i even = _mm256_add_epi16(p, _mm256_srli_epi32(gp, 16));
			__m256i odd = _mm256_add_epi16(m, _mm256_slli_epi32(m, 16));

			acc = _mm256_add_epi16(acc,
				_mm256_blend_epi16(even, odd, 0xAA));
		}
		_mm256_storeu_si256((__m256i *)(void *)(r + 16 * i), barrett(acc));
	}
	return FA_KERNEL_DONE;
}

/* ------------------------------------------------------------------ */
/* Four Keccak-f[1600] permutations: lane j of the four states in one
   vector. The round is the scalar one of src/shake256.c (theta, then rho
   and pi as b[pi(x, y)] = rotl(a[x, y] ^ d[x], r[x, y]), chi, iota). */

#define ROL(x, n) _mm256_or_si256(_mm256_slli_epi64((x), (n)), \
	_mm256_srli_epi64((x), 64 - (n)))
/* rotations by 8 and 56 are byte shuffles */
#define ROL8(x) _mm256_shuffle_epi8((x), rot8)
#define ROL56(x) _mm256_shuffle_epi8((x), rot56)
#define XOR _mm256_xor_si256
#define RP(dst, src, rot) b##dst = ROL(XOR(a##src, d##src##m5), rot)
#define CHI(y0, y1, y2, y3, y4) \
	a##y0 = XOR(b##y0, _mm256_andnot_si256(b##y1, b##y2)); \
	a##y1 = XOR(b##y1, _mm256_andnot_si256(b##y2, b##y3)); \
	a##y2 = XOR(b##y2, _mm256_andnot_si256(b##y3, b##y4)); \
	a##y3 = XOR(b##y3, _mm256_andnot_si256(b##y4, b##y0)); \
	a##y4 = XOR(b##y4, _mm256_andnot_si256(b##y0, b##y1))

int
fa_keccak_x4_avx2(uint64_t *st)
{
	__m256i a[25];
	__m256i a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13;
	__m256i a14, a15, a16, a17, a18, a19, a20, a21, a22, a23, a24;
	__m256i b0, b1, b2, b3, b4, b5, b6, b7, b8, b9, b10, b11, b12, b13;
	__m256i b14, b15, b16, b17, b18, b19, b20, b21, b22, b23, b24;
	const __m256i rot8 = _mm256_setr_epi8(7, 0, 1, 2, 3, 4, 5, 6,
		15, 8, 9, 10, 11, 12, 13, 14, 7, 0, 1, 2, 3, 4, 5, 6,
		15, 8, 9, 10, 11, 12, 13, 14);
	const __m256i rot56 = _mm256_setr_epi8(1, 2, 3, 4, 5, 6, 7, 0,
		9, 10, 11, 12, 13, 14, 15, 8, 1, 2, 3, 4, 5, 6, 7, 0,
		9, 10, 11, 12, 13, 14, 15, 8);
	unsigned i, round;

	for (i = 0; i < 25; i ++) {
		a[i] = _mm256_set_epi64x((long long)st[75 + i],
			(long long)st[50 + i], (long long)st[25 + i],
			(long long)st[i]);
	}
	a0 = a[0]; a1 = a[1]; a2 = a[2]; a3 = a[3]; a4 = a[4];
	a5 = a[5]; a6 = a[6]; a7 = a[7]; a8 = a[8]; a9 = a[9];
	a10 = a[10]; a11 = a[11]; a12 = a[12]; a13 = a[13]; a14 = a[14];
	a15 = a[15]; a16 = a[16]; a17 = a[17]; a18 = a[18]; a19 = a[19];
	a20 = a[20]; a21 = a[21]; a22 = a[22]; a23 = a[23]; a24 = a[24];
	for (round = 0; round < 24; round ++) {
		__m256i c0, c1, c2, c3, c4, d0, d1, d2, d3, d4;

		c0 = XOR(XOR(XOR(a0, a5), XOR(a10, a15)), a20);
		c1 = XOR(XOR(XOR(a1, a6), XOR(a11, a16)), a21);
		c2 = XOR(XOR(XOR(a2, a7), XOR(a12, a17)), a22);
		c3 = XOR(XOR(XOR(a3, a8), XOR(a13, a18)), a23);
		c4 = XOR(XOR(XOR(a4, a9), XOR(a14, a19)), a24);
		d0 = XOR(c4, ROL(c1, 1));
		d1 = XOR(c0, ROL(c2, 1));
		d2 = XOR(c1, ROL(c3, 1));
		d3 = XOR(c2, ROL(c4, 1));
		d4 = XOR(c3, ROL(c0, 1));
#define d0m5 d0
#define d1m5 d1
#define d2m5 d2
#define d3m5 d3
#define d4m5 d4
#define d5m5 d0
#define d6m5 d1
#define d7m5 d2
#define d8m5 d3
#define d9m5 d4
#define d10m5 d0
#define d11m5 d1
#define d12m5 d2
#define d13m5 d3
#define d14m5 d4
#define d15m5 d0
#define d16m5 d1
#define d17m5 d2
#define d18m5 d3
#define d19m5 d4
#define d20m5 d0
#define d21m5 d1
#define d22m5 d2
#define d23m5 d3
#define d24m5 d4
		b0 = XOR(a0, d0);
		RP(1, 6, 44);   RP(2, 12, 43);  RP(3, 18, 21);  RP(4, 24, 14);
		RP(5, 3, 28);   RP(6, 9, 20);   RP(7, 10, 3);   RP(8, 16, 45);
		RP(9, 22, 61);  RP(10, 1, 1);   RP(11, 7, 6);   RP(12, 13, 25);
		b13 = ROL8(XOR(a19, d4));
		RP(14, 20, 18); RP(15, 4, 27);  RP(16, 5, 36);
		RP(17, 11, 10); RP(18, 17, 15);
		b19 = ROL56(XOR(a23, d3));
		RP(20, 2, 62);
		RP(21, 8, 55);  RP(22, 14, 39); RP(23, 15, 41); RP(24, 21, 2);
		CHI(0, 1, 2, 3, 4);
		CHI(5, 6, 7, 8, 9);
		CHI(10, 11, 12, 13, 14);
		CHI(15, 16, 17, 18, 19);
		CHI(20, 21, 22, 23, 24);
		a0 = XOR(a0, _mm256_set1_epi64x((long long)fa_keccak_avx2_rc[round]));
	}
	a[0] = a0; a[1] = a1; a[2] = a2; a[3] = a3; a[4] = a4;
	a[5] = a5; a[6] = a6; a[7] = a7; a[8] = a8; a[9] = a9;
	a[10] = a10; a[11] = a11; a[12] = a12; a[13] = a13; a[14] = a14;
	a[15] = a15; a[16] = a16; a[17] = a17; a[18] = a18; a[19] = a19;
	a[20] = a20; a[21] = a21; a[22] = a22; a[23] = a23; a[24] = a24;
	for (i = 0; i < 25; i ++) {
		uint64_t t[4];

		_mm256_storeu_si256((__m256i *)(void *)t, a[i]);
		st[i] = t[0];
		st[25 + i] = t[1];
		st[50 + i] = t[2];
		st[75 + i] = t[3];
	}
	return FA_KERNEL_DONE;
}

/* ------------------------------------------------------------------ */
/*
 * SampleNTT's parse (slot mlkem_rej_uniform): a group of 8 byte triples
 * (24 bytes) gives 16 candidates. The 24 bytes are spread so that each
 * 128-bit lane holds 4 triples (qwords 0 1 1 2: bytes 0..15 | 8..23),
 * then each candidate's two bytes go to one 16-bit lane: triple j gives
 * (b0 | b1 << 8) & 0xFFF and (b1 | b2 << 8) >> 4. Lanes < q form a
 * 16-bit mask (PEXT of the compare's byte mask), and each half is
 * compacted by a table shuffle and stored at a + c (8 lanes written,
 * popcount kept). Candidates come out in stream order, as the portable
 * kernel appends them.
 */
/* Bits set in an 8-bit value (no POPCNT instruction assumed). */
static inline unsigned
popcount8(uint32_t x)
{
	x = x - ((x >> 1) & 0x55);
	x = (x & 0x33) + ((x >> 2) & 0x33);
	return (x + (x >> 4)) & 0x0F;
}

int
fa_mlkem_rej_uniform_avx2(int16_t *a, unsigned *ctr, const uint8_t *buf)
{
	const __m256i q = _mm256_set1_epi16(MLKEM_Q);
	const __m256i m12 = _mm256_set1_epi16(0x0FFF);
	const __m256i idx = _mm256_setr_epi8(0, 1, 1, 2, 3, 4, 4, 5,
		6, 7, 7, 8, 9, 10, 10, 11, 4, 5, 5, 6, 7, 8, 8, 9,
		10, 11, 11, 12, 13, 14, 14, 15);
	unsigned c = *ctr, g;

	for (g = 0; g < 7 && c < MLKEM_N; g ++) {
		__m256i v = _mm256_loadu_si256(
			(const __m256i *)(const void *)(buf + 24 * g));
		__m128i lo, hi;
		uint32_t m, m0, m1;

		v = _mm256_permute4x64_epi64(v, 0x94);
		v = _mm256_shuffle_epi8(v, idx);
		v = _mm256_blend_epi16(_mm256_and_si256(v, m12),
			_mm256_srli_epi16(v, 4), 0xAA);
		m = (uint32_t)_mm256_movemask_epi8(_mm256_cmpgt_epi16(q, v));
		m = _pext_u32(m, 0x55555555u);
		m0 = m & 0xFF;
		m1 = m >> 8;
		lo = _mm_shuffle_epi8(_mm256_castsi256_si128(v),
			_mm_load_si128((const __m128i *)(const void *)
			fa_mlkem_avx2_compact[m0]));
		hi = _mm_shuffle_epi8(_mm256_extracti128_si256(v, 1),
			_mm_load_si128((const __m128i *)(const void *)
			fa_mlkem_avx2_compact[m1]));
		_mm_storeu_si128((__m128i *)(void *)(a + c), lo);
		c += popcount8(m0);
		_mm_storeu_si128((__m128i *)(void *)(a + c), hi);
		c += popcount8(m1);
	}
	*ctr = c;
	return FA_KERNEL_DONE;
}

/* ------------------------------------------------------------------ */
/*
 * Compress_d (slot mlkem_compress): x = a mod q in [0, q-1] (Barrett,
 * then + q if negative), widened to 32 bits; t = 2^d x + (q-1)/2 < 2^23;
 * floor(t / q) = floor(t * 20642679 / 2^36) (the constant and its error
 * bound: fa_mlkem_compress, mlkem_poly.c), computed with MUL_EPU32 on the
 * even and the odd 32-bit lanes; mod 2^d; packed back to 16 bits.
 */
static inline __m256i
compress32(__m256i v, __m128i sh, __m256i mask)
{
	const __m256i m = _mm256_set1_epi32(20642679);
	__m256i t = _mm256_add_epi32(_mm256_sll_epi32(v, sh),
		_mm256_set1_epi32((MLKEM_Q - 1) / 2));
	__m256i even = _mm256_srli_epi64(_mm256_mul_epu32(t, m), 36);
	__m256i odd = _mm256_srli_epi64(
		_mm256_mul_epu32(_mm256_srli_epi64(t, 32), m), 36);

	return _mm256_and_si256(_mm256_or_si256(even,
		_mm256_slli_epi64(odd, 32)), mask);
}

int
fa_mlkem_compress_avx2(uint16_t *c, const int16_t *a, unsigned d)
{
	const __m256i q = _mm256_set1_epi16(MLKEM_Q);
	const __m256i mask = _mm256_set1_epi32((1 << d) - 1);
	const __m128i sh = _mm_cvtsi32_si128((int)d);
	unsigned i;

	for (i = 0; i < MLKEM_N; i += 16) {
		__m256i x = barrett(_mm256_loadu_si256(
			(const __m256i *)(const void *)(a + i)));
		__m256i lo, hi;

		x = _mm256_add_epi16(x,
			_mm256_and_si256(_mm256_srai_epi16(x, 15), q));
		lo = compress32(_mm256_cvtepu16_epi32(
			_mm256_castsi256_si128(x)), sh, mask);
		hi = compress32(_mm256_cvtepu16_epi32(
			_mm256_extracti128_si256(x, 1)), sh, mask);
		_mm256_storeu_si256((__m256i *)(void *)(c + i),
			_mm256_permute4x64_epi64(_mm256_packus_epi32(lo, hi),
			0xD8));
	}
	return FA_KERNEL_DONE;
}
