/*
 * SHA-256 (FIPS 180-4: the library's, fa_sha256_* of falcon_accel.h) and
 * HMAC-SHA-256 (RFC 2104) for the FIDO2 authenticator core: rpId hashes,
 * key wrapping keys, record checksums. Freestanding: no allocation, no
 * stdio. Constant time in the data (the compression function has no
 * data-dependent branch or index).
 */
#ifndef FIDO2_SHA256_H
#define FIDO2_SHA256_H

#include <stddef.h>
#include <stdint.h>

#include "falcon_accel.h"

#define FIDO2_SHA256_SIZE 32u

typedef fa_sha256_ctx fido2_sha256_ctx;

void fido2_sha256_init(fido2_sha256_ctx *sc);
void fido2_sha256_update(fido2_sha256_ctx *sc, const void *data, size_t len);
void fido2_sha256_final(fido2_sha256_ctx *sc, uint8_t out[32]);
void fido2_sha256(const void *data, size_t len, uint8_t out[32]);

/* HMAC-SHA-256 with a key of any length. */
void fido2_hmac_sha256(const void *key, size_t key_len,
	const void *data, size_t data_len, uint8_t out[32]);

/* Constant-time comparison: 1 if equal, 0 otherwise. */
int fido2_ct_equal(const void *a, const void *b, size_t len);
/* Memory helpers (the core links no libc string functions of its own). */
void fido2_memcpy(void *dst, const void *src, size_t len);
void fido2_memset(void *dst, int v, size_t len);
/* Zeroization that the compiler may not elide. */
void fido2_wipe(void *p, size_t len);

#endif
