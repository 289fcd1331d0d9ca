/*
 * bench.c -- `falcon-accel bench`: median timings of the kernels (through
 * the backend's `struct fa_kernels`, tools/bench_inner.h) and of the scheme
 * operations, per degree, on one backend.
 *
 * Method: CLOCK_MONOTONIC; for each operation, R samples; before each
 * sample the inputs are restored (untimed), then `batch` back-to-back
 * calls are timed and the sample is elapsed/batch. `batch` is 1 for the
 * scheme operations and for kernels of 20 us or more; shorter kernels
 * are batched up to ~20 us per sample so that the clock's resolution and
 * call overhead (tens of ns) stay below 1%. The reported value is the
 * median sample in microseconds; "runs" is the number of samples.
 *
 * Inputs keep the repeated in-place calls in range: FFT/iFFT on random
 * values in [-1, 1] (a few calls grow or shrink them by at most n per
 * call, far from overflow and subnormals), vector products by values of
 * modulus 1, additions of bounded values, NTT inputs in [0, q-1].
 *
 * Default run counts: 301 samples per kernel and 101 per scheme
 * operation, each operation stopped early (after at least 5 samples, 3
 * for operations slower than budget/5) once it has used its time budget
 * (0.5 s per kernel, 3 s per scheme operation), which keeps a full
 * two-degree run of a CPU backend under a minute on a slow machine (a
 * simulated hardware backend takes longer). --runs R gives exactly R
 * samples, without budget.
 *
 * --scheme fn-dsa: the FN-DSA operations instead (fn-dsa 0.4.0,
 * falcon_accel.h "FN-DSA"), per degree: keygen (a key pair from a
 * SHAKE256 rng), expand (fa_fndsa_expand_privkey), sign_dyn
 * (fa_fndsa_sign from the encoded private key, which it decodes and
 * checks each time), sign_tree (fa_fndsa_sign_tree from the expanded
 * key), verify (fa_fndsa_verify from the encoded public key); pure
 * FN-DSA, empty context, the same 32-byte message. No kernels, batches
 * or ML-KEM; the JSON object says "scheme":"fn-dsa".
 *
 * --threads N (edge library): additionally sign_dyn_batch,
 * sign_tree_batch and verify_batch, batches of 16*N items on a pool of
 * N threads, reported as microseconds per item (inverse throughput).
 * Kernels and the other operations stay single calls on this thread.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/utsname.h>

#include "cli.h"
#include "bench_kem.h"   /* ML-KEM ops (bench_kem.c) */
#include "bench_inner.h"   /* the kernel seam and the sampler inputs */

#if defined(FA_HAVE_EDGE) && FA_HAVE_EDGE
#include "falcon_accel_edge.h"
#endif

#define BENCH_TARGET_SAMPLE_NS  20000.0
#define BENCH_KERNEL_RUNS       301
#define BENCH_SCHEME_RUNS       101
#define BENCH_MIN_RUNS          5
#define BENCH_KERNEL_BUDGET_S   0.5
#define BENCH_SCHEME_BUDGET_S   3.0
#define BENCH_MSG_LEN           32
#define BENCH_MU_COUNT          256

/* ------------------------------------------------------------------ */
/* State shared by the operations of one degree. */

typedef struct {
	const struct fa_kernels *k;
	const fa_backend *be;
	unsigned logn;

	/* Kernel inputs: pristine copies (a0, b0, m0) and work buffers. */
	fpr *a, *b, *a0, *b0;
	uint16_t *m, *m0;
	fpr mulconst;
	fa_sampler_ctx sampler;
	fpr mu[BENCH_MU_COUNT], isigma[BENCH_MU_COUNT];
	unsigned mu_index;
	int sink;   /* keeps samplerz results alive */
	/* ffsampling: targets and outputs (n fpr each), scratch (2n) */
	fpr *fs_t0, *fs_t1, *fs_z0, *fs_z1, *fs_tmp;

	/* Scheme: one key pair, its expanded key, one signature. */
	fa_shake256_ctx rng;
	fa_shake256_ctx krng;   /* FN-DSA keygen's seeds (state_init_fndsa) */
	uint8_t *sk, *pk, *sk2, *pk2, *ek, *sig, *sig0, *tmp;
	size_t sk_len, pk_len, ek_len, sig_max, sig0_len, tmp_len;
	uint8_t msg[BENCH_MSG_LEN];
} bench_state;

typedef struct {
	const char *name;
	void (*reset)(bench_state *st);   /* untimed, before each sample */
	void (*call)(bench_state *st);    /* the timed operation */
	unsigned max_batch;               /* calls per sample, at most */
} bench_op;

typedef struct {
	const char *op;
	unsigned degree;
	double median_us;
	unsigned runs;
	int has_cycles;
	uint64_t cycles, cycles_with_transfer;
} bench_result;

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* xorshift64* (bench inputs only). */
static uint64_t bench_rand(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*s = x;
	return x * 0x2545F4914F6CDD1DULL;
}

static void bench_check(int rc, const char *what)
{
	if (rc != FA_OK) {
		cli_fail(CLI_EXIT_ERROR, "bench: %s failed: %s", what,
			fa_strerror(rc));
	}
}

/* ------------------------------------------------------------------ */
/* Kernel operations. */

static void reset_fft(bench_state *st)
{
	memcpy(st->a, st->a0, MKN(st->logn) * sizeof(fpr));
}

/* b0 holds unit-modulus complex values (FFT form), so a *= b keeps |a|. */
static void reset_ab(bench_state *st)
{
	memcpy(st->a, st->a0, MKN(st->logn) * sizeof(fpr));
	memcpy(st->b, st->b0, MKN(st->logn) * sizeof(fpr));
}

static void reset_unit_a(bench_state *st)
{
	memcpy(st->a, st->b0, MKN(st->logn) * sizeof(fpr));
}

static void reset_ntt(bench_state *st)
{
	memcpy(st->m, st->m0, MKN(st->logn) * sizeof(uint16_t));
}

static void reset_none(bench_state *st)
{
	(void)st;
}

static void call_fft(bench_state *st) { fa_k_fft(st->k, st->a, st->logn); }
static void call_ifft(bench_state *st) { fa_k_ifft(st->k, st->a, st->logn); }
static void call_ntt(bench_state *st) { fa_k_mq_ntt(st->k, st->m, st->logn); }
static void call_intt(bench_state *st) { fa_k_mq_intt(st->k, st->m, st->logn); }
static void call_poly_add(bench_state *st)
{
	fa_k_poly_add(st->k, st->a, st->b, st->logn);
}
static void call_poly_sub(bench_state *st)
{
	fa_k_poly_sub(st->k, st->a, st->b, st->logn);
}
static void call_poly_mul_fft(bench_state *st)
{
	fa_k_poly_mul_fft(st->k, st->a, st->b, st->logn);
}
static void call_poly_muladj_fft(bench_state *st)
{
	fa_k_poly_muladj_fft(st->k, st->a, st->b, st->logn);
}
static void call_poly_mulselfadj_fft(bench_state *st)
{
	fa_k_poly_mulselfadj_fft(st->k, st->a, st->logn);
}
static void call_poly_mulconst(bench_state *st)
{
	fa_k_poly_mulconst(st->k, st->a, st->mulconst, st->logn);
}
static void call_samplerz(bench_state *st)
{
	unsigned j = st->mu_index ++ % BENCH_MU_COUNT;
	int z;

	fa_k_samplerz(st->k, &st->sampler, &z, st->mu[j], st->isigma[j]);
	st->sink += z;
}

/* ffSampling (the seam's ffsampling slot) with the LDL tree of the
   scheme's expanded key (st->ek: 8-byte header, b00..b11, then the tree),
   one call per signature attempt. Runs after state_init_scheme. */
static void call_ffsampling(bench_state *st)
{
	size_t n = MKN(st->logn);
	const fpr *tree = (const fpr *)(void *)(st->ek + 8) + 4 * n;

	fa_k_ffsampling(st->k, &st->sampler, st->fs_z0, st->fs_z1, tree,
		st->fs_t0, st->fs_t1, st->logn, st->fs_tmp);
	st->sink += (int)(fpr_bits(st->fs_z0[0]) & 1);
}

static const bench_op ffsampling_op =
	{ "ffsampling", reset_none, call_ffsampling, 1 };

static const bench_op kernel_ops[] = {
	{ "fft",                 reset_fft,    call_fft,                 8 },
	{ "ifft",                reset_fft,    call_ifft,                8 },
	{ "ntt",                 reset_ntt,    call_ntt,                64 },
	{ "intt",                reset_ntt,    call_intt,               64 },
	{ "poly_add",            reset_ab,     call_poly_add,          256 },
	{ "poly_sub",            reset_ab,     call_poly_sub,          256 },
	{ "poly_mul_fft",        reset_ab,     call_poly_mul_fft,      256 },
	{ "poly_muladj_fft",     reset_ab,     call_poly_muladj_fft,   256 },
	{ "poly_mulselfadj_fft", reset_unit_a, call_poly_mulselfadj_fft, 256 },
	{ "poly_mulconst",       reset_ab,     call_poly_mulconst,     256 },
	{ "samplerz",            reset_none,   call_samplerz,          256 },
};

/* ------------------------------------------------------------------ */
/* Scheme operations. */

static void call_keygen(bench_state *st)
{
	bench_check(fa_keygen(st->be, &st->rng, st->logn, st->sk2, st->sk_len,
		st->pk2, st->pk_len, st->tmp, st->tmp_len), "keygen");
}

static void call_expand(bench_state *st)
{
	bench_check(fa_expand_privkey(st->be, st->ek, st->ek_len,
		st->sk, st->sk_len, st->tmp, st->tmp_len), "expand");
}

static void call_sign_dyn(bench_state *st)
{
	size_t len = st->sig_max;

	bench_check(fa_sign_dyn(st->be, &st->rng, st->sig, &len,
		FA_SIG_COMPRESSED, st->sk, st->sk_len, st->msg, sizeof st->msg,
		st->tmp, st->tmp_len), "sign_dyn");
}

static void call_sign_tree(bench_state *st)
{
	size_t len = st->sig_max;

	bench_check(fa_sign_tree(st->be, &st->rng, st->sig, &len,
		FA_SIG_COMPRESSED, st->ek, st->msg, sizeof st->msg,
		st->tmp, st->tmp_len), "sign_tree");
}

static void call_verify(bench_state *st)
{
	bench_check(fa_verify(st->be, st->sig0, st->sig0_len,
		FA_SIG_COMPRESSED, st->pk, st->pk_len, st->msg, sizeof st->msg,
		st->tmp, st->tmp_len), "verify");
}

static const bench_op scheme_ops[] = {
	{ "keygen",    reset_none, call_keygen,    1 },
	{ "expand",    reset_none, call_expand,    1 },
	{ "sign_dyn",  reset_none, call_sign_dyn,  1 },
	{ "sign_tree", reset_none, call_sign_tree, 1 },
	{ "verify",    reset_none, call_verify,    1 },
};

/* FN-DSA (--scheme fn-dsa): the same state fields, FN-DSA objects. */

static void call_fndsa_keygen(bench_state *st)
{
	bench_check(fa_fndsa_keygen(st->be, &st->krng, st->logn, st->sk2,
		st->sk_len, st->pk2, st->pk_len, st->tmp, st->tmp_len),
		"fn-dsa keygen");
}

static void call_fndsa_expand(bench_state *st)
{
	bench_check(fa_fndsa_expand_privkey(st->be, st->ek, st->ek_len,
		st->sk, st->sk_len, st->tmp, st->tmp_len), "fn-dsa expand");
}

static void call_fndsa_sign_dyn(bench_state *st)
{
	bench_check(fa_fndsa_sign(st->be, &st->rng, st->sig, st->sig_max,
		st->sk, st->sk_len, NULL, 0, FA_FNDSA_PH_NONE, st->msg,
		sizeof st->msg, st->tmp, st->tmp_len), "fn-dsa sign_dyn");
}

static void call_fndsa_sign_tree(bench_state *st)
{
	bench_check(fa_fndsa_sign_tree(st->be, &st->rng, NULL, st->sig,
		st->sig_max, st->ek, NULL, 0, FA_FNDSA_PH_NONE, st->msg,
		sizeof st->msg, st->tmp, st->tmp_len), "fn-dsa sign_tree");
}

static void call_fndsa_verify(bench_state *st)
{
	bench_check(fa_fndsa_verify(st->be, st->sig0, st->sig0_len, st->pk,
		st->pk_len, NULL, 0, FA_FNDSA_PH_NONE, st->msg, sizeof st->msg,
		st->tmp, st->tmp_len), "fn-dsa verify");
}

static const bench_op fndsa_ops[] = {
	{ "keygen",    reset_none, call_fndsa_keygen,    1 },
	{ "expand",    reset_none, call_fndsa_expand,    1 },
	{ "sign_dyn",  reset_none, call_fndsa_sign_dyn,  1 },
	{ "sign_tree", reset_none, call_fndsa_sign_tree, 1 },
	{ "verify",    reset_none, call_fndsa_verify,    1 },
};
#define FNDSA_OP_COUNT (sizeof fndsa_ops / sizeof fndsa_ops[0])

/* ------------------------------------------------------------------ */
/* Setup. */

static size_t max3(size_t x, size_t y, size_t z)
{
	size_t m = x > y ? x : y;

	return m > z ? m : z;
}

/* Seed of every random input of the bench (SHAKE256 input). */
static const char bench_seed[] = "falcon-accel bench";
/* FN-DSA keygen's: the label of bench/peers' fn-dsa RNG. */
static const char fndsa_keygen_seed[] = "falcon-accel bench peers";

/* Kernel inputs. */
static void state_init(bench_state *st, const fa_backend *be,
	unsigned logn)
{
	size_t n = MKN(logn), j;
	uint64_t r = 0x9E3779B97F4A7C15ULL ^ logn;
	fa_shake256_ctx sh;

	memset(st, 0, sizeof *st);
	st->be = be;
	st->k = fa_kernels_resolve(be);
	st->logn = logn;

	st->a = cli_alloc(n * sizeof(fpr));
	st->b = cli_alloc(n * sizeof(fpr));
	st->a0 = cli_alloc(n * sizeof(fpr));
	st->b0 = cli_alloc(n * sizeof(fpr));
	st->m = cli_alloc(n * sizeof(uint16_t));
	st->m0 = cli_alloc(n * sizeof(uint16_t));
	st->fs_t0 = cli_alloc(n * sizeof(fpr));
	st->fs_t1 = cli_alloc(n * sizeof(fpr));
	st->fs_z0 = cli_alloc(n * sizeof(fpr));
	st->fs_z1 = cli_alloc(n * sizeof(fpr));
	st->fs_tmp = cli_alloc(2 * n * sizeof(fpr));
	for (j = 0; j < n; j ++) {
		/* a0: values in [-1, 1) with 20 random bits */
		st->a0[j] = fpr_scaled((int64_t)(bench_rand(&r) >> 44)
			- ((int64_t)1 << 19), -19);
		st->m0[j] = (uint16_t)(bench_rand(&r) % FA_Q);
	}
	/* b0: n/2 complex values of modulus 1, e^(i*theta) with
	   (cos, sin) taken from the FFT root table. */
	for (j = 0; j < n / 2; j ++) {
		size_t t = (size_t)(bench_rand(&r) % 1024);

		st->b0[j] = fpr_from_bits(fa_fft_roots[2 * t]);
		st->b0[j + n / 2] = fpr_from_bits(fa_fft_roots[2 * t + 1]);
	}
	st->mulconst = fpr_from_bits(0x3FEFFFFFFFFFFFFEu);  /* just under 1 */

	/* SamplerZ: fixed seed; mu in [-100, 100], 1/sigma for sigma in
	   [1.2998, 1.4990] (leaf values of signing are sigma_min..~1.5). */
	fa_shake256_init_prng_from_seed(&sh, bench_seed, sizeof bench_seed - 1);
	fa_prng_init(&st->sampler.p, &sh);
	st->sampler.sigma_min = fpr_from_bits(fa_sigma_min[logn]);
	st->sampler.k = st->k;
	for (j = 0; j < BENCH_MU_COUNT; j ++) {
		int64_t mu_int = (int64_t)(bench_rand(&r) % 204801) - 102400;
		int64_t sigma_int = 1331 + (int64_t)(bench_rand(&r) % 204);

		st->mu[j] = fpr_scaled(mu_int, -10);
		st->isigma[j] = fpr_inv(fpr_scaled(sigma_int, -10));
	}
	/* drawn last: the inputs above are unchanged */
	for (j = 0; j < n; j ++) {
		/* ffsampling targets: |t| < 4096 with 20 fraction bits, the
		   size of a signature's (t0, t1) */
		st->fs_t0[j] = fpr_scaled((int64_t)(bench_rand(&r) >> 31)
			- ((int64_t)1 << 32), -20);
		st->fs_t1[j] = fpr_scaled((int64_t)(bench_rand(&r) >> 31)
			- ((int64_t)1 << 32), -20);
	}
}

/* Scheme objects (a key pair, its expanded key, one signature),
   deterministic from a fixed seed. */
static void state_init_scheme(bench_state *st)
{
	const fa_backend *be = st->be;
	unsigned logn = st->logn;
	size_t j;

	st->sk_len = FA_PRIVKEY_SIZE(logn);
	st->pk_len = FA_PUBKEY_SIZE(logn);
	st->ek_len = FA_EXPANDED_KEY_SIZE(logn);
	st->sig_max = FA_SIG_MAXSIZE(logn);
	st->tmp_len = max3(FA_TMPSIZE_KEYGEN(logn),
		FA_TMPSIZE_SIGN_DYN(logn), FA_TMPSIZE_SIGN_TREE(logn));
	st->tmp_len = max3(st->tmp_len, FA_TMPSIZE_EXPAND(logn),
		FA_TMPSIZE_VERIFY(logn));
	st->sk = cli_alloc(st->sk_len);
	st->pk = cli_alloc(st->pk_len);
	st->sk2 = cli_alloc(st->sk_len);
	st->pk2 = cli_alloc(st->pk_len);
	st->ek = cli_alloc(st->ek_len);
	st->sig = cli_alloc(st->sig_max);
	st->sig0 = cli_alloc(st->sig_max);
	st->tmp = cli_alloc(st->tmp_len);
	for (j = 0; j < sizeof st->msg; j ++) {
		st->msg[j] = (uint8_t)j;
	}
	fa_shake256_init_prng_from_seed(&st->rng, bench_seed,
		sizeof bench_seed - 1);
	bench_check(fa_keygen(be, &st->rng, logn, st->sk, st->sk_len,
		st->pk, st->pk_len, st->tmp, st->tmp_len), "setup keygen");
	bench_check(fa_expand_privkey(be, st->ek, st->ek_len,
		st->sk, st->sk_len, st->tmp, st->tmp_len), "setup expand");
	st->sig0_len = st->sig_max;
	bench_check(fa_sign_dyn(be, &st->rng, st->sig0, &st->sig0_len,
		FA_SIG_COMPRESSED, st->sk, st->sk_len, st->msg, sizeof st->msg,
		st->tmp, st->tmp_len), "setup sign");
	bench_check(fa_verify(be, st->sig0, st->sig0_len, FA_SIG_COMPRESSED,
		st->pk, st->pk_len, st->msg, sizeof st->msg,
		st->tmp, st->tmp_len), "setup verify");
}

/* FN-DSA objects (a key pair, its expanded key, one signature) from the
   fixed seed; the kernel buffers of state_init are not used. */
static void state_init_fndsa(bench_state *st, const fa_backend *be,
	unsigned logn)
{
	size_t j;

	memset(st, 0, sizeof *st);
	st->be = be;
	st->k = fa_kernels_resolve(be);
	st->logn = logn;
	st->sk_len = FA_FNDSA_PRIVKEY_SIZE(logn);
	st->pk_len = FA_FNDSA_PUBKEY_SIZE(logn);
	st->ek_len = FA_FNDSA_EXPANDED_KEY_SIZE(logn);
	st->sig_max = FA_FNDSA_SIG_SIZE(logn);
	st->tmp_len = max3(FA_TMPSIZE_FNDSA_KEYGEN(logn),
		FA_TMPSIZE_FNDSA_SIGN(logn), FA_TMPSIZE_FNDSA_SIGN_TREE(logn));
	if (st->tmp_len < FA_TMPSIZE_FNDSA_VERIFY(logn)) {
		st->tmp_len = FA_TMPSIZE_FNDSA_VERIFY(logn);
	}
	st->sk = cli_alloc(st->sk_len);
	st->pk = cli_alloc(st->pk_len);
	st->sk2 = cli_alloc(st->sk_len);
	st->pk2 = cli_alloc(st->pk_len);
	st->ek = cli_alloc(st->ek_len);   /* malloc: 8-byte aligned */
	st->sig = cli_alloc(st->sig_max);
	st->sig0 = cli_alloc(st->sig_max);
	st->tmp = cli_alloc(st->tmp_len);
	for (j = 0; j < sizeof st->msg; j ++) {
		st->msg[j] = (uint8_t)j;
	}
	fa_shake256_init_prng_from_seed(&st->rng, bench_seed,
		sizeof bench_seed - 1);
	bench_check(fa_fndsa_keygen(be, &st->rng, logn, st->sk, st->sk_len,
		st->pk, st->pk_len, st->tmp, st->tmp_len), "setup fn-dsa keygen");
	bench_check(fa_fndsa_expand_privkey(be, st->ek, st->ek_len, st->sk,
		st->sk_len, st->tmp, st->tmp_len), "setup fn-dsa expand");
	st->sig0_len = st->sig_max;
	bench_check(fa_fndsa_sign(be, &st->rng, st->sig0, st->sig0_len,
		st->sk, st->sk_len, NULL, 0, FA_FNDSA_PH_NONE, st->msg,
		sizeof st->msg, st->tmp, st->tmp_len), "setup fn-dsa sign");
	bench_check(fa_fndsa_verify(be, st->sig0, st->sig0_len, st->pk,
		st->pk_len, NULL, 0, FA_FNDSA_PH_NONE, st->msg, sizeof st->msg,
		st->tmp, st->tmp_len), "setup fn-dsa verify");
	/* the keygen op draws its seeds as bench/peers' fn-dsa keygen does
	   (SHAKE256 of the same label, 32 bytes per key): both make the same
	   keys in the same order, so the candidate counts match too */
	fa_shake256_init_prng_from_seed(&st->krng, fndsa_keygen_seed,
		sizeof fndsa_keygen_seed - 1);
}

static void state_free(bench_state *st)
{
	free(st->a);
	free(st->b);
	free(st->a0);
	free(st->b0);
	free(st->m);
	free(st->m0);
	free(st->fs_t0);
	free(st->fs_t1);
	free(st->fs_z0);
	free(st->fs_z1);
	free(st->fs_tmp);
	free(st->sk);
	free(st->pk);
	free(st->sk2);
	free(st->pk2);
	free(st->ek);
	free(st->sig);
	free(st->sig0);
	free(st->tmp);
}

/* ------------------------------------------------------------------ */
/* Measurement. */

static int cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return (a > b) - (a < b);
}

static double median(double *v, unsigned n)
{
	qsort(v, n, sizeof *v, cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/*
 * Hook for backends that model hardware (e.g. a cycle-accurate RTL
 * simulation): the cycles of one kernel call, without and with the
 * host<->device transfers. Returns 1 and fills both when the backend
 * knows them; then the JSON entry gets "cycles" and
 * "cycles_with_transfer". For samplerz the counts are the mean over
 * BENCH_SZ_REPS samples run on the device.
 */
#if defined(FA_HAVE_BACKEND_RTL) && FA_HAVE_BACKEND_RTL
#include "fa_rtl.h"
#endif

/*
 * Cycle counts of one kernel call on a backend that models hardware: the
 * rtl backend counts device clocks (compute only, and with the bus
 * transfers). Returns 1 and fills the counts when the call ran on the
 * device, 0 otherwise (other backends, or sizes the backend leaves to the
 * portable code).
 */
#define BENCH_SZ_REPS 256

static int bench_hw_cycles(bench_state *st, const bench_op *op,
	uint64_t *cycles, uint64_t *cycles_with_transfer)
{
#if defined(FA_HAVE_BACKEND_RTL) && FA_HAVE_BACKEND_RTL
	fa_rtl_kstat ks[FA_RTL_K_COUNT];
	char want[48];
	size_t i;
	/* samplerz: the mean over BENCH_SZ_REPS samples (the cycles of one
	   sample depend on its trial count) */
	unsigned r, reps = strcmp(op->name, "samplerz") == 0 ? BENCH_SZ_REPS : 1;

	if (strcmp(st->k->name, "rtl") != 0) {
		return 0;
	}
	/* bench names "ntt"/"intt" are the seam's mq_ntt/mq_intt */
	snprintf(want, sizeof want, "%s%s",
		(strcmp(op->name, "ntt") == 0 || strcmp(op->name, "intt") == 0)
		? "mq_" : "", op->name);
	op->reset(st);
	if (reps > 1) {
		/* the device's SamplerZ (off by default in the backend, see
		   FA_RTL_SAMPLERZ): on for these samples only */
		fa_rtl_samplerz_force(1);
		op->call(st);   /* device PRNG in sync: no SZ_LOAD below */
	}
	fa_rtl_stats_reset();
	for (r = 0; r < reps; r ++) {
		op->call(st);
	}
	fa_rtl_stats(ks);
	if (reps > 1) {
		fa_rtl_samplerz_force(-1);
	}
	for (i = 0; i < FA_RTL_K_COUNT; i ++) {
		if (strcmp(fa_rtl_kernel_names[i], want) == 0 && ks[i].calls == reps) {
			*cycles = (ks[i].cycles + reps / 2) / reps;
			*cycles_with_transfer = (ks[i].cycles_with_transfer + reps / 2) / reps;
			return 1;
		}
	}
	return 0;
#else
	(void)st;
	(void)op;
	*cycles = 0;
	*cycles_with_transfer = 0;
	return 0;
#endif
}

/* Median time of one op; runs == 0 means the default with budget. */
static bench_result measure(bench_state *st, const bench_op *op,
	unsigned runs, unsigned default_runs, double budget_s, int is_kernel)
{
	bench_result res;
	unsigned max_runs = runs ? runs : default_runs;
	unsigned min_runs, done, batch, i;
	double *samples = cli_alloc(max_runs * sizeof(double));
	double t0, t1, one, start;

	/* Warm-up (caches, lazy setup), timed: it calibrates the batch. A
	   second warm-up for the batched kernels, whose first call may pay
	   for a lazy initialisation. */
	op->reset(st);
	t0 = now_ns();
	op->call(st);
	one = now_ns() - t0;
	if (op->max_batch > 1) {
		op->reset(st);
		t0 = now_ns();
		op->call(st);
		one = now_ns() - t0;
	}
	/* Very slow operations (simulated hardware) stop after 3 samples
	   once the budget is spent. */
	min_runs = one * 1e-9 > budget_s / BENCH_MIN_RUNS ? 3 : BENCH_MIN_RUNS;
	batch = 1;
	if (op->max_batch > 1 && one < BENCH_TARGET_SAMPLE_NS) {
		double b = BENCH_TARGET_SAMPLE_NS / (one > 1.0 ? one : 1.0);

		batch = b >= op->max_batch ? op->max_batch : (unsigned)b;
		if (batch < 1) {
			batch = 1;
		}
	}

	start = now_ns();
	for (done = 0; done < max_runs; ) {
		op->reset(st);
		t0 = now_ns();
		for (i = 0; i < batch; i ++) {
			op->call(st);
		}
		t1 = now_ns();
		samples[done ++] = (t1 - t0) / batch;
		if (runs == 0 && done >= min_runs
			&& (t1 - start) * 1e-9 > budget_s)
		{
			break;
		}
	}

	memset(&res, 0, sizeof res);
	res.op = op->name;
	res.degree = 1u << st->logn;
	res.runs = done;
	res.median_us = median(samples, done) / 1000.0;
	if (is_kernel) {
		res.has_cycles = bench_hw_cycles(st, op,
			&res.cycles, &res.cycles_with_transfer);
	}
	free(samples);
	return res;
}

/* ------------------------------------------------------------------ */
/* Batch operations (--threads N, edge library): a pool of N threads runs
   batches of BENCH_BATCH_PER_THREAD * N independent items with
   fa_sign_batch / fa_verify_batch; one sample = one batch, reported as
   microseconds per item (amortised, i.e. the inverse throughput). */

#if defined(FA_HAVE_EDGE) && FA_HAVE_EDGE

#define BENCH_BATCH_PER_THREAD  16
#define BENCH_BATCH_RUNS        21

typedef struct {
	const char *name;
	int op;               /* FA_OP_SIGN or FA_OP_VERIFY */
	int use_tree;         /* sign: expanded key (1) or encoded key (0) */
} bench_batch_op;

static const bench_batch_op batch_ops[] = {
	{ "sign_dyn_batch",  FA_OP_SIGN,   0 },
	{ "sign_tree_batch", FA_OP_SIGN,   1 },
	{ "verify_batch",    FA_OP_VERIFY, 0 },
};
#define BENCH_BATCH_OP_COUNT (sizeof batch_ops / sizeof batch_ops[0])

/* One batch; exits (code 2) if any item fails. */
static void run_batch(bench_state *st, fa_pool *pool,
	const bench_batch_op *op, fa_sign_item *sign, fa_verify_item *ver,
	uint8_t *sigs, size_t n)
{
	size_t i;
	int rc;

	if (op->op == FA_OP_SIGN) {
		for (i = 0; i < n; i ++) {
			memset(&sign[i], 0, sizeof sign[i]);
			if (op->use_tree) {
				sign[i].expanded_key = st->ek;
			} else {
				sign[i].sk = st->sk;
				sign[i].sk_len = st->sk_len;
			}
			sign[i].msg = st->msg;
			sign[i].msg_len = sizeof st->msg;
			sign[i].sig = sigs + i * st->sig_max;
			sign[i].sig_len = st->sig_max;
		}
		rc = fa_sign_batch(pool, st->be, FA_SIG_COMPRESSED, sign, n);
	} else {
		for (i = 0; i < n; i ++) {
			memset(&ver[i], 0, sizeof ver[i]);
			ver[i].sig = st->sig0;
			ver[i].sig_len = st->sig0_len;
			ver[i].pk = st->pk;
			ver[i].pk_len = st->pk_len;
			ver[i].msg = st->msg;
			ver[i].msg_len = sizeof st->msg;
		}
		rc = fa_verify_batch(pool, st->be, FA_SIG_COMPRESSED, ver, n);
	}
	if (rc != 0) {
		cli_fail(CLI_EXIT_ERROR, "bench: %s: %s", op->name,
			rc < 0 ? fa_strerror(rc) : "some items failed");
	}
}

/* Appends the batch results to out; returns their number. */
static size_t measure_batches(bench_state *st, fa_pool *pool,
	unsigned threads, unsigned runs, bench_result *out)
{
	size_t n = (size_t)BENCH_BATCH_PER_THREAD * threads, j;
	unsigned max_runs = runs ? runs : BENCH_BATCH_RUNS;
	fa_sign_item *sign = cli_alloc(n * sizeof *sign);
	fa_verify_item *ver = cli_alloc(n * sizeof *ver);
	uint8_t *sigs = cli_alloc(n * st->sig_max);
	double *samples = cli_alloc(max_runs * sizeof(double));

	for (j = 0; j < BENCH_BATCH_OP_COUNT; j ++) {
		const bench_batch_op *op = &batch_ops[j];
		unsigned done;
		double start, t0, t1;

		run_batch(st, pool, op, sign, ver, sigs, n);   /* warm-up */
		start = now_ns();
		for (done = 0; done < max_runs; ) {
			t0 = now_ns();
			run_batch(st, pool, op, sign, ver, sigs, n);
			t1 = now_ns();
			samples[done ++] = (t1 - t0) / (double)n;
			if (runs == 0 && done >= BENCH_MIN_RUNS
				&& (t1 - start) * 1e-9 > BENCH_SCHEME_BUDGET_S)
			{
				break;
			}
		}
		memset(&out[j], 0, sizeof out[j]);
		out[j].op = op->name;
		out[j].degree = 1u << st->logn;
		out[j].runs = done;
		out[j].median_us = median(samples, done) / 1000.0;
	}
	free(sign);
	free(ver);
	free(sigs);
	free(samples);
	return BENCH_BATCH_OP_COUNT;
}

#else

#define BENCH_BATCH_OP_COUNT 0

#endif

/* ------------------------------------------------------------------ */
/* Output. */

static void machine_name(char *out, size_t out_len)
{
	struct utsname u;
	char line[512], model[256] = "";
	FILE *f;

	if (uname(&u) != 0) {
		strcpy(u.machine, "unknown");
	}
	f = fopen("/proc/cpuinfo", "r");
	if (f != NULL) {
		while (fgets(line, sizeof line, f) != NULL) {
			char *colon = strchr(line, ':');

			if (colon != NULL && (strncmp(line, "model name", 10) == 0
				|| strncmp(line, "uarch", 5) == 0
				|| strncmp(line, "Model", 5) == 0))
			{
				char *v = colon + 1;
				size_t len;

				while (*v == ' ' || *v == '\t') {
					v ++;
				}
				len = strcspn(v, "\r\n");
				if (len >= sizeof model) {
					len = sizeof model - 1;
				}
				memcpy(model, v, len);
				model[len] = 0;
				break;
			}
		}
		fclose(f);
	}
	if (model[0] != 0) {
		snprintf(out, out_len, "%s %s", u.machine, model);
	} else {
		snprintf(out, out_len, "%s", u.machine);
	}
}

static void json_string(const char *s)
{
	putchar('"');
	for (; *s != 0; s ++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\') {
			printf("\\%c", c);
		} else if (c < 0x20) {
			printf("\\u%04x", c);
		} else {
			putchar(c);
		}
	}
	putchar('"');
}

static void print_json(const char *backend, const char *scheme,
	unsigned threads, const char *machine, const bench_result *r,
	size_t count)
{
	size_t i;

	printf("{\"implementation\":\"falcon-accel\",");
	if (scheme != NULL) {
		printf("\"scheme\":");
		json_string(scheme);
		putchar(',');
	}
	printf("\"backend\":");
	json_string(backend);
	printf(",\"threads\":%u,\"machine\":", threads);
	json_string(machine);
	printf(",\"results\":[");
	for (i = 0; i < count; i ++) {
		printf("%s{\"op\":\"%s\",\"degree\":%u,\"median_us\":%.3f,"
			"\"runs\":%u", i ? "," : "", r[i].op, r[i].degree,
			r[i].median_us, r[i].runs);
		if (r[i].has_cycles) {
			printf(",\"cycles\":%llu,\"cycles_with_transfer\":%llu",
				(unsigned long long)r[i].cycles,
				(unsigned long long)r[i].cycles_with_transfer);
		}
		putchar('}');
	}
	printf("]}\n");
}

static void print_table(const char *backend, const char *scheme,
	unsigned threads, const char *machine, const bench_result *r,
	size_t count)
{
	size_t i;

	printf("falcon-accel bench%s%s: backend %s, threads %u, %s\n\n",
		scheme != NULL ? " " : "", scheme != NULL ? scheme : "",
		backend, threads, machine);
	printf("%-22s %6s %14s %6s\n", "op", "degree", "median (us)", "runs");
	for (i = 0; i < count; i ++) {
		printf("%-22s %6u %14.3f %6u\n", r[i].op, r[i].degree,
			r[i].median_us, r[i].runs);
	}
}

/* ------------------------------------------------------------------ */

int cli_cmd_bench(int argc, char **argv)
{
	cli_args a;
	const char *opt, *be_name = NULL;
	int json = 0;
	unsigned threads = 1, runs = 0, logn_lo = 9, logn_hi = 10, logn;
	const fa_backend *be;
	bench_result results[2 * (sizeof kernel_ops / sizeof kernel_ops[0] + 1
		+ sizeof scheme_ops / sizeof scheme_ops[0]
		+ BENCH_BATCH_OP_COUNT) + BENCH_KEM_RESULTS];
	bench_kem_result kem[BENCH_KEM_RESULTS];
	size_t count = 0, i;
	char machine[320];
	int threads_given = 0, fndsa = 0;
#if defined(FA_HAVE_EDGE) && FA_HAVE_EDGE
	fa_pool *pool = NULL;
#endif

	cli_args_init(&a, argc, argv);
	while ((opt = cli_next_opt(&a)) != NULL) {
		if (strcmp(opt, "--json") == 0) {
			cli_opt_flag(&a);
			json = 1;
		} else if (strcmp(opt, "--backend") == 0) {
			be_name = cli_opt_value(&a);
		} else if (strcmp(opt, "--threads") == 0) {
			threads = (unsigned)cli_parse_uint("--threads",
				cli_opt_value(&a), 1, 1024);
			threads_given = 1;
		} else if (strcmp(opt, "--runs") == 0) {
			runs = (unsigned)cli_parse_uint("--runs",
				cli_opt_value(&a), 1, 1000000);
		} else if (strcmp(opt, "--degree") == 0) {
			logn_lo = logn_hi = cli_parse_degree(cli_opt_value(&a));
		} else if (strcmp(opt, "--scheme") == 0) {
			const char *v = cli_opt_value(&a);

			if (strcmp(v, "fn-dsa") == 0) {
				fndsa = 1;
			} else if (strcmp(v, "falcon") != 0) {
				cli_fail(CLI_EXIT_ERROR, "bench: --scheme %s: "
					"expected falcon or fn-dsa", v);
			}
		} else {
			cli_fail(CLI_EXIT_ERROR, "bench: unknown option %s", opt);
		}
	}
	be = cli_backend(be_name);
	if (fndsa) {
		if (threads_given) {
			cli_fail(CLI_EXIT_ERROR, "bench: --threads is for "
				"--scheme falcon (no FN-DSA batch API)");
		}
		for (logn = logn_lo; logn <= logn_hi; logn ++) {
			bench_state st;

			state_init_fndsa(&st, be, logn);
			for (i = 0; i < FNDSA_OP_COUNT; i ++) {
				results[count ++] = measure(&st, &fndsa_ops[i],
					runs, BENCH_SCHEME_RUNS,
					BENCH_SCHEME_BUDGET_S, 0);
			}
			state_free(&st);
		}
		machine_name(machine, sizeof machine);
		if (json) {
			print_json(fa_backend_name(be), "fn-dsa", 1, machine,
				results, count);
		} else {
			print_table(fa_backend_name(be), "fn-dsa", 1, machine,
				results, count);
		}
		return CLI_EXIT_OK;
	}
#if defined(FA_HAVE_EDGE) && FA_HAVE_EDGE
	if (threads_given) {
		pool = fa_pool_new(threads);
		if (pool == NULL) {
			cli_fail(CLI_EXIT_ERROR, "bench: cannot start %u threads",
				threads);
		}
	}
#else
	if (threads_given && threads > 1) {
		/* Built without the edge library: no batch API. */
		fprintf(stderr, "falcon-accel: bench: built without the edge "
			"library, --threads %u ignored\n", threads);
		threads = 1;
	}
	(void)threads_given;
#endif

	for (logn = logn_lo; logn <= logn_hi; logn ++) {
		bench_state st;

		state_init(&st, be, logn);
		for (i = 0; i < sizeof kernel_ops / sizeof kernel_ops[0]; i ++) {
			results[count ++] = measure(&st, &kernel_ops[i], runs,
				BENCH_KERNEL_RUNS, BENCH_KERNEL_BUDGET_S, 1);
		}
		state_init_scheme(&st);
		results[count ++] = measure(&st, &ffsampling_op, runs,
			BENCH_KERNEL_RUNS, BENCH_KERNEL_BUDGET_S, 1);
		for (i = 0; i < sizeof scheme_ops / sizeof scheme_ops[0]; i ++) {
			results[count ++] = measure(&st, &scheme_ops[i], runs,
				BENCH_SCHEME_RUNS, BENCH_SCHEME_BUDGET_S, 0);
		}
#if defined(FA_HAVE_EDGE) && FA_HAVE_EDGE
		if (pool != NULL) {
			count += measure_batches(&st, pool, threads, runs,
				results + count);
		}
#endif
		if (st.sink == 0x7FFFFFFF) {
			putchar(' ');   /* keeps samplerz results observable */
		}
		state_free(&st);
	}

#if defined(FA_HAVE_EDGE) && FA_HAVE_EDGE
	fa_pool_free(pool);
#endif
	/* ML-KEM: kem_keygen/encaps/decaps, "degree" = level */
	bench_kem(be, runs, kem);
	for (i = 0; i < BENCH_KEM_RESULTS; i ++) {
		memset(&results[count], 0, sizeof results[count]);
		results[count].op = kem[i].op;
		results[count].degree = kem[i].level;
		results[count].median_us = kem[i].median_us;
		results[count ++].runs = kem[i].runs;
	}
	machine_name(machine, sizeof machine);
	if (json) {
		print_json(fa_backend_name(be), NULL, threads, machine, results,
			count);
	} else {
		print_table(fa_backend_name(be), NULL, threads, machine,
			results, count);
	}
	return CLI_EXIT_OK;
}
