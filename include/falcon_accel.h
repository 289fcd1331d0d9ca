/*
 * falcon_accel.h -- public API of the falcon-accel library.
 *
 * Falcon (round 3, specification v1.2; the version of the NIST KAT files)
 * for degrees n = 2^logn, logn = 1..10. Production degrees are 512
 * (logn = 9) and 1024 (logn = 10); lower degrees exist for tests only and
 * offer no security.
 *
 * Conventions, valid for every function below unless stated otherwise:
 *
 *  - Return value: 0 (FA_OK) on success, a negative FA_ERR_* code on
 *    failure. Functions that return a size or a degree return it as a
 *    non-negative int.
 *  - Buffers: every output buffer comes with its length; the needed
 *    lengths are given by the FA_*_SIZE(logn) macros. Input and output
 *    buffers must not overlap unless stated otherwise.
 *  - Scratch: functions that need temporary memory take a caller-provided
 *    buffer `tmp` of at least FA_TMPSIZE_*(logn) bytes (any alignment).
 *    The core never allocates; the allocating wrappers live in
 *    include/falcon_accel_edge.h (edge library) and are not part of the freestanding build.
 *  - Backends: `be` selects the implementation of the numeric kernels
 *    (FFT, NTT, vector ops, sampler). NULL means fa_backend_default().
 *    Every backend gives bit-identical results.
 *  - Thread safety: there is no global mutable state. Distinct threads may
 *    call any function concurrently as long as they do not share a
 *    writable object (fa_shake256_ctx, output or scratch buffers).
 *  - Constant time: keygen, signing and the constant-time signature
 *    format do not branch on or index memory with secret data in the
 *    emulated floating-point build (rejection loops restart on public
 *    failure events only; the NTRU solver's failure exits discard the
 *    candidate key); the native build relies on the FPU's add/mul/
 *    div/sqrt being constant-time, as they are on current x86-64 cores.
 *    Verification handles public data only.
 *  - Running time: every function returns after a bounded amount of
 *    work. Each declaration below says what bounds it ("Time:"): a
 *    fixed amount set by logn (and by the message length, hashed once),
 *    or, for keygen and signing, a loop of fixed-work iterations whose
 *    count is random, with the probability of exceeding a given count.
 *    n = 2^logn. Measured figures: BENCHMARKS.md. No input makes any
 *    function loop: tests/fuzz (README "Robustness").
 */
#ifndef FALCON_ACCEL_H
#define FALCON_ACCEL_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ */
/* Error codes. */

#define FA_OK                 0
#define FA_ERR_RANDOM        -1  /* the OS random source failed */
#define FA_ERR_SIZE          -2  /* an output or scratch buffer is too small */
#define FA_ERR_FORMAT        -3  /* generic decoding failure */
#define FA_ERR_BADSIG        -4  /* the signature does not verify */
#define FA_ERR_BADARG        -5  /* invalid argument (logn, format, NULL...) */
#define FA_ERR_INTERNAL      -6  /* internal inconsistency (should not happen) */
#define FA_ERR_HEADER        -7  /* wrong header byte (type or degree) */
#define FA_ERR_LENGTH        -8  /* wrong encoded length */
#define FA_ERR_COEFF_RANGE   -9  /* a coefficient is out of its allowed range */
#define FA_ERR_MINUS_ZERO   -10  /* "minus zero" in a compressed signature */
#define FA_ERR_PADDING      -11  /* non-zero padding or unused bits */
#define FA_ERR_BACKEND      -12  /* unknown or unavailable backend */
#define FA_ERR_BUSY         -13  /* a queue is full (middleware) */
#define FA_ERR_KEY          -14  /* the private key is not a valid key (G out of
                                     range, fG - gF != q, basis too long) or
                                     the expanded key is not intact */
#define FA_ERR_CANCELLED    -15  /* a job was cancelled (middleware) */
#define FA_ERR_DEADLINE     -16  /* a job passed its deadline (middleware) */
#define FA_ERR_SIGN_ATTEMPTS -17  /* signing gave up after FA_SIGN_MAX_ATTEMPTS
                                     attempts (never for a valid key in
                                     practice; see FA_SIGN_MAX_ATTEMPTS) */

/* Short English text for an error code (static string, never NULL).
   Time: constant. */
const char *fa_strerror(int err);

/* ------------------------------------------------------------------ */
/* Sizes (bytes). Valid for logn = 1..10. */

#define FA_LOGN_MIN 1
#define FA_LOGN_MAX 10

/* Bits per coefficient of f and g in a private key, per logn. */
#define FA_FG_BITS(logn) \
	((logn) <= 5 ? 8u : (logn) <= 7 ? 7u : (logn) <= 9 ? 6u : 5u)
/* Bits per coefficient of s2 in the constant-time signature format. */
#define FA_SIG_CT_BITS(logn) \
	((logn) == 1 ? 10u : (logn) <= 3 ? 11u : 12u)

/* Public key: header byte 0x00+logn, then h, 14 bits per coefficient. */
#define FA_PUBKEY_SIZE(logn) (1u + (((14u << (logn)) + 7u) >> 3))
/* Private key: header 0x50+logn, f, g (FA_FG_BITS each), F (8 bits). */
#define FA_PRIVKEY_SIZE(logn) \
	(1u + ((2u * FA_FG_BITS(logn)) << (logn) >> 3) + (1u << (logn)))
/* Signatures: header, 40-byte nonce, encoded s2. */
#define FA_NONCE_SIZE 40u
#define FA_SIG_COMPRESSED_MAXSIZE(logn) \
	(41u + (((11u << (logn)) + (101u >> (10 - (logn))) + 7u) >> 3))
#define FA_SIG_PADDED_SIZE(logn) \
	(44u + 3u * (256u >> (10 - (logn))) + 2u * (128u >> (10 - (logn))) \
	+ 3u * (64u >> (10 - (logn))) + 2u * (16u >> (10 - (logn))) \
	- 2u * (2u >> (10 - (logn))) - 8u * (1u >> (10 - (logn))))
#define FA_SIG_CT_SIZE(logn) \
	(41u + ((FA_SIG_CT_BITS(logn) << (logn)) + 7u) / 8u)
/* Largest signature of any format. */
#define FA_SIG_MAXSIZE(logn) FA_SIG_CT_SIZE(logn)

/* Expanded private key (the LDL tree and the basis in FFT form), bytes. */
/* 8-byte header, then 4n + (logn+1)n binary64 values. */
#define FA_EXPANDED_KEY_SIZE(logn) (((8u * (logn) + 40u) << (logn)) + 8u)

/* Scratch sizes (bytes). */
#define FA_TMPSIZE_KEYGEN(logn)   ((((logn) <= 2 ? 128u : 80u) << (logn)) + 32u)
#define FA_TMPSIZE_MAKEPUB(logn)  ((28u << (logn)) + 8u)
#define FA_TMPSIZE_SIGN_DYN(logn) ((88u << (logn)) + 16u)
#define FA_TMPSIZE_SIGN_TREE(logn) ((72u << (logn)) + 16u)
#define FA_TMPSIZE_EXPAND(logn)   ((56u << (logn)) + 16u)
#define FA_TMPSIZE_VERIFY(logn)   ((10u << (logn)) + 16u)

/* Signature formats. */
#define FA_SIG_COMPRESSED 1   /* header 0x30+logn, variable length */
#define FA_SIG_PADDED     2   /* header 0x30+logn, fixed length, zero padded */
#define FA_SIG_CT         3   /* header 0x50+logn, fixed length */

/* ------------------------------------------------------------------ */
/* SHAKE256, also the randomness source of keygen and signing.
   Time: one Keccak-f[1600] permutation per 136 bytes injected or
   extracted (and one per init/flip); nothing depends on the data;
   fa_shake256_init_prng_from_system adds one getrandom call. */

typedef struct {
	uint64_t st[25];
	uint64_t dptr;   /* bytes absorbed/squeezed in the current block */
	uint64_t flipped;
} fa_shake256_ctx;

void fa_shake256_init(fa_shake256_ctx *sc);
void fa_shake256_inject(fa_shake256_ctx *sc, const void *data, size_t len);
/* Switch from absorbing to squeezing. */
void fa_shake256_flip(fa_shake256_ctx *sc);
void fa_shake256_extract(fa_shake256_ctx *sc, void *out, size_t len);
/* init + inject(seed) + flip. */
void fa_shake256_init_prng_from_seed(fa_shake256_ctx *sc,
	const void *seed, size_t seed_len);
/* Seed from the OS (getrandom). Returns FA_OK or FA_ERR_RANDOM. Not
   available in the freestanding build. */
int fa_shake256_init_prng_from_system(fa_shake256_ctx *sc);

/* ------------------------------------------------------------------ */
/* Backends. A backend is a table of kernels (FFT, NTT, vector ops,
   SamplerZ); "portable" always exists and is the reference. */

typedef struct fa_kernels fa_backend;

/* Number of registered backends, and the i-th (NULL past the end).
   Registered backends may be unavailable on this machine.
   Time (every backend function): at most a name comparison per
   registered backend, plus one CPUID query (avx2 availability). */
size_t fa_backend_count(void);
const fa_backend *fa_backend_at(size_t i);
/* Backend by name, or NULL if unknown or unavailable on this machine. */
const fa_backend *fa_backend_find(const char *name);
/* The backend named by $FALCON_ACCEL_BACKEND if set and available,
   else the fastest available one. Never NULL. */
const fa_backend *fa_backend_default(void);
const char *fa_backend_name(const fa_backend *be);
int fa_backend_available(const fa_backend *be);

/* ------------------------------------------------------------------ */
/* Keys. */

/* Degree (logn) of an encoded key or signature from its header byte,
   or a negative error code. Time: constant. */
int fa_get_logn(const void *obj, size_t len);

/* Key pair generation with randomness from `rng` (a flipped SHAKE256
   context). The NIST KAT procedure seeds rng with 48 bytes. Writes
   FA_PRIVKEY_SIZE(logn) bytes to sk and FA_PUBKEY_SIZE(logn) to pk (pk may
   be NULL).
   Time: draws (f, g) until a candidate passes keygen's checks and the
   NTRU solver; each draw is fixed work set by logn, their number is random and
   independent of anything but rng (measured at logn 9 on a loaded
   2-vCPU VM, 100 keys: median 3.0 ms, maximum 8.7 ms, i.e. about three
   draws' worth; the solver is polynomial in n, the rest O(n log n)). */
int fa_keygen(const fa_backend *be, fa_shake256_ctx *rng, unsigned logn,
	void *sk, size_t sk_len, void *pk, size_t pk_len,
	void *tmp, size_t tmp_len);

/* Private keys are checked when decoded (fa_make_public, fa_expand_privkey,
   fa_sign_dyn*): besides the encoding, the key must be one that fa_keygen
   could have produced -- f invertible mod q, G = gF/f mod q within
   [-127, 127], the NTRU equation fG - gF = q holding exactly over the
   integers, ||(f, g)||^2 < 16823 and keygen's Gram-Schmidt bound --
   else FA_ERR_KEY. The check costs four NTTs mod a 15-bit prime and a
   few FFTs of size n, in constant time.
   Time (fa_make_public, fa_expand_privkey): fixed by logn: the decoders
   read at most the key length once, then O(n log n) transforms (NTT mod
   q, NTT mod 18433, FFT); no loop depends on the key's values. */

/* Public key from a private key. */
int fa_make_public(void *pk, size_t pk_len, const void *sk, size_t sk_len,
	void *tmp, size_t tmp_len);

/* Expanded private key (LDL tree) for fast repeated signing.
   expanded_key: 8-byte aligned, at least FA_EXPANDED_KEY_SIZE(logn) bytes.
   The 8-byte header holds 0x60+logn, 'F', 'A', a version byte and a
   32-bit checksum of the body (version 1: 64-bit lanes, written on 64-bit
   hosts; 2: 32-bit lanes, written on 32-bit cores; both are accepted
   everywhere); fa_sign_tree* return FA_ERR_KEY for a
   buffer whose header or checksum does not match (detects corruption and
   buffers that never were expanded keys; it is not a MAC). */
int fa_expand_privkey(const fa_backend *be, void *expanded_key,
	size_t expanded_key_len, const void *sk, size_t sk_len,
	void *tmp, size_t tmp_len);

/* ------------------------------------------------------------------ */
/* Signing.
   fa_sign_dyn / fa_sign_tree draw the 40-byte nonce, then a 48-byte
   sampler seed, from rng. The _ex variants take the nonce and a flipped
   SHAKE256 sampler context explicitly (the NIST KAT procedure).
   On input *sig_len is the size of sig; on output, the signature length.
   For the padded and CT formats the length is fixed; a compressed
   signature that does not fit the padded size is re-sampled.

   Termination: an attempt (a fresh sampler seed, ffSampling, the norm
   check and the encoding) is repeated at most FA_SIGN_MAX_ATTEMPTS times;
   then the functions return FA_ERR_SIGN_ATTEMPTS with nothing written.
   For a key that passes the decoder's checks, an attempt fails with
   probability about 0.30 at logn = 1, 0.12 at logn = 5, 0.0006 at
   logn = 8 and below 0.003 at logn 9 and 10 (measured over 2,000 to
   10,000 signatures per degree: tests/test_privkey_check.c with
   FA_REJECTION_FULL=1; README "Robustness"), so the bound is never
   reached in practice (probability below 0.31^128 < 2^-216 per
   signature at any degree). Within an attempt, the work is fixed by
   logn except SamplerZ's rejection loop, whose trial count is geometric
   (each trial accepts with a probability bounded away from 0 for every
   leaf sigma in [sigma_min, sigma_max], which the key checks ensure).

   Time: one hash of the message, then at most FA_SIGN_MAX_ATTEMPTS
   attempts, each O(n log n) fixed work (in fa_sign_dyn including the
   LDL decomposition) plus 2n SamplerZ calls; fa_sign_dyn first decodes
   and checks the key as fa_make_public does (fixed work, once);
   fa_sign_tree first checks the expanded key's checksum (one pass over
   it). Each SamplerZ trial accepts with probability at least 0.503 for
   every sigma in [sigma_min, sigma_max] and every centre (computed over
   logn 1..10), so a call exceeds 64 trials with probability below
   0.497^64 < 2^-64, and a signature has any call beyond 64 trials with
   probability below 128 * 2048 * 2^-64 = 2^-46.

   fa_sign_tree / fa_sign_tree_ex: expanded_key must be a buffer written
   by fa_expand_privkey (FA_EXPANDED_KEY_SIZE(logn) bytes, 8-byte
   aligned; logn is read from its header), unmodified; FA_ERR_KEY if its
   header or checksum is wrong, FA_ERR_BADARG if it is misaligned. */
#define FA_SIGN_MAX_ATTEMPTS 128u

int fa_sign_dyn(const fa_backend *be, fa_shake256_ctx *rng,
	void *sig, size_t *sig_len, int sig_format,
	const void *sk, size_t sk_len, const void *msg, size_t msg_len,
	void *tmp, size_t tmp_len);
int fa_sign_dyn_ex(const fa_backend *be, const uint8_t nonce[40],
	fa_shake256_ctx *sampler_rng,
	void *sig, size_t *sig_len, int sig_format,
	const void *sk, size_t sk_len, const void *msg, size_t msg_len,
	void *tmp, size_t tmp_len);
int fa_sign_tree(const fa_backend *be, fa_shake256_ctx *rng,
	void *sig, size_t *sig_len, int sig_format,
	const void *expanded_key, const void *msg, size_t msg_len,
	void *tmp, size_t tmp_len);
int fa_sign_tree_ex(const fa_backend *be, const uint8_t nonce[40],
	fa_shake256_ctx *sampler_rng,
	void *sig, size_t *sig_len, int sig_format,
	const void *expanded_key, const void *msg, size_t msg_len,
	void *tmp, size_t tmp_len);

/* ------------------------------------------------------------------ */
/* Verification. sig_format 0 accepts any format (from the header).
   Returns FA_OK, FA_ERR_BADSIG, or a decoding error code.
   Time (fa_verify, fa_verify_prepared, fa_pubkey_prepare): fixed by logn
   and the message length: decoding reads each input byte at most once,
   hash-to-point runs SHAKE256 over nonce || msg, then for the
   compressed and padded formats draws 16-bit values until n are below
   5q (the specification's rejection sampler: each draw is kept with
   probability 61445/65536 > 0.93, so more than 2n + 64 draws happen
   with probability below 2^-64 at every logn), for the CT format a
   fixed number of draws set by logn; then two NTTs (one with a prepared
   key) and the norm. */

int fa_verify(const fa_backend *be, const void *sig, size_t sig_len,
	int sig_format, const void *pk, size_t pk_len,
	const void *msg, size_t msg_len, void *tmp, size_t tmp_len);

/* A decoded public key in NTT form, reusable across verifications and
   shareable between threads (read-only). */
typedef struct {
	uint32_t logn;
	uint16_t h_ntt[1024];
} fa_prepared_pubkey;

int fa_pubkey_prepare(const fa_backend *be, fa_prepared_pubkey *pp,
	const void *pk, size_t pk_len);
int fa_verify_prepared(const fa_backend *be, const void *sig,
	size_t sig_len, int sig_format, const fa_prepared_pubkey *pp,
	const void *msg, size_t msg_len, void *tmp, size_t tmp_len);

#ifdef __cplusplus
}
#endif

#endif
