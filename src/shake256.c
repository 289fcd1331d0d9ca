/*
 * shake256.c -- SHAKE256 (FIPS 202) on the Keccak-f[1600] permutation of
 * keccak_f1600.c.
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

/* The keccak_f1600 slot's portable kernel: the permutation itself. */
void
fa_keccak_f1600_portable(uint64_t *st)
{
	fa_keccak_f1600(st);
}

/*
 * inject / extract with every permutation through backend k's
 * keccak_f1600 slot (the public functions use the portable one). The
 * context stays the library's: a backend only permutes sc->st in place.
 */
void
fa_shake256_inject(fa_shake256_ctx *sc, const void *data, size_t len)
{
	fa_shake256_inject_k(&fa_backend_portable, sc, data, len);
}

void
fa_shake256_inject_k(const struct fa_kernels *k, fa_shake256_ctx *sc,
	const void *data, size_t len)
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
			fa_k_keccak_f1600(k, sc->st);
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
	fa_shake256_extract_k(&fa_backend_portable, sc, out, len);
}

void
fa_shake256_extract_k(const struct fa_kernels *k, fa_shake256_ctx *sc,
	void *out, size_t len)
{
	uint8_t *buf = out;
	size_t dptr = (size_t)sc->dptr;   /* in [0, 136] */

	while (len > 0) {
		size_t clen, u;

		if (dptr == SHAKE256_RATE) {
			fa_k_keccak_f1600(k, sc->st);
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
		fa_keccak_f1600(sc->st);
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
