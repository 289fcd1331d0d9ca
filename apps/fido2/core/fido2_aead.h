/*
 * ChaCha20-Poly1305 AEAD (RFC 8439), used to wrap the key seed of a
 * non-discoverable credential into its credential ID.
 *
 * Why this AEAD: it needs no tables and no hardware support (constant time
 * in plain C on rv32 and x86-64 alike, unlike table-based AES), it is a
 * published standard with test vectors, and a 96-bit random nonce per
 * credential is far from its birthday bound for the handful of credentials
 * a key creates.
 */
#ifndef FIDO2_AEAD_H
#define FIDO2_AEAD_H

#include <stddef.h>
#include <stdint.h>

#define FIDO2_AEAD_KEY_SIZE   32u
#define FIDO2_AEAD_NONCE_SIZE 12u
#define FIDO2_AEAD_TAG_SIZE   16u

/* ChaCha20 block function (RFC 8439, 2.3): 64 bytes of key stream. */
void fido2_chacha20_block(const uint8_t key[32], uint32_t counter,
	const uint8_t nonce[12], uint8_t out[64]);
/* XOR len bytes of key stream starting at block `counter` into buf. */
void fido2_chacha20_xor(const uint8_t key[32], uint32_t counter,
	const uint8_t nonce[12], uint8_t *buf, size_t len);
/* Poly1305 one-time MAC (RFC 8439, 2.5). */
void fido2_poly1305(const uint8_t key[32], const uint8_t *msg, size_t len,
	uint8_t tag[16]);

/* Encrypts buf in place and writes the tag. */
void fido2_aead_seal(const uint8_t key[32], const uint8_t nonce[12],
	const uint8_t *aad, size_t aad_len, uint8_t *buf, size_t len,
	uint8_t tag[16]);
/* Checks the tag (constant time) and decrypts buf in place. Returns 0 on
   success, -1 if the tag does not match (buf is then left encrypted). */
int fido2_aead_open(const uint8_t key[32], const uint8_t nonce[12],
	const uint8_t *aad, size_t aad_len, uint8_t *buf, size_t len,
	const uint8_t tag[16]);

#endif
