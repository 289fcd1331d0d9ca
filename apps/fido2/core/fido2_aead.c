/*
 * ChaCha20 and Poly1305 per RFC 8439. Poly1305 works modulo p = 2^130 - 5
 * with the accumulator and r in five 26-bit limbs; products of a limb of h
 * (< 2^27 after carries) and a limb of r or 5*r (< 2^29) fit 56 bits and a
 * sum of five of them fits in 64 bits. No branch or index depends on key
 * or data.
 */
#include "fido2_aead.h"
#include "fido2_sha256.h"

static inline uint32_t
rol32(uint32_t x, unsigned n)
{
	return (x << n) | (x >> (32 - n));
}

static inline uint32_t
dec32le(const uint8_t *p)
{
	return (uint32_t)p[0] | ((uint32_t)p[1] << 8)
		| ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

static inline void
enc32le(uint8_t *p, uint32_t x)
{
	p[0] = (uint8_t)x;
	p[1] = (uint8_t)(x >> 8);
	p[2] = (uint8_t)(x >> 16);
	p[3] = (uint8_t)(x >> 24);
}

#define QR(a, b, c, d) do { \
		a += b; d ^= a; d = rol32(d, 16); \
		c += d; b ^= c; b = rol32(b, 12); \
		a += b; d ^= a; d = rol32(d, 8); \
		c += d; b ^= c; b = rol32(b, 7); \
	} while (0)

void
fido2_chacha20_block(const uint8_t key[32], uint32_t counter,
	const uint8_t nonce[12], uint8_t out[64])
{
	uint32_t s[16], x[16];
	int i;

	/* "expand 32-byte k" as four little-endian words. */
	s[0] = 0x61707865; s[1] = 0x3320646e; s[2] = 0x79622d32; s[3] = 0x6b206574;
	for (i = 0; i < 8; i++) {
		s[4 + i] = dec32le(key + 4 * i);
	}
	s[12] = counter;
	s[13] = dec32le(nonce);
	s[14] = dec32le(nonce + 4);
	s[15] = dec32le(nonce + 8);
	for (i = 0; i < 16; i++) {
		x[i] = s[i];
	}
	for (i = 0; i < 10; i++) {
		QR(x[0], x[4], x[8], x[12]);
		QR(x[1], x[5], x[9], x[13]);
		QR(x[2], x[6], x[10], x[14]);
		QR(x[3], x[7], x[11], x[15]);
		QR(x[0], x[5], x[10], x[15]);
		QR(x[1], x[6], x[11], x[12]);
		QR(x[2], x[7], x[8], x[13]);
		QR(x[3], x[4], x[9], x[14]);
	}
	for (i = 0; i < 16; i++) {
		enc32le(out + 4 * i, x[i] + s[i]);
	}
	fido2_wipe(s, sizeof s);
	fido2_wipe(x, sizeof x);
}

void
fido2_chacha20_xor(const uint8_t key[32], uint32_t counter,
	const uint8_t nonce[12], uint8_t *buf, size_t len)
{
	uint8_t ks[64];
	while (len > 0) {
		size_t n = len < 64 ? len : 64, i;
		fido2_chacha20_block(key, counter++, nonce, ks);
		for (i = 0; i < n; i++) {
			buf[i] ^= ks[i];
		}
		buf += n;
		len -= n;
	}
	fido2_wipe(ks, sizeof ks);
}

typedef struct {
	uint32_t r[5], h[5], pad[4];
	uint8_t buf[16];
	size_t fill;
} poly1305_ctx;

static void
poly1305_init(poly1305_ctx *pc, const uint8_t key[32])
{
	/* r is clamped (RFC 8439, 2.5.1), then split into 26-bit limbs. */
	uint32_t t0 = dec32le(key) & 0x0fffffff;
	uint32_t t1 = dec32le(key + 4) & 0x0ffffffc;
	uint32_t t2 = dec32le(key + 8) & 0x0ffffffc;
	uint32_t t3 = dec32le(key + 12) & 0x0ffffffc;
	int i;

	pc->r[0] = t0 & 0x3ffffff;
	pc->r[1] = ((t0 >> 26) | (t1 << 6)) & 0x3ffffff;
	pc->r[2] = ((t1 >> 20) | (t2 << 12)) & 0x3ffffff;
	pc->r[3] = ((t2 >> 14) | (t3 << 18)) & 0x3ffffff;
	pc->r[4] = t3 >> 8;
	for (i = 0; i < 5; i++) {
		pc->h[i] = 0;
	}
	for (i = 0; i < 4; i++) {
		pc->pad[i] = dec32le(key + 16 + 4 * i);
	}
	pc->fill = 0;
}

/* h = (h + block + hibit*2^128) * r mod p, block 16 bytes. */
static void
poly1305_block(poly1305_ctx *pc, const uint8_t m[16], uint32_t hibit)
{
	uint32_t r0 = pc->r[0], r1 = pc->r[1], r2 = pc->r[2];
	uint32_t r3 = pc->r[3], r4 = pc->r[4];
	/* 2^130 = 5 mod p: limbs that overflow past 2^130 come back times 5. */
	uint32_t s1 = r1 * 5, s2 = r2 * 5, s3 = r3 * 5, s4 = r4 * 5;
	uint32_t h0, h1, h2, h3, h4, c;
	uint64_t d0, d1, d2, d3, d4;

	h0 = pc->h[0] + (dec32le(m) & 0x3ffffff);
	h1 = pc->h[1] + ((dec32le(m + 3) >> 2) & 0x3ffffff);
	h2 = pc->h[2] + ((dec32le(m + 6) >> 4) & 0x3ffffff);
	h3 = pc->h[3] + ((dec32le(m + 9) >> 6) & 0x3ffffff);
	h4 = pc->h[4] + ((dec32le(m + 12) >> 8) | (hibit << 24));

	d0 = (uint64_t)h0 * r0 + (uint64_t)h1 * s4 + (uint64_t)h2 * s3
		+ (uint64_t)h3 * s2 + (uint64_t)h4 * s1;
	d1 = (uint64_t)h0 * r1 + (uint64_t)h1 * r0 + (uint64_t)h2 * s4
		+ (uint64_t)h3 * s3 + (uint64_t)h4 * s2;
	d2 = (uint64_t)h0 * r2 + (uint64_t)h1 * r1 + (uint64_t)h2 * r0
		+ (uint64_t)h3 * s4 + (uint64_t)h4 * s3;
	d3 = (uint64_t)h0 * r3 + (uint64_t)h1 * r2 + (uint64_t)h2 * r1
		+ (uint64_t)h3 * r0 + (uint64_t)h4 * s4;
	d4 = (uint64_t)h0 * r4 + (uint64_t)h1 * r3 + (uint64_t)h2 * r2
		+ (uint64_t)h3 * r1 + (uint64_t)h4 * r0;

	c = (uint32_t)(d0 >> 26); h0 = (uint32_t)d0 & 0x3ffffff;
	d1 += c; c = (uint32_t)(d1 >> 26); h1 = (uint32_t)d1 & 0x3ffffff;
	d2 += c; c = (uint32_t)(d2 >> 26); h2 = (uint32_t)d2 & 0x3ffffff;
	d3 += c; c = (uint32_t)(d3 >> 26); h3 = (uint32_t)d3 & 0x3ffffff;
	d4 += c; c = (uint32_t)(d4 >> 26); h4 = (uint32_t)d4 & 0x3ffffff;
	h0 += c * 5; c = h0 >> 26; h0 &= 0x3ffffff;
	h1 += c;
	pc->h[0] = h0; pc->h[1] = h1; pc->h[2] = h2; pc->h[3] = h3; pc->h[4] = h4;
}

static void
poly1305_update(poly1305_ctx *pc, const uint8_t *m, size_t len)
{
	while (len > 0) {
		size_t take = 16 - pc->fill;
		if (take > len) {
			take = len;
		}
		fido2_memcpy(pc->buf + pc->fill, m, take);
		pc->fill += take;
		m += take;
		len -= take;
		if (pc->fill == 16) {
			poly1305_block(pc, pc->buf, 1);
			pc->fill = 0;
		}
	}
}

static void
poly1305_final(poly1305_ctx *pc, uint8_t tag[16])
{
	uint32_t h0, h1, h2, h3, h4, c, g0, g1, g2, g3, g4, mask;
	uint64_t f;

	if (pc->fill > 0) {
		/* Last partial block: append 0x01 then zeros, no 2^128 bit. */
		pc->buf[pc->fill] = 1;
		fido2_memset(pc->buf + pc->fill + 1, 0, 15 - pc->fill);
		poly1305_block(pc, pc->buf, 0);
	}
	h0 = pc->h[0]; h1 = pc->h[1]; h2 = pc->h[2]; h3 = pc->h[3]; h4 = pc->h[4];
	/* Full carry. */
	c = h1 >> 26; h1 &= 0x3ffffff; h2 += c;
	c = h2 >> 26; h2 &= 0x3ffffff; h3 += c;
	c = h3 >> 26; h3 &= 0x3ffffff; h4 += c;
	c = h4 >> 26; h4 &= 0x3ffffff; h0 += c * 5;
	c = h0 >> 26; h0 &= 0x3ffffff; h1 += c;
	/* g = h + 5 - 2^130; keep g if it is non-negative (h >= p). */
	g0 = h0 + 5; c = g0 >> 26; g0 &= 0x3ffffff;
	g1 = h1 + c; c = g1 >> 26; g1 &= 0x3ffffff;
	g2 = h2 + c; c = g2 >> 26; g2 &= 0x3ffffff;
	g3 = h3 + c; c = g3 >> 26; g3 &= 0x3ffffff;
	g4 = h4 + c - (1u << 26);
	mask = (g4 >> 31) - 1u;   /* all ones when g4 did not borrow */
	h0 = (h0 & ~mask) | (g0 & mask);
	h1 = (h1 & ~mask) | (g1 & mask);
	h2 = (h2 & ~mask) | (g2 & mask);
	h3 = (h3 & ~mask) | (g3 & mask);
	h4 = (h4 & ~mask) | (g4 & mask);
	/* To 4 x 32 bits, add s = pad, mod 2^128. */
	h0 = h0 | (h1 << 26);
	h1 = (h1 >> 6) | (h2 << 20);
	h2 = (h2 >> 12) | (h3 << 14);
	h3 = (h3 >> 18) | (h4 << 8);
	f = (uint64_t)h0 + pc->pad[0]; enc32le(tag, (uint32_t)f);
	f = (uint64_t)h1 + pc->pad[1] + (f >> 32); enc32le(tag + 4, (uint32_t)f);
	f = (uint64_t)h2 + pc->pad[2] + (f >> 32); enc32le(tag + 8, (uint32_t)f);
	f = (uint64_t)h3 + pc->pad[3] + (f >> 32); enc32le(tag + 12, (uint32_t)f);
	fido2_wipe(pc, sizeof *pc);
}

void
fido2_poly1305(const uint8_t key[32], const uint8_t *msg, size_t len,
	uint8_t tag[16])
{
	poly1305_ctx pc;
	poly1305_init(&pc, key);
	poly1305_update(&pc, msg, len);
	poly1305_final(&pc, tag);
}

/* Poly1305 over aad || pad16 || ct || pad16 || le64(aad_len) || le64(len)
   with the one-time key from block 0 (RFC 8439, 2.8). */
static void
aead_tag(const uint8_t key[32], const uint8_t nonce[12],
	const uint8_t *aad, size_t aad_len, const uint8_t *ct, size_t len,
	uint8_t tag[16])
{
	static const uint8_t zeros[16] = { 0 };
	uint8_t otk[64], lens[16];
	poly1305_ctx pc;
	int i;

	fido2_chacha20_block(key, 0, nonce, otk);
	poly1305_init(&pc, otk);
	poly1305_update(&pc, aad, aad_len);
	poly1305_update(&pc, zeros, (16 - (aad_len & 15)) & 15);
	poly1305_update(&pc, ct, len);
	poly1305_update(&pc, zeros, (16 - (len & 15)) & 15);
	for (i = 0; i < 8; i++) {
		lens[i] = (uint8_t)((uint64_t)aad_len >> (8 * i));
		lens[8 + i] = (uint8_t)((uint64_t)len >> (8 * i));
	}
	poly1305_update(&pc, lens, 16);
	poly1305_final(&pc, tag);
	fido2_wipe(otk, sizeof otk);
}

void
fido2_aead_seal(const uint8_t key[32], const uint8_t nonce[12],
	const uint8_t *aad, size_t aad_len, uint8_t *buf, size_t len,
	uint8_t tag[16])
{
	fido2_chacha20_xor(key, 1, nonce, buf, len);
	aead_tag(key, nonce, aad, aad_len, buf, len, tag);
}

int
fido2_aead_open(const uint8_t key[32], const uint8_t nonce[12],
	const uint8_t *aad, size_t aad_len, uint8_t *buf, size_t len,
	const uint8_t tag[16])
{
	uint8_t t[16];
	int ok;
	aead_tag(key, nonce, aad, aad_len, buf, len, t);
	ok = fido2_ct_equal(t, tag, 16);
	fido2_wipe(t, sizeof t);
	if (!ok) {
		return -1;
	}
	fido2_chacha20_xor(key, 1, nonce, buf, len);
	return 0;
}
