/*
 * pool_scaling.c -- throughput of the batch API (fa_sign_batch,
 * fa_verify_batch) on a pool of 1..N threads, with large batches, to
 * measure how the worker pool scales with cores (issue 3: "batch sign and
 * verify on 2 cores >= 1.8x one core").
 *
 *   pool_scaling [max_threads [items [reps]]]    (defaults 2, 512, 7)
 *
 * For each thread count t = 1, 2, 4, ... <= max_threads: `reps` batches of
 * `items` items per operation (sign_dyn, sign_tree, verify; Falcon-512,
 * default backend); prints the median wall-clock time per item and the
 * speed-up over t = 1. Build and run: `make bench-pool` (THREADS=4
 * ITEMS=512 REPS=7 to change the defaults).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "falcon_accel_edge.h"

#define LOGN 9

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

typedef struct {
	unsigned char sk[FA_PRIVKEY_SIZE(LOGN)], pk[FA_PUBKEY_SIZE(LOGN)];
	unsigned char sig[FA_SIG_MAXSIZE(LOGN)];
	size_t sig_len;
	void *ek;
	size_t ek_len;
} keys;

/* One batch of op 0 = sign_dyn, 1 = sign_tree, 2 = verify; seconds. */
static double one_batch(fa_pool *pool, const keys *k, int op, size_t n,
	fa_sign_item *si, fa_verify_item *vi, unsigned char *sigs)
{
	size_t i;
	double t0, t1;
	int rc;

	for (i = 0; i < n; i ++) {
		memset(&si[i], 0, sizeof si[i]);
		memset(&vi[i], 0, sizeof vi[i]);
		if (op == 1) {
			si[i].expanded_key = k->ek;
		} else {
			si[i].sk = k->sk;
			si[i].sk_len = sizeof k->sk;
		}
		si[i].msg = "message";
		si[i].msg_len = 7;
		si[i].sig = sigs + i * FA_SIG_MAXSIZE(LOGN);
		si[i].sig_len = FA_SIG_MAXSIZE(LOGN);
		vi[i].sig = k->sig;
		vi[i].sig_len = k->sig_len;
		vi[i].pk = k->pk;
		vi[i].pk_len = sizeof k->pk;
		vi[i].msg = "message";
		vi[i].msg_len = 7;
	}
	t0 = now();
	rc = op == 2 ? fa_verify_batch(pool, NULL, FA_SIG_COMPRESSED, vi, n)
		: fa_sign_batch(pool, NULL, FA_SIG_COMPRESSED, si, n);
	t1 = now();
	if (rc != 0) {
		fprintf(stderr, "pool_scaling: batch failed (%d)\n", rc);
		exit(2);
	}
	return t1 - t0;
}

int main(int argc, char **argv)
{
	static const char *names[3] = { "sign_dyn", "sign_tree", "verify" };
	unsigned maxt = argc > 1 ? (unsigned)atoi(argv[1]) : 2;
	size_t n = argc > 2 ? (size_t)atol(argv[2]) : 512;
	int reps = argc > 3 ? atoi(argv[3]) : 7, op, r;
	double base[3] = { 0, 0, 0 }, *s = malloc((size_t)reps * sizeof *s);
	fa_sign_item *si = calloc(n, sizeof *si);
	fa_verify_item *vi = calloc(n, sizeof *vi);
	unsigned char *sigs = malloc(n * FA_SIG_MAXSIZE(LOGN));
	keys k;
	unsigned t;

	if (s == NULL || si == NULL || vi == NULL || sigs == NULL || reps < 1
		|| maxt < 1 || n < 1)
	{
		fprintf(stderr, "usage: pool_scaling [max_threads [items [reps]]]\n");
		return 2;
	}
	k.sig_len = sizeof k.sig;
	if (fa_keygen_alloc(NULL, LOGN, "pool", 4, k.sk, sizeof k.sk,
			k.pk, sizeof k.pk) != FA_OK
		|| fa_sign_alloc(NULL, "s", 1, k.sig, &k.sig_len,
			FA_SIG_COMPRESSED, k.sk, sizeof k.sk, "message", 7) != FA_OK
		|| fa_expand_privkey_alloc(NULL, &k.ek, &k.ek_len, k.sk,
			sizeof k.sk) != FA_OK)
	{
		fprintf(stderr, "pool_scaling: key set-up failed\n");
		return 2;
	}
	printf("Falcon-512, backend %s, %zu items per batch, median of %d "
		"batches\n", fa_backend_name(fa_backend_default()), n, reps);
	for (t = 1; t <= maxt; t *= 2) {
		fa_pool *pool = fa_pool_new(t);

		if (pool == NULL) {
			fprintf(stderr, "pool_scaling: no pool of %u\n", t);
			return 2;
		}
		for (op = 0; op < 3; op ++) {
			double med;

			(void)one_batch(pool, &k, op, n, si, vi, sigs);  /* warm-up */
			for (r = 0; r < reps; r ++) {
				s[r] = one_batch(pool, &k, op, n, si, vi, sigs);
			}
			qsort(s, (size_t)reps, sizeof *s, cmp_double);
			med = s[reps / 2] / (double)n * 1e6;
			if (t == 1) {
				base[op] = med;
			}
			printf("threads %2u  %-9s %9.2f us/item  speed-up %.2fx\n",
				t, names[op], med, base[op] / med);
		}
		fa_pool_free(pool);
	}
	fa_free_secret(k.ek, k.ek_len);
	free(s);
	free(si);
	free(vi);
	free(sigs);
	return 0;
}
