/*
 * SHA-256 as specified in FIPS 180-4, section 6.2; HMAC per RFC 2104.
 * The round constants K are the first 32 bits of the fractional parts of
 * the cube roots of the first 64 primes, the initial H those of the square
 * roots of the first 8 primes (FIPS 180-4, 4.2.2 and 5.3.3). They are
 * checked against that definition by apps/fido2/tests/gen_sha256_consts.py.
 */
#include "fido2_sha256.h"

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

static const uint32_t H256_INIT[8] = {
	0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
	0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19
};

void
fido2_memcpy(void *dst, const void *src, size_t len)
{
	uint8_t *d = dst;
	const uint8_t *s = src;
	while (len-- > 0) {
		*d++ = *s++;
	}
}

void
fido2_memset(void *dst, int v, size_t len)
{
	uint8_t *d = dst;
	while (len-- > 0) {
		*d++ = (uint8_t)v;
	}
}

void
fido2_wipe(void *p, size_t len)
{
	volatile uint8_t *d = p;
	while (len-- > 0) {
		*d++ = 0;
	}
}

int
fido2_ct_equal(const void *a, const void *b, size_t len)
{
	const uint8_t *x = a, *y = b;
	uint32_t acc = 0;
	size_t i;
	for (i = 0; i < len; i++) {
		acc |= (uint32_t)(x[i] ^ y[i]);
	}
	/* acc in 0..255; (acc - 1) >> 31 is 1 exactly when acc == 0. */
	return (int)(((acc - 1u) >> 31) & 1u);
}

static inline uint32_t
ror32(uint32_t x, unsigned n)
{
	return (x >> n) | (x << (32 - n));
}

static inline uint32_t
dec32be(const uint8_t *p)
{
	return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16)
		| ((uint32_t)p[2] << 8) | (uint32_t)p[3];
}

static inline void
enc32be(uint8_t *p, uint32_t x)
{
	p[0] = (uint8_t)(x >> 24);
	p[1] = (uint8_t)(x >> 16);
	p[2] = (uint8_t)(x >> 8);
	p[3] = (uint8_t)x;
}

/* One compression (FIPS 180-4, 6.2.2) of a 64-byte block into h. */
static void
sha256_block(uint32_t h[8], const uint8_t blk[64])
{
	uint32_t w[64];
	uint32_t a, b, c, d, e, f, g, hh;
	int t;

	for (t = 0; t < 16; t++) {
		w[t] = dec32be(blk + 4 * t);
	}
	for (t = 16; t < 64; t++) {
		uint32_t s0 = ror32(w[t - 15], 7) ^ ror32(w[t - 15], 18)
			^ (w[t - 15] >> 3);
		uint32_t s1 = ror32(w[t - 2], 17) ^ ror32(w[t - 2], 19)
			^ (w[t - 2] >> 10);
		w[t] = w[t - 16] + s0 + w[t - 7] + s1;
	}
	a = h[0]; b = h[1]; c = h[2]; d = h[3];
	e = h[4]; f = h[5]; g = h[6]; hh = h[7];
	for (t = 0; t < 64; t++) {
		uint32_t S1 = ror32(e, 6) ^ ror32(e, 11) ^ ror32(e, 25);
		uint32_t ch = (e & f) ^ (~e & g);
		uint32_t t1 = hh + S1 + ch + K256[t] + w[t];
		uint32_t S0 = ror32(a, 2) ^ ror32(a, 13) ^ ror32(a, 22);
		uint32_t maj = (a & b) ^ (a & c) ^ (b & c);
		uint32_t t2 = S0 + maj;
		hh = g; g = f; f = e; e = d + t1;
		d = c; c = b; b = a; a = t1 + t2;
	}
	h[0] += a; h[1] += b; h[2] += c; h[3] += d;
	h[4] += e; h[5] += f; h[6] += g; h[7] += hh;
}

void
fido2_sha256_init(fido2_sha256_ctx *sc)
{
	int i;
	for (i = 0; i < 8; i++) {
		sc->h[i] = H256_INIT[i];
	}
	sc->total = 0;
}

void
fido2_sha256_update(fido2_sha256_ctx *sc, const void *data, size_t len)
{
	const uint8_t *p = data;
	size_t fill = (size_t)(sc->total & 63u);

	sc->total += len;
	if (fill > 0) {
		size_t take = 64 - fill;
		if (take > len) {
			take = len;
		}
		fido2_memcpy(sc->buf + fill, p, take);
		p += take;
		len -= take;
		fill += take;
		if (fill < 64) {
			return;
		}
		sha256_block(sc->h, sc->buf);
	}
	while (len >= 64) {
		sha256_block(sc->h, p);
		p += 64;
		len -= 64;
	}
	if (len > 0) {
		fido2_memcpy(sc->buf, p, len);
	}
}

void
fido2_sha256_final(fido2_sha256_ctx *sc, uint8_t out[32])
{
	/* Padding (FIPS 180-4, 5.1.1): 0x80, zeros to 56 mod 64, then the
	   message length in bits as a 64-bit big-endian integer. */
	uint64_t bits = sc->total << 3;
	size_t fill = (size_t)(sc->total & 63u);
	int i;

	sc->buf[fill++] = 0x80;
	if (fill > 56) {
		fido2_memset(sc->buf + fill, 0, 64 - fill);
		sha256_block(sc->h, sc->buf);
		fill = 0;
	}
	fido2_memset(sc->buf + fill, 0, 56 - fill);
	for (i = 0; i < 8; i++) {
		sc->buf[56 + i] = (uint8_t)(bits >> (56 - 8 * i));
	}
	sha256_block(sc->h, sc->buf);
	for (i = 0; i < 8; i++) {
		enc32be(out + 4 * i, sc->h[i]);
	}
	fido2_wipe(sc, sizeof *sc);
}

void
fido2_sha256(const void *data, size_t len, uint8_t out[32])
{
	fido2_sha256_ctx sc;
	fido2_sha256_init(&sc);
	fido2_sha256_update(&sc, data, len);
	fido2_sha256_final(&sc, out);
}

void
fido2_hmac_sha256(const void *key, size_t key_len,
	const void *data, size_t data_len, uint8_t out[32])
{
	uint8_t k[64], pad[64], inner[32];
	fido2_sha256_ctx sc;
	int i;

	fido2_memset(k, 0, sizeof k);
	if (key_len > 64) {
		fido2_sha256(key, key_len, k);
	} else {
		fido2_memcpy(k, key, key_len);
	}
	for (i = 0; i < 64; i++) {
		pad[i] = k[i] ^ 0x36;
	}
	fido2_sha256_init(&sc);
	fido2_sha256_update(&sc, pad, 64);
	fido2_sha256_update(&sc, data, data_len);
	fido2_sha256_final(&sc, inner);
	for (i = 0; i < 64; i++) {
		pad[i] = k[i] ^ 0x5c;
	}
	fido2_sha256_init(&sc);
	fido2_sha256_update(&sc, pad, 64);
	fido2_sha256_update(&sc, inner, 32);
	fido2_sha256_final(&sc, out);
	fido2_wipe(k, sizeof k);
	fido2_wipe(pad, sizeof pad);
	fido2_wipe(inner, sizeof inner);
}
