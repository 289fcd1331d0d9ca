/*
 * our_ops.c -- bench/fpemu/ref_ops.c's workload on this library (public
 * API, portable backend): one Falcon-512 key pair from the seed "cg-seed",
 * then COUNT calls of one operation; prints the median wall time per call.
 * Same seed and message as ref_ops.c and bench/callgrind/sign_ops.c.
 *
 *   valgrind --tool=callgrind --toggle-collect=fa_sign_tree ./our_ops sign_tree 5
 *
 * argv: operation (keygen | sign_tree | sign_dyn | verify), count.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "falcon_accel.h"

#define LOGN 9

static unsigned char sk[FA_PRIVKEY_SIZE(LOGN)], pk[FA_PUBKEY_SIZE(LOGN)];
static unsigned char ek[FA_EXPANDED_KEY_SIZE(LOGN)];
static unsigned char tmp[FA_TMPSIZE_KEYGEN(LOGN) + FA_TMPSIZE_SIGN_DYN(LOGN)];
static unsigned char sig[FA_SIG_MAXSIZE(LOGN)], sig2[FA_SIG_MAXSIZE(LOGN)];

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;
	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	static const char msg[] = "callgrind message";
	const fa_backend *be = fa_backend_find("portable");
	fa_shake256_ctx rng;
	struct timespec t0, t1;
	long long *ns;
	size_t sl, l;
	int cnt, i, r = 0;

	if (argc != 3 || (cnt = atoi(argv[2])) <= 0 || be == NULL) {
		fprintf(stderr, "usage: our_ops keygen|sign_tree|sign_dyn|verify COUNT\n");
		return 2;
	}
	ns = calloc((size_t)cnt, sizeof *ns);
	fa_shake256_init_prng_from_seed(&rng, "cg-seed", 7);
	r |= fa_keygen(be, &rng, LOGN, sk, sizeof sk, pk, sizeof pk,
		tmp, sizeof tmp);
	r |= fa_expand_privkey(be, ek, sizeof ek, sk, sizeof sk, tmp, sizeof tmp);
	sl = sizeof sig;
	r |= fa_sign_dyn(be, &rng, sig, &sl, FA_SIG_COMPRESSED, sk, sizeof sk,
		msg, sizeof msg - 1, tmp, sizeof tmp);
	if (r != 0 || ns == NULL) {
		fprintf(stderr, "our_ops: setup failed (%d)\n", r);
		return 1;
	}
	for (i = 0; i < cnt; i ++) {
		l = sizeof sig2;
		clock_gettime(CLOCK_MONOTONIC, &t0);
		if (strcmp(argv[1], "keygen") == 0) {
			r = fa_keygen(be, &rng, LOGN, sk, sizeof sk, pk, sizeof pk,
				tmp, sizeof tmp);
		} else if (strcmp(argv[1], "sign_tree") == 0) {
			r = fa_sign_tree(be, &rng, sig2, &l, FA_SIG_COMPRESSED, ek,
				msg, sizeof msg - 1, tmp, sizeof tmp);
		} else if (strcmp(argv[1], "sign_dyn") == 0) {
			r = fa_sign_dyn(be, &rng, sig2, &l, FA_SIG_COMPRESSED,
				sk, sizeof sk, msg, sizeof msg - 1, tmp, sizeof tmp);
		} else if (strcmp(argv[1], "verify") == 0) {
			r = fa_verify(be, sig, sl, FA_SIG_COMPRESSED, pk, sizeof pk,
				msg, sizeof msg - 1, tmp, sizeof tmp);
		} else {
			fprintf(stderr, "our_ops: unknown operation %s\n", argv[1]);
			return 2;
		}
		clock_gettime(CLOCK_MONOTONIC, &t1);
		ns[i] = (t1.tv_sec - t0.tv_sec) * 1000000000LL + (t1.tv_nsec - t0.tv_nsec);
		if (r != 0) {
			fprintf(stderr, "our_ops: %s failed (%d)\n", argv[1], r);
			return 1;
		}
	}
	qsort(ns, (size_t)cnt, sizeof *ns, cmp_ll);
	printf("ours %s: %d calls, median %lld ns\n", argv[1], cnt, ns[cnt / 2]);
	return 0;
}
