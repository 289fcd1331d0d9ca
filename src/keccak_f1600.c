/*
 * keccak_f1600.c -- the Keccak-f[1600] permutation (FIPS 202, section 3),
 * portable C, in two forms that compute the same function:
 *
 *   - on 64-bit lanes (keccak_rounds64), for 64-bit hosts;
 *   - on 32-bit half-lanes (fa_keccak_f1600_w32), for 32-bit cores such
 *     as the SoC's rv32imc, where the compiler's 64-bit emulation of the
 *     first form costs about 1,150 instructions a round: here each lane
 *     is a (lo, hi) pair of 32-bit words (no bit interleaving: without a
 *     rotate instruction, as on rv32imc, a rotation of an interleaved
 *     lane costs as much as one of a (lo, hi) pair), rho-pi and chi are
 *     fused row by row, and the rounds alternate between two state
 *     copies so that no intermediate array is written.
 *
 * fa_keccak_f1600 picks the form for the target (32-bit when pointers are
 * 32 bits wide); the 32-bit form is always compiled so that the host
 * tests compare both (tests/test_shake.c).
 *
 * State: 25 lanes of 64 bits, lane (x, y) at st[x + 5*y]. No branch or
 * memory index depends on the state.
 */

#include "inner.h"

#if UINTPTR_MAX <= 0xFFFFFFFFu
#define FA_KECCAK_W32 1
#else
#define FA_KECCAK_W32 0
#endif

/*
 * On 32-bit targets, GCC's first scheduling pass (before register
 * allocation) hoists the loads of a whole round and spills: for rv32imc,
 * GCC 12 -O2/-O3, one double round of fa_keccak_f1600_w32 is 2,250
 * instructions with it (807 loads, 555 stores) and 1,350 without (277
 * loads, 197 stores). The pass only reorders, so the function computed
 * is the same.
 */
#if FA_KECCAK_W32 && defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize ("no-schedule-insns")
#endif

/* Rotate a 64-bit word left by n, 0 < n < 64. */
static inline uint64_t
rotl64(uint64_t x, unsigned n)
{
	return (x << n) | (x >> (64 - n));
}

/*
 * Round constants RC[i] of the iota step (FIPS 202, Algorithm 5: bit
 * 2^j - 1 of RC[i] is rc(j + 7i) of the degree-8 LFSR x^8+x^6+x^5+x^4+1;
 * tests/test_shake.c derives them so). The one copy: the AVX2 four-way
 * permutation (backend_avx2/avx2_mlkem.c) reads it too.
 */
const uint64_t fa_keccak_rc[24] = {
	0x0000000000000001u, 0x0000000000008082u, 0x800000000000808Au,
	0x8000000080008000u, 0x000000000000808Bu, 0x0000000080000001u,
	0x8000000080008081u, 0x8000000000008009u, 0x000000000000008Au,
	0x0000000000000088u, 0x0000000080008009u, 0x000000008000000Au,
	0x000000008000808Bu, 0x800000000000008Bu, 0x8000000000008089u,
	0x8000000000008003u, 0x8000000000008002u, 0x8000000000000080u,
	0x000000000000800Au, 0x800000008000000Au, 0x8000000080008081u,
	0x8000000000008080u, 0x0000000080000001u, 0x8000000080008008u
};

/*
 * One round, lane (x, y) at a[x + 5y]:
 *   theta: a[x, y] ^= d[x], d[x] = C[x-1] ^ rotl(C[x+1], 1), C[x] the
 *          parity of column x;
 *   rho:   rotate lane (x, y) by its offset r[x, y]; walking the cycle
 *          (1, 0) -> (0, 2) -> ... of (x, y) -> (y, 2x + 3y mod 5), the
 *          t-th lane (t = 0..23) gets r = (t+1)(t+2)/2 mod 64, r[0, 0] = 0;
 *   pi:    lane (x, y) moves to (y, 2x + 3y mod 5);
 *   chi:   a[x, y] = b[x, y] ^ (~b[x+1, y] & b[x+2, y]);
 *   iota:  a[0, 0] ^= RC[round].
 * (FIPS 202, Algorithms 1 to 6.) Below, rho and pi are written out as
 * b[pi(x, y)] = rotl(a[x, y] ^ d[x], r[x, y]), sorted by destination:
 * destination row y takes its five lanes from the sources listed in
 * FA_KECCAK_ROWS (source lane, rotation), which both forms use.
 */
#define FA_KECCAK_ROWS(ROW) \
	ROW(0,  0,  0,   6, 44,  12, 43,  18, 21,  24, 14) \
	ROW(1,  3, 28,   9, 20,  10,  3,  16, 45,  22, 61) \
	ROW(2,  1,  1,   7,  6,  13, 25,  19,  8,  20, 18) \
	ROW(3,  4, 27,   5, 36,  11, 10,  17, 15,  23, 56) \
	ROW(4,  2, 62,   8, 55,  14, 39,  15, 41,  21,  2)

/* rotl64 that also accepts n = 0 (lane (0, 0)). */
static inline uint64_t
rotl64z(uint64_t x, unsigned n)
{
	return n == 0 ? x : rotl64(x, n);
}

/*
 * The 64-bit form. One round reads the 25 lanes of S and writes those of
 * T (a, then a local copy e, then a again: two rounds per loop step), one
 * destination row at a time: only its five b values are live, and the
 * column parities C[x] of the new state are accumulated (n0..n4) as each
 * output lane is stored, so that theta of the next round needs no pass
 * over the state. c0..c4 hold the parities of S on entry and of T on
 * exit. (Against a round with arrays c[], d[], b[] and a separate theta
 * pass: 808 -> 710 TSC ticks per permutation with BMI1, 686 with BMI1 +
 * BMI2 on the AMD EPYC of BENCHMARKS.md, GCC 12 -O2.)
 */
#define FA_D_OF(s) FA_D_OF_ ## s
#define FA_D_OF_0 d0
#define FA_D_OF_1 d1
#define FA_D_OF_2 d2
#define FA_D_OF_3 d3
#define FA_D_OF_4 d4
#define FA_D_OF_5 d0
#define FA_D_OF_6 d1
#define FA_D_OF_7 d2
#define FA_D_OF_8 d3
#define FA_D_OF_9 d4
#define FA_D_OF_10 d0
#define FA_D_OF_11 d1
#define FA_D_OF_12 d2
#define FA_D_OF_13 d3
#define FA_D_OF_14 d4
#define FA_D_OF_15 d0
#define FA_D_OF_16 d1
#define FA_D_OF_17 d2
#define FA_D_OF_18 d3
#define FA_D_OF_19 d4
#define FA_D_OF_20 d0
#define FA_D_OF_21 d1
#define FA_D_OF_22 d2
#define FA_D_OF_23 d3
#define FA_D_OF_24 d4

/* chi of row y into T (iota on lane (0, 0): rc when y = 0), parities
   accumulated */
#define ROW64(y, s0, r0, s1, r1, s2, r2, s3, r3, s4, r4) \
	{ \
		uint64_t b0 = rotl64z(S[s0] ^ FA_D_OF(s0), r0); \
		uint64_t b1 = rotl64z(S[s1] ^ FA_D_OF(s1), r1); \
		uint64_t b2 = rotl64z(S[s2] ^ FA_D_OF(s2), r2); \
		uint64_t b3 = rotl64z(S[s3] ^ FA_D_OF(s3), r3); \
		uint64_t b4 = rotl64z(S[s4] ^ FA_D_OF(s4), r4); \
		uint64_t o; \
		o = b0 ^ (~b1 & b2) ^ ((y) == 0 ? rc : 0); \
		T[5 * (y)] = o; \
		n0 = (y) == 0 ? o : n0 ^ o; \
		o = b1 ^ (~b2 & b3); \
		T[5 * (y) + 1] = o; \
		n1 = (y) == 0 ? o : n1 ^ o; \
		o = b2 ^ (~b3 & b4); \
		T[5 * (y) + 2] = o; \
		n2 = (y) == 0 ? o : n2 ^ o; \
		o = b3 ^ (~b4 & b0); \
		T[5 * (y) + 3] = o; \
		n3 = (y) == 0 ? o : n3 ^ o; \
		o = b4 ^ (~b0 & b1); \
		T[5 * (y) + 4] = o; \
		n4 = (y) == 0 ? o : n4 ^ o; \
	}

/* One round S -> T with round constant rc. */
#define ROUND64(S_, T_, rc_) \
	{ \
		const uint64_t *S = (S_); \
		uint64_t *T = (T_); \
		uint64_t rc = (rc_); \
		uint64_t d0 = c4 ^ rotl64(c1, 1); \
		uint64_t d1 = c0 ^ rotl64(c2, 1); \
		uint64_t d2 = c1 ^ rotl64(c3, 1); \
		uint64_t d3 = c2 ^ rotl64(c4, 1); \
		uint64_t d4 = c3 ^ rotl64(c0, 1); \
		uint64_t n0, n1, n2, n3, n4; \
		FA_KECCAK_ROWS(ROW64) \
		c0 = n0; \
		c1 = n1; \
		c2 = n2; \
		c3 = n3; \
		c4 = n4; \
	}

static inline __attribute__((always_inline)) void
keccak_rounds64(uint64_t *a)
{
	uint64_t e[25], c0, c1, c2, c3, c4;
	unsigned round;

	c0 = a[0] ^ a[5] ^ a[10] ^ a[15] ^ a[20];
	c1 = a[1] ^ a[6] ^ a[11] ^ a[16] ^ a[21];
	c2 = a[2] ^ a[7] ^ a[12] ^ a[17] ^ a[22];
	c3 = a[3] ^ a[8] ^ a[13] ^ a[18] ^ a[23];
	c4 = a[4] ^ a[9] ^ a[14] ^ a[19] ^ a[24];
	for (round = 0; round < 24; round += 2) {
		ROUND64(a, e, fa_keccak_rc[round])
		ROUND64(e, a, fa_keccak_rc[round + 1])
	}
}
#undef ROUND64
#undef ROW64

/*
 * The 32-bit form. A lane is (lo, hi) = (bits 0..31, bits 32..63). Left
 * rotation of the pair by a constant n in [0, 63]:
 *   n = 0:       unchanged;
 *   0 < n < 32:  lo' = lo << n | hi >> (32 - n), hi' = hi << n | lo >> (32 - n);
 *   n = 32:      swap;
 *   n > 32:      the swap, then a rotation by n - 32.
 * With n a constant after inlining, each case folds to at most six
 * shifts and ORs.
 */
static inline __attribute__((always_inline)) void
rotl_pair(uint32_t *lo, uint32_t *hi, uint32_t l, uint32_t h, unsigned n)
{
	uint32_t t;

	if (n >= 32) {
		t = l;
		l = h;
		h = t;
		n -= 32;
	}
	if (n == 0) {
		*lo = l;
		*hi = h;
	} else {
		*lo = (l << n) | (h >> (32 - n));
		*hi = (h << n) | (l >> (32 - n));
	}
}

/*
 * One round from s to t (50 words each: lane i at s[2i] (lo), s[2i + 1]
 * (hi)); s is left as it was. rc_lo, rc_hi: the halves of RC[round].
 * Each destination row is computed from its five sources (theta, rho,
 * pi) into locals, then chi writes the row of t.
 */
static inline __attribute__((always_inline)) void
round_w32(uint32_t *t, const uint32_t *s, uint32_t rc_lo, uint32_t rc_hi)
{
	uint32_t cl0, cl1, cl2, cl3, cl4, ch0, ch1, ch2, ch3, ch4;
	uint32_t dl0, dl1, dl2, dl3, dl4, dh0, dh1, dh2, dh3, dh4;

	/* C[x], the parity of column x */
#define COL32(x) \
	cl ## x = s[2 * x] ^ s[2 * x + 10] ^ s[2 * x + 20] \
		^ s[2 * x + 30] ^ s[2 * x + 40]; \
	ch ## x = s[2 * x + 1] ^ s[2 * x + 11] ^ s[2 * x + 21] \
		^ s[2 * x + 31] ^ s[2 * x + 41];
	COL32(0) COL32(1) COL32(2) COL32(3) COL32(4)
#undef COL32
	/* D[x] = C[x-1] ^ rotl(C[x+1], 1) */
#define D32(x, xm, xp) \
	dl ## x = cl ## xm ^ ((cl ## xp << 1) | (ch ## xp >> 31)); \
	dh ## x = ch ## xm ^ ((ch ## xp << 1) | (cl ## xp >> 31));
	D32(0, 4, 1) D32(1, 0, 2) D32(2, 1, 3) D32(3, 2, 4) D32(4, 3, 0)
#undef D32
	/* theta + rho + pi into b0..b4, then chi writes row y of t */
#define DL(src) ((src) % 5 == 0 ? dl0 : (src) % 5 == 1 ? dl1 \
	: (src) % 5 == 2 ? dl2 : (src) % 5 == 3 ? dl3 : dl4)
#define DH(src) ((src) % 5 == 0 ? dh0 : (src) % 5 == 1 ? dh1 \
	: (src) % 5 == 2 ? dh2 : (src) % 5 == 3 ? dh3 : dh4)
#define LANE32(j, src, r) \
	rotl_pair(&bl ## j, &bh ## j, s[2 * (src)] ^ DL(src), \
		s[2 * (src) + 1] ^ DH(src), r);
#define CHI32(y, x, x1, x2) \
	t[10 * y + 2 * x] = bl ## x ^ (~bl ## x1 & bl ## x2); \
	t[10 * y + 2 * x + 1] = bh ## x ^ (~bh ## x1 & bh ## x2);
#define ROW32(y, s0, r0, s1, r1, s2, r2, s3, r3, s4, r4) \
	{ \
		uint32_t bl0, bl1, bl2, bl3, bl4, bh0, bh1, bh2, bh3, bh4; \
		LANE32(0, s0, r0) LANE32(1, s1, r1) LANE32(2, s2, r2) \
		LANE32(3, s3, r3) LANE32(4, s4, r4) \
		CHI32(y, 0, 1, 2) CHI32(y, 1, 2, 3) CHI32(y, 2, 3, 4) \
		CHI32(y, 3, 4, 0) CHI32(y, 4, 0, 1) \
	}
	FA_KECCAK_ROWS(ROW32)
#undef ROW32
#undef CHI32
#undef LANE32
#undef DH
#undef DL
	t[0] ^= rc_lo;
	t[1] ^= rc_hi;
}

void
fa_keccak_f1600_w32(uint64_t *st)
{
	uint32_t a[50], e[50];
	unsigned i;

	for (i = 0; i < 25; i ++) {
		a[2 * i] = (uint32_t)st[i];
		a[2 * i + 1] = (uint32_t)(st[i] >> 32);
	}
	for (i = 0; i < 24; i += 2) {
		round_w32(e, a, (uint32_t)fa_keccak_rc[i],
			(uint32_t)(fa_keccak_rc[i] >> 32));
		round_w32(a, e, (uint32_t)fa_keccak_rc[i + 1],
			(uint32_t)(fa_keccak_rc[i + 1] >> 32));
	}
	for (i = 0; i < 25; i ++) {
		st[i] = (uint64_t)a[2 * i] | ((uint64_t)a[2 * i + 1] << 32);
	}
}

/*
 * On x86-64 hosts the 64-bit form is also compiled for BMI1, whose ANDN
 * does chi's ~b & c in one instruction, and for BMI1 + BMI2, whose RORX
 * rotates into another register without a copy (about 12 % and 15 %
 * faster permutations measured on this project's machine); the choice is
 * made per call from the CPU's feature bits, so the library still runs on
 * any x86-64. All versions compute the same permutation (only instruction
 * selection differs). Freestanding and non-x86 builds have the generic
 * one only.
 */
#if defined(__x86_64__) && defined(__GNUC__) && !FA_FREESTANDING
#define FA_KECCAK_BMI 1
#else
#define FA_KECCAK_BMI 0
#endif

#if FA_KECCAK_BMI
__attribute__((target("bmi"))) static void
keccak_f1600_bmi(uint64_t *a)
{
	keccak_rounds64(a);
}

__attribute__((target("bmi,bmi2"))) static void
keccak_f1600_bmi2(uint64_t *a)
{
	keccak_rounds64(a);
}
#endif

#if !FA_KECCAK_W32
static void
keccak_f1600_generic(uint64_t *a)
{
	keccak_rounds64(a);
}
#endif

void
fa_keccak_f1600(uint64_t *st)
{
#if FA_KECCAK_W32
	fa_keccak_f1600_w32(st);
#else
#if FA_KECCAK_BMI
	__builtin_cpu_init();
	if (__builtin_cpu_supports("bmi")) {
		if (__builtin_cpu_supports("bmi2")) {
			keccak_f1600_bmi2(st);
		} else {
			keccak_f1600_bmi(st);
		}
		return;
	}
#endif
	keccak_f1600_generic(st);
#endif
}
