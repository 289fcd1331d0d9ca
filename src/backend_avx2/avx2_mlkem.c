/*
 * avx2_mlkem.c -- AVX2 kernels of ML-KEM (compiled with -mavx2): the NTT,
 * its inverse and base multiplication on 16 int16 coefficients per
 * vector, and four Keccak-f[1600] permutations at once (one state per
 * 64-bit lane). Each computes the same integers as the portable kernel
 * (src/mlkem/mlkem_ntt.c, src/shake256.c): the Montgomery and Barrett
 * reductions below are the portable formulas on vectors, and every
 * result is the centred representative, so outputs are bit-identical
 * (tests/test_backends.c and tests/test_mlkem_backends.c check it). They
 * are the avx2 backend's ML-KEM slots (avx2_backend.c) and never decline,
 * except mlkem_cbd for eta = 3 (see there).
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

/*
 * One whole-vector layer (vector distance len = 8, 4, 2, 1: coefficient
 * distance 16 len), zeta index k0 for the first block, counting up (NTT)
 * or down (inverse) as the portable loop does. Called with constant len
 * and unrolled completely, so that v[] stays in registers (as loops over
 * len, GCC indexed v[] on the stack: NTT 269 -> 220, inverse 294 -> 269
 * TSC ticks on the EPYC of BENCHMARKS.md).
 */
#if defined(__GNUC__) && !defined(__clang__)
#define FA_UNROLL_ALL _Pragma("GCC unroll 16")
#else
#define FA_UNROLL_ALL
#endif

static inline __attribute__((always_inline)) void
ntt_layer(__m256i *v, unsigned len, unsigned k0)
{
	unsigned start, j;

	FA_UNROLL_ALL
	for (start = 0; start < 16; start += 2 * len) {
		unsigned k = k0 + start / (2 * len);
		__m256i z = bcast_zeta(k), zq = bcast_zeta_q(k);

		FA_UNROLL_ALL
		for (j = start; j < start + len; j ++) {
			CT(v[j], v[j + len], z, zq);
		}
	}
}

static inline __attribute__((always_inline)) void
invntt_layer(__m256i *v, unsigned len, unsigned k0)
{
	unsigned start, j;

	FA_UNROLL_ALL
	for (start = 0; start < 16; start += 2 * len) {
		unsigned k = k0 - start / (2 * len);
		__m256i z = bcast_zeta(k), zq = bcast_zeta_q(k);

		FA_UNROLL_ALL
		for (j = start; j < start + len; j ++) {
			GS(v[j], v[j + len], z, zq);
		}
	}
}

int
fa_mlkem_ntt_avx2(int16_t *a)
{
	__m256i v[16];
	unsigned i;

	for (i = 0; i < 16; i ++) {
		v[i] = _mm256_loadu_si256((const __m256i *)(const void *)(a + 16 * i));
	}
	ntt_layer(v, 8, 1);    /* len 128 */
	ntt_layer(v, 4, 2);    /* len 64 */
	ntt_layer(v, 2, 4);    /* len 32 */
	ntt_layer(v, 1, 8);    /* len 16 */
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
	unsigned i;

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
	invntt_layer(v, 1, 15);    /* len 16 */
	invntt_layer(v, 2, 7);     /* len 32 */
	invntt_layer(v, 4, 3);     /* len 64 */
	invntt_layer(v, 8, 1);     /* len 128 */
	for (i = 0; i < 16; i ++) {
		_mm256_storeu_si256((__m256i *)(void *)(a + 16 * i),
			barrett(mont_c(v[i], f, fq)));
	}
	return FA_KERNEL_DONE;
}

/*
 * Base multiplication, accumulated over k <= 4 polynomial pairs. Per
 * coefficient pair (x0, x1), (y0, y1) with gamma_i = fa_mlkem_gammas[i]
 * (= zeta^(2 brv7(i) + 1) R mod q, in the odd lanes of the gamma table):
 *   yg = mont(y1 gamma_i) = y1 zeta^(..) mod q, |yg| < q;
 *   e = sum_l x0 y0 + x1 yg,   o = sum_l x0 y1 + x1 y0
 * as exact 32-bit sums (VPMADDWD of x with [y0, yg] and with [y1, y0]):
 * |x| <= 4095 and |y|, |yg| < q give |e|, |o| < 4 * 2 * 4095 * 3329
 * < 2^27, so no overflow. One Montgomery reduction per sum at the end
 * (mont(s) = hi16(s) - hi16(lo16(lo16(s) q^-1) q), exact, |.| < 2^11 + q)
 * and the Barrett step give the centred representative of
 * (e, o) R^-1, the portable kernel's residues, so the same integers.
 */
int
fa_mlkem_basemul_acc_avx2(int16_t *r, const int16_t *a, const int16_t *b,
	unsigned k)
{
	const __m256i qv = _mm256_set1_epi16(MLKEM_Q);
	const __m256i qinv = _mm256_set1_epi16(MLKEM_QINV);
	/* swaps the two 16-bit halves of each 32-bit word */
	const __m256i swap = _mm256_setr_epi8(2, 3, 0, 1, 6, 7, 4, 5,
		10, 11, 8, 9, 14, 15, 12, 13, 2, 3, 0, 1, 6, 7, 4, 5,
		10, 11, 8, 9, 14, 15, 12, 13);
	unsigned i, l;

	for (i = 0; i < 16; i ++) {
		__m256i g = LOADZ(fa_mlkem_avx2_gamma, i, 0);
		__m256i gq = LOADZ(fa_mlkem_avx2_gamma, i, 1);
		__m256i e = _mm256_setzero_si256(), o = e;
		__m256i te, to, ue, uo, re, ro;

		for (l = 0; l < k; l ++) {
			__m256i x = _mm256_loadu_si256((const __m256i *)(const void *)
				(a + l * MLKEM_N + 16 * i));
			__m256i y = _mm256_loadu_si256((const __m256i *)(const void *)
				(b + l * MLKEM_N + 16 * i));
			/* [y0, mont(y1 gamma)] per pair (even lanes of the
			   product are unused) */
			__m256i yg = _mm256_blend_epi16(y, mont_c(y, g, gq), 0xAA);

			e = _mm256_add_epi32(e, _mm256_madd_epi16(x, yg));
			o = _mm256_add_epi32(o, _mm256_madd_epi16(x,
				_mm256_shuffle_epi8(y, swap)));
		}
		/* Montgomery reduction of the 32-bit sums: e's result in the
		   low 16-bit lane of each word, o's in the high one */
		te = _mm256_mullo_epi16(e, qinv);
		to = _mm256_mullo_epi16(o, qinv);
		ue = _mm256_mulhi_epi16(te, qv);
		uo = _mm256_mulhi_epi16(to, qv);
		re = _mm256_sub_epi16(_mm256_srli_epi32(e, 16), ue);
		ro = _mm256_sub_epi16(o, _mm256_slli_epi32(uo, 16));
		_mm256_storeu_si256((__m256i *)(void *)(r + 16 * i),
			barrett(_mm256_blend_epi16(re, ro, 0xAA)));
	}
	return FA_KERNEL_DONE;
}

/* ------------------------------------------------------------------ */
/*
 * Four Keccak-f[1600] permutations (slot keccak_x4): the states are
 * interleaved, lane i of state t at st[4 i + t], so lane i of all four is
 * one vector (a plain load). The round is the scalar one of
 * src/shake256.c: theta (column parities c[x], d[x] = c[x-1] ^ rotl(c[x+1], 1)),
 * rho and pi as b[pi(x, y)] = rotl(a[x, y] ^ d[x], r[x, y]), chi, iota.
 *
 * Scheduling, for this CPU class (AVX2 has no 64-bit rotate: a rotation
 * is two shifts and an OR, or one VPSHUFB for 8 and 56): one round reads
 * the 25 lanes from one buffer and writes them to the other (st, then a
 * local copy E, then st again: two rounds per loop iteration), one output
 * plane (5 lanes, y fixed) at a time. Per plane only the five b values
 * are live, beside the five d and the five column parities of the new
 * state, which are accumulated as each output lane is stored, so theta
 * of the next round needs no second pass over the state: 25 stores per
 * round, where the all-in-registers form spilled about 70 (1.54k -> 0.98k
 * TSC ticks on the EPYC of BENCHMARKS.md). rotl by 1 is add + shift + OR
 * (the add runs on any vector ALU port).
 */
#define XOR _mm256_xor_si256
#define ROL(x, n) _mm256_or_si256(_mm256_slli_epi64((x), (n)), \
	_mm256_srli_epi64((x), 64 - (n)))
#define ROL1(x) _mm256_or_si256(_mm256_add_epi64((x), (x)), \
	_mm256_srli_epi64((x), 63))
#define KLD(p, i) _mm256_loadu_si256((const __m256i *)(const void *)((p) + 4 * (i)))
#define KST(p, i, v) _mm256_storeu_si256((__m256i *)(void *)((p) + 4 * (i)), (v))
/* rotation amounts of rho: R<n>(x) = rotl(x, n) */
#define R0(x)  (x)
#define R1(x)  ROL1(x)
#define R8(x)  _mm256_shuffle_epi8((x), rot8)
#define R56(x) _mm256_shuffle_epi8((x), rot56)
#define R2(x)  ROL(x, 2)
#define R3(x)  ROL(x, 3)
#define R6(x)  ROL(x, 6)
#define R10(x) ROL(x, 10)
#define R14(x) ROL(x, 14)
#define R15(x) ROL(x, 15)
#define R18(x) ROL(x, 18)
#define R20(x) ROL(x, 20)
#define R21(x) ROL(x, 21)
#define R25(x) ROL(x, 25)
#define R27(x) ROL(x, 27)
#define R28(x) ROL(x, 28)
#define R36(x) ROL(x, 36)
#define R39(x) ROL(x, 39)
#define R41(x) ROL(x, 41)
#define R43(x) ROL(x, 43)
#define R44(x) ROL(x, 44)
#define R45(x) ROL(x, 45)
#define R55(x) ROL(x, 55)
#define R61(x) ROL(x, 61)
#define R62(x) ROL(x, 62)
/* d of source lane s is d[s mod 5] */
#define D0 d0
#define D1 d1
#define D2 d2
#define D3 d3
#define D4 d4
#define D5 d0
#define D6 d1
#define D7 d2
#define D8 d3
#define D9 d4
#define D10 d0
#define D11 d1
#define D12 d2
#define D13 d3
#define D14 d4
#define D15 d0
#define D16 d1
#define D17 d2
#define D18 d3
#define D19 d4
#define D20 d0
#define D21 d1
#define D22 d2
#define D23 d3
#define D24 d4

/* Output plane y of the round S -> T: lane 5y+x of T from source lane s_x
   rotated by r_x (pi and rho), chi along the plane, the new column
   parities n0..n4 accumulated (the plane y = 0 starts them). */
#define KPLANE(y, s0, r0, s1, r1, s2, r2, s3, r3, s4, r4, iota) do { \
		__m256i b0 = R##r0(XOR(KLD(S, s0), D##s0)); \
		__m256i b1 = R##r1(XOR(KLD(S, s1), D##s1)); \
		__m256i b2 = R##r2(XOR(KLD(S, s2), D##s2)); \
		__m256i b3 = R##r3(XOR(KLD(S, s3), D##s3)); \
		__m256i b4 = R##r4(XOR(KLD(S, s4), D##s4)); \
		__m256i o; \
		o = XOR(b0, _mm256_andnot_si256(b1, b2)); \
		iota; \
		KST(T, 5 * (y), o); \
		n0 = (y) ? XOR(n0, o) : o; \
		o = XOR(b1, _mm256_andnot_si256(b2, b3)); \
		KST(T, 5 * (y) + 1, o); \
		n1 = (y) ? XOR(n1, o) : o; \
		o = XOR(b2, _mm256_andnot_si256(b3, b4)); \
		KST(T, 5 * (y) + 2, o); \
		n2 = (y) ? XOR(n2, o) : o; \
		o = XOR(b3, _mm256_andnot_si256(b4, b0)); \
		KST(T, 5 * (y) + 3, o); \
		n3 = (y) ? XOR(n3, o) : o; \
		o = XOR(b4, _mm256_andnot_si256(b0, b1)); \
		KST(T, 5 * (y) + 4, o); \
		n4 = (y) ? XOR(n4, o) : o; \
	} while (0)

/* One round S -> T; c0..c4 hold the column parities of S on entry and
   of T on exit. */
#define KROUND(S_, T_, rc) do { \
		const uint64_t *S = (S_); \
		uint64_t *T = (T_); \
		__m256i d0 = XOR(c4, ROL1(c1)); \
		__m256i d1 = XOR(c0, ROL1(c2)); \
		__m256i d2 = XOR(c1, ROL1(c3)); \
		__m256i d3 = XOR(c2, ROL1(c4)); \
		__m256i d4 = XOR(c3, ROL1(c0)); \
		__m256i n0, n1, n2, n3, n4; \
		KPLANE(0, 0, 0, 6, 44, 12, 43, 18, 21, 24, 14, \
			o = XOR(o, _mm256_set1_epi64x((long long)(rc)))); \
		KPLANE(1, 3, 28, 9, 20, 10, 3, 16, 45, 22, 61, (void)0); \
		KPLANE(2, 1, 1, 7, 6, 13, 25, 19, 8, 20, 18, (void)0); \
		KPLANE(3, 4, 27, 5, 36, 11, 10, 17, 15, 23, 56, (void)0); \
		KPLANE(4, 2, 62, 8, 55, 14, 39, 15, 41, 21, 2, (void)0); \
		c0 = n0; c1 = n1; c2 = n2; c3 = n3; c4 = n4; \
	} while (0)

int
fa_keccak_x4_avx2(uint64_t *st)
{
	__m256i e[25];
	uint64_t *E = (uint64_t *)(void *)e;
	const __m256i rot8 = _mm256_setr_epi8(7, 0, 1, 2, 3, 4, 5, 6,
		15, 8, 9, 10, 11, 12, 13, 14, 7, 0, 1, 2, 3, 4, 5, 6,
		15, 8, 9, 10, 11, 12, 13, 14);
	const __m256i rot56 = _mm256_setr_epi8(1, 2, 3, 4, 5, 6, 7, 0,
		9, 10, 11, 12, 13, 14, 15, 8, 1, 2, 3, 4, 5, 6, 7, 0,
		9, 10, 11, 12, 13, 14, 15, 8);
	__m256i c0, c1, c2, c3, c4;
	unsigned r;

	/* keep E a memory buffer: the compiler must not try to hold the
	   25 lanes of both states in registers */
	__asm__ ("" : "+r" (E));
	c0 = XOR(XOR(XOR(KLD(st, 0), KLD(st, 5)), XOR(KLD(st, 10), KLD(st, 15))),
		KLD(st, 20));
	c1 = XOR(XOR(XOR(KLD(st, 1), KLD(st, 6)), XOR(KLD(st, 11), KLD(st, 16))),
		KLD(st, 21));
	c2 = XOR(XOR(XOR(KLD(st, 2), KLD(st, 7)), XOR(KLD(st, 12), KLD(st, 17))),
		KLD(st, 22));
	c3 = XOR(XOR(XOR(KLD(st, 3), KLD(st, 8)), XOR(KLD(st, 13), KLD(st, 18))),
		KLD(st, 23));
	c4 = XOR(XOR(XOR(KLD(st, 4), KLD(st, 9)), XOR(KLD(st, 14), KLD(st, 19))),
		KLD(st, 24));
	for (r = 0; r < 24; r += 2) {
		KROUND(st, E, fa_keccak_rc[r]);
		KROUND(E, st, fa_keccak_rc[r + 1]);
	}
	return FA_KERNEL_DONE;
}

/* ------------------------------------------------------------------ */
/*
 * SampleNTT's parse (slot mlkem_rej_uniform): a group of 8 byte triples
 * (24 bytes) gives 16 candidates. The 24 bytes are spread so that each
 * 128-bit lane holds 4 triples (qwords 0 1 1 2: bytes 0..15 | 8..23),
 * then each candidate's two bytes go to one 16-bit lane: triple j gives
 * (b0 | b1 << 8) & 0xFFF and (b1 | b2 << 8) >> 4. Lanes < q give an
 * 8-bit mask per 128-bit half (the compare's words packed to bytes,
 * PMOVMSKB), and each half is compacted by a table shuffle and stored at
 * a + c (8 lanes written, popcount kept). Candidates come out in stream
 * order, as the portable kernel appends them.
 */
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
		/* qwords 0 1 | 1 2 of the group, read as three 8-byte loads:
		   the caller writes buf in 8-byte words just before, and a
		   wider load spanning several such stores is not forwarded
		   (it waits for the stores to retire) */
		const uint8_t *p = buf + 24 * g;
		__m128i w1 = _mm_loadl_epi64((const __m128i *)(const void *)(p + 8));
		__m128i w01 = _mm_unpacklo_epi64(
			_mm_loadl_epi64((const __m128i *)(const void *)p), w1);
		__m128i w12 = _mm_unpacklo_epi64(w1,
			_mm_loadl_epi64((const __m128i *)(const void *)(p + 16)));
		__m256i v = _mm256_inserti128_si256(_mm256_castsi128_si256(w01),
			w12, 1);
		__m128i lo, hi;
		__m256i ok;
		uint32_t m, m0, m1;

		v = _mm256_shuffle_epi8(v, idx);
		v = _mm256_blend_epi16(_mm256_and_si256(v, m12),
			_mm256_srli_epi16(v, 4), 0xAA);
		/* the 16-bit verdicts packed to bytes (within each 128-bit
		   lane, twice): bits 0..7 = low lane, bits 16..23 = high lane */
		ok = _mm256_cmpgt_epi16(q, v);
		m = (uint32_t)_mm256_movemask_epi8(_mm256_packs_epi16(ok, ok));
		m0 = m & 0xFF;
		m1 = (m >> 16) & 0xFF;
		lo = _mm_shuffle_epi8(_mm256_castsi256_si128(v),
			_mm_load_si128((const __m128i *)(const void *)
			fa_mlkem_avx2_compact[m0]));
		hi = _mm_shuffle_epi8(_mm256_extracti128_si256(v, 1),
			_mm_load_si128((const __m128i *)(const void *)
			fa_mlkem_avx2_compact[m1]));
		_mm_storeu_si128((__m128i *)(void *)(a + c), lo);
		c += (unsigned)_mm_popcnt_u32(m0);
		_mm_storeu_si128((__m128i *)(void *)(a + c), hi);
		c += (unsigned)_mm_popcnt_u32(m1);
	}
	*ctr = c;
	return FA_KERNEL_DONE;
}

/* ------------------------------------------------------------------ */
/*
 * Byte encodings (slots mlkem_encode, mlkem_decode), 16 coefficients
 * (2d bytes) per step.
 *
 * Compress_d(x) = floor((2^d x + h) / q) mod 2^d, h = (q-1)/2, for
 * x = a mod q in [0, q-1] (Barrett, then + q if negative), in 16-bit
 * lanes: with M = floor(2^(12+d) / q), the estimate e = floor(16 x M /
 * 2^16) (one unsigned high product) satisfies
 * floor(2^d x / q) - 1 <= e <= floor(2^d x / q), since
 * x 2^d / q - x M / 2^12 < x / 2^12 < 1; and the quotient with h added is
 * at most one more, so the quotient is e + [r >= q] + [r >= 2q] with
 * r = 2^d x + h - e q in [0, 3q), computed modulo 2^16 (exact, as
 * 3q < 2^15). tests/test_mlkem_backends.c compares every int16 input
 * and every d with the portable kernel.
 *
 * ByteEncode_d of 16 values < 2^d (16-bit lanes): pairs merged into
 * 32-bit lanes (c0 + 2^d c1, one PMADDWD), pairs of those into 64-bit
 * lanes (4d bits), pairs of those into each 128-bit lane (8d bits, the
 * lane's d output bytes at its bottom); the two lanes are stored d bytes
 * apart in a local buffer, the next step overwriting the spare bytes.
 *
 * ByteDecode_d: coefficient i of a 128-bit lane (8 per lane, d bytes)
 * starts at bit d i: its two bytes at d i / 8 go to 16-bit lane i (one
 * PSHUFB), a multiplication by 2^(16 - d - (d i mod 8)) moves its d bits
 * to the top of the lane. d = 12 ends with a shift by 4; d < 12 keeps
 * y 2^(15 - d) (shift by 1, mask) and Decompress_d(y) = floor((q y +
 * 2^(d-1)) / 2^d) is PMULHRSW(y 2^(15-d), q) = floor((y 2^(15-d) q +
 * 2^14) / 2^15), the same integer. A coefficient's bits span at most two
 * bytes when (d i mod 8) + d <= 16, true for d in {1, 4, 5, 10, 12};
 * d = 11 (ML-KEM-1024's du) has its own path (decode11); other d are
 * declined to the portable kernel.
 */
static inline __m256i
compress16(__m256i x, unsigned d)
{
	const __m256i q = _mm256_set1_epi16(MLKEM_Q);
	__m256i e = _mm256_mulhi_epu16(_mm256_slli_epi16(x, 4),
		_mm256_set1_epi16((short)((1u << (12 + d)) / MLKEM_Q)));
	__m256i r = _mm256_sub_epi16(_mm256_add_epi16(
		_mm256_sll_epi16(x, _mm_cvtsi32_si128((int)d)),
		_mm256_set1_epi16((MLKEM_Q - 1) / 2)), _mm256_mullo_epi16(e, q));

	/* the compares give -1 where true */
	e = _mm256_sub_epi16(e, _mm256_cmpgt_epi16(r,
		_mm256_set1_epi16(MLKEM_Q - 1)));
	e = _mm256_sub_epi16(e, _mm256_cmpgt_epi16(r,
		_mm256_set1_epi16(2 * MLKEM_Q - 1)));
	return _mm256_and_si256(e, _mm256_set1_epi16((short)((1u << d) - 1)));
}

/* 16 values c < 2^d -> the d bytes of each 128-bit lane at its bottom */
static inline __m256i
pack_lanes(__m256i c, unsigned d)
{
	const __m256i zero = _mm256_setzero_si256();
	__m256i w, lo, hi, ov;

	w = _mm256_madd_epi16(c, _mm256_set1_epi32((int)(1u | (1u << (16 + d)))));
	w = _mm256_or_si256(_mm256_blend_epi32(w, zero, 0xAA),
		_mm256_sll_epi64(_mm256_srli_epi64(w, 32),
		_mm_cvtsi32_si128((int)(2 * d))));
	lo = _mm256_blend_epi32(w, zero, 0xCC);
	hi = _mm256_bsrli_epi128(_mm256_sll_epi64(w,
		_mm_cvtsi32_si128((int)(4 * d))), 8);
	ov = _mm256_blend_epi32(zero, _mm256_srl_epi64(w,
		_mm_cvtsi32_si128((int)(64 - 4 * d))), 0xCC);
	return _mm256_or_si256(_mm256_or_si256(lo, hi), ov);
}

int
fa_mlkem_encode_avx2(uint8_t *out, const int16_t *a, unsigned d)
{
	const __m256i q = _mm256_set1_epi16(MLKEM_Q);
	uint8_t buf[32 * 12 + 16];
	unsigned i;

	for (i = 0; i < MLKEM_N; i += 16) {
		__m256i x = barrett(_mm256_loadu_si256(
			(const __m256i *)(const void *)(a + i)));
		__m256i p;

		x = _mm256_add_epi16(x,
			_mm256_and_si256(_mm256_srai_epi16(x, 15), q));
		if (d < 12) {
			x = compress16(x, d);
		}
		p = pack_lanes(x, d);
		_mm_storeu_si128((__m128i *)(void *)(buf + 2 * d * (i >> 4)),
			_mm256_castsi256_si128(p));
		_mm_storeu_si128((__m128i *)(void *)(buf + 2 * d * (i >> 4) + d),
			_mm256_extracti128_si256(p, 1));
	}
	memcpy(out, buf, 32 * d);
	return FA_KERNEL_DONE;
}

/* byte pair of coefficient i (0..7) of a lane, twice (both lanes) */
#define DB(d, i)  (char)((d) * (i) / 8), (char)((d) * (i) / 8 + 1)
#define DIDX(d) _mm256_setr_epi8(DB(d, 0), DB(d, 1), DB(d, 2), DB(d, 3), \
	DB(d, 4), DB(d, 5), DB(d, 6), DB(d, 7), DB(d, 0), DB(d, 1), DB(d, 2), \
	DB(d, 3), DB(d, 4), DB(d, 5), DB(d, 6), DB(d, 7))
#define DM(d, i)  (short)(1u << (16 - (d) - (((d) * (i)) & 7)))
#define DMUL(d) _mm256_setr_epi16(DM(d, 0), DM(d, 1), DM(d, 2), DM(d, 3), \
	DM(d, 4), DM(d, 5), DM(d, 6), DM(d, 7), DM(d, 0), DM(d, 1), DM(d, 2), \
	DM(d, 3), DM(d, 4), DM(d, 5), DM(d, 6), DM(d, 7))

static inline __attribute__((always_inline)) void
decode_d(int16_t *a, const uint8_t *in, unsigned d, __m256i idx,
	__m256i mul)
{
	const __m256i q = _mm256_set1_epi16(MLKEM_Q);
	const __m256i top = _mm256_set1_epi16(
		(short)(((1u << d) - 1) << (15 - d)));
	uint8_t buf[32 * 12 + 16];
	unsigned i;

	/* a copy with slack: the last step's loads reach past 32 d bytes */
	memcpy(buf, in, 32 * d);
	memset(buf + 32 * d, 0, 16);
	for (i = 0; i < MLKEM_N; i += 16) {
		const uint8_t *p = buf + 2 * d * (i >> 4);
		__m256i v = _mm256_inserti128_si256(_mm256_castsi128_si256(
			_mm_loadu_si128((const __m128i *)(const void *)p)),
			_mm_loadu_si128((const __m128i *)(const void *)(p + d)), 1);

		v = _mm256_mullo_epi16(_mm256_shuffle_epi8(v, idx), mul);
		if (d == 12) {
			v = _mm256_srli_epi16(v, 4);
		} else {
			v = _mm256_mulhrs_epi16(_mm256_and_si256(
				_mm256_srli_epi16(v, 1), top), q);
		}
		_mm256_storeu_si256((__m256i *)(void *)(a + i), v);
	}
}

/* d = 11: a coefficient spans up to three bytes. Eight coefficients (11
   bytes, broadcast to both 128-bit lanes) go to 32-bit lanes i: bytes
   11 i / 8 .. + 2 (PSHUFB), shifted right by 11 i mod 8 (VPSRLVD),
   masked; two such vectors packed to 16 bits, then Decompress_11 as
   above. */
static void
decode11(int16_t *a, const uint8_t *in)
{
	const __m256i idx = _mm256_setr_epi8(0, 1, 2, -1, 1, 2, 3, -1,
		2, 3, 4, -1, 4, 5, 6, -1, 5, 6, 7, -1, 6, 7, 8, -1,
		8, 9, 10, -1, 9, 10, 11, -1);
	const __m256i sh = _mm256_setr_epi32(0, 3, 6, 1, 4, 7, 2, 5);
	const __m256i m11 = _mm256_set1_epi32(0x7FF);
	const __m256i q = _mm256_set1_epi16(MLKEM_Q);
	uint8_t buf[32 * 11 + 16];
	unsigned i;

	memcpy(buf, in, 32 * 11);
	memset(buf + 32 * 11, 0, 16);
	for (i = 0; i < MLKEM_N; i += 16) {
		const uint8_t *p = buf + 22 * (i >> 4);
		__m256i lo = _mm256_broadcastsi128_si256(
			_mm_loadu_si128((const __m128i *)(const void *)p));
		__m256i hi = _mm256_broadcastsi128_si256(
			_mm_loadu_si128((const __m128i *)(const void *)(p + 11)));
		__m256i v;

		lo = _mm256_and_si256(_mm256_srlv_epi32(
			_mm256_shuffle_epi8(lo, idx), sh), m11);
		hi = _mm256_and_si256(_mm256_srlv_epi32(
			_mm256_shuffle_epi8(hi, idx), sh), m11);
		v = _mm256_permute4x64_epi64(_mm256_packs_epi32(lo, hi), 0xD8);
		_mm256_storeu_si256((__m256i *)(void *)(a + i),
			_mm256_mulhrs_epi16(_mm256_slli_epi16(v, 4), q));
	}
}

int
fa_mlkem_decode_avx2(int16_t *a, const uint8_t *in, unsigned d)
{
	switch (d) {
	case 1:  decode_d(a, in, 1, DIDX(1), DMUL(1)); break;
	case 4:  decode_d(a, in, 4, DIDX(4), DMUL(4)); break;
	case 5:  decode_d(a, in, 5, DIDX(5), DMUL(5)); break;
	case 10: decode_d(a, in, 10, DIDX(10), DMUL(10)); break;
	case 11: decode11(a, in); break;
	case 12: decode_d(a, in, 12, DIDX(12), DMUL(12)); break;
	default: return FA_KERNEL_FALLBACK;   /* the portable kernel runs */
	}
	return FA_KERNEL_DONE;
}

/* ------------------------------------------------------------------ */
/*
 * SamplePolyCBD_2 (slot mlkem_cbd): byte j of buf holds coefficient 2j
 * (bits 0..3) and 2j + 1 (bits 4..7), each the number of ones among its
 * two low bits minus that among its two high bits. Per 16 bytes: the
 * pair counts d = (b & 0x55) + ((b >> 1) & 0x55), then per nibble
 * (d & 3) - ((d >> 2) & 3) as signed bytes, the low and high nibbles'
 * values interleaved (coefficient order) and widened to 16 bits. Every
 * shift is masked so that no bit crosses into the neighbouring byte.
 * eta = 3 (ML-KEM-512's eta1 only) is declined to the portable kernel.
 */
int
fa_mlkem_cbd_avx2(int16_t *a, const uint8_t *buf, unsigned eta)
{
	const __m128i m55 = _mm_set1_epi8(0x55);
	const __m128i m03 = _mm_set1_epi8(0x03);
	const __m128i m0f = _mm_set1_epi8(0x0F);
	unsigned i;

	if (eta != 2) {
		return FA_KERNEL_FALLBACK;
	}
	for (i = 0; i < 128; i += 16) {
		__m128i b = _mm_loadu_si128((const __m128i *)(const void *)(buf + i));
		__m128i d = _mm_add_epi8(_mm_and_si128(b, m55),
			_mm_and_si128(_mm_srli_epi16(b, 1), m55));
		__m128i lo = _mm_and_si128(d, m0f);
		__m128i hi = _mm_and_si128(_mm_srli_epi16(d, 4), m0f);

		lo = _mm_sub_epi8(_mm_and_si128(lo, m03),
			_mm_and_si128(_mm_srli_epi16(lo, 2), m03));
		hi = _mm_sub_epi8(_mm_and_si128(hi, m03),
			_mm_and_si128(_mm_srli_epi16(hi, 2), m03));
		_mm256_storeu_si256((__m256i *)(void *)(a + 2 * i),
			_mm256_cvtepi8_epi16(_mm_unpacklo_epi8(lo, hi)));
		_mm256_storeu_si256((__m256i *)(void *)(a + 2 * i + 16),
			_mm256_cvtepi8_epi16(_mm_unpackhi_epi8(lo, hi)));
	}
	return FA_KERNEL_DONE;
}
