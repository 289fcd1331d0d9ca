/*
 * test_backends.c -- the kernel seam's contract (src/inner.h), for every
 * registered and available backend and for a test backend that declines
 * every call:
 *  - through the dispatcher fa_k_<slot>, each slot gives bit for bit the
 *    portable kernel's result, for logn 0..10, on zero, single-coefficient
 *    and random inputs (the sampler slots: the same values and the same
 *    PRNG bytes consumed over long sequences);
 *  - called directly, a backend's kernel either returns FA_KERNEL_DONE
 *    with the portable result, or FA_KERNEL_FALLBACK having written
 *    nothing (every buffer, or the sampler state, unchanged);
 *  - NULL slots (the portable backend has only those) and declined calls
 *    fall back to portable: the declining backend gives portable's results
 *    and each of its slots was really asked.
 */
#include "inner.h"
#include "fndsa_inner.h"
#include "test_util.h"

#define NMAX 1024

static uint64_t seed = 0xC0FFEE;

/* ------------------------------------------------------------------ */
/* A backend that declines everything, generated from the slot list. */

#define DECLINE_COUNTER(slot, params, args)  static unsigned long declined_##slot;
FA_KERNEL_SLOTS(DECLINE_COUNTER)

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#define DECLINE_KERNEL(slot, params, args) \
	static int decline_##slot params \
	{ \
		declined_##slot ++; \
		return FA_KERNEL_FALLBACK; \
	}
FA_KERNEL_SLOTS(DECLINE_KERNEL)
#pragma GCC diagnostic pop

static int always(void)
{
	return 1;
}

#define DECLINE_ENTRY(slot, params, args)  .slot = decline_##slot,
static const struct fa_kernels decline_all = {
	.name = "decline-all",
	.available = always,
	.simulated = 0,
	FA_KERNEL_SLOTS(DECLINE_ENTRY)
};

/* ------------------------------------------------------------------ */
/* One slot call in one of three ways. */

enum { M_PORTABLE, M_DISPATCH, M_RAW };
#define ABSENT (-1)

/* Portable kernel, dispatcher, or the backend's own kernel (ABSENT when
   the slot is NULL). */
#define CALL(slot, ...) \
	(mode == M_PORTABLE \
		? (fa_##slot##_portable(__VA_ARGS__), FA_KERNEL_DONE) \
	: mode == M_DISPATCH \
		? (fa_k_##slot(be, __VA_ARGS__), FA_KERNEL_DONE) \
	: be->slot == NULL ? ABSENT : be->slot(__VA_ARGS__))

/* Buffers of the FFT-domain slots: a in/out; b, c inputs (c without
   zeros: divisors, g00); d, e outputs. */
typedef struct {
	fpr a[NMAX], b[NMAX], c[NMAX], d[NMAX], e[NMAX];
	fpr x;
} fp_state;

enum {
	FP_FFT, FP_IFFT, FP_ADD, FP_SUB, FP_NEG, FP_ADJ, FP_MUL, FP_MULADJ,
	FP_MULSELFADJ, FP_MULCONST, FP_DIV, FP_INVNORM2, FP_MUL_AUTOADJ,
	FP_DIV_AUTOADJ, FP_LDL, FP_LDLMV, FP_LDLMV_ALIASED, FP_SPLIT, FP_MERGE,
	FP_COUNT
};

static const char *const fp_names[FP_COUNT] = {
	"fft", "ifft", "poly_add", "poly_sub", "poly_neg", "poly_adj_fft",
	"poly_mul_fft", "poly_muladj_fft", "poly_mulselfadj_fft",
	"poly_mulconst", "poly_div_fft", "poly_invnorm2_fft",
	"poly_mul_autoadj_fft", "poly_div_autoadj_fft", "poly_LDL_fft",
	"poly_LDLmv_fft", "poly_LDLmv_fft (d11 = g11, l10 = g01)",
	"poly_split_fft", "poly_merge_fft"
};

static int fp_call(int id, int mode, const struct fa_kernels *be,
	fp_state *s, unsigned logn)
{
	size_t hn = MKN(logn) >> 1;

	switch (id) {
	case FP_FFT:        return CALL(fft, s->a, logn);
	case FP_IFFT:       return CALL(ifft, s->a, logn);
	case FP_ADD:        return CALL(poly_add, s->a, s->b, logn);
	case FP_SUB:        return CALL(poly_sub, s->a, s->b, logn);
	case FP_NEG:        return CALL(poly_neg, s->a, logn);
	case FP_ADJ:        return CALL(poly_adj_fft, s->a, logn);
	case FP_MUL:        return CALL(poly_mul_fft, s->a, s->b, logn);
	case FP_MULADJ:     return CALL(poly_muladj_fft, s->a, s->b, logn);
	case FP_MULSELFADJ: return CALL(poly_mulselfadj_fft, s->a, logn);
	case FP_MULCONST:   return CALL(poly_mulconst, s->a, s->x, logn);
	case FP_DIV:        return CALL(poly_div_fft, s->a, s->c, logn);
	case FP_INVNORM2:   return CALL(poly_invnorm2_fft, s->d, s->c, s->a, logn);
	case FP_MUL_AUTOADJ: return CALL(poly_mul_autoadj_fft, s->a, s->b, logn);
	case FP_DIV_AUTOADJ: return CALL(poly_div_autoadj_fft, s->a, s->c, logn);
	case FP_LDL:        return CALL(poly_LDL_fft, s->c, s->b, s->a, logn);
	case FP_LDLMV:
		return CALL(poly_LDLmv_fft, s->d, s->e, s->c, s->b, s->a, logn);
	case FP_LDLMV_ALIASED:
		return CALL(poly_LDLmv_fft, s->a, s->b, s->c, s->b, s->a, logn);
	case FP_SPLIT:      return CALL(poly_split_fft, s->d, s->d + hn, s->a, logn);
	default:            return CALL(poly_merge_fft, s->e, s->a, s->a + hn, logn);
	}
}

typedef struct {
	uint16_t a[NMAX], b[NMAX];
} mq_state;

enum { MQ_NTT, MQ_INTT, MQ_MUL, MQ_MUL_BY_NTT, MQ_COUNT };
static const char *const mq_names[MQ_COUNT] = {
	"mq_ntt", "mq_intt", "mq_poly_mul_ntt", "mq_poly_mul_by_ntt"
};

static int mq_call(int id, int mode, const struct fa_kernels *be,
	mq_state *s, unsigned logn)
{
	switch (id) {
	case MQ_NTT:  return CALL(mq_ntt, s->a, logn);
	case MQ_INTT: return CALL(mq_intt, s->a, logn);
	case MQ_MUL:  return CALL(mq_poly_mul_ntt, s->a, s->b, logn);
	/* a in coefficient form, b (random mod q) in NTT form */
	default:      return CALL(mq_poly_mul_by_ntt, s->a, s->b, logn);
	}
}

/* ------------------------------------------------------------------ */
/* Inputs. */

/* Random binary64 of magnitude about 2^-20 .. 2^20, either sign. */
static fpr rand_fpr(void)
{
	uint64_t r = tu_rand64(&seed);
	uint64_t e = 1023 - 20 + (r >> 58) % 41;

	return fpr_from_bits((r & 0x800FFFFFFFFFFFFFu) | (e << 52));
}

enum { IN_ZERO, IN_ONE, IN_RANDOM, IN_KINDS };
static const char *const kind_names[IN_KINDS] = { "zero", "one", "random" };

/* kind IN_ONE: one random coefficient at pos, the others zero. */
static void fill(fpr *a, int kind, size_t pos)
{
	size_t u;

	for (u = 0; u < NMAX; u ++) {
		a[u] = kind == IN_RANDOM ? rand_fpr() : FPR_ZERO;
	}
	if (kind == IN_ONE) {
		a[pos] = rand_fpr();
	}
}

static void fp_inputs(fp_state *s, unsigned logn, int kind)
{
	size_t n = MKN(logn);

	memset(s, 0, sizeof *s);
	fill(s->a, kind, (size_t)logn * 7 % n);
	fill(s->b, kind == IN_ZERO ? IN_RANDOM : kind, 5 % n);
	fill(s->c, IN_RANDOM, 0);
	fill(s->d, IN_RANDOM, 0);   /* outputs: prior contents must not matter */
	fill(s->e, IN_RANDOM, 0);
	s->x = rand_fpr();
}

static void mq_inputs(mq_state *s, unsigned logn, int kind)
{
	size_t u, n = MKN(logn);

	memset(s, 0, sizeof *s);
	for (u = 0; u < n; u ++) {
		s->a[u] = kind == IN_RANDOM
			? (uint16_t)(tu_rand64(&seed) % FA_Q) : 0;
		s->b[u] = (uint16_t)(tu_rand64(&seed) % FA_Q);
	}
	if (kind == IN_ONE) {
		s->a[logn % n] = (uint16_t)(1 + tu_rand64(&seed) % (FA_Q - 1));
	}
}

/* ------------------------------------------------------------------ */
/* The differential check of one slot: s0 holds the inputs. Buffers are
   compared whole (bits, every array), so a kernel writing where it should
   not is caught too. */

#define CHECK_SLOT(state_t, call, names) do { \
		static state_t s1, s2, s3; \
		int r; \
		memcpy(&s1, s0, sizeof s1); \
		memcpy(&s2, s0, sizeof s2); \
		memcpy(&s3, s0, sizeof s3); \
		call(id, M_PORTABLE, be, &s1, logn); \
		call(id, M_DISPATCH, be, &s2, logn); \
		CHECK(memcmp(&s1, &s2, sizeof s1) == 0, \
			"%s %s logn=%u %s: dispatcher != portable", \
			be->name, names[id], logn, kind_names[kind]); \
		r = call(id, M_RAW, be, &s3, logn); \
		if (r == FA_KERNEL_FALLBACK) { \
			(*declines) ++; \
			CHECK(memcmp(&s3, s0, sizeof s3) == 0, \
				"%s %s logn=%u %s: declined but wrote", \
				be->name, names[id], logn, kind_names[kind]); \
		} else if (r != ABSENT) { \
			CHECK(r == FA_KERNEL_DONE, "%s %s: status %d", \
				be->name, names[id], r); \
			CHECK(memcmp(&s1, &s3, sizeof s1) == 0, \
				"%s %s logn=%u %s: kernel != portable", \
				be->name, names[id], logn, kind_names[kind]); \
		} \
	} while (0)

static void check_fp(const struct fa_kernels *be, int id, unsigned logn,
	int kind, const fp_state *s0, unsigned long *declines)
{
	CHECK_SLOT(fp_state, fp_call, fp_names);
}

static void check_mq(const struct fa_kernels *be, int id, unsigned logn,
	int kind, const mq_state *s0, unsigned long *declines)
{
	CHECK_SLOT(mq_state, mq_call, mq_names);
}

static void test_vector_slots(const struct fa_kernels *be)
{
	static fp_state fs;
	static mq_state ms;
	unsigned logn;
	int kind, id;
	unsigned long declines = 0;

	for (logn = 0; logn <= 10; logn ++) {
		for (kind = 0; kind < IN_KINDS; kind ++) {
			for (id = 0; id < FP_COUNT; id ++) {
				fp_inputs(&fs, logn, kind);
				check_fp(be, id, logn, kind, &fs, &declines);
			}
			for (id = 0; id < MQ_COUNT; id ++) {
				mq_inputs(&ms, logn, kind);
				if (id == MQ_INTT) {
					fa_mq_ntt_portable(ms.a, logn);
				}
				check_mq(be, id, logn, kind, &ms, &declines);
			}
		}
	}
	printf("backend %s: %lu vector-slot calls declined\n", be->name,
		declines);
}

/* ------------------------------------------------------------------ */
/* ML-KEM slots (q = 3329, int16; contract in the slot list): a is the
   NTT operand / first basemul operand (k <= 4 polynomials), b the second
   basemul operand, r the basemul output, st four Keccak states. */

typedef struct {
	int16_t a[4 * 256], b[4 * 256], r[256];
	uint64_t st[100];
	uint8_t buf[176];
	unsigned ctr;
} kem_state;

enum {
	KEM_NTT, KEM_INVNTT, KEM_BASEMUL1, KEM_BASEMUL4, KEM_KECCAK_X4,
	KEM_REJ, KEM_ENCODE10, KEM_ENCODE1, KEM_ENCODE12, KEM_DECODE10,
	KEM_DECODE11, KEM_DECODE12, KEM_CBD2, KEM_CBD3, KEM_COUNT
};
static const char *const kem_names[KEM_COUNT] = {
	"mlkem_ntt", "mlkem_invntt", "mlkem_basemul_acc(k=1)",
	"mlkem_basemul_acc(k=4)", "keccak_x4", "mlkem_rej_uniform",
	"mlkem_encode(d=10)", "mlkem_encode(d=1)", "mlkem_encode(d=12)",
	"mlkem_decode(d=10)", "mlkem_decode(d=11)", "mlkem_decode(d=12)",
	"mlkem_cbd(eta=2)", "mlkem_cbd(eta=3)"
};

/* mlkem_rej_uniform leaves a past *ctr unspecified: cleared after each
   call so that whole states compare. */
static int kem_rej(int mode, const struct fa_kernels *be, kem_state *s)
{
	int r = CALL(mlkem_rej_uniform, s->a, &s->ctr, s->buf);
	unsigned u;

	for (u = s->ctr; u < 4 * 256; u ++) {
		s->a[u] = 0;
	}
	return r;
}

static int kem_call(int id, int mode, const struct fa_kernels *be,
	kem_state *s, unsigned logn)
{
	(void)logn;
	switch (id) {
	case KEM_NTT:      return CALL(mlkem_ntt, s->a);
	case KEM_INVNTT:   return CALL(mlkem_invntt, s->a);
	case KEM_BASEMUL1: return CALL(mlkem_basemul_acc, s->r, s->a, s->b, 1);
	case KEM_BASEMUL4: return CALL(mlkem_basemul_acc, s->r, s->a, s->b, 4);
	case KEM_REJ:      return kem_rej(mode, be, s);
	/* encode: b (|b| < q) to bytes in r; decode: the bytes of b
	   (random) to r */
	case KEM_ENCODE10: return CALL(mlkem_encode, (uint8_t *)s->r, s->b, 10);
	case KEM_ENCODE1:  return CALL(mlkem_encode, (uint8_t *)s->r, s->b, 1);
	case KEM_ENCODE12: return CALL(mlkem_encode, (uint8_t *)s->r, s->b, 12);
	case KEM_DECODE10:
		return CALL(mlkem_decode, s->r, (const uint8_t *)s->b, 10);
	case KEM_DECODE11:
		return CALL(mlkem_decode, s->r, (const uint8_t *)s->b, 11);
	case KEM_DECODE12:
		return CALL(mlkem_decode, s->r, (const uint8_t *)s->b, 12);
	case KEM_CBD2: return CALL(mlkem_cbd, s->r, (const uint8_t *)s->b, 2);
	case KEM_CBD3: return CALL(mlkem_cbd, s->r, (const uint8_t *)s->b, 3);
	default:           return CALL(keccak_x4, s->st);
	}
}

/* Inputs at the edges of each slot's range: |a| < q (ntt), |a| < 4q
   (invntt), a in [0, 4095] (basemul: undecoded 12-bit values), |b| < q. */
static void kem_inputs(kem_state *s, int id, int kind)
{
	int lim = id == KEM_NTT ? 3328 : id == KEM_INVNTT ? 4 * 3329 - 1 : 4095;
	size_t u;

	memset(s, 0, sizeof *s);
	for (u = 0; u < 4 * 256; u ++) {
		if (kind == IN_RANDOM) {
			s->a[u] = id >= KEM_BASEMUL1
				? (int16_t)(tu_rand64(&seed) % 4096)
				: (int16_t)((int)(tu_rand64(&seed) % (2u * lim + 1))
				- lim);
		}
		s->b[u] = (int16_t)((int)(tu_rand64(&seed) % 6657) - 3328);
	}
	if (kind == IN_ONE) {
		s->a[tu_rand64(&seed) % 256] = (int16_t)(id == KEM_INVNTT
			? -lim : lim);
	}
	for (u = 0; u < 100; u ++) {
		s->st[u] = kind == IN_ZERO ? 0 : tu_rand64(&seed);
	}
	if (id == KEM_REJ) {
		/* a block (0xFF bytes: every candidate 4095, rejected), with a
		   count that stops before, within or at the end of the block */
		for (u = 0; u < 168; u ++) {
			s->buf[u] = kind == IN_ZERO ? 0 : kind == IN_ONE
				? (u == 3 * (tu_rand64(&seed) % 56) ? 0 : 0xFF)
				: (uint8_t)tu_rand64(&seed);
		}
		s->ctr = (unsigned)(tu_rand64(&seed) % 260);
		for (u = s->ctr; u < 4 * 256; u ++) {
			s->a[u] = 0;
		}
	}
}

static void check_kem(const struct fa_kernels *be, int id, int kind,
	const kem_state *s0, unsigned long *declines)
{
	unsigned logn = 0;

	CHECK_SLOT(kem_state, kem_call, kem_names);
}

static void test_mlkem_slots(const struct fa_kernels *be)
{
	static kem_state ks;
	unsigned long declines = 0;
	int kind, id, rep;

	for (rep = 0; rep < 8; rep ++) {
		for (kind = 0; kind < IN_KINDS; kind ++) {
			for (id = 0; id < KEM_COUNT; id ++) {
				kem_inputs(&ks, id, kind);
				check_kem(be, id, kind, &ks, &declines);
			}
		}
	}
	printf("backend %s: %lu ML-KEM slot calls declined\n", be->name,
		declines);
	/* the rtl backend's Verilated model has the ML-KEM mode (MLKEM = 1):
	   its three slots must have run on the device, not fallen back */
	if (strcmp(be->name, "rtl") == 0) {
		CHECK(declines == 0, "rtl: ML-KEM slots declined %lu times",
			declines);
	}
}

/* ------------------------------------------------------------------ */
/* Sampler slots: long sequences on one PRNG stream, portable (s1) against
   the dispatcher (s2); before each dispatched call the backend's own
   kernel runs on a copy (s3) of s2 (kept in s0) to check the decline
   contract. */

typedef struct {
	const struct fa_kernels *be;
	fa_sampler_ctx s0, s1, s2, s3;   /* s0: s2 before the call */
	int ok, ok_raw;
	unsigned long declines;
} sampler_run;

static void raw_status(sampler_run *sr, int r, int same_as_dispatch)
{
	if (r == FA_KERNEL_FALLBACK) {
		sr->declines ++;
		sr->ok_raw &= memcmp(&sr->s3, &sr->s0, sizeof sr->s3) == 0;
	} else if (r != ABSENT) {
		sr->ok_raw &= r == FA_KERNEL_DONE && same_as_dispatch;
	}
}

static void one_samplerz(sampler_run *sr, fpr mu, fpr is)
{
	const struct fa_kernels *be = sr->be;
	int mode = M_RAW, z1, z2, z3 = 0, r;

	memcpy(&sr->s0, &sr->s2, sizeof sr->s0);
	memcpy(&sr->s3, &sr->s2, sizeof sr->s3);
	r = CALL(samplerz, &sr->s3, &z3, mu, is);
	fa_samplerz_portable(&sr->s1, &z1, mu, is);
	fa_k_samplerz(be, &sr->s2, &z2, mu, is);
	sr->ok &= z1 == z2 && sr->s1.p.ptr == sr->s2.p.ptr;
	raw_status(sr, r, z3 == z2
		&& memcmp(&sr->s3.p, &sr->s2.p, sizeof sr->s3.p) == 0);
}

static void one_pair(sampler_run *sr, fpr mu0, fpr mu1, fpr is)
{
	const struct fa_kernels *be = sr->be;
	int mode = M_RAW, za[2], zb[2], zc[2] = { 0, 0 }, r;

	memcpy(&sr->s0, &sr->s2, sizeof sr->s0);
	memcpy(&sr->s3, &sr->s2, sizeof sr->s3);
	r = CALL(samplerz_pair, &sr->s3, zc, mu0, mu1, is);
	fa_samplerz_portable(&sr->s1, &za[0], mu0, is);
	fa_samplerz_portable(&sr->s1, &za[1], mu1, is);
	fa_k_samplerz_pair(be, &sr->s2, zb, mu0, mu1, is);
	sr->ok &= za[0] == zb[0] && za[1] == zb[1]
		&& sr->s1.p.ptr == sr->s2.p.ptr;
	raw_status(sr, r, zc[0] == zb[0] && zc[1] == zb[1]
		&& memcmp(&sr->s3.p, &sr->s2.p, sizeof sr->s3.p) == 0);
}

static fpr rand_mu(int scale)
{
	return fpr_scaled((int64_t)(tu_rand64(&seed) % 400000) - 200000, scale);
}

/* isigma for sigma' in [1.3, 1.8] */
static fpr rand_isigma(void)
{
	return fpr_inv(fpr_add(fpr_of(1), fpr_scaled(
		(int64_t)(300 + tu_rand64(&seed) % 500), -10)));
}

static void test_sampler(const struct fa_kernels *be)
{
	static sampler_run sr;
	fa_shake256_ctx r1, r2;
	int i, r, mode = M_RAW;

	memset(&sr, 0, sizeof sr);
	sr.be = be;
	sr.ok = sr.ok_raw = 1;
	fa_shake256_init_prng_from_seed(&r1, "sampler", 7);
	fa_shake256_init_prng_from_seed(&r2, "sampler", 7);
	sr.s1.k = &fa_backend_portable;
	sr.s2.k = be;
	sr.s1.sigma_min = sr.s2.sigma_min = fpr_from_bits(fa_sigma_min[9]);
	fa_prng_init(&sr.s1.p, &r1);
	fa_prng_init(&sr.s2.p, &r2);
	for (i = 0; i < 20000; i ++) {
		one_samplerz(&sr, rand_mu(-10), rand_isigma());
	}
	CHECK(sr.ok, "%s samplerz sequence", be->name);
	/* pairs, interleaved with single calls so that pairs start at every
	   buffer position */
	sr.ok = 1;
	for (i = 0; i < 20000; i ++) {
		fpr mu0 = rand_mu(-10), mu1 = rand_mu(-13), is = rand_isigma();

		one_pair(&sr, mu0, mu1, is);
		if (i % 3 == 0) {
			one_samplerz(&sr, mu1, is);
		}
	}
	CHECK(sr.ok, "%s samplerz_pair sequence", be->name);

	memcpy(&sr.s0, &sr.s2, sizeof sr.s0);
	memcpy(&sr.s3, &sr.s2, sizeof sr.s3);
	r = CALL(prng_refill, &sr.s3.p);
	fa_k_prng_refill(be, &sr.s2.p);
	fa_prng_refill_portable(&sr.s1.p);
	CHECK(memcmp(&sr.s1.p, &sr.s2.p, sizeof sr.s1.p) == 0,
		"%s prng_refill", be->name);
	raw_status(&sr, r, memcmp(&sr.s3.p, &sr.s2.p, sizeof sr.s3.p) == 0);
	CHECK(sr.ok_raw, "%s sampler kernels: declined without writing, "
		"or equal to portable", be->name);
	printf("backend %s: %lu sampler-slot calls declined\n", be->name,
		sr.declines);
}

/* ------------------------------------------------------------------ */
/* FN-DSA's sampler slot: long sequences of pairs on one SHAKE256 stream,
   portable (s1) against the dispatcher (s2), the values and the stream
   position compared after every call, and the next bytes read from both
   every few calls (so that pairs start at every offset and refill
   times differ); the backend's own kernel on a copy (s3) of s2 (kept in
   s0) for the decline contract. Centres with full fractional parts;
   sigmas over the leaf range, and now and then one that leaves the
   first-byte shortcut (ccs < 1/2). */

static uint64_t fndsa_pos(const fa_fndsa_sampler *s)
{
	return s->base + s->ptr;
}

static int fndsa_take_cmp(fa_fndsa_sampler *a, fa_fndsa_sampler *b,
	size_t m)
{
	int same;

	if (a->end - a->ptr < m) {
		fa_fndsa_sampler_refill(a);
	}
	if (b->end - b->ptr < m) {
		fa_fndsa_sampler_refill(b);
	}
	same = memcmp(a->buf + a->ptr, b->buf + b->ptr, m) == 0;
	a->ptr += m;
	b->ptr += m;
	return same;
}

static fpr fndsa_rand_mu(void)
{
	return fpr_scaled((int64_t)(tu_rand64(&seed) >> 1) - (INT64_C(1) << 62),
		-50);
}

/* 1/sigma for sigma in [sigma_min, 2 sigma_min), or 1 in 40 times up to
   3 sigma_min */
static fpr fndsa_rand_isigma(fpr sigma_min)
{
	uint64_t r = tu_rand64(&seed);
	fpr u = fpr_scaled((int64_t)(r >> 11), -53);

	if (r % 40 == 0) {
		u = fpr_add(u, u);
	}
	return fpr_inv(fpr_mul(sigma_min, fpr_add(fpr_of(1), u)));
}

typedef void (*fndsa_pair_fn)(fa_fndsa_sampler *s, int *z, fpr mu0,
	fpr mu1, fpr isigma);

static void test_fndsa_sampler(const struct fa_kernels *be)
{
	static fa_fndsa_sampler s0, s1, s2, s3;
	unsigned long declines = 0;
	unsigned logn;
	int ok = 1, ok_raw = 1, mode = M_RAW;

	for (logn = 2; logn <= 10; logn ++) {
		uint8_t sd[5] = { 's', 'a', 'm', 'p', (uint8_t)logn };
		int i, count = logn >= 9 ? 20000 : 2000;

		fa_fndsa_sampler_init(&s1, sd, sizeof sd, logn,
			&fa_backend_portable);
		fa_fndsa_sampler_init(&s2, sd, sizeof sd, logn, be);
		for (i = 0; i < count; i ++) {
			fpr mu0 = fndsa_rand_mu(), mu1 = fndsa_rand_mu();
			fpr is = fndsa_rand_isigma(s1.sigma_min);
			int za[2], zb[2], zc[2] = { 0, 0 }, r;

			memcpy(&s0, &s2, sizeof s0);
			memcpy(&s3, &s2, sizeof s3);
			r = CALL(fndsa_samplerz_pair, &s3, zc, mu0, mu1, is);
			fa_fndsa_samplerz_pair_portable(&s1, za, mu0, mu1, is);
			fa_k_fndsa_samplerz_pair(be, &s2, zb, mu0, mu1, is);
			ok &= za[0] == zb[0] && za[1] == zb[1]
				&& fndsa_pos(&s1) == fndsa_pos(&s2);
			if (r == FA_KERNEL_FALLBACK) {
				declines ++;
				ok_raw &= memcmp(&s3, &s0, sizeof s3) == 0;
			} else if (r != ABSENT) {
				ok_raw &= r == FA_KERNEL_DONE && zc[0] == zb[0]
					&& zc[1] == zb[1]
					&& fndsa_pos(&s3) == fndsa_pos(&s2);
			}
			if (i % 5 == 0) {
				ok &= fndsa_take_cmp(&s1, &s2,
					1 + (size_t)(tu_rand64(&seed) % 13));
			}
		}
		ok &= fndsa_take_cmp(&s1, &s2, FA_FNDSA_SAMP_KEEP);
	}
	CHECK(ok, "%s fndsa_samplerz_pair sequences (logn 2..10)", be->name);
	CHECK(ok_raw, "%s fndsa_samplerz_pair: declined without writing, or "
		"equal to portable", be->name);
	printf("backend %s: %lu fndsa_samplerz_pair calls declined\n",
		be->name, declines);
}

/* The avx2 kernel compiled again with a first-byte margin of 32, so that
   a large share of the trials take its exact path (from every slot of
   both calls of a pair, and in the loop that follows a failed
   speculation): every value and position as portable. */
#if defined(__x86_64__) && !FA_FPEMU && defined(__GNUC__)
#define FNDSA_MARGIN_TEST 1
#pragma GCC push_options
#pragma GCC target("avx2,bmi2")
static unsigned long fndsa_exact_count;
#define FA_AVX2_BER_MARGIN 32.0
#define FA_AVX2_COUNT_EXACT() (fndsa_exact_count ++)
#define fa_fndsa_samplerz_pair_avx2 margin_fndsa_samplerz_pair
#include "backend_avx2/avx2_fndsa.c"
#undef fa_fndsa_samplerz_pair_avx2
#pragma GCC pop_options

static void test_fndsa_sampler_margin(void)
{
	static fa_fndsa_sampler s1, s2;
	const fa_backend *avx2 = fa_backend_find("avx2");
	unsigned logn;
	int ok = 1;

	if (avx2 == NULL || !fa_backend_available(avx2)) {
		printf("fndsa sampler margin test: no avx2 here, skipped\n");
		return;
	}
	for (logn = 9; logn <= 10; logn ++) {
		uint8_t sd[2] = { 'm', (uint8_t)logn };
		int i;

		fa_fndsa_sampler_init(&s1, sd, sizeof sd, logn,
			&fa_backend_portable);
		fa_fndsa_sampler_init(&s2, sd, sizeof sd, logn,
			&fa_backend_portable);
		for (i = 0; i < 20000; i ++) {
			fpr mu0 = fndsa_rand_mu(), mu1 = fndsa_rand_mu();
			fpr is = fndsa_rand_isigma(s1.sigma_min);
			int za[2], zb[2];

			fa_fndsa_samplerz_pair_portable(&s1, za, mu0, mu1, is);
			margin_fndsa_samplerz_pair(&s2, zb, mu0, mu1, is);
			ok &= za[0] == zb[0] && za[1] == zb[1]
				&& fndsa_pos(&s1) == fndsa_pos(&s2);
		}
	}
	CHECK(ok, "fndsa sampler with margin 32: values and positions");
	CHECK(fndsa_exact_count > 20000, "fndsa sampler with margin 32: "
		"exact path taken %lu times", fndsa_exact_count);
	printf("fndsa sampler margin test: %lu exact-path trials\n",
		fndsa_exact_count);
}
#endif

/* ------------------------------------------------------------------ */
/* keccak_f1600: one 25-lane state (zero, single bits spread over the 1600,
   random, all ones), then SHAKE256 through the slot (multi-block absorb,
   squeeze across permutations) against the portable sponge. */

typedef struct {
	uint64_t st[25];
} kec_state;

static const char *const kec_names[1] = { "keccak_f1600" };

static int kec_call(int id, int mode, const struct fa_kernels *be,
	kec_state *s, unsigned logn)
{
	(void)id;
	(void)logn;
	return CALL(keccak_f1600, s->st);
}

static void check_kec(const struct fa_kernels *be, int kind,
	const kec_state *s0, unsigned long *declines)
{
	int id = 0;
	unsigned logn = 0;

	CHECK_SLOT(kec_state, kec_call, kec_names);
}

static void test_keccak_slot(const struct fa_kernels *be)
{
	static kec_state s0;
	static uint8_t msg[700], out1[600], out2[600];
	unsigned long declines = 0;
	unsigned rep, u;
	int kind;

	for (kind = 0; kind < IN_KINDS; kind ++) {
		unsigned reps = kind == IN_ZERO ? 1 : kind == IN_ONE ? 40 : 6;

		for (rep = 0; rep < reps; rep ++) {
			memset(&s0, 0, sizeof s0);
			if (kind == IN_ONE) {
				u = (40 * rep + (unsigned)(tu_rand64(&seed) % 40)) % 1600;
				s0.st[u / 64] = (uint64_t)1 << (u % 64);
			} else if (kind == IN_RANDOM) {
				for (u = 0; u < 25; u ++) {
					s0.st[u] = rep == 0 ? ~(uint64_t)0 : tu_rand64(&seed);
				}
			}
			check_kec(be, kind, &s0, &declines);
		}
	}
	for (u = 0; u < sizeof msg; u ++) {
		msg[u] = (uint8_t)tu_rand64(&seed);
	}
	for (rep = 0; rep < 3; rep ++) {
		static const size_t mlen[3] = { 0, 136, 700 };
		fa_shake256_ctx a, b;

		fa_shake256_init(&a);
		fa_shake256_inject(&a, msg, mlen[rep]);
		fa_shake256_flip(&a);
		fa_shake256_extract(&a, out1, sizeof out1);
		fa_shake256_init(&b);
		fa_shake256_inject_k(be, &b, msg, mlen[rep]);
		fa_shake256_flip(&b);
		fa_shake256_extract_k(be, &b, out2, 100);
		fa_shake256_extract_k(be, &b, out2 + 100, sizeof out2 - 100);
		CHECK(memcmp(out1, out2, sizeof out1) == 0
			&& memcmp(&a, &b, sizeof a) == 0,
			"%s SHAKE256 through keccak_f1600, message %zu bytes",
			be->name, mlen[rep]);
	}
	printf("backend %s: %lu keccak_f1600 calls declined\n", be->name,
		declines);
}

/* ------------------------------------------------------------------ */
/* ek_checksum32: expanded-key body sizes of logn 0..10 (2 (logn + 5)
   2^logn words) and word counts that are not multiples of 8 (7, 13, 1);
   zero, single-bit and random words. */

#define EK_MAXW (2 * 15 * 1024)

typedef struct {
	uint32_t c;
	uint32_t w[EK_MAXW];
} ek_state;

static const char *const ek_names[1] = { "ek_checksum32" };
static size_t ek_nw;

static int ek_call(int id, int mode, const struct fa_kernels *be,
	ek_state *s, unsigned logn)
{
	(void)id;
	return CALL(ek_checksum32, &s->c, s->w, ek_nw, logn);
}

static void check_ek(const struct fa_kernels *be, int kind, unsigned logn,
	const ek_state *s0, unsigned long *declines)
{
	int id = 0;

	CHECK_SLOT(ek_state, ek_call, ek_names);
}

static void test_ek_checksum_slot(const struct fa_kernels *be)
{
	static ek_state s0;
	static const size_t odd[3] = { 7, 13, 1 };
	unsigned long declines = 0;
	unsigned logn, u, calls = 0;
	int kind;

	for (logn = 0; logn <= 13; logn ++) {
		size_t nw = logn <= 10
			? ((size_t)2 * (logn + 5)) << logn : odd[logn - 11];

		ek_nw = nw;
		for (kind = 0; kind < IN_KINDS; kind ++) {
			memset(&s0, 0, sizeof s0);
			s0.c = 0xA5A5A5A5u;
			if (kind == IN_ONE) {
				u = (unsigned)(tu_rand64(&seed) % (nw * 32));
				s0.w[u / 32] = (uint32_t)1 << (u % 32);
			} else if (kind == IN_RANDOM) {
				for (u = 0; u < nw; u ++) {
					s0.w[u] = (uint32_t)tu_rand64(&seed);
				}
			}
			check_ek(be, kind, logn <= 10 ? logn : 1, &s0, &declines);
			calls ++;
		}
	}
	printf("backend %s: ek_checksum32, %lu of %u calls declined\n",
		be->name, declines, calls);
}

/* ------------------------------------------------------------------ */
/* ffsampling: the LDL trees of real keys (fixed seeds, keygen and
   expansion on the portable kernels, once per logn), random targets of a
   signature's size (integers, half-integers, tiny and uniform values),
   PRNG streams starting at several buffer positions (refills inside
   samples); portable (s1) against the dispatcher (s2), the backend's own
   kernel on a copy (s3) for the decline contract. */

#define FS_TREESIZE(logn) (((size_t)(logn) + 1) << (logn))

static const fpr *fs_tree(unsigned logn)
{
	static fpr trees[11][FS_TREESIZE(10)];
	static fpr ek[FA_EXPANDED_KEY_SIZE(10) / sizeof(fpr)];
	static uint64_t tmp[(FA_TMPSIZE_KEYGEN(10) + FA_TMPSIZE_EXPAND(10))
		/ 8 + 1];
	static int8_t fgFG[4 * NMAX];
	static uint16_t h[NMAX];
	static int have[11];
	size_t n = (size_t)1 << logn;

	if (!have[logn]) {
		fa_shake256_ctx rng;
		uint8_t sd[16] = "ffsampling-key-";

		sd[15] = (uint8_t)logn;
		fa_shake256_init_prng_from_seed(&rng, sd, sizeof sd);
		fa_keygen_inner(&rng, fgFG, fgFG + n, fgFG + 2 * n, fgFG + 3 * n,
			h, logn, (uint8_t *)tmp, &fa_backend_portable);
		fa_expand_privkey_inner(ek, fgFG, fgFG + n, fgFG + 2 * n,
			fgFG + 3 * n, logn, (uint8_t *)tmp, &fa_backend_portable);
		memcpy(trees[logn], ek + 4 * n, FS_TREESIZE(logn) * sizeof(fpr));
		have[logn] = 1;
	}
	return trees[logn];
}

static fpr fs_target(void)
{
	uint64_t r = tu_rand64(&seed);
	int64_t i = (int64_t)(r >> 8) % 6001 - 3000;

	switch (r & 3) {
	case 0:  return fpr_of(i);
	case 1:  return fpr_add(fpr_of(i), fpr_scaled(1, -1));
	case 2:  return fpr_scaled(i, -(int)((r >> 2) & 31) - 12);
	default: return fpr_scaled((int64_t)(r >> 12) % 8000000 - 4000000, -10);
	}
}

static void test_ffsampling(const struct fa_kernels *be)
{
	static fa_sampler_ctx s0, s1, s2, s3;
	static fpr t0[NMAX], t1[NMAX], z1[2][NMAX], z2[2][NMAX], z3[2][NMAX];
	static fpr tmp[2 * NMAX];
	static const size_t pos[3] = { 0, 301, 505 };
	unsigned logn, j, npos;
	unsigned long declines = 0, runs = 0;
	int ok = 1, ok_raw = 1, mode = M_RAW, r;

	for (logn = 1; logn <= 10; logn ++) {
		const fpr *tree = fs_tree(logn);
		size_t u, n = (size_t)1 << logn;

		/* a simulated device (~50 k cycles/s for the rtl model) runs
		   each degree once and stops at logn 8 (the KAT tests run it
		   at 512 and 1024) */
		npos = be->simulated ? 1 : 3;
		if (be->simulated && logn > 8) {
			break;
		}
		for (j = 0; j < npos; j ++) {
			fa_shake256_ctx rng;
			uint8_t sd[2] = { (uint8_t)logn, (uint8_t)j };

			for (u = 0; u < n; u ++) {
				t0[u] = fs_target();
				t1[u] = fs_target();
			}
			fa_shake256_init_prng_from_seed(&rng, sd, sizeof sd);
			memset(&s1, 0, sizeof s1);
			fa_prng_init(&s1.p, &rng);
			s1.p.ptr = pos[(j + logn) % 3];
			s1.sigma_min = fpr_from_bits(fa_sigma_min[logn]);
			s1.k = &fa_backend_portable;
			memcpy(&s2, &s1, sizeof s2);
			s2.k = be;
			memcpy(&s3, &s2, sizeof s3);
			memcpy(&s0, &s2, sizeof s0);
			memset(z3, 0xA5, sizeof z3);
			memcpy(z2, z3, sizeof z2);

			r = CALL(ffsampling, &s3, z3[0], z3[1], tree, t0, t1, logn,
				tmp);
			fa_ffsampling_portable(&s1, z1[0], z1[1], tree, t0, t1, logn,
				tmp);
			fa_k_ffsampling(be, &s2, z2[0], z2[1], tree, t0, t1, logn,
				tmp);
			s2.k = s1.k;
			ok &= memcmp(z1[0], z2[0], n * sizeof(fpr)) == 0
				&& memcmp(z1[1], z2[1], n * sizeof(fpr)) == 0
				&& memcmp(&s1, &s2, sizeof s1) == 0;
			if (r == FA_KERNEL_FALLBACK) {
				static fpr pat[2][NMAX];

				memset(pat, 0xA5, sizeof pat);
				declines ++;
				ok_raw &= memcmp(&s3, &s0, sizeof s3) == 0
					&& memcmp(z3, pat, sizeof z3) == 0;
			} else if (r != ABSENT) {
				ok_raw &= r == FA_KERNEL_DONE
					&& memcmp(z3[0], z2[0], n * sizeof(fpr)) == 0
					&& memcmp(z3[1], z2[1], n * sizeof(fpr)) == 0
					&& memcmp(&s3.p, &s2.p, sizeof s3.p) == 0;
			}
			runs ++;
		}
	}
	CHECK(ok, "%s ffsampling: z0, z1 and the sampler state as portable",
		be->name);
	CHECK(ok_raw, "%s ffsampling kernel: declined without writing, or "
		"equal to portable", be->name);
	printf("backend %s: ffsampling, %lu of %lu calls declined\n", be->name,
		declines, runs);
}

static void test_backend(const struct fa_kernels *be)
{
	printf("backend %s\n", be->name);
	test_vector_slots(be);
	test_sampler(be);
	test_fndsa_sampler(be);
	test_ffsampling(be);
	test_mlkem_slots(be);
	test_keccak_slot(be);
	test_ek_checksum_slot(be);
}

int main(void)
{
	size_t i;
	int tested = 0;

	for (i = 0; i < fa_backend_count(); i ++) {
		const struct fa_kernels *be = fa_backend_at(i);

		if (!fa_backend_available(be)) {
			printf("backend %s: not available here, skipped\n", be->name);
			continue;
		}
		test_backend(be);
		tested ++;
	}
	CHECK(tested >= 1, "at least the portable backend");

#ifdef FNDSA_MARGIN_TEST
	test_fndsa_sampler_margin();
#endif

	/* Every slot declined: portable's results, and every slot asked. */
	test_backend(&decline_all);
#define CHECK_ASKED(slot, params, args) \
	CHECK(declined_##slot > 0, "decline-all: slot " #slot " never asked");
	FA_KERNEL_SLOTS(CHECK_ASKED)

	CHECK(fa_backend_find("portable") == &fa_backend_portable, "find portable");
	CHECK(fa_backend_find("no-such-backend") == NULL, "unknown name");
	CHECK(fa_backend_default() != NULL, "default");
	return tu_finish("test_backends");
}
