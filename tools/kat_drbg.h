/*
 * kat_drbg.h -- the deterministic random source of the NIST PQC KAT
 * generator (AES-256 CTR_DRBG without derivation function, as NIST's
 * rng.c: randombytes_init(entropy48, NULL, 256) and randombytes()).
 *
 * Test tooling only: it is not part of the core library, and its AES is
 * table based (S-box lookups indexed by key/state bytes, so not constant
 * time). It reproduces the KAT files, it does not protect secrets.
 */
#ifndef FA_KAT_DRBG_H
#define FA_KAT_DRBG_H

#include <stddef.h>
#include <stdint.h>

/* AES-256 with its expanded key (15 round keys of 16 bytes). */
typedef struct {
	uint8_t sbox[256];
	uint8_t round_keys[15 * 16];
} fa_kat_aes256;

/* CTR_DRBG state: Key (32 bytes), V (16 bytes, a big-endian counter). */
typedef struct {
	uint8_t key[32];
	uint8_t v[16];
	uint64_t reseed_counter;
	fa_kat_aes256 aes;   /* expanded `key` */
} fa_kat_drbg;

/* One AES-256 block encryption (FIPS-197); in and out may alias. */
void fa_kat_aes256_init(fa_kat_aes256 *aes, const uint8_t key[32]);
void fa_kat_aes256_encrypt(const fa_kat_aes256 *aes,
	const uint8_t in[16], uint8_t out[16]);

/* randombytes_init(entropy, NULL, 256). */
void fa_kat_drbg_init(fa_kat_drbg *d, const uint8_t entropy[48]);
/* randombytes(out, len). */
void fa_kat_drbg_random(fa_kat_drbg *d, void *out, size_t len);

#endif
