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
#define RP(dst, src, rot) b[dst] = ROL(_mm256_xor_si256(a[src], \
	d[(src) % 5]), rot)

int
fa_keccak_x4_avx2(uint64_t *st)
{
	__m256i a[25], b[25], c[5], d[5];
	unsigned i, round, y;

	for (i = 0; i < 25; i ++) {
		a[i] = _mm256_set_epi64x((long long)st[75 + i],
			(long long)st[50 + i], (long long)st[25 + i],
			(long long)st[i]);
	}
	for (round = 0; round < 24; round ++) {
		for (i = 0; i < 5; i ++) {
			c[i] = _mm256_xor_si256(_mm256_xor_si256(a[i], a[i + 5]),
				_mm256_xor_si256(_mm256_xor_si256(a[i + 10],
				a[i + 15]), a[i + 20]));
		}
		for (i = 0; i < 5; i ++) {
			d[i] = _mm256_xor_si256(c[(i + 4) % 5],
				ROL(c[(i + 1) % 5], 1));
		}
		b[0] = _mm256_xor_si256(a[0], d[0]);
		RP(1, 6, 44);   RP(2, 12, 43);  RP(3, 18, 21);  RP(4, 24, 14);
		RP(5, 3, 28);   RP(6, 9, 20);   RP(7, 10, 3);   RP(8, 16, 45);
		RP(9, 22, 61);  RP(10, 1, 1);   RP(11, 7, 6);   RP(12, 13, 25);
		RP(13, 19, 8);  RP(14, 20, 18); RP(15, 4, 27);  RP(16, 5, 36);
		RP(17, 11, 10); RP(18, 17, 15); RP(19, 23, 56); RP(20, 2, 62);
		RP(21, 8, 55);  RP(22, 14, 39); RP(23, 15, 41); RP(24, 21, 2);
		for (y = 0; y < 25; y += 5) {
			for (i = 0; i < 5; i ++) {
				a[y + i] = _mm256_xor_si256(b[y + i],
					_mm256_andnot_si256(b[y + (i + 1) % 5],
					b[y + (i + 2) % 5]));
			}
		}
		a[0] = _mm256_xor_si256(a[0],
			_mm256_set1_epi64x((long long)fa_keccak_avx2_rc[round]));
	}
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
