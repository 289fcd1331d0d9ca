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
 *    The core never allocates; the allocating wrappers live in the
 *    service's edge library (service/include/falcon_accel_edge.h), not
 *    in the freestanding build.
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

/* ------------------------------------------------------------------ */
/* FN-DSA (provisional FIPS 206), beside round-3 Falcon above.

   WHICH FN-DSA: no FIPS 206 text is published yet. These functions
   implement the "best guess" of 2026-07-22 by Thomas Pornin, exactly as
   the fn-dsa Rust crate version 0.4.0 implements it (keys, signatures,
   message representative, pre-hash identifiers, key generation and
   signing randomness), and are tested byte for byte against it
   (tests/fndsa/, README "FN-DSA"). When the final standard is published
   this API will follow it, with a version bump and no compatibility with
   the objects made by this version; nothing here is silently kept
   compatible. Round-3 Falcon above stays the default of the library, the
   CLI and the KATs, unchanged.

   Scheme (fn-dsa 0.4.0):
    - degrees logn = 2..10 (9: FN-DSA-512, 10: FN-DSA-1024; below 9 test
      degrees only, as fn-dsa's "weak" types);
    - public key: header 0x00+logn, h = g/f mod q in NTT form (the
      library's NTT order, kernels.h), four 14-bit values per 7 bytes,
      little-endian; FA_FNDSA_PUBKEY_SIZE(logn) bytes (897, 1793);
    - private key: header 0x50+logn, f, g (FA_FG_BITS each), F (8 bits),
      bits packed little-endian, then SHAKE256(public key) (64 bytes);
      FA_FNDSA_PRIVKEY_SIZE(logn) bytes (1345, 2369);
    - signature: header 0x30+logn, 40-byte nonce, s2 compressed
      (little-endian bit order, |s2[i]| <= 840), zero padded to the fixed
      FA_FNDSA_SIG_SIZE(logn) (666, 1280);
    - message representative mu = SHAKE256(SHAKE256(pk) (64 bytes) ||
      0x00 || len(ctx) || ctx || M) (pure), or SHAKE256(SHAKE256(pk) ||
      0x01 || len(ctx) || ctx || OID(hash) || hash(M)) (pre-hash), 64
      bytes; ctx is a context string of 0..255 bytes;
    - signing: the 40-byte seed (from rng, or given) is hedged into
      SHAKE256(SHAKE256(f||g encoding) (40 bytes) || mu || seed); attempt
      j (0..26) samples with the SHAKE256 stream of hedged seed || j,
      whose first 40 bytes are the nonce; hash-to-point SHAKE256(nonce ||
      mu); s1 and s2 within 840 in absolute value; same norm bound as
      round 3;
    - key generation: deterministic from a 32-byte seed, fn-dsa's key
      for every seed (its ntrugen procedure: f, g from a CDT table on
      SHAKE256(seed), the Gram-Schmidt bound and the NTRU solver computed
      as fn-dsa does, in 32.32 fixed point and residue arithmetic, so
      that the same candidates (f, g) are rejected and the same F, G
      found; checked on the crate's keys for 2,900 seeds at degrees 4 to
      1024, tests/fndsa).
   Same byte encodings' headers as round 3 but different bit orders and
   sizes: an FN-DSA function given a round-3 object returns FA_ERR_SCHEME
   (a round-3 private key: 1281/2305 bytes; a public key or signature
   that decodes only as round 3; a round-3 compressed or constant-time
   signature). The round-3 functions above do not accept FN-DSA objects
   (a private key has the wrong length; a public key or padded signature
   fails to decode or to verify).

   Constant time: signing and verification as the round-3 functions
   (same kernels). Key generation: sampling, the checks and the NTRU
   solver (src/fndsa_ntru.c: fixed loop counts, word counts and memory
   indices by logn, data-dependent choices as masks, integer and
   fixed-point arithmetic only) are constant-time; public are the
   verdicts that discard a candidate (a coefficient redrawn, f not
   invertible, a norm bound missed, the solver's rejection) and hence the
   number of candidates. Not covered, as in fn-dsa: 64-bit shifts by a
   secret count below 32 (on 32-bit targets the compiler may branch on
   it) and a multiplier whose timing depends on operand sizes. The
   hashing of the message and of the context is public-data work. */

#define FA_ERR_SCHEME       -18  /* an object of the other scheme (a
                                     round-3 Falcon key or signature given
                                     to an FN-DSA function) */

#define FA_FNDSA_LOGN_MIN 2
#define FA_FNDSA_LOGN_MAX 10
#define FA_FNDSA_PUBKEY_SIZE(logn)  FA_PUBKEY_SIZE(logn)
#define FA_FNDSA_PRIVKEY_SIZE(logn) (FA_PRIVKEY_SIZE(logn) + 64u)
#define FA_FNDSA_SIG_SIZE(logn)     FA_SIG_PADDED_SIZE(logn)
#define FA_FNDSA_KEYGEN_SEED_SIZE 32u
#define FA_FNDSA_SIGN_SEED_SIZE   40u
#define FA_FNDSA_MU_SIZE          64u
#define FA_FNDSA_CTX_MAX          255u
/* Maximum s1 and s2 coefficient (absolute value) in a signature. */
#define FA_FNDSA_BINF             840

/* Pre-hash functions (ph argument). FA_FNDSA_PH_NONE: pure FN-DSA, the
   message itself is passed; otherwise the caller passes the hash of the
   message (32, 48, 64 or 32 bytes), whose DER OID enters mu. */
#define FA_FNDSA_PH_NONE     0
#define FA_FNDSA_PH_SHA256   1   /* OID 2.16.840.1.101.3.4.2.1 */
#define FA_FNDSA_PH_SHA384   2   /* 2.16.840.1.101.3.4.2.2 */
#define FA_FNDSA_PH_SHA512   3   /* 2.16.840.1.101.3.4.2.3 */
#define FA_FNDSA_PH_SHA3_256 4   /* 2.16.840.1.101.3.4.2.8 */
/* Hash output length for ph (0 for FA_FNDSA_PH_NONE), or a negative
   error for an unknown ph. Time: constant. */
int fa_fndsa_ph_size(int ph);

/* Scratch sizes (bytes). */
#define FA_TMPSIZE_FNDSA_KEYGEN(logn) ((48u << (logn)) + 64u)
#define FA_TMPSIZE_FNDSA_SIGN(logn)   ((120u << (logn)) + 64u)
#define FA_TMPSIZE_FNDSA_VERIFY(logn) ((10u << (logn)) + 16u)

/* fa_strerror with FA_ERR_SCHEME. Time: constant. */
const char *fa_fndsa_strerror(int err);

/* Key pair from a 32-byte seed (as fn-dsa's KeyPairGenerator given an RNG
   whose first 32 bytes are the seed), or from a seed drawn from rng (a
   flipped SHAKE256 context). sk: FA_FNDSA_PRIVKEY_SIZE(logn) bytes, pk:
   FA_FNDSA_PUBKEY_SIZE(logn) bytes (pk may be NULL); lengths must be at
   least these (FA_ERR_SIZE); logn outside 2..10: FA_ERR_BADARG.
   tmp: FA_TMPSIZE_FNDSA_KEYGEN(logn) bytes, any alignment.
   Time: candidates (f, g) until one passes; each candidate's work is fixed by logn (the checks, then the NTRU
   solver for those that pass them). */
int fa_fndsa_keygen(const fa_backend *be, fa_shake256_ctx *rng,
	unsigned logn, void *sk, size_t sk_len, void *pk, size_t pk_len,
	void *tmp, size_t tmp_len);
int fa_fndsa_keygen_seed(const fa_backend *be, const uint8_t seed[32],
	unsigned logn, void *sk, size_t sk_len, void *pk, size_t pk_len,
	void *tmp, size_t tmp_len);

/* Public key from a private key (recomputed from f, g; the stored
   SHAKE256(pk) must match: else FA_ERR_KEY). tmp: FA_TMPSIZE_FNDSA_SIGN. */
int fa_fndsa_make_public(void *pk, size_t pk_len, const void *sk,
	size_t sk_len, void *tmp, size_t tmp_len);

/* mu (64 bytes) for a public key, a context (ctx_len <= 255, ctx may be
   NULL when ctx_len is 0) and a message (ph = FA_FNDSA_PH_NONE) or its
   hash (other ph; msg_len must be fa_fndsa_ph_size(ph): FA_ERR_LENGTH).
   The public key is checked as fa_fndsa_verify does. Time: one SHAKE256
   over the key, one over ctx and the message. */
int fa_fndsa_compute_mu(uint8_t mu[64], const void *pk, size_t pk_len,
	const void *ctx, size_t ctx_len, int ph, const void *msg,
	size_t msg_len);

/* Signing. sig: FA_FNDSA_SIG_SIZE(logn) bytes written (sig_len at least
   that, else FA_ERR_SIZE). The private key is decoded and checked: f
   invertible mod q, G = gF/f mod q within [-127, 127], fG - gF = q
   exactly, the stored SHAKE256(pk) equal to that of the recomputed public
   key (else FA_ERR_KEY; a round-3 key: FA_ERR_SCHEME). ctx_len > 255 or
   an unknown ph: FA_ERR_BADARG; a hash of the wrong size: FA_ERR_LENGTH.
   fa_fndsa_sign draws the 40-byte seed from rng; fa_fndsa_sign_seed takes
   it (deterministic: the signature fn-dsa makes when its RNG returns
   those 40 bytes); fa_fndsa_sign_mu signs an external mu (64 bytes; the
   context is then the caller's business), with the seed from seed when
   not NULL, else from rng. At most 27 attempts (fn-dsa's bound; a
   valid key needs more with probability below 2^-256): else
   FA_ERR_SIGN_ATTEMPTS.
   Time: decoding and checking the key (fixed by logn), hashing, then per
   attempt O(n log n) fixed work plus 2n SamplerZ calls (as fa_sign_dyn;
   the expected number of attempts is below 1.003 at 512 and 1024). */
int fa_fndsa_sign(const fa_backend *be, fa_shake256_ctx *rng,
	void *sig, size_t sig_len, const void *sk, size_t sk_len,
	const void *ctx, size_t ctx_len, int ph,
	const void *msg, size_t msg_len, void *tmp, size_t tmp_len);
int fa_fndsa_sign_seed(const fa_backend *be, const uint8_t seed[40],
	void *sig, size_t sig_len, const void *sk, size_t sk_len,
	const void *ctx, size_t ctx_len, int ph,
	const void *msg, size_t msg_len, void *tmp, size_t tmp_len);
int fa_fndsa_sign_mu(const fa_backend *be, fa_shake256_ctx *rng,
	const uint8_t *seed, void *sig, size_t sig_len,
	const void *sk, size_t sk_len, const uint8_t mu[64],
	void *tmp, size_t tmp_len);

/* Expanded private key for repeated signing: the key decoded and checked
   once (as fa_fndsa_sign does), the FFT basis and the LDL tree of its
   Gram matrix computed once. expanded_key: 8-byte aligned (else
   FA_ERR_BADARG), at least FA_FNDSA_EXPANDED_KEY_SIZE(logn) bytes (else
   FA_ERR_SIZE); its 8-byte header holds 0x70+logn, 'F', 'N', a version
   byte and a 32-bit checksum of the body (versions as fa_expand_privkey's;
   not a MAC). tmp: FA_TMPSIZE_FNDSA_SIGN(logn). Errors as fa_fndsa_sign's
   key errors.
   Time: as fa_fndsa_sign's key decoding and checks, plus the LDL tree:
   fixed by logn. */
#define FA_FNDSA_EXPANDED_KEY_SIZE(logn) \
	(((8u * (logn) + 40u) << (logn)) + 112u)
#define FA_TMPSIZE_FNDSA_SIGN_TREE(logn) ((56u << (logn)) + 64u)
int fa_fndsa_expand_privkey(const fa_backend *be, void *expanded_key,
	size_t expanded_key_len, const void *sk, size_t sk_len,
	void *tmp, size_t tmp_len);

/* Signing with an expanded key: the same signature as fa_fndsa_sign_seed
   / fa_fndsa_sign_mu with the same key, seed and message (the tree holds
   what they compute per attempt, computed the same way). The 40-byte
   seed from seed when not NULL, else from rng. fa_fndsa_sign_tree signs
   a message (ctx, ph as fa_fndsa_sign), fa_fndsa_sign_tree_mu an
   external mu. expanded_key: written by fa_fndsa_expand_privkey,
   unmodified: FA_ERR_KEY if its header or checksum is wrong,
   FA_ERR_SCHEME for a round-3 expanded key (fa_expand_privkey),
   FA_ERR_BADARG if misaligned. tmp: FA_TMPSIZE_FNDSA_SIGN_TREE(logn).
   Time: one pass over the expanded key (checksum), hashing, then per
   attempt O(n log n) fixed work plus 2n SamplerZ calls (no LDL), as
   fa_fndsa_sign otherwise. */
int fa_fndsa_sign_tree(const fa_backend *be, fa_shake256_ctx *rng,
	const uint8_t *seed, void *sig, size_t sig_len,
	const void *expanded_key, const void *ctx, size_t ctx_len, int ph,
	const void *msg, size_t msg_len, void *tmp, size_t tmp_len);
int fa_fndsa_sign_tree_mu(const fa_backend *be, fa_shake256_ctx *rng,
	const uint8_t *seed, void *sig, size_t sig_len,
	const void *expanded_key, const uint8_t mu[64], void *tmp,
	size_t tmp_len);

/* Verification: FA_OK, FA_ERR_BADSIG, or a decoding error of the public
   key or of the signature (FA_ERR_HEADER, FA_ERR_LENGTH,
   FA_ERR_COEFF_RANGE, FA_ERR_MINUS_ZERO, FA_ERR_PADDING; FA_ERR_SCHEME for
   a round-3 object), FA_ERR_BADARG / FA_ERR_LENGTH as for signing.
   Time: fixed by logn and the message length (decoding, SHAKE256 over
   the key, mu, hash-to-point as fa_verify's, two NTTs, the norms). */
int fa_fndsa_verify(const fa_backend *be, const void *sig, size_t sig_len,
	const void *pk, size_t pk_len, const void *ctx, size_t ctx_len,
	int ph, const void *msg, size_t msg_len, void *tmp, size_t tmp_len);
int fa_fndsa_verify_mu(const fa_backend *be, const void *sig,
	size_t sig_len, const void *pk, size_t pk_len, const uint8_t mu[64],
	void *tmp, size_t tmp_len);

/* SHA-2 (FIPS 180-4) one-shot, used for pre-hashing (the library's own,
   freestanding). Time: one compression per 64 (SHA-256) or 128 bytes. */
void fa_sha256(uint8_t out[32], const void *data, size_t len);
/* SHA-256 over data given in pieces: init, any number of updates, final
   (which leaves the context to be initialised again). */
typedef struct {
	uint32_t h[8];
	uint8_t buf[64];
	uint64_t total;     /* bytes absorbed so far */
} fa_sha256_ctx;
void fa_sha256_init(fa_sha256_ctx *sc);
void fa_sha256_update(fa_sha256_ctx *sc, const void *data, size_t len);
void fa_sha256_final(fa_sha256_ctx *sc, uint8_t out[32]);
void fa_sha384(uint8_t out[48], const void *data, size_t len);
void fa_sha512(uint8_t out[64], const void *data, size_t len);
/* SHA3-256 (FIPS 202) one-shot. */
void fa_sha3_256(uint8_t out[32], const void *data, size_t len);
/* The hash of ph (not FA_FNDSA_PH_NONE) of data into out
   (fa_fndsa_ph_size(ph) bytes); FA_OK or FA_ERR_BADARG. */
int fa_fndsa_prehash(uint8_t *out, int ph, const void *data, size_t len);

#ifdef __cplusplus
}
#endif

#endif
