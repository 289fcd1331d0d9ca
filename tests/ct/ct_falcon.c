/*
 * ct_falcon.c -- constant-time check by tool: run under valgrind's
 * memcheck with every secret input marked undefined
 * (VALGRIND_MAKE_MEM_UNDEFINED). Memcheck then reports each conditional
 * branch and each memory address that depends on a secret: any report
 * fails the test (valgrind --error-exitcode). The library is built with
 * FA_CT_VALGRIND=1 (src/ct_declassify.h), which declares public exactly
 * the values listed in README.md "Constant-time status" (rejection
 * verdicts, the nonce, the accepted signature); nothing else is
 * suppressed.
 *
 * Operations, at degree 512 (logn 9) by default (argument 1: logn):
 *   keygen      secret: the SHAKE256 seed state
 *   expand      secret: the private key
 *   sign_dyn    secret: the private key and the signing rng state
 *   sign_tree   secret: the expanded key and the signing rng state
 * (each in the three signature formats), then the results are declared
 * public and checked (verify), so that the test also fails if the
 * operations do not work.
 *
 * Backend: portable by default; a backend name as a further argument
 * selects another (ctest ct_valgrind_512_avx2 runs the avx2 backend from
 * a library copy that has it, with the avx2 SamplerZ's declassification
 * points: README).
 *
 * "leak" as a further argument adds one secret-dependent branch in this
 * driver: the test that runs it expects valgrind to fail (it shows that
 * marking works and reports are not lost). The library-side counterpart
 * is ct_valgrind_detects_library_branch (FA_CT_TEST_LEAK, README).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <valgrind/memcheck.h>

#include "falcon_accel.h"

#define SECRET(p, n) VALGRIND_MAKE_MEM_UNDEFINED((p), (n))
#define PUBLIC(p, n) VALGRIND_MAKE_MEM_DEFINED((p), (n))

static uint8_t tmp[FA_TMPSIZE_KEYGEN(10) + FA_TMPSIZE_SIGN_DYN(10)];
static uint64_t ek_store[(FA_EXPANDED_KEY_SIZE(10) + 7) / 8];

static int fail(const char *what, int r)
{
	fprintf(stderr, "ct_falcon: %s failed (%d)\n", what, r);
	exit(2);
}

int main(int argc, char **argv)
{
	static uint8_t sk[FA_PRIVKEY_SIZE(10)], pk[FA_PUBKEY_SIZE(10)];
	static uint8_t sig[FA_SIG_MAXSIZE(10)];
	const char *bname = "portable";
	const fa_backend *be;
	unsigned logn = argc > 1 ? (unsigned)atoi(argv[1]) : 9;
	int leak = 0, a;
	const char msg[] = "constant-time test message";
	size_t skl, pkl, sl;
	fa_shake256_ctx rng;
	int r, fmt;

	for (a = 2; a < argc; a ++) {
		if (strcmp(argv[a], "leak") == 0) {
			leak = 1;
		} else {
			bname = argv[a];
		}
	}
	be = fa_backend_find(bname);
	if (logn < 1 || logn > 10 || be == NULL) {
		return fail("arguments", FA_ERR_BADARG);
	}
	if (!RUNNING_ON_VALGRIND) {
		fprintf(stderr, "ct_falcon: not running under valgrind\n");
		return 2;
	}
	skl = FA_PRIVKEY_SIZE(logn);
	pkl = FA_PUBKEY_SIZE(logn);

	/* keygen: the seeded SHAKE256 state is the secret */
	fa_shake256_init_prng_from_seed(&rng, "ct-keygen", 9);
	SECRET(rng.st, sizeof rng.st);
	r = fa_keygen(be, &rng, logn, sk, skl, pk, pkl, tmp, sizeof tmp);
	if (r != FA_OK) {
		return fail("keygen", r);
	}
	PUBLIC(pk, pkl);

	if (leak) {
		/* deliberate secret-dependent branch: memcheck must report */
		SECRET(sk + 1, skl - 1);
		if (sk[1] & 1) {
			printf("odd\n");
		} else {
			printf("even\n");
		}
	}

	/* expand: the private key is the secret (its header byte, the
	   degree, is public) */
	SECRET(sk + 1, skl - 1);
	r = fa_expand_privkey(be, ek_store, sizeof ek_store, sk, skl, tmp,
		sizeof tmp);
	if (r != FA_OK) {
		return fail("expand", r);
	}

	for (fmt = FA_SIG_COMPRESSED; fmt <= FA_SIG_CT; fmt ++) {
		/* sign_dyn: private key and signing randomness */
		SECRET(sk + 1, skl - 1);
		fa_shake256_init_prng_from_seed(&rng, "ct-sign-dyn", 11);
		SECRET(rng.st, sizeof rng.st);
		sl = sizeof sig;
		r = fa_sign_dyn(be, &rng, sig, &sl, fmt, sk, skl, msg,
			sizeof msg, tmp, sizeof tmp);
		if (r != FA_OK) {
			return fail("sign_dyn", r);
		}
		PUBLIC(sig, sl);
		PUBLIC(&sl, sizeof sl);
		r = fa_verify(be, sig, sl, fmt, pk, pkl, msg, sizeof msg, tmp,
			sizeof tmp);
		if (r != FA_OK) {
			return fail("verify (sign_dyn)", r);
		}

		/* sign_tree: expanded key and signing randomness (header
		   bytes 0..3 -- degree, tag, version -- are public; the
		   checksum is derived from the key) */
		SECRET((uint8_t *)ek_store + 4, FA_EXPANDED_KEY_SIZE(logn) - 4);
		fa_shake256_init_prng_from_seed(&rng, "ct-sign-tree", 12);
		SECRET(rng.st, sizeof rng.st);
		sl = sizeof sig;
		r = fa_sign_tree(be, &rng, sig, &sl, fmt, ek_store, msg,
			sizeof msg, tmp, sizeof tmp);
		if (r != FA_OK) {
			return fail("sign_tree", r);
		}
		PUBLIC(sig, sl);
		PUBLIC(&sl, sizeof sl);
		r = fa_verify(be, sig, sl, fmt, pk, pkl, msg, sizeof msg, tmp,
			sizeof tmp);
		if (r != FA_OK) {
			return fail("verify (sign_tree)", r);
		}
	}
	printf("ct_falcon: logn=%u keygen, expand, sign_dyn, sign_tree (3 "
		"formats) done, backend %s\n", logn, fa_backend_name(be));
	return 0;
}
