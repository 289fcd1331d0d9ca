/*
 * driver.c -- one FN-DSA operation N times on one backend, for perf /
 * callgrind profiles (BENCHMARKS.md, FN-DSA section):
 *   gcc -O2 -g -Iinclude bench/fndsa_prof/driver.c \
 *       build/h-perf/libfalcon_accel.a -lm -o /tmp/drv
 *   perf record -F 4000 /tmp/drv OP BACKEND N LOGN
 *   perf report --no-children --stdio
 * OP: keygen, sign_dyn, sign_tree, verify; BACKEND: portable, avx2.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "falcon_accel.h"

static void check(int r, const char *what)
{
	if (r != FA_OK) {
		fprintf(stderr, "%s: %d\n", what, r);
		exit(1);
	}
}

int main(int argc, char **argv)
{
	const char *op;
	const fa_backend *be;
	unsigned logn, i, n;
	static uint8_t sk[4096], pk[2048], sig[2048], tmp[200000];
	static uint64_t ek[(FA_FNDSA_EXPANDED_KEY_SIZE(10) + 7) / 8];
	uint8_t seed[32] = { 1 }, msg[32] = { 2 };
	fa_shake256_ctx rng;

	if (argc < 5) {
		fprintf(stderr, "usage: driver OP BACKEND N LOGN\n");
		return 2;
	}
	op = argv[1];
	be = fa_backend_find(argv[2]);
	n = (unsigned)atoi(argv[3]);
	logn = (unsigned)atoi(argv[4]);
	if (be == NULL) {
		return 2;
	}
	fa_shake256_init(&rng);
	fa_shake256_inject(&rng, "driver", 6);
	fa_shake256_flip(&rng);
	check(fa_fndsa_keygen_seed(be, seed, logn, sk, FA_FNDSA_PRIVKEY_SIZE(logn), pk,
		FA_FNDSA_PUBKEY_SIZE(logn), tmp, sizeof tmp), "keygen");
	check(fa_fndsa_expand_privkey(be, ek, sizeof ek, sk, FA_FNDSA_PRIVKEY_SIZE(logn), tmp,
		sizeof tmp), "expand");
	check(fa_fndsa_sign(be, &rng, sig, FA_FNDSA_SIG_SIZE(logn), sk, FA_FNDSA_PRIVKEY_SIZE(logn), NULL, 0,
		FA_FNDSA_PH_NONE, msg, sizeof msg, tmp, sizeof tmp), "sign");
	for (i = 0; i < n; i ++) {
		if (strcmp(op, "keygen") == 0) {
			check(fa_fndsa_keygen(be, &rng, logn, sk, FA_FNDSA_PRIVKEY_SIZE(logn), pk,
				FA_FNDSA_PUBKEY_SIZE(logn), tmp, sizeof tmp), "keygen");
		} else if (strcmp(op, "sign_dyn") == 0) {
			check(fa_fndsa_sign(be, &rng, sig, FA_FNDSA_SIG_SIZE(logn), sk,
				FA_FNDSA_PRIVKEY_SIZE(logn), NULL, 0, FA_FNDSA_PH_NONE, msg,
				sizeof msg, tmp, sizeof tmp), "sign");
		} else if (strcmp(op, "sign_tree") == 0) {
			check(fa_fndsa_sign_tree(be, &rng, NULL, sig, FA_FNDSA_SIG_SIZE(logn),
				ek, NULL, 0, FA_FNDSA_PH_NONE, msg, sizeof msg,
				tmp, sizeof tmp), "sign_tree");
		} else if (strcmp(op, "verify") == 0) {
			check(fa_fndsa_verify(be, sig, FA_FNDSA_SIG_SIZE(logn), pk,
				FA_FNDSA_PUBKEY_SIZE(logn), NULL, 0,
				FA_FNDSA_PH_NONE, msg, sizeof msg, tmp,
				sizeof tmp), "verify");
		} else {
			return 2;
		}
	}
	return 0;
}
