/*
 * ref_ops.c -- the workload of bench/callgrind/sign_ops.c for the Falcon
 * reference implementation (Falcon-impl-20211101, fetched into build/ by
 * soc/ref/build_ref_fw.sh, never stored here), built with its
 * integer-emulated floating point (FALCON_FPEMU=1): one Falcon-512 key pair
 * from the seed "cg-seed", then COUNT calls of one operation through the
 * reference's public API (falcon.h). Same seed, same message as sign_ops.c,
 * so both libraries make the same key (both are KAT-exact) and draw the
 * same random bytes.
 *
 *   valgrind --tool=callgrind --toggle-collect=falcon_sign_tree ./ref_ops sign_tree 5
 *
 * argv: operation (keygen | sign_tree | sign_dyn | verify), count. Prints
 * the median wall time per call (CLOCK_MONOTONIC, ns) as well.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "falcon.h"

#define LOGN 9

static unsigned char sk[FALCON_PRIVKEY_SIZE(LOGN)], pk[FALCON_PUBKEY_SIZE(LOGN)];
static unsigned char ek[FALCON_EXPANDEDKEY_SIZE(LOGN)];
static unsigned char tmp[FALCON_TMPSIZE_KEYGEN(LOGN) + FALCON_TMPSIZE_SIGNDYN(LOGN)];
static unsigned char sig[FALCON_SIG_COMPRESSED_MAXSIZE(LOGN)];
static unsigned char sig2[FALCON_SIG_COMPRESSED_MAXSIZE(LOGN)];

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;
	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	static const char msg[] = "callgrind message";
	shake256_context rng;
	struct timespec t0, t1;
	long long *ns;
	size_t sl, l;
	int cnt, i, r = 0;

	if (argc != 3 || (cnt = atoi(argv[2])) <= 0) {
		fprintf(stderr, "usage: ref_ops keygen|sign_tree|sign_dyn|verify COUNT\n");
		return 2;
	}
	ns = calloc((size_t)cnt, sizeof *ns);
	shake256_init_prng_from_seed(&rng, "cg-seed", 7);
	r |= falcon_keygen_make(&rng, LOGN, sk, sizeof sk, pk, sizeof pk,
		tmp, sizeof tmp);
	r |= falcon_expand_privkey(ek, sizeof ek, sk, sizeof sk, tmp, sizeof tmp);
	sl = sizeof sig;
	r |= falcon_sign_dyn(&rng, sig, &sl, FALCON_SIG_COMPRESSED, sk, sizeof sk,
		msg, sizeof msg - 1, tmp, sizeof tmp);
	if (r != 0 || ns == NULL) {
		fprintf(stderr, "ref_ops: setup failed (%d)\n", r);
		return 1;
	}
	for (i = 0; i < cnt; i ++) {
		l = sizeof sig2;
		clock_gettime(CLOCK_MONOTONIC, &t0);
		if (strcmp(argv[1], "keygen") == 0) {
			r = falcon_keygen_make(&rng, LOGN, sk, sizeof sk,
				pk, sizeof pk, tmp, sizeof tmp);
		} else if (strcmp(argv[1], "sign_tree") == 0) {
			r = falcon_sign_tree(&rng, sig2, &l, FALCON_SIG_COMPRESSED,
				ek, msg, sizeof msg - 1, tmp, sizeof tmp);
		} else if (strcmp(argv[1], "sign_dyn") == 0) {
			r = falcon_sign_dyn(&rng, sig2, &l, FALCON_SIG_COMPRESSED,
				sk, sizeof sk, msg, sizeof msg - 1, tmp, sizeof tmp);
		} else if (strcmp(argv[1], "verify") == 0) {
			r = falcon_verify(sig, sl, FALCON_SIG_COMPRESSED, pk, sizeof pk,
				msg, sizeof msg - 1, tmp, sizeof tmp);
		} else {
			fprintf(stderr, "ref_ops: unknown operation %s\n", argv[1]);
			return 2;
		}
		clock_gettime(CLOCK_MONOTONIC, &t1);
		ns[i] = (t1.tv_sec - t0.tv_sec) * 1000000000LL + (t1.tv_nsec - t0.tv_nsec);
		if (r != 0) {
			fprintf(stderr, "ref_ops: %s failed (%d)\n", argv[1], r);
			return 1;
		}
	}
	qsort(ns, (size_t)cnt, sizeof *ns, cmp_ll);
	printf("ref %s: %d calls, median %lld ns\n", argv[1], cnt, ns[cnt / 2]);
	return 0;
}
