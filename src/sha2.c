/*
 * sha2.c -- SHA-256 (incremental and one-shot), SHA-384, SHA-512 (one-shot)
 * (FIPS 180-4), freestanding: the library's pre-hash functions for FN-DSA
 * (fndsa_api.c), and the SHA-256 of the FIDO2 key (apps/fido2/core). Not constant-time concerns: they hash public data
 * (messages) only; no branch depends on the data anyway.
 */

#include "inner.h"

static uint32_t ror32(uint32_t x, unsigned n)
{
	return (x >> n) | (x << (32 - n));
}

static uint64_t ror64(uint64_t x, unsigned n)
{
	return (x >> n) | (x << (64 - n));
}

/* ------------------------------------------------------------------ */
/* SHA-256 */

/* First 32 bits of the fractional parts of the cube roots of the first
   64 primes (FIPS 180-4, 4.2.2). */
static const uint32_t K256[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1,
	0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
	0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
	0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
	0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
	0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
	0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
	0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
	0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2
};

static void sha256_block(uint32_t *h, const uint8_t *b)
{
	uint32_t w[64], a[8];
	unsigned i;

	for (i = 0; i < 16; i ++) {
		w[i] = ((uint32_t)b[4 * i] << 24) | ((uint32_t)b[4 * i + 1] << 16)
			| ((uint32_t)b[4 * i + 2] << 8) | b[4 * i + 3];
	}
	for (i = 16; i < 64; i ++) {
		uint32_t s0 = ror32(w[i - 15], 7) ^ ror32(w[i - 15], 18)
			^ (w[i - 15] >> 3);
		uint32_t s1 = ror32(w[i - 2], 17) ^ ror32(w[i - 2], 19)
			^ (w[i - 2] >> 10);

		w[i] = w[i - 16] + s0 + w[i - 7] + s1;
	}
	memcpy(a, h, sizeof a);
	for (i = 0; i < 64; i ++) {
		uint32_t S1 = ror32(a[4], 6) ^ ror32(a[4], 11) ^ ror32(a[4], 25);
		uint32_t ch = (a[4] & a[5]) ^ (~a[4] & a[6]);
		uint32_t t1 = a[7] + S1 + ch + K256[i] + w[i];
		uint32_t S0 = ror32(a[0], 2) ^ ror32(a[0], 13) ^ ror32(a[0], 22);
		uint32_t mj = (a[0] & a[1]) ^ (a[0] & a[2]) ^ (a[1] & a[2]);

		memmove(a + 1, a, 7 * sizeof a[0]);
		a[4] += t1;
		a[0] = t1 + S0 + mj;
	}
	for (i = 0; i < 8; i ++) {
		h[i] += a[i];
	}
}

/* Initial hash value: first 32 bits of the fractional parts of the square
   roots of the first 8 primes (FIPS 180-4, 5.3.3). K256 and this table are
   re-derived from that definition by apps/fido2/tests/check_sha256_consts.py
   (ctest fido2_sha256_consts). */
static const uint32_t H256_INIT[8] = {
	0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
	0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19
};

void fa_sha256_init(fa_sha256_ctx *sc)
{
	memcpy(sc->h, H256_INIT, sizeof sc->h);
	sc->total = 0;
}

void fa_sha256_update(fa_sha256_ctx *sc, const void *data, size_t len)
{
	const uint8_t *p = data;
	size_t fill = (size_t)(sc->total & 63);

	if (len == 0) {
		return;   /* data may be NULL then */
	}
	sc->total += len;
	if (fill > 0) {
		size_t n = 64 - fill < len ? 64 - fill : len;
		memcpy(sc->buf + fill, p, n);
		p += n;
		len -= n;
		if (fill + n < 64) {
			return;
		}
		sha256_block(sc->h, sc->buf);
	}
	for (; len >= 64; len -= 64, p += 64) {
		sha256_block(sc->h, p);
	}
	if (len > 0) {
		memcpy(sc->buf, p, len);
	}
}

void fa_sha256_final(fa_sha256_ctx *sc, uint8_t out[32])
{
	size_t fill = (size_t)(sc->total & 63), i;
	uint64_t bits = sc->total << 3;

	sc->buf[fill++] = 0x80;
	if (fill > 56) {
		memset(sc->buf + fill, 0, 64 - fill);
		sha256_block(sc->h, sc->buf);
		fill = 0;
	}
	memset(sc->buf + fill, 0, 56 - fill);
	for (i = 0; i < 8; i ++) {
		sc->buf[63 - i] = (uint8_t)(bits >> (8 * i));
	}
	sha256_block(sc->h, sc->buf);
	for (i = 0; i < 8; i ++) {
		out[4 * i] = (uint8_t)(sc->h[i] >> 24);
		out[4 * i + 1] = (uint8_t)(sc->h[i] >> 16);
		out[4 * i + 2] = (uint8_t)(sc->h[i] >> 8);
		out[4 * i + 3] = (uint8_t)sc->h[i];
	}
}

void fa_sha256(uint8_t out[32], const void *data, size_t len)
{
	fa_sha256_ctx sc;

	fa_sha256_init(&sc);
	fa_sha256_update(&sc, data, len);
	fa_sha256_final(&sc, out);
}

/* ------------------------------------------------------------------ */
/* SHA-512, SHA-384 */

/* First 64 bits of the fractional parts of the cube roots of the first
   80 primes (FIPS 180-4, 4.2.3). */
static const uint64_t K512[80] = {
	0x428a2f98d728ae22, 0x7137449123ef65cd, 0xb5c0fbcfec4d3b2f,
	0xe9b5dba58189dbbc, 0x3956c25bf348b538, 0x59f111f1b605d019,
	0x923f82a4af194f9b, 0xab1c5ed5da6d8118, 0xd807aa98a3030242,
	0x12835b0145706fbe, 0x243185be4ee4b28c, 0x550c7dc3d5ffb4e2,
	0x72be5d74f27b896f, 0x80deb1fe3b1696b1, 0x9bdc06a725c71235,
	0xc19bf174cf692694, 0xe49b69c19ef14ad2, 0xefbe4786384f25e3,
	0x0fc19dc68b8cd5b5, 0x240ca1cc77ac9c65, 0x2de92c6f592b0275,
	0x4a7484aa6ea6e483, 0x5cb0a9dcbd41fbd4, 0x76f988da831153b5,
	0x983e5152ee66dfab, 0xa831c66d2db43210, 0xb00327c898fb213f,
	0xbf597fc7beef0ee4, 0xc6e00bf33da88fc2, 0xd5a79147930aa725,
	0x06ca6351e003826f, 0x142929670a0e6e70, 0x27b70a8546d22ffc,
	0x2e1b21385c26c926, 0x4d2c6dfc5ac42aed, 0x53380d139d95b3df,
	0x650a73548baf63de, 0x766a0abb3c77b2a8, 0x81c2c92e47edaee6,
	0x92722c851482353b, 0xa2bfe8a14cf10364, 0xa81a664bbc423001,
	0xc24b8b70d0f89791, 0xc76c51a30654be30, 0xd192e819d6ef5218,
	0xd69906245565a910, 0xf40e35855771202a, 0x106aa07032bbd1b8,
	0x19a4c116b8d2d0c8, 0x1e376c085141ab53, 0x2748774cdf8eeb99,
	0x34b0bcb5e19b48a8, 0x391c0cb3c5c95a63, 0x4ed8aa4ae3418acb,
	0x5b9cca4f7763e373, 0x682e6ff3d6b2b8a3, 0x748f82ee5defb2fc,
	0x78a5636f43172f60, 0x84c87814a1f0ab72, 0x8cc702081a6439ec,
	0x90befffa23631e28, 0xa4506cebde82bde9, 0xbef9a3f7b2c67915,
	0xc67178f2e372532b, 0xca273eceea26619c, 0xd186b8c721c0c207,
	0xeada7dd6cde0eb1e, 0xf57d4f7fee6ed178, 0x06f067aa72176fba,
	0x0a637dc5a2c898a6, 0x113f9804bef90dae, 0x1b710b35131c471b,
	0x28db77f523047d84, 0x32caab7b40c72493, 0x3c9ebe0a15c9bebc,
	0x431d67c49c100d4c, 0x4cc5d4becb3e42b6, 0x597f299cfc657e2a,
	0x5fcb6fab3ad6faec, 0x6c44198c4a475817
};

static void sha512_block(uint64_t *h, const uint8_t *b)
{
	uint64_t w[80], a[8];
	unsigned i, j;

	for (i = 0; i < 16; i ++) {
		uint64_t x = 0;

		for (j = 0; j < 8; j ++) {
			x = (x << 8) | b[8 * i + j];
		}
		w[i] = x;
	}
	for (i = 16; i < 80; i ++) {
		uint64_t s0 = ror64(w[i - 15], 1) ^ ror64(w[i - 15], 8)
			^ (w[i - 15] >> 7);
		uint64_t s1 = ror64(w[i - 2], 19) ^ ror64(w[i - 2], 61)
			^ (w[i - 2] >> 6);

		w[i] = w[i - 16] + s0 + w[i - 7] + s1;
	}
	memcpy(a, h, sizeof a);
	for (i = 0; i < 80; i ++) {
		uint64_t S1 = ror64(a[4], 14) ^ ror64(a[4], 18) ^ ror64(a[4], 41);
		uint64_t ch = (a[4] & a[5]) ^ (~a[4] & a[6]);
		uint64_t t1 = a[7] + S1 + ch + K512[i] + w[i];
		uint64_t S0 = ror64(a[0], 28) ^ ror64(a[0], 34) ^ ror64(a[0], 39);
		uint64_t mj = (a[0] & a[1]) ^ (a[0] & a[2]) ^ (a[1] & a[2]);

		memmove(a + 1, a, 7 * sizeof a[0]);
		a[4] += t1;
		a[0] = t1 + S0 + mj;
	}
	for (i = 0; i < 8; i ++) {
		h[i] += a[i];
	}
}

static void sha512_core(uint8_t *out, size_t outlen, const uint64_t *iv,
	const void *data, size_t len)
{
	const uint8_t *p = data;
	uint64_t h[8];
	uint8_t last[256];
	uint64_t bits = (uint64_t)len << 3;
	uint64_t bits_hi = (uint64_t)len >> 61;
	size_t rem, tail, i;

	memcpy(h, iv, sizeof h);
	for (; len >= 128; len -= 128, p += 128) {
		sha512_block(h, p);
	}
	rem = len;
	memset(last, 0, sizeof last);
	if (rem > 0) {
		memcpy(last, p, rem);
	}
	last[rem] = 0x80;
	tail = rem < 112 ? 128 : 256;
	/* 128-bit length; the high 64 bits: len >> 61 */
	for (i = 0; i < 8; i ++) {
		last[tail - 1 - i] = (uint8_t)(bits >> (8 * i));
	}
	last[tail - 9] = (uint8_t)bits_hi;
	sha512_block(h, last);
	if (tail == 256) {
		sha512_block(h, last + 128);
	}
	for (i = 0; i < outlen; i ++) {
		out[i] = (uint8_t)(h[i >> 3] >> (56 - 8 * (i & 7)));
	}
}

void fa_sha512(uint8_t out[64], const void *data, size_t len)
{
	static const uint64_t IV[8] = {
		0x6a09e667f3bcc908, 0xbb67ae8584caa73b, 0x3c6ef372fe94f82b,
		0xa54ff53a5f1d36f1, 0x510e527fade682d1, 0x9b05688c2b3e6c1f,
		0x1f83d9abfb41bd6b, 0x5be0cd19137e2179
	};

	sha512_core(out, 64, IV, data, len);
}

void fa_sha384(uint8_t out[48], const void *data, size_t len)
{
	static const uint64_t IV[8] = {
		0xcbbb9d5dc1059ed8, 0x629a292a367cd507, 0x9159015a3070dd17,
		0x152fecd8f70e5939, 0x67332667ffc00b31, 0x8eb44a8768581511,
		0xdb0c2e0d64f98fa7, 0x47b5481dbefa4fa4
	};

	sha512_core(out, 48, IV, data, len);
}

/* SHA3-256 (fa_sha3_256, also in the public header) is ML-KEM's,
   src/mlkem/mlkem_sha3.c. */
