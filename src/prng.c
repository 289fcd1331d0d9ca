/*
 * prng.c -- the SamplerZ pseudo-random generator: ChaCha20 in the layout
 * of the Falcon round-3 reference, so that signatures match the KATs.
 *
 * State (56 bytes, from SHAKE256): bytes 0..47 are ChaCha20 words 4..15
 * (key, then IV; little-endian), bytes 48..55 a 64-bit block counter cc
 * (little-endian) that is XORed into words 14 and 15. A refill computes
 * the 8 blocks cc, cc+1, ..., cc+7 and interleaves them: 32-bit word v of
 * block u lands at byte offset 32*v + 4*u of the 512-byte buffer. This is
 * the natural output order of an 8-way SIMD implementation.
 */

#include "inner.h"

static inline uint32_t dec32le(const uint8_t *b)
{
	return (uint32_t)b[0] | ((uint32_t)b[1] << 8)
		| ((uint32_t)b[2] << 16) | ((uint32_t)b[3] << 24);
}

static inline void enc32le(uint8_t *b, uint32_t x)
{
	b[0] = (uint8_t)x;
	b[1] = (uint8_t)(x >> 8);
	b[2] = (uint8_t)(x >> 16);
	b[3] = (uint8_t)(x >> 24);
}

static inline uint32_t rotl32(uint32_t x, int c)
{
	return (x << c) | (x >> (32 - c));
}

#define QR(s, a, b, c, d) do { \
		s[a] += s[b]; s[d] = rotl32(s[d] ^ s[a], 16); \
		s[c] += s[d]; s[b] = rotl32(s[b] ^ s[c], 12); \
		s[a] += s[b]; s[d] = rotl32(s[d] ^ s[a], 8); \
		s[c] += s[d]; s[b] = rotl32(s[b] ^ s[c], 7); \
	} while (0)

/* "expand 32-byte k" */
static const uint32_t CHACHA_CONST[4] = {
	0x61707865, 0x3320646e, 0x79622d32, 0x6b206574
};

void fa_prng_refill_portable(fa_prng *p)
{
	uint32_t init[16];
	uint64_t cc;
	unsigned u, v;
	int r;

	memcpy(init, CHACHA_CONST, sizeof CHACHA_CONST);
	for (v = 0; v < 12; v ++) {
		init[4 + v] = dec32le(p->state + 4 * v);
	}
	cc = (uint64_t)dec32le(p->state + 48)
		| ((uint64_t)dec32le(p->state + 52) << 32);
	/* the block counter cc is secret (seed material): the loop counts
	   with u only; u goes through a volatile so that no compiler
	   rewrites the loop test in terms of c (a branch on the secret) */
	for (u = 0; u < 8; u ++) {
		uint32_t s[16];
		volatile uint32_t vu = u;
		uint64_t c = cc + vu;

		memcpy(s, init, sizeof s);
		s[14] ^= (uint32_t)c;
		s[15] ^= (uint32_t)(c >> 32);
		for (r = 0; r < 10; r ++) {
			QR(s, 0, 4, 8, 12);
			QR(s, 1, 5, 9, 13);
			QR(s, 2, 6, 10, 14);
			QR(s, 3, 7, 11, 15);
			QR(s, 0, 5, 10, 15);
			QR(s, 1, 6, 11, 12);
			QR(s, 2, 7, 8, 13);
			QR(s, 3, 4, 9, 14);
		}
		/* Feed-forward of the input block (counter included). */
		for (v = 0; v < 14; v ++) {
			s[v] += init[v];
		}
		s[14] += init[14] ^ (uint32_t)c;
		s[15] += init[15] ^ (uint32_t)(c >> 32);
		for (v = 0; v < 16; v ++) {
			enc32le(p->buf + 32 * v + 4 * u, s[v]);
		}
	}
	cc += 8;
	enc32le(p->state + 48, (uint32_t)cc);
	enc32le(p->state + 52, (uint32_t)(cc >> 32));
	p->ptr = 0;
}

void fa_prng_seed(fa_prng *p, fa_shake256_ctx *src)
{
	fa_shake256_extract(src, p->state, sizeof p->state);
}

void fa_prng_init(fa_prng *p, fa_shake256_ctx *src)
{
	fa_prng_seed(p, src);
	fa_prng_refill_portable(p);
}
