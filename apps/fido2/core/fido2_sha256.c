/*
 * SHA-256 for the FIDO2 core: the library's (src/sha2.c, fa_sha256_*;
 * FIPS 180-4), HMAC-SHA-256 per RFC 2104 on top of it, and the core's
 * memory helpers.
 */
#include "fido2_sha256.h"

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

void
fido2_sha256_init(fido2_sha256_ctx *sc)
{
	fa_sha256_init(sc);
}

void
fido2_sha256_update(fido2_sha256_ctx *sc, const void *data, size_t len)
{
	fa_sha256_update(sc, data, len);
}

void
fido2_sha256_final(fido2_sha256_ctx *sc, uint8_t out[32])
{
	fa_sha256_final(sc, out);
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
