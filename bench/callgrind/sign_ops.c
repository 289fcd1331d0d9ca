/*
 * sign_ops.c -- a fixed workload for instruction counts of the scheme
 * operations (the kernel seam's cost is measured with it): Falcon-512 key
 * pair from a fixed seed, then `count` calls of one operation on one
 * backend, through the public API only.
 *
 *   cc -O2 -Iinclude bench/callgrind/sign_ops.c BUILD/libfalcon_accel.a -o sign_ops -lm
 *   valgrind --tool=callgrind --toggle-collect=fa_sign_tree ./sign_ops sign_tree avx2 20
 *
 * (--toggle-collect=fa_sign_dyn / fa_verify for the other two; the
 * "Collected" line is the instruction count of those calls only, setup
 * excluded). Deterministic: the same build gives the same count.
 * argv: operation (sign_tree | sign_dyn | verify), backend name, count.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "falcon_accel.h"

#define LOGN 9

static unsigned char sk[FA_PRIVKEY_SIZE(LOGN)], pk[FA_PUBKEY_SIZE(LOGN)];
static unsigned char ek[FA_EXPANDED_KEY_SIZE(LOGN)];
static unsigned char tmp[FA_TMPSIZE_KEYGEN(LOGN) + FA_TMPSIZE_SIGN_DYN(LOGN)];
static unsigned char sig[FA_SIG_MAXSIZE(LOGN)], sig2[FA_SIG_MAXSIZE(LOGN)];

int main(int argc, char **argv)
{
	static const char msg[] = "callgrind message";
	const fa_backend *be;
	fa_shake256_ctx rng;
	size_t sl, l;
	int cnt, i, r;

	if (argc != 4 || (be = fa_backend_find(argv[2])) == NULL
		|| (cnt = atoi(argv[3])) <= 0)
	{
		fprintf(stderr, "usage: sign_ops sign_tree|sign_dyn|verify "
			"BACKEND COUNT (an available backend)\n");
		return 2;
	}
	fa_shake256_init_prng_from_seed(&rng, "cg-seed", 7);
	r = fa_keygen(be, &rng, LOGN, sk, sizeof sk, pk, sizeof pk,
		tmp, sizeof tmp);
	r |= fa_expand_privkey(be, ek, sizeof ek, sk, sizeof sk,
		tmp, sizeof tmp);
	sl = sizeof sig;
	r |= fa_sign_dyn(be, &rng, sig, &sl, FA_SIG_COMPRESSED, sk, sizeof sk,
		msg, sizeof msg - 1, tmp, sizeof tmp);
	if (r != 0) {
		fprintf(stderr, "sign_ops: setup failed (%d)\n", r);
		return 1;
	}
	for (i = 0; i < cnt; i ++) {
		l = sizeof sig2;
		if (strcmp(argv[1], "sign_tree") == 0) {
			r = fa_sign_tree(be, &rng, sig2, &l, FA_SIG_COMPRESSED, ek,
				msg, sizeof msg - 1, tmp, sizeof tmp);
		} else if (strcmp(argv[1], "sign_dyn") == 0) {
			r = fa_sign_dyn(be, &rng, sig2, &l, FA_SIG_COMPRESSED,
				sk, sizeof sk, msg, sizeof msg - 1, tmp, sizeof tmp);
		} else if (strcmp(argv[1], "verify") == 0) {
			r = fa_verify(be, sig, sl, FA_SIG_COMPRESSED, pk, sizeof pk,
				msg, sizeof msg - 1, tmp, sizeof tmp);
		} else {
			fprintf(stderr, "sign_ops: unknown operation %s\n", argv[1]);
			return 2;
		}
		if (r != 0) {
			fprintf(stderr, "sign_ops: %s failed (%d)\n", argv[1], r);
			return 1;
		}
	}
	printf("%s on %s: %d calls\n", argv[1], argv[2], cnt);
	return 0;
}
