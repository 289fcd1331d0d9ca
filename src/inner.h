/*
 * inner.h -- declarations shared by the library sources (not installed).
 *
 * The kernel seam, the representations it works on and the generated
 * tables the kernels read are in kernels.h (included here).
 */
#ifndef FA_INNER_H
#define FA_INNER_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "falcon_accel.h"
#include "fpr.h"
#include "kernels.h"

/* Round a caller scratch pointer up to 8 bytes (fpr and uint64_t
   alignment); scratch sizes include the 7 bytes this may skip. */
static inline void *fa_align8(void *p)
{
	return (void *)(((uintptr_t)p + 7) & ~(uintptr_t)7);
}

/* ------------------------------------------------------------------ */
/* Generated tables (scripts/gen_tables.py -> src/tables.c) that no
   kernel reads (the others: kernels.h). */

/* Key generation Gaussian for n = 1024: [0] = 2^63 * P(x = 0), then for
   k >= 1, 2^63 * P(|x| > k | x != 0). */
extern const uint64_t fa_keygen_gauss[27];

/* Constants (binary64 bit patterns). */
#define FPR_ZERO          fpr_from_bits(0)
#define FPR_ONE           fpr_from_bits(0x3FF0000000000000u)
#define FPR_Q             fpr_from_bits(0x40C8008000000000u)  /* 12289 */
#define FPR_INV_Q         fpr_from_bits(0x3F1554E39097A782u)  /* 1/12289 */
#define FPR_INV_2SQRSIGMA0 fpr_from_bits(0x3FC34F8BC183BBC2u) /* 1/(2*1.8205^2) */
#define FPR_LOG2          fpr_from_bits(0x3FE62E42FEFA39EFu)
#define FPR_INV_LOG2      fpr_from_bits(0x3FF71547652B82FEu)
#define FPR_BNORM_MAX     fpr_from_bits(0x40D06D9A5FD8ADACu)  /* 16822.4121 */
#define FPR_PTWO63        fpr_from_bits(0x43E0000000000000u)  /* 2^63 */

/* ------------------------------------------------------------------ */
/* SHAKE256 internals (shake256.c). */

/* Keccak-f[1600] on 25 lanes, lane (x, y) at st[x + 5y] (keccak_f1600.c):
   the form for the target, and the 32-bit form (tested on every host). */
void fa_keccak_f1600(uint64_t *st);
void fa_keccak_f1600_w32(uint64_t *st);
/* Its round constants RC[0..23] (also read by the AVX2 backend). */
extern const uint64_t fa_keccak_rc[24];
/* fa_shake256_inject / _extract with every permutation through backend
   k's keccak_f1600 slot (the same bytes for every backend). */
void fa_shake256_inject_k(const struct fa_kernels *k, fa_shake256_ctx *sc,
	const void *data, size_t len);
void fa_shake256_extract_k(const struct fa_kernels *k, fa_shake256_ctx *sc,
	void *out, size_t len);
/* The next 8 bytes of a flipped SHAKE256 context as a little-endian
   64-bit value (the same bytes as fa_shake256_extract(sc, b, 8)). */
uint64_t fa_shake256_extract_u64(fa_shake256_ctx *sc);

/* ------------------------------------------------------------------ */
/* Codec (codec.c). Encoders return the number of bytes written, or 0 on
   error (value out of range or buffer too small); with out == NULL they
   return the needed length. Decoders return the number of bytes read or
   a negative FA_ERR_* code (FA_ERR_COEFF_RANGE, FA_ERR_MINUS_ZERO,
   FA_ERR_PADDING, FA_ERR_LENGTH). */

/* 14 bits per coefficient, values in [0, q-1]. */
size_t fa_modq_encode(void *out, size_t max_out_len,
	const uint16_t *x, unsigned logn);
int fa_modq_decode(uint16_t *x, unsigned logn,
	const void *in, size_t max_in_len);
/* Signed values on `bits` bits, two's complement, -2^(bits-1) excluded. */
size_t fa_trim_i8_encode(void *out, size_t max_out_len,
	const int8_t *x, unsigned logn, unsigned bits);
int fa_trim_i8_decode(int8_t *x, unsigned logn, unsigned bits,
	const void *in, size_t max_in_len);
size_t fa_trim_i16_encode(void *out, size_t max_out_len,
	const int16_t *x, unsigned logn, unsigned bits);
int fa_trim_i16_decode(int16_t *x, unsigned logn, unsigned bits,
	const void *in, size_t max_in_len);
/* Compressed (Golomb-Rice-like) encoding of s2; |x| <= 2047. */
size_t fa_comp_encode(void *out, size_t max_out_len,
	const int16_t *x, unsigned logn);
int fa_comp_decode(int16_t *x, unsigned logn,
	const void *in, size_t max_in_len);

/* Keys (codec_keys.c), falcon_accel.h formats. Encoders return the
   length written (FA_PUBKEY_SIZE / FA_PRIVKEY_SIZE) or 0; decoders FA_OK
   or a negative FA_ERR_* code, and set *logn_out on success. */
size_t fa_pubkey_encode(uint8_t *pk, const uint16_t *h, unsigned logn);
int fa_pubkey_decode(uint16_t *h, unsigned *logn_out,
	const uint8_t *pk, size_t pk_len);
size_t fa_privkey_encode(uint8_t *sk, const int8_t *f, const int8_t *g,
	const int8_t *F, unsigned logn);
/* f, g, F only (G not computed, the key not checked). */
int fa_privkey_decode(int8_t *f, int8_t *g, int8_t *F,
	unsigned *logn_out, const uint8_t *sk, size_t sk_len);
/* f, g, F, G recomputed, and the key checked as one keygen could have
   produced (FA_ERR_KEY otherwise). tmp: FA_TMPSIZE_PRIVCHECK(logn)
   bytes, any alignment. */
#define FA_TMPSIZE_PRIVCHECK(logn) ((24u << (logn)) + 7u)
int fa_privkey_decode_full(int8_t *f, int8_t *g, int8_t *F, int8_t *G,
	unsigned *logn_out, const uint8_t *sk, size_t sk_len, uint8_t *tmp,
	const struct fa_kernels *k);

/* ------------------------------------------------------------------ */
/* Hash-to-point (hash_to_point.c) and the norm bound (sig_norm.c). */

/* Hash-to-point from a flipped SHAKE256 context: n values in [0, q-1].
   vartime: rejection sampling as the spec; ct: same output, constant
   time (tmp unused, may be NULL; it works on a fixed stack array). */
void fa_hash_to_point_vartime(fa_shake256_ctx *sc, uint16_t *x,
	unsigned logn);
void fa_hash_to_point_ct(fa_shake256_ctx *sc, uint16_t *x, unsigned logn,
	uint8_t *tmp);
/* The same with the SHAKE256 permutations through backend k's
   keccak_f1600 slot (the functions above use portable). */
void fa_hash_to_point_vartime_k(const struct fa_kernels *k,
	fa_shake256_ctx *sc, uint16_t *x, unsigned logn);
void fa_hash_to_point_ct_k(const struct fa_kernels *k, fa_shake256_ctx *sc,
	uint16_t *x, unsigned logn, uint8_t *tmp);
/* Squared-norm acceptance bound of a signature, per logn (floor(beta^2)). */
extern const uint32_t fa_l2bound[11];
/* 1 if ||(s1, s2)||^2 <= bound, s1 and s2 as int16. */
int fa_is_short(const int16_t *s1, const int16_t *s2, unsigned logn);
/* Same, with ||s1||^2 given (saturated to 2^32-1 on overflow). */
int fa_is_short_half(uint32_t sqn, const int16_t *s2, unsigned logn);

/* ------------------------------------------------------------------ */
/* Arithmetic mod q (ntt.c). The tmp buffers below are used as uint16_t
   arrays: they must be 2-byte aligned. */

/* h = g/f mod (x^n+1, q). Returns 0 if f is not invertible. tmp: 2n bytes. */
int fa_compute_public(uint16_t *h, const int8_t *f, const int8_t *g,
	unsigned logn, uint8_t *tmp, const struct fa_kernels *k);
/* G from f, g, F (fG - gF = q). Returns 0 if f is not invertible mod q or
   G has a coefficient outside [-127, 127]. tmp: 4n bytes. */
int fa_complete_private(int8_t *G, const int8_t *f, const int8_t *g,
	const int8_t *F, unsigned logn, uint8_t *tmp,
	const struct fa_kernels *k);
/* Convert h (in place) to NTT form. */
void fa_to_ntt(uint16_t *h, unsigned logn, const struct fa_kernels *k);
/* Verify s2 against c0 (hashed message) and h in NTT form:
   s1 = c0 - s2*h mod q, accept iff ||(s1, s2)||^2 <= bound. Returns 1 if
   acceptable. tmp: 2n bytes. */
int fa_verify_raw(const uint16_t *c0, const int16_t *s2,
	const uint16_t *h_ntt, unsigned logn, uint8_t *tmp,
	const struct fa_kernels *k);

/* ------------------------------------------------------------------ */
/* Key generation (keygen.c; the NTRU solver: kgen_*.c, kgen_inner.h). */

/* Solve fG - gF = q for F, G with coefficients in [-127, 127], exactly as
   the reference does (same F, G). Returns 1 on success, 0 on failure
   (then keygen draws new f, g). tmp: FA_TMPSIZE_NTRU(logn) bytes. */
#define FA_TMPSIZE_NTRU(logn) ((((logn) <= 2 ? 108u : 64u) << (logn)) + 8u)
int fa_ntru_solve(int8_t *F, int8_t *G, const int8_t *f, const int8_t *g,
	unsigned logn, void *tmp, const struct fa_kernels *k);

void fa_keygen_inner(fa_shake256_ctx *rng, int8_t *f, int8_t *g,
	int8_t *F, int8_t *G, uint16_t *h, unsigned logn, uint8_t *tmp,
	const struct fa_kernels *k);

/* ------------------------------------------------------------------ */
/* Signing (sign.c). s2 out; hm in [0, q-1]. tmp sizes as the public
   FA_TMPSIZE_SIGN_* macros. */

void fa_expand_privkey_inner(fpr *expanded_key, const int8_t *f,
	const int8_t *g, const int8_t *F, const int8_t *G, unsigned logn,
	uint8_t *tmp, const struct fa_kernels *k);
/* Sampling attempts until (s1, s2) is short, at most max_attempts (each
   draws a fresh sampler seed from rng). Returns the number of attempts
   used (1..max_attempts), or 0 if none was short (s2 then unspecified). */
unsigned fa_sign_dyn_inner(int16_t *s2, fa_shake256_ctx *rng,
	const int8_t *f, const int8_t *g, const int8_t *F, const int8_t *G,
	const uint16_t *hm, unsigned logn, uint8_t *tmp,
	const struct fa_kernels *k, unsigned max_attempts);
unsigned fa_sign_tree_inner(int16_t *s2, fa_shake256_ctx *rng,
	const fpr *expanded_key, const uint16_t *hm, unsigned logn,
	uint8_t *tmp, const struct fa_kernels *k, unsigned max_attempts);
/* The fast-Fourier sampling core of fa_sign_tree_inner alone: (z0, z1)
   near (t0, t1) with the LDL tree of an expanded key (expanded_key + 4n),
   the sampler state sc advanced as in a signature. The reference model of
   the RTL engine (hw/ffsamp). tmp: 2n fpr; z0, z1, t0, t1 distinct. */
void fa_ffsamp_tree_inner(fa_sampler_ctx *sc, fpr *z0, fpr *z1,
	const fpr *tree, const fpr *t0, const fpr *t1, unsigned logn,
	fpr *tmp);

/* ------------------------------------------------------------------ */
/* Private-key checks (privkey_check.c, keygen.c), used by the decoder. */

/* 1 iff fG - gF = q exactly in Z[x]/(x^n+1), for |f|, |g| within
   FA_FG_BITS and |F|, |G| <= 127, G = gF/f mod q (fa_complete_private).
   tmp: 9n bytes, 2-byte aligned. Constant time. */
int fa_ntru_equation_ok(const int8_t *f, const int8_t *g, const int8_t *F,
	const int8_t *G, unsigned logn, uint8_t *tmp);
/* 1 iff ||(f, g)||^2 < 16823 (keygen's step 2 bound). Constant time. */
int fa_fg_norm_ok(const int8_t *f, const int8_t *g, unsigned logn);
/* Keygen's step 3: squared Gram-Schmidt norm of the second basis vector
   below 16822.4121. tmp: 3n fpr. */
int fa_gs_norm_ok(const int8_t *f, const int8_t *g, unsigned logn,
	fpr *tmp, const struct fa_kernels *k);
/* The same bound by Parseval's identity (no inverse FFTs), with a
   relative margin of 2^-20 so that every keygen key passes: the private-key
   decoder's check (keygen.c). tmp: 3n fpr. */
int fa_gs_norm_ok_parseval(const int8_t *f, const int8_t *g, unsigned logn,
	fpr *tmp, const struct fa_kernels *k);
/*
 * w mod q for w < 5q = 61445 (hash-to-point's samples) without a
 * division (a 32-bit core's divider takes tens of cycles): with
 * M = 349497 = ceil(2^32 / q), M q = 2^32 + 1337, so w M / 2^32 = w / q + w 1337 / (q 2^32); the second term is below
 * 1/q for w < 2^32 / 1337, and w / q is at most 1 - 1/q above its
 * floor, hence floor(w M / 2^32) = floor(w / q): the high word of one
 * 32x32 product. Every w < 5q is checked in tests/test_shake.c.
 */
static inline uint32_t fa_mod_q_small(uint32_t w)
{
	uint32_t t = (uint32_t)(((uint64_t)w * 349497u) >> 32);

	return w - t * FA_Q;
}

/* Checksums of an expanded key body: version 1 over nw 64-bit words
   (cheap on 64-bit hosts), version 2 over nw 32-bit words (cheap on
   32-bit cores). privkey_check.c. */
uint32_t fa_expanded_key_checksum(const uint64_t *w, size_t nw,
	unsigned logn);
uint32_t fa_expanded_key_checksum32(const uint32_t *w, size_t nw,
	unsigned logn);
/* Version 2's last step: the word count nw, then the eight lane states
   h[0..7] (lane j: words 8i + j, the tail words in lane 0), folded into
   the checksum. A backend that runs the lanes (the rtl backend's checksum
   unit, hw/eksum) ends with it. */
uint32_t fa_ek_checksum32_fold(const uint32_t h[8], size_t nw);
/* The version fa_expand_privkey writes: the checksum that is cheap on
   this core (2 where pointers are 32 bits wide, else 1). */
#if UINTPTR_MAX <= 0xFFFFFFFFu
#define FA_EK_VERSION_NATIVE 2u
#else
#define FA_EK_VERSION_NATIVE 1u
#endif
/* Writes the 8-byte header of the expanded key ek (body in place) with
   the checksum of the given version (1 or 2). api.c. */
void fa_expanded_key_seal(uint8_t *ek, unsigned logn, unsigned version);
/* logn of an expanded key whose header (version 1 or 2) and checksum
   match its body, else FA_ERR_KEY. Reads FA_EXPANDED_KEY_SIZE(logn)
   bytes, ek 8-byte aligned. */
int fa_expanded_key_check(const uint8_t *ek);
/* The same with the version-2 checksum on k's ek_checksum32 slot. */
int fa_expanded_key_check_k(const uint8_t *ek, const struct fa_kernels *k);

#endif
