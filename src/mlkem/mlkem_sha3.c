/*
 * mlkem_sha3.c -- the Keccak sponges ML-KEM needs (FIPS 202): SHA3-256
 * (H), SHA3-512 (G), SHAKE128 (XOF of SampleNTT), SHAKE256 (PRF, J), on
 * the Keccak-f[1600] permutation of src/shake256.c (fa_keccak_f1600).
 *
 * A sponge of rate r bytes XORs input into the first r bytes of the
 * 200-byte state (byte i of the stream is byte i%8, little-endian, of
 * lane i/8), permuting after each full block. Padding: the domain byte
 * dsep (SHA3: bits 01 then the first pad bit, 0x06; SHAKE: 1111 then the
 * pad bit, 0x1F) at the current position and bit 7 of byte r-1.
 *
 * Inputs are hashed with no data-dependent branch or index (lengths
 * are public).
 */

#include "mlkem/mlkem_inner.h"

static inline void
xor_byte(uint64_t *st, unsigned i, uint8_t v)
{
	st[i >> 3] ^= (uint64_t)v << ((i & 7) << 3);
}

static inline uint8_t
get_byte(const uint64_t *st, unsigned i)
{
	return (uint8_t)(st[i >> 3] >> ((i & 7) << 3));
}

static inline uint64_t
load64(const uint8_t *b)
{
	return (uint64_t)b[0] | ((uint64_t)b[1] << 8)
		| ((uint64_t)b[2] << 16) | ((uint64_t)b[3] << 24)
		| ((uint64_t)b[4] << 32) | ((uint64_t)b[5] << 40)
		| ((uint64_t)b[6] << 48) | ((uint64_t)b[7] << 56);
}

static inline void
store64(uint8_t *b, uint64_t x)
{
	unsigned i;

	for (i = 0; i < 8; i ++) {
		b[i] = (uint8_t)(x >> (8 * i));
	}
}

void
fa_sponge_init(fa_keccak_sponge *s, unsigned rate)
{
	memset(s->st, 0, sizeof s->st);
	s->rate = rate;
	s->pos = 0;
}

void
fa_sponge_absorb(fa_keccak_sponge *s, const void *in, size_t len)
{
	const uint8_t *p = in;
	unsigned pos = s->pos, rate = s->rate;

	while (len > 0) {
		size_t c = rate - pos, u = 0;

		if (c > len) {
			c = len;
		}
		if ((pos & 7) == 0) {
			for (; u + 8 <= c; u += 8) {
				s->st[(pos + u) >> 3] ^= load64(p + u);
			}
		}
		for (; u < c; u ++) {
			xor_byte(s->st, (unsigned)(pos + u), p[u]);
		}
		p += c;
		len -= c;
		pos += (unsigned)c;
		if (pos == rate) {
			fa_keccak_f1600(s->st);
			pos = 0;
		}
	}
	s->pos = pos;
}

void
fa_sponge_finish(fa_keccak_sponge *s, uint8_t dsep)
{
	xor_byte(s->st, s->pos, dsep);
	xor_byte(s->st, s->rate - 1, 0x80);
	s->pos = s->rate;   /* permute before the first output byte */
}

void
fa_sponge_squeeze(fa_keccak_sponge *s, void *out, size_t len)
{
	uint8_t *p = out;
	unsigned pos = s->pos, rate = s->rate;

	while (len > 0) {
		size_t c, u = 0;

		if (pos == rate) {
			fa_keccak_f1600(s->st);
			pos = 0;
		}
		c = rate - pos;
		if (c > len) {
			c = len;
		}
		if ((pos & 7) == 0) {
			for (; u + 8 <= c; u += 8) {
				store64(p + u, s->st[(pos + u) >> 3]);
			}
		}
		for (; u < c; u ++) {
			p[u] = get_byte(s->st, (unsigned)(pos + u));
		}
		p += c;
		len -= c;
		pos += (unsigned)c;
	}
	s->pos = pos;
}

void
fa_sha3_256(uint8_t out[32], const void *in, size_t len)
{
	fa_keccak_sponge s;

	fa_sponge_init(&s, FA_SHA3_256_RATE);
	fa_sponge_absorb(&s, in, len);
	fa_sponge_finish(&s, 0x06);
	fa_sponge_squeeze(&s, out, 32);
}

void
fa_sha3_512(uint8_t out[64], const void *in, size_t len)
{
	fa_keccak_sponge s;

	fa_sponge_init(&s, FA_SHA3_512_RATE);
	fa_sponge_absorb(&s, in, len);
	fa_sponge_finish(&s, 0x06);
	fa_sponge_squeeze(&s, out, 64);
}

void
fa_shake256_2(void *out, size_t out_len, const void *in1, size_t len1,
	const void *in2, size_t len2)
{
	fa_keccak_sponge s;

	fa_sponge_init(&s, FA_SHAKE256_RATE);
	fa_sponge_absorb(&s, in1, len1);
	if (len2 > 0) {
		fa_sponge_absorb(&s, in2, len2);
	}
	fa_sponge_finish(&s, 0x1F);
	fa_sponge_squeeze(&s, out, out_len);
}
