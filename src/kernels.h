/*
 * kernels.h -- the kernel seam (not installed): the representations the
 * kernels work on, the generated tables they read, the SamplerZ PRNG and
 * context, the slot list, struct fa_kernels, the portable kernels and the
 * dispatchers fa_k_<slot>. src/inner.h includes it; the kernel benchmarks
 * (tools/bench.c) and the RTL cycle counter (hw/syn/rtl_cycles.c) need
 * only this header.
 *
 * Representations used throughout:
 *
 *  - q = 12289. "mq" values are uint16_t in [0, q-1] (plain, not
 *    Montgomery form) at every function boundary.
 *  - NTT form (fa_mq_ntt): for a polynomial a of degree n = 2^logn modulo
 *    x^n+1, slot j (0 <= j < n) holds a(psi_n^(2*brv_logn(j)+1)) mod q,
 *    where psi_n = 7^(1024/n) mod q (7 has order 2048 mod q) and brv_logn
 *    reverses the logn low bits of j. Values plain, in [0, q-1].
 *  - FFT form (fa_fft): a real polynomial f of degree n is stored as n fpr;
 *    in FFT form slot j (0 <= j < n/2) holds the complex value
 *    f(zeta_n^(2*brv_logn(j)+1)), zeta_n = exp(i*pi/n), real part at [j],
 *    imaginary part at [j + n/2]. The other n/2 evaluations are the
 *    conjugates and are not stored. The forward transform is a negacyclic
 *    Cooley-Tukey FFT whose first level is the layout itself (f[j] + i*f[j+n/2]);
 *    see fft.c for the exact sequence of operations, which every backend
 *    reproduces so that results are bit-identical.
 *  - Small polynomials (f, g, F, G) are int8_t; signature vectors int16_t.
 */
#ifndef FA_KERNELS_H
#define FA_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#include "falcon_accel.h"
#include "fpr.h"

#define FA_Q 12289u

#define MKN(logn) ((size_t)1 << (logn))

/* ------------------------------------------------------------------ */
/* Generated tables the kernels read (scripts/gen_tables.py ->
   src/tables.c). */

/* FFT roots: fa_fft_roots[2k], [2k+1] = bit patterns of cos, sin of
   pi * brv_10(k) / 1024, k = 0..1023. */
extern const uint64_t fa_fft_roots[2048];
/* Reverse cumulative distribution of the half-Gaussian of SamplerZ's base
   sampler (sigma0 = 1.8205), 72-bit values split in three 24-bit words,
   high word first. */
extern const uint32_t fa_rcdt[18 * 3];
/* 1/sigma and sigma_min per logn (bit patterns), index 1..10. */
extern const uint64_t fa_inv_sigma[11];
extern const uint64_t fa_sigma_min[11];
/* Polynomial coefficients of the exp(-x) approximation (FACCT), scaled
   by 2^63. */
extern const uint64_t fa_expm_coeffs[13];

/* NTT tables (scripts/gen_ntt_tables.py -> src/ntt_tables.c), Montgomery
   form with R = 2^16: psi^brv_10(k) and psi^-brv_10(k) for k < 1024, and
   1/n per logn. Shared by the portable and the SIMD NTTs. */
extern const uint16_t fa_ntt_psi_mont[1024];
extern const uint16_t fa_ntt_ipsi_mont[1024];
extern const uint16_t fa_ntt_ninv_mont[11];

/* ------------------------------------------------------------------ */
/* SamplerZ PRNG (ChaCha20, eight interleaved blocks, as the reference). */

typedef struct {
	uint8_t buf[512];
	size_t ptr;
	uint8_t state[56];   /* key+IV words 4..15 (48 bytes), counter (8) */
} fa_prng;

void fa_prng_init(fa_prng *p, fa_shake256_ctx *src);
/* The seeding half of fa_prng_init: the caller then fills the buffer
   with the prng_refill slot (any backend: they are all equal). */
void fa_prng_seed(fa_prng *p, fa_shake256_ctx *src);

typedef struct fa_sampler_ctx {
	fa_prng p;
	fpr sigma_min;
	const struct fa_kernels *k;
} fa_sampler_ctx;

/* FN-DSA's sampler stream (fn-dsa 0.4.0, src/fndsa_sign.c): the SHAKE256
   output of the attempt's seed read as one contiguous byte stream,
   whatever the block boundaries. buf[ptr..end) are the next unread
   bytes; fa_fndsa_sampler_refill moves them to the front and extracts
   FA_FNDSA_SAMP_CHUNK more (the permutations on k's keccak_f1600 slot),
   so a reader that needs m <= FA_FNDSA_SAMP_KEEP contiguous bytes calls
   it while end - ptr < m. Refills may come at different times for
   different readers: what the stream position is, and hence every byte
   read after it, is pos = base + ptr (base: stream offset of buf[0]). */
#define FA_FNDSA_SAMP_CHUNK 544     /* four SHAKE256 blocks */
#define FA_FNDSA_SAMP_KEEP  136
typedef struct fa_fndsa_sampler {
	uint8_t buf[FA_FNDSA_SAMP_CHUNK + FA_FNDSA_SAMP_KEEP];
	size_t ptr, end;
	uint64_t base;
	fa_shake256_ctx sc;
	fpr sigma_min;        /* fn-dsa's sigma_min for the key's degree */
	const struct fa_kernels *k;
} fa_fndsa_sampler;

/* Stream from seed (len bytes), for a key of degree logn. */
void fa_fndsa_sampler_init(fa_fndsa_sampler *s, const void *seed,
	size_t len, unsigned logn, const struct fa_kernels *k);
/* The unread bytes (at most FA_FNDSA_SAMP_KEEP) to the front, then
   FA_FNDSA_SAMP_CHUNK more. */
void fa_fndsa_sampler_refill(fa_fndsa_sampler *s);

/* ------------------------------------------------------------------ */
/*
 * The kernel seam.
 *
 * A backend is a struct fa_kernels: a name, an availability check and one
 * function pointer per kernel ("slot"). The portable kernels
 * fa_<slot>_portable (fft.c, ntt.c, sampler.c, prng.c) are the reference:
 * they implement every slot and sit in no table. A backend fills only the
 * slots it accelerates and leaves the others NULL (designated
 * initialisers). The library never calls a slot itself: it calls the
 * dispatcher fa_k_<slot>(k, ...), generated below from one definition,
 * which runs k's kernel when the slot is set and the portable kernel when
 * the slot is NULL or the kernel returned FA_KERNEL_FALLBACK.
 *
 * Contract of a backend kernel (tests/test_backends.c checks it for every
 * backend, slot and logn 0..10):
 *  - Result: FA_KERNEL_DONE once it has computed the slot's result, or
 *    FA_KERNEL_FALLBACK having written nothing (outputs, in-place inputs
 *    and sampler state untouched), for any size or condition it does not
 *    handle: a degree too small for its vectors, a device that is absent or
 *    reports an error. The portable kernel then runs on the same inputs.
 *  - Bit-exact with portable: the same output bits for every input within
 *    the ranges below (the FFT-domain kernels reproduce the portable
 *    sequence of binary64 operations, no fused multiply-add); the sampler
 *    slots return the same values and consume the same PRNG bytes (same
 *    p->ptr and buffer contents after the call).
 *  - Sizes: logn in [0, 10], n = 2^logn (signing and verifying use 1..10;
 *    the NTRU solver of degree-2 keys reaches logn 0). An FFT-domain
 *    polynomial is n fpr (n/2 complex values, layout at top); an
 *    NTT-domain one n uint16_t.
 *  - Values: mq slots take and return values in [0, q-1]; fpr slots take
 *    finite values (divisors of the div slots and invnorm2's sum without
 *    zeros) and may produce whatever portable produces.
 *  - Alignment: only the element type's (8 bytes for fpr, 2 for uint16_t);
 *    kernels use unaligned vector loads and stores.
 *  - Aliasing: distinct pointer arguments do not overlap, except where a
 *    slot's comment allows it.
 *  - Threads: a kernel may run in several threads at once on distinct
 *    buffers and distinct sampler contexts; a backend that shares one
 *    device (rtl) serialises its device calls itself.
 *
 * Adding a slot: (1) one X(slot, (parameters), (argument names)) line in
 * FA_KERNEL_SLOTS below, with a comment stating what it computes;
 * (2) the portable kernel "void fa_<slot>_portable(parameters)" in the
 * core library (its prototype is generated here); (3) a case in
 * tests/test_backends.c (the slot against portable on zero,
 * single-coefficient and random inputs, logn 0..10). Backends that do not
 * accelerate it need no change. Callers use fa_k_<slot>(k, arguments);
 * a backend kernel has the same parameters and returns FA_KERNEL_DONE or
 * FA_KERNEL_FALLBACK.
 */

#define FA_KERNEL_DONE      0
#define FA_KERNEL_FALLBACK  1

/*
 * X(slot, (parameters), (arguments)). "a" is both input and output
 * unless said otherwise.
 */
#define FA_KERNEL_SLOTS(X) \
	/* FFT / inverse FFT in place (layout and sequence: fft.c). */ \
	X(fft, (fpr *f, unsigned logn), (f, logn)) \
	X(ifft, (fpr *f, unsigned logn), (f, logn)) \
	/* a += b; a -= b; a = -a; a = adj(a) (FFT form). */ \
	X(poly_add, (fpr *a, const fpr *b, unsigned logn), (a, b, logn)) \
	X(poly_sub, (fpr *a, const fpr *b, unsigned logn), (a, b, logn)) \
	X(poly_neg, (fpr *a, unsigned logn), (a, logn)) \
	X(poly_adj_fft, (fpr *a, unsigned logn), (a, logn)) \
	/* a *= b; a *= adj(b); a *= adj(a); a *= x; a /= b. */ \
	X(poly_mul_fft, (fpr *a, const fpr *b, unsigned logn), (a, b, logn)) \
	X(poly_muladj_fft, (fpr *a, const fpr *b, unsigned logn), \
		(a, b, logn)) \
	X(poly_mulselfadj_fft, (fpr *a, unsigned logn), (a, logn)) \
	X(poly_mulconst, (fpr *a, fpr x, unsigned logn), (a, x, logn)) \
	X(poly_div_fft, (fpr *a, const fpr *b, unsigned logn), (a, b, logn)) \
	/* d = 1/(|a|^2 + |b|^2): n/2 real values written to d[0..n/2). */ \
	X(poly_invnorm2_fft, (fpr *d, const fpr *a, const fpr *b, \
		unsigned logn), (d, a, b, logn)) \
	/* a *= b, a /= b for a self-adjoint b (its n/2 real parts b[0..n/2)). */ \
	X(poly_mul_autoadj_fft, (fpr *a, const fpr *b, unsigned logn), \
		(a, b, logn)) \
	X(poly_div_autoadj_fft, (fpr *a, const fpr *b, unsigned logn), \
		(a, b, logn)) \
	/* LDL of the self-adjoint [[g00, g01], [adj(g01), g11]]: with \
	   mu = g01/g00, g01 <- adj(mu) (= l10), g11 <- g11 - mu*adj(g01) \
	   (= d11); g00 unchanged. */ \
	X(poly_LDL_fft, (const fpr *g00, fpr *g01, fpr *g11, unsigned logn), \
		(g00, g01, g11, logn)) \
	/* The same into d11, l10 (inputs kept); d11 may alias g11 and l10 \
	   may alias g01. */ \
	X(poly_LDLmv_fft, (fpr *d11, fpr *l10, const fpr *g00, \
		const fpr *g01, const fpr *g11, unsigned logn), \
		(d11, l10, g00, g01, g11, logn)) \
	/* f(x) = f0(x^2) + x*f1(x^2) in FFT form; f0, f1: n/2 fpr each. */ \
	X(poly_split_fft, (fpr *f0, fpr *f1, const fpr *f, unsigned logn), \
		(f0, f1, f, logn)) \
	X(poly_merge_fft, (fpr *f, const fpr *f0, const fpr *f1, \
		unsigned logn), (f, f0, f1, logn)) \
	/* NTT / inverse NTT mod q in place (representation at top); \
	   a *= b pointwise, both in NTT form. */ \
	X(mq_ntt, (uint16_t *a, unsigned logn), (a, logn)) \
	X(mq_intt, (uint16_t *a, unsigned logn), (a, logn)) \
	X(mq_poly_mul_ntt, (uint16_t *a, const uint16_t *b, unsigned logn), \
		(a, b, logn)) \
	/* SamplerZ: *z ~ D_{Z, mu, 1/isigma}. */ \
	X(samplerz, (fa_sampler_ctx *ctx, int *z, fpr mu, fpr isigma), \
		(ctx, z, mu, isigma)) \
	/* Two SamplerZ with the same sigma: z[0] for mu0, then z[1] for mu1, \
	   the same values and bytes consumed as two samplerz calls (the \
	   leaves of ffSampling come in such pairs). */ \
	X(samplerz_pair, (fa_sampler_ctx *ctx, int *z, fpr mu0, fpr mu1, \
		fpr isigma), (ctx, z, mu0, mu1, isigma)) \
	/* FN-DSA's SamplerZ twice with the same sigma (src/fndsa_sign.c): \
	   z[0] ~ D_{Z, mu0, 1/isigma}, then z[1] for mu1, on s's stream \
	   (the base sampler's 79-bit table, fn-dsa's sigma_min); the same \
	   values and the same stream position after the call (s->base + \
	   s->ptr) as the portable kernel, buffer refills aside. */ \
	X(fndsa_samplerz_pair, (fa_fndsa_sampler *s, int *z, fpr mu0, \
		fpr mu1, fpr isigma), (s, z, mu0, mu1, isigma)) \
	/* Refill the ChaCha20 buffer (p->buf, p->state counter, p->ptr = 0). */ \
	X(prng_refill, (fa_prng *p), (p)) \
	/* ffSampling with the expanded key's LDL tree (sign.c, ffsamp_tree): \
	   (z0, z1) sampled near the target (t0, t1), n fpr each in FFT \
	   form; tree in the library's layout (TREESIZE(logn) fpr: l10, the \
	   left then the right subtree, leaves 1/sigma'); tmp: 2n fpr of \
	   scratch; z0, z1, t0, t1, tree, tmp distinct. The values and the \
	   sampler state after (ctx->p: buffer, counter, ptr) are exactly \
	   the portable kernel's, which runs ffsamp_tree with its vector \
	   steps and leaf pairs on ctx->k's slots (the same results for \
	   every backend). A declining kernel leaves z0, z1 and ctx as they \
	   were. */ \
	X(ffsampling, (fa_sampler_ctx *ctx, fpr *z0, fpr *z1, \
		const fpr *tree, const fpr *t0, const fpr *t1, unsigned logn, \
		fpr *tmp), (ctx, z0, z1, tree, t0, t1, logn, tmp)) \
	/* Keccak-f[1600] in place on one state, lane (x, y) at st[x + 5y] \
	   (FIPS 202; portable: fa_keccak_f1600). The permutation under the \
	   SHAKE256 of hash-to-point and of the signing PRNG seed \
	   (shake256.c's *_k functions); any sponge (rate, padding) can use it. */ \
	X(keccak_f1600, (uint64_t *st), (st)) \
	/* *c = the version-2 expanded-key checksum of nw 32-bit words w \
	   with logn (privkey_check.c, fa_expanded_key_checksum32): the \
	   integrity check of an expanded key before every signature. */ \
	X(ek_checksum32, (uint32_t *c, const uint32_t *w, size_t nw, \
		unsigned logn), (c, w, nw, logn)) \
	/* a = a * b mod (x^n + 1, q), a in coefficient form (in and out), \
	   b in NTT form: the steps mq_ntt(a), mq_poly_mul_ntt(a, b), \
	   mq_intt(a) as one call, so that a device keeps a resident between \
	   them (verification's s2 * h). A composite slot: callers run it \
	   only when the backend sets it, and on NULL or a decline run the \
	   three steps on the backend's own slots (a backend accelerating \
	   those keeps doing so); fa_k_ and the portable kernel do the three \
	   portable steps. */ \
	X(mq_poly_mul_by_ntt, (uint16_t *a, const uint16_t *b, unsigned logn), \
		(a, b, logn)) \
	/* ML-KEM, q = 3329, int16 coefficients, every output the centred \
	   representative in [-(q-1)/2, (q-1)/2] (src/mlkem/mlkem_inner.h): \
	   7-layer NTT in place (in |a| < q); inverse NTT times 2^16 in place \
	   (in |a| < 4q); r = sum_{j<k} a_j o b_j, base multiplication times \
	   2^-16 of nk <= 4 consecutive polynomials (|a| <= 4095, |b| < q). */ \
	X(mlkem_ntt, (int16_t *a), (a)) \
	X(mlkem_invntt, (int16_t *a), (a)) \
	X(mlkem_basemul_acc, (int16_t *r, const int16_t *a, const int16_t *b, \
		unsigned nk), (r, a, b, nk)) \
	/* Four Keccak-f[1600] permutations, states interleaved: lane \
	   i = x + 5y of state t at st[4i + t] (one vector per lane index): \
	   ML-KEM's four-sponge runner (src/mlkem/mlkem_xof4.c). */ \
	X(keccak_x4, (uint64_t *st), (st)) \
	/* SampleNTT's parse of one 168-byte SHAKE128 block buf (176 bytes \
	   readable): in 7 groups of 8 byte triples, each group run only \
	   while *ctr < 256, appends the group's 12-bit candidates < q to \
	   a[*ctr..] in stream order (*ctr ends <= 271; a holds 272 values; \
	   a past the final *ctr is unspecified). */ \
	X(mlkem_rej_uniform, (int16_t *a, unsigned *ctr, const uint8_t *buf), \
		(a, ctr, buf)) \
	/* out = ByteEncode_d(c), 32 d bytes, c[i] = a[i] mod q in [0, q-1] \
	   (d = 12) or Compress_d(a[i] mod q) (d in 1..11), any int16 a[i] \
	   (FIPS 203, 4.2.1 and Algorithm 5). */ \
	X(mlkem_encode, (uint8_t *out, const int16_t *a, unsigned d), \
		(out, a, d)) \
	/* a = ByteDecode_d(in) (d = 12: values in [0, 4095], not reduced) \
	   or Decompress_d(ByteDecode_d(in)) (d in 1..11: in [0, q-1]); \
	   reads exactly 32 d bytes. */ \
	X(mlkem_decode, (int16_t *a, const uint8_t *in, unsigned d), \
		(a, in, d)) \
	/* a = SamplePolyCBD_eta(buf) (FIPS 203, Algorithm 8), buf 64 eta \
	   bytes, eta in {2, 3}; values in [-eta, eta]. */ \
	X(mlkem_cbd, (int16_t *a, const uint8_t *buf, unsigned eta), \
		(a, buf, eta))

struct fa_kernels {
	const char *name;
	/* 1 when usable on this machine (CPU features, simulator present). */
	int (*available)(void);
	/* 1 for backends that model hardware in simulation (slow): never
	   picked by fa_backend_default() unless named. */
	int simulated;
#define FA_KERNEL_FIELD(slot, params, args)  int (*slot) params;
	FA_KERNEL_SLOTS(FA_KERNEL_FIELD)
#undef FA_KERNEL_FIELD
};

/* The portable kernels: void fa_<slot>_portable(parameters). */
#define FA_KERNEL_PORTABLE(slot, params, args)  void fa_##slot##_portable params;
FA_KERNEL_SLOTS(FA_KERNEL_PORTABLE)
#undef FA_KERNEL_PORTABLE

/* The dispatcher, one per slot: fa_k_<slot>(k, arguments). */
#define FA_KERNEL_WITH_K(...)  (const struct fa_kernels *k, __VA_ARGS__)
#define FA_KERNEL_DISPATCH(slot, params, args) \
	static inline void fa_k_##slot FA_KERNEL_WITH_K params \
	{ \
		if (k->slot == NULL || k->slot args != FA_KERNEL_DONE) { \
			fa_##slot##_portable args; \
		} \
	}
FA_KERNEL_SLOTS(FA_KERNEL_DISPATCH)
#undef FA_KERNEL_DISPATCH

/* The portable backend: every slot NULL (always available). */
extern const struct fa_kernels fa_backend_portable;

/* Resolve NULL to the default backend. */
const struct fa_kernels *fa_kernels_resolve(const fa_backend *be);

#endif
