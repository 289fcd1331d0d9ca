/*
 * fndsa_inner.h -- what the FN-DSA sources (fndsa_*.c) share: the scheme
 * as the fn-dsa crate 0.4.0 implements it (falcon_accel.h, "FN-DSA").
 * The numeric work runs on the round-3 kernels (kernels.h) wherever the
 * two agree bit for bit (FFT, inverse FFT, the FFT-domain products,
 * sums, split and merge; the NTT mod q); what differs is here: the
 * byte encodings (little-endian bit order), the SHAKE256 sampler stream,
 * the base sampler's 79-bit table and 1/sigma, the LDL step of the
 * Gram matrix (self-adjoint g00, g11: no imaginary parts), key
 * generation's sampling of f, g and its Gram-Schmidt bound.
 */
#ifndef FA_FNDSA_INNER_H
#define FA_FNDSA_INNER_H

#include "inner.h"

/* Generated tables (scripts/gen_fndsa_tables.py -> fndsa_tables.c). */
extern const uint32_t fa_fndsa_gauss0[18 * 3];
extern const uint64_t fa_fndsa_inv_sigma[11];
extern const uint64_t fa_fndsa_sigma_min[11];
extern const uint16_t fa_fndsa_kgdist_512[17];
extern const uint16_t fa_fndsa_kgdist_1024[12];

/* A SHAKE256 output stream read in small pieces (fn-dsa's SHAKE256_PRNG:
   16- and 64-bit words little-endian from consecutive bytes), the
   permutation on backend k's keccak_f1600 slot. */
typedef struct {
	fa_shake256_ctx sc;
	uint8_t buf[136];
	size_t ptr;
	const struct fa_kernels *k;
} fa_fndsa_prng;

void fa_fndsa_prng_init(fa_fndsa_prng *p, const void *seed, size_t len,
	const struct fa_kernels *k);
void fa_fndsa_prng_bytes(fa_fndsa_prng *p, void *out, size_t len);
unsigned fa_fndsa_prng_u8(fa_fndsa_prng *p);
uint32_t fa_fndsa_prng_u16(fa_fndsa_prng *p);
uint64_t fa_fndsa_prng_u64(fa_fndsa_prng *p);

/* Codecs (fndsa_codec.c). Encoders return the bytes written (0: a value
   out of range or no room); decoders the bytes read or a negative
   FA_ERR_* code. */
size_t fa_fndsa_trim_i8_encode(uint8_t *d, const int8_t *f, size_t n,
	unsigned bits);
int fa_fndsa_trim_i8_decode(int8_t *f, size_t n, unsigned bits,
	const uint8_t *d, size_t dlen);
size_t fa_fndsa_modq_encode(uint8_t *d, const uint16_t *h, size_t n);
int fa_fndsa_modq_decode(uint16_t *h, size_t n, const uint8_t *d,
	size_t dlen);
/* s2 compressed into exactly dlen bytes (zero padded); 0 if a value
   exceeds FA_FNDSA_BINF or it does not fit. */
int fa_fndsa_comp_encode(uint8_t *d, size_t dlen, const int16_t *s,
	size_t n);
/* FA_OK or FA_ERR_COEFF_RANGE / FA_ERR_MINUS_ZERO / FA_ERR_PADDING /
   FA_ERR_LENGTH (too short). */
int fa_fndsa_comp_decode(int16_t *s, size_t n, const uint8_t *d,
	size_t dlen);

/* Keys. pk: FA_FNDSA_PUBKEY_SIZE; sk: FA_FNDSA_PRIVKEY_SIZE. */
void fa_fndsa_pubkey_encode(uint8_t *pk, const uint16_t *h, unsigned logn);
int fa_fndsa_pubkey_decode(uint16_t *h, unsigned *logn,
	const uint8_t *pk, size_t pk_len);
void fa_fndsa_privkey_encode(uint8_t *sk, const int8_t *f, const int8_t *g,
	const int8_t *F, const uint8_t *pk, unsigned logn);
/* The public key holds h = g/f in NTT form (fa_to_ntt's order).
   f, g, F, G, the public key (pk_out, may be NULL) recomputed and the key
   checked (falcon_accel.h, fa_fndsa_sign); hsk = SHAKE256(f||g bytes)
   (40 bytes), hpk = the stored SHAKE256(pk) (64 bytes). tmp: 40n
   bytes, 8-byte aligned. */
int fa_fndsa_privkey_decode(int8_t *f, int8_t *g, int8_t *F, int8_t *G,
	uint8_t *hsk, uint8_t *hpk, uint8_t *pk_out, unsigned *logn,
	const uint8_t *sk, size_t sk_len, uint8_t *tmp,
	const struct fa_kernels *k);

/* Hash-to-point of fn-dsa: SHAKE256(nonce || mu), 16-bit little-endian
   samples, kept below 5q, reduced mod q. */
void fa_fndsa_hash_to_point(uint16_t *c, const uint8_t nonce[40],
	const uint8_t mu[64], unsigned logn, const struct fa_kernels *k);

/* Signing core (fndsa_sign.c): signature sig (FA_FNDSA_SIG_SIZE) for mu
   from the hedged seed (40 bytes). Returns FA_OK or FA_ERR_SIGN_ATTEMPTS.
   tmp: FA_TMPSIZE_FNDSA_SIGN(logn) - 16n bytes, 8-byte aligned. */
int fa_fndsa_sign_inner(uint8_t *sig, const uint8_t seed[40],
	const int8_t *f, const int8_t *g, const int8_t *F, const int8_t *G,
	const uint8_t mu[64], unsigned logn, uint8_t *tmp,
	const struct fa_kernels *k);

/* Expanded key body (falcon_accel.h, fa_fndsa_expand_privkey): the basis
   B = [[g, -f], [G, -F]] in FFT form (4n values), then the LDL tree
   ((logn + 1) n values); sampling from it gives the bits of
   fa_fndsa_sign_inner. expand tmp: 4n values; sign_tree tmp: 6n values
   then 4n bytes. */
void fa_fndsa_expand_inner(fpr *body, const int8_t *f, const int8_t *g,
	const int8_t *F, const int8_t *G, unsigned logn, fpr *tmp,
	const struct fa_kernels *k);
int fa_fndsa_sign_tree_inner(uint8_t *sig, const uint8_t seed[40],
	const fpr *body, const uint8_t mu[64], unsigned logn, uint8_t *tmp,
	const struct fa_kernels *k);

/* Key generation core (fndsa_keygen.c): f, g, F, G and h from the seed.
   tmp: 40n bytes, 8-byte aligned (the solver's 5n words, then 5n/2
   fixed-point words). */
void fa_fndsa_keygen_inner(const uint8_t seed[32], int8_t *f, int8_t *g,
	int8_t *F, int8_t *G, uint16_t *h, unsigned logn, uint8_t *tmp,
	const struct fa_kernels *k);

/* Key generation's Gram-Schmidt bound and NTRU solver, as fn-dsa's
   (fndsa_ntru.c): 1 if the candidate is kept. ortho_norm_ok: tmp 5n/2
   words; ntru_solve: tmp 5n words, ftmp 5n/2 words (disjoint). */
int fa_fndsa_ortho_norm_ok(const int8_t *f, const int8_t *g, unsigned logn,
	uint64_t *tmp);
int fa_fndsa_ntru_solve(int8_t *F, int8_t *G, const int8_t *f,
	const int8_t *g, unsigned logn, uint32_t *tmp, uint64_t *ftmp);

/* Generated tables for fndsa_ntru.c: the small primes {p, -1/p mod 2^32,
   2^64 mod p, g, 1/g, 1/(previous primes)} (the last three Montgomery),
   g^1024 = -1; the FFT roots exp(i pi j/1024) at rev10(j), 32.32. */
extern const uint32_t fa_fndsa_primes[308][6];
extern const uint64_t fa_fndsa_fxr_roots[1024][2];

#endif
