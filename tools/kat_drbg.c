/*
 * kat_drbg.c -- AES-256 CTR_DRBG of the NIST PQC KAT generator.
 *
 * The DRBG (NIST SP 800-90A, CTR_DRBG with AES-256, no derivation
 * function, no prediction resistance, as in NIST's rng.c):
 *
 *   state: Key (32 bytes), V (16 bytes, big-endian 128-bit counter).
 *   Update(data48): for i = 0, 1, 2: V = V + 1; T_i = AES_Key(V);
 *                   (Key || V) = (T_0 || T_1 || T_2) xor data48
 *                   (data48 = 0 when absent).
 *   Init(entropy48): Key = 0, V = 0; Update(entropy48).
 *   Generate(len):  repeat: V = V + 1; output AES_Key(V) (the last block
 *                   truncated); then Update(none).
 *
 * AES-256 is computed byte-wise from the FIPS-197 definitions; the S-box
 * is derived at key setup (inverse in GF(2^8) then the affine map), so
 * no constant table is pasted here.
 */
#include <string.h>

#include "kat_drbg.h"

/* ------------------------------------------------------------------ */
/* GF(2^8) modulo x^8 + x^4 + x^3 + x + 1 (0x11B). */

/* x * a */
static uint8_t gf_xtime(uint8_t a)
{
	return (uint8_t)((a << 1) ^ ((a >> 7) * 0x1B));
}

/* a * b (shift-and-add) */
static uint8_t gf_mul(uint8_t a, uint8_t b)
{
	uint8_t r = 0;
	int i;

	for (i = 0; i < 8; i ++) {
		r ^= (uint8_t)(-(b & 1) & a);
		a = gf_xtime(a);
		b >>= 1;
	}
	return r;
}

/* a^254 = a^(-1) for a != 0, and 0 for a = 0. */
static uint8_t gf_inv(uint8_t a)
{
	uint8_t r = 1, sq = a;
	unsigned e = 254;

	while (e != 0) {
		if (e & 1) {
			r = gf_mul(r, sq);
		}
		sq = gf_mul(sq, sq);
		e >>= 1;
	}
	return r;
}

static uint8_t rotl8(uint8_t x, unsigned k)
{
	return (uint8_t)((x << k) | (x >> (8 - k)));
}

/* S(x) = A(x^-1) + 0x63, A the FIPS-197 affine map. */
static void aes_make_sbox(uint8_t sbox[256])
{
	unsigned x;

	for (x = 0; x < 256; x ++) {
		uint8_t b = gf_inv((uint8_t)x);
		sbox[x] = (uint8_t)(b ^ rotl8(b, 1) ^ rotl8(b, 2)
			^ rotl8(b, 3) ^ rotl8(b, 4) ^ 0x63);
	}
}

/* ------------------------------------------------------------------ */
/* AES-256 (Nk = 8 key words, Nr = 14 rounds). */

/* Key expansion (the S-box must be set). */
static void aes_set_key(fa_kat_aes256 *aes, const uint8_t key[32])
{
	uint8_t *w = aes->round_keys;
	uint8_t rcon = 1;
	unsigned i;

	memcpy(w, key, 32);
	/* Word i (4 bytes at w + 4i), i = 8..59. */
	for (i = 8; i < 60; i ++) {
		uint8_t t[4];
		unsigned j;

		memcpy(t, w + 4 * (i - 1), 4);
		if (i % 8 == 0) {
			/* RotWord, SubWord, xor Rcon. */
			uint8_t t0 = t[0];
			t[0] = (uint8_t)(aes->sbox[t[1]] ^ rcon);
			t[1] = aes->sbox[t[2]];
			t[2] = aes->sbox[t[3]];
			t[3] = aes->sbox[t0];
			rcon = gf_xtime(rcon);
		} else if (i % 8 == 4) {
			for (j = 0; j < 4; j ++) {
				t[j] = aes->sbox[t[j]];
			}
		}
		for (j = 0; j < 4; j ++) {
			w[4 * i + j] = (uint8_t)(w[4 * (i - 8) + j] ^ t[j]);
		}
	}
}

void fa_kat_aes256_init(fa_kat_aes256 *aes, const uint8_t key[32])
{
	aes_make_sbox(aes->sbox);
	aes_set_key(aes, key);
}

/* State s[4c + r] = row r of column c (input byte order). */
static void aes_sub_shift(uint8_t s[16], const uint8_t sbox[256])
{
	uint8_t t[16];
	unsigned r, c;

	/* Row r moves left by r columns: new[r][c] = old[r][c + r]. */
	for (c = 0; c < 4; c ++) {
		for (r = 0; r < 4; r ++) {
			t[4 * c + r] = sbox[s[4 * ((c + r) & 3) + r]];
		}
	}
	memcpy(s, t, 16);
}

/* Each column times {03}x^3 + {01}x^2 + {01}x + {02} mod x^4 + 1. */
static void aes_mix_columns(uint8_t s[16])
{
	unsigned c;

	for (c = 0; c < 4; c ++) {
		uint8_t *a = s + 4 * c;
		uint8_t a0 = a[0], a1 = a[1], a2 = a[2], a3 = a[3];
		uint8_t all = (uint8_t)(a0 ^ a1 ^ a2 ^ a3);

		/* 2*a_r + 3*a_{r+1} + a_{r+2} + a_{r+3}
		   = a_r + all + 2*(a_r + a_{r+1}) */
		a[0] = (uint8_t)(a0 ^ all ^ gf_xtime((uint8_t)(a0 ^ a1)));
		a[1] = (uint8_t)(a1 ^ all ^ gf_xtime((uint8_t)(a1 ^ a2)));
		a[2] = (uint8_t)(a2 ^ all ^ gf_xtime((uint8_t)(a2 ^ a3)));
		a[3] = (uint8_t)(a3 ^ all ^ gf_xtime((uint8_t)(a3 ^ a0)));
	}
}

static void aes_add_round_key(uint8_t s[16], const uint8_t *rk)
{
	unsigned i;

	for (i = 0; i < 16; i ++) {
		s[i] ^= rk[i];
	}
}

void fa_kat_aes256_encrypt(const fa_kat_aes256 *aes,
	const uint8_t in[16], uint8_t out[16])
{
	uint8_t s[16];
	unsigned round;

	memcpy(s, in, 16);
	aes_add_round_key(s, aes->round_keys);
	for (round = 1; round < 14; round ++) {
		aes_sub_shift(s, aes->sbox);
		aes_mix_columns(s);
		aes_add_round_key(s, aes->round_keys + 16 * round);
	}
	aes_sub_shift(s, aes->sbox);
	aes_add_round_key(s, aes->round_keys + 16 * 14);
	memcpy(out, s, 16);
}

/* ------------------------------------------------------------------ */
/* CTR_DRBG. */

/* V = V + 1 mod 2^128, big-endian. */
static void drbg_increment_v(uint8_t v[16])
{
	int i;

	for (i = 15; i >= 0; i --) {
		if (++ v[i] != 0) {
			break;
		}
	}
}

/* Update(data): data is 48 bytes or NULL (all zero). */
static void drbg_update(fa_kat_drbg *d, const uint8_t *data)
{
	uint8_t t[48];
	unsigned i;

	for (i = 0; i < 3; i ++) {
		drbg_increment_v(d->v);
		fa_kat_aes256_encrypt(&d->aes, d->v, t + 16 * i);
	}
	if (data != NULL) {
		for (i = 0; i < 48; i ++) {
			t[i] ^= data[i];
		}
	}
	memcpy(d->key, t, 32);
	memcpy(d->v, t + 32, 16);
	aes_set_key(&d->aes, d->key);
}

void fa_kat_drbg_init(fa_kat_drbg *d, const uint8_t entropy[48])
{
	memset(d->key, 0, sizeof d->key);
	memset(d->v, 0, sizeof d->v);
	fa_kat_aes256_init(&d->aes, d->key);
	drbg_update(d, entropy);
	d->reseed_counter = 1;
}

void fa_kat_drbg_random(fa_kat_drbg *d, void *out, size_t len)
{
	uint8_t *p = out;
	uint8_t block[16];

	while (len > 0) {
		size_t k = len < 16 ? len : 16;

		drbg_increment_v(d->v);
		fa_kat_aes256_encrypt(&d->aes, d->v, block);
		memcpy(p, block, k);
		p += k;
		len -= k;
	}
	drbg_update(d, NULL);
	d->reseed_counter ++;
}
