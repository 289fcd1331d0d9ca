/*
 * shake256.c -- Keccak-f[1600] and SHAKE256 (FIPS 202).
 *
 * State: 25 lanes of 64 bits, lane (x, y) at st[x + 5*y]; the byte
 * stream is mapped onto the lanes in little-endian order (byte i of the
 * stream is bits 8*(i%8)..8*(i%8)+7 of lane i/8). SHAKE256 has capacity
 * 512 bits, hence a rate of 136 bytes (17 lanes).
 *
 * Context fields (fa_shake256_ctx, public header):
 *   st       the Keccak state;
 *   dptr     absorbing: bytes already XORed into the current block,
 *            in [0, 135]; squeezing: bytes of the current block already
 *            output, in [0, 136] (136 = block exhausted, permute first);
 *   flipped  0 while absorbing, 1 once fa_shake256_flip() was called.
 *
 * Everything here handles its input with no data-dependent branch or
 * memory index (lengths are public).
 */

#include "inner.h"

#if !FA_FREESTANDING
#include <errno.h>
#include <sys/random.h>
#endif

#define SHAKE256_RATE 136

/* Rotate a 64-bit word left by n, 0 < n < 64. */
static inline uint64_t
rotl64(uint64_t x, unsigned n)
{
	return (x << n) | (x >> (64 - n));
}

/*
 * Round constants RC[i] of the iota step (FIPS 202, Algorithm 5: bit
 * 2^j - 1 of RC[i] is rc(j + 7i) of the degree-8 LFSR x^8+x^6+x^5+x^4+1).
 */
static const uint64_t keccak_rc[24] = {
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
 * b[pi(x, y)] = rotl(a[x, y] ^ d[x], r[x, y]), sorted by destination.
 */
static inline __attribute__((always_inline)) void
keccak_rounds(uint64_t *a)
{
	unsigned round, x, y;
	uint64_t c[5], d[5], b[25];

	for (round = 0; round < 24; round ++) {
		for (x = 0; x < 5; x ++) {
			c[x] = a[x] ^ a[x + 5] ^ a[x + 10] ^ a[x + 15] ^ a[x + 20];
		}
		d[0] = c[4] ^ rotl64(c[1], 1);
		d[1] = c[0] ^ rotl64(c[2], 1);
		d[2] = c[1] ^ rotl64(c[3], 1);
		d[3] = c[2] ^ rotl64(c[4], 1);
		d[4] = c[3] ^ rotl64(c[0], 1);

		b[ 0] = a[ 0] ^ d[0];
		b[ 1] = rotl64(a[ 6] ^ d[1], 44);
		b[ 2] = rotl64(a[12] ^ d[2], 43);
		b[ 3] = rotl64(a[18] ^ d[3], 21);
		b[ 4] = rotl64(a[24] ^ d[4], 14);
		b[ 5] = rotl64(a[ 3] ^ d[3], 28);
		b[ 6] = rotl64(a[ 9] ^ d[4], 20);
		b[ 7] = rotl64(a[10] ^ d[0],  3);
		b[ 8] = rotl64(a[16] ^ d[1], 45);
		b[ 9] = rotl64(a[22] ^ d[2], 61);
		b[10] = rotl64(a[ 1] ^ d[1],  1);
		b[11] = rotl64(a[ 7] ^ d[2],  6);
		b[12] = rotl64(a[13] ^ d[3], 25);
		b[13] = rotl64(a[19] ^ d[4],  8);
		b[14] = rotl64(a[20] ^ d[0], 18);
		b[15] = rotl64(a[ 4] ^ d[4], 27);
		b[16] = rotl64(a[ 5] ^ d[0], 36);
		b[17] = rotl64(a[11] ^ d[1], 10);
		b[18] = rotl64(a[17] ^ d[2], 15);
		b[19] = rotl64(a[23] ^ d[3], 56);
		b[20] = rotl64(a[ 2] ^ d[2], 62);
		b[21] = rotl64(a[ 8] ^ d[3], 55);
		b[22] = rotl64(a[14] ^ d[4], 39);
		b[23] = rotl64(a[15] ^ d[0], 41);
		b[24] = rotl64(a[21] ^ d[1],  2);

		for (y = 0; y < 25; y += 5) {
			a[y + 0] = b[y + 0] ^ (~b[y + 1] & b[y + 2]);
			a[y + 1] = b[y + 1] ^ (~b[y + 2] & b[y + 3]);
			a[y + 2] = b[y + 2] ^ (~b[y + 3] & b[y + 4]);
			a[y + 3] = b[y + 3] ^ (~b[y + 4] & b[y + 0]);
			a[y + 4] = b[y + 4] ^ (~b[y + 0] & b[y + 1]);
		}

		a[0] ^= keccak_rc[round];
	}
}

/*
 * On x86-64 hosts the same code is also compiled for BMI1, whose ANDN
 * does chi's ~b & c in one instruction (about 12 % faster permutations
 * measured on this project's machine); the choice is made per call from
 * the CPU's feature bits, so the library still runs on any x86-64. Both
 * versions compute the same permutation (only instruction selection
 * differs). Freestanding and non-x86 builds have the generic one only.
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
	keccak_rounds(a);
}
#endif

static void
keccak_f1600_generic(uint64_t *a)
{
	keccak_rounds(a);
}

static void
keccak_f1600(uint64_t *a)
{
#if FA_KECCAK_BMI
	__builtin_cpu_init();
	if (__builtin_cpu_supports("bmi")) {
		keccak_f1600_bmi(a);
		return;
	}
#endif
	keccak_f1600_generic(a);
}

/* The permutation for the other sponges (SHA3, SHAKE128: src/mlkem/). */
void
fa_keccak_f1600(uint64_t *st)
{
	keccak_f1600(st);
}

/* Load 8 bytes as a little-endian 64-bit word. */
static inline uint64_t
load_le64(const uint8_t *b)
{
	return (uint64_t)b[0] | ((uint64_t)b[1] << 8)
		| ((uint64_t)b[2] << 16) | ((uint64_t)b[3] << 24)
		| ((uint64_t)b[4] << 32) | ((uint64_t)b[5] << 40)
		| ((uint64_t)b[6] << 48) | ((uint64_t)b[7] << 56);
}

/* Store a 64-bit word as 8 bytes, little-endian. */
static inline void
store_le64(uint8_t *b, uint64_t x)
{
	unsigned i;

	for (i = 0; i < 8; i ++) {
		b[i] = (uint8_t)(x >> (8 * i));
	}
}

/* Byte i (0 <= i < 200) of the state, in stream order. */
static inline uint8_t
state_byte(const uint64_t *st, size_t i)
{
	return (uint8_t)(st[i >> 3] >> ((i & 7) << 3));
}

/* XOR byte v into byte i of the state. */
static inline void
state_xor_byte(uint64_t *st, size_t i, uint8_t v)
{
	st[i >> 3] ^= (uint64_t)v << ((i & 7) << 3);
}

void
fa_shake256_init(fa_shake256_ctx *sc)
{
	memset(sc->st, 0, sizeof sc->st);
	sc->dptr = 0;
	sc->flipped = 0;
}

void
fa_shake256_inject(fa_shake256_ctx *sc, const void *data, size_t len)
{
	const uint8_t *in = data;
	size_t dptr = (size_t)sc->dptr;   /* in [0, 135] */

	while (len > 0) {
		size_t clen = SHAKE256_RATE - dptr, u;

		if (clen > len) {
			clen = len;
		}
		u = 0;
		if ((dptr & 7) == 0) {
			/* Lane-aligned: whole lanes first. */
			for (; u + 8 <= clen; u += 8) {
				sc->st[(dptr + u) >> 3] ^= load_le64(in + u);
			}
		}
		for (; u < clen; u ++) {
			state_xor_byte(sc->st, dptr + u, in[u]);
		}
		in += clen;
		len -= clen;
		dptr += clen;
		if (dptr == SHAKE256_RATE) {
			keccak_f1600(sc->st);
			dptr = 0;
		}
	}
	sc->dptr = dptr;
}

void
fa_shake256_flip(fa_shake256_ctx *sc)
{
	/*
	 * SHAKE padding: domain bits 1111 then pad10*1, i.e. byte 0x1F
	 * at the current position and bit 7 of the last byte of the block
	 * (both in the same byte when dptr = 135: 0x9F).
	 */
	state_xor_byte(sc->st, (size_t)sc->dptr, 0x1F);
	state_xor_byte(sc->st, SHAKE256_RATE - 1, 0x80);
	sc->dptr = SHAKE256_RATE;   /* permute before the first output */
	sc->flipped = 1;
}

void
fa_shake256_extract(fa_shake256_ctx *sc, void *out, size_t len)
{
	uint8_t *buf = out;
	size_t dptr = (size_t)sc->dptr;   /* in [0, 136] */

	while (len > 0) {
		size_t clen, u;

		if (dptr == SHAKE256_RATE) {
			keccak_f1600(sc->st);
			dptr = 0;
		}
		clen = SHAKE256_RATE - dptr;
		if (clen > len) {
			clen = len;
		}
		u = 0;
		if ((dptr & 7) == 0) {
			for (; u + 8 <= clen; u += 8) {
				store_le64(buf + u, sc->st[(dptr + u) >> 3]);
			}
		}
		for (; u < clen; u ++) {
			buf[u] = state_byte(sc->st, dptr + u);
		}
		buf += clen;
		len -= clen;
		dptr += clen;
	}
	sc->dptr = dptr;
}

uint64_t
fa_shake256_extract_u64(fa_shake256_ctx *sc)
{
	uint64_t x;

	if (sc->dptr == SHAKE256_RATE) {
		keccak_f1600(sc->st);
		sc->dptr = 0;
	}
	if ((sc->dptr & 7) == 0) {
		/* the next 8 output bytes are one whole lane, little-endian */
		x = sc->st[sc->dptr >> 3];
		sc->dptr += 8;
		return x;
	}
	{
		uint8_t b[8];

		fa_shake256_extract(sc, b, sizeof b);
		return load_le64(b);
	}
}

void
fa_shake256_init_prng_from_seed(fa_shake256_ctx *sc,
	const void *seed, size_t seed_len)
{
	fa_shake256_init(sc);
	fa_shake256_inject(sc, seed, seed_len);
	fa_shake256_flip(sc);
}

#if !FA_FREESTANDING
/*
 * Seed with 48 bytes from getrandom() (blocking until the kernel pool is
 * initialised; retried on EINTR and short reads).
 */
int
fa_shake256_init_prng_from_system(fa_shake256_ctx *sc)
{
	uint8_t seed[48];
	size_t got = 0;

	while (got < sizeof seed) {
		ssize_t r = getrandom(seed + got, sizeof seed - got, 0);

		if (r < 0) {
			if (errno == EINTR) {
				continue;
			}
			memset(seed, 0, sizeof seed);
			return FA_ERR_RANDOM;
		}
		got += (size_t)r;
	}
	fa_shake256_init_prng_from_seed(sc, seed, sizeof seed);
	memset(seed, 0, sizeof seed);
	return FA_OK;
}
#endif
