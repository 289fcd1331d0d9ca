/*
 * ct_mlkem.c -- constant-time check by tool for ML-KEM (src/mlkem): run
 * under valgrind's memcheck with every secret marked undefined
 * (VALGRIND_MAKE_MEM_UNDEFINED); any branch or memory index that depends
 * on a secret is reported and fails the test (valgrind --error-exitcode).
 * The library is built with FA_CT_VALGRIND=1 (src/ct_declassify.h); the
 * declassification points are listed in README.md "Constant-time
 * status".
 *
 * For each level (512, 768, 1024; argument 1 limits to one):
 *   keygen_derand  secret: d and z
 *   encaps_derand  secret: m (ek public)
 *   decaps         secret: dk except its public part ek || H(ek), on the
 *                  genuine ciphertext and on a modified one (the
 *                  implicit-rejection path); the ciphertext is public
 * The shared secrets are then declared public and compared (encaps and
 * decaps agree; the modified ciphertext gives a different secret), so the
 * test also fails if the operations do not work.
 *
 * Argument 2: backend name (default portable). "leak" as argument 3 adds
 * one secret-dependent branch in this driver (the companion test expects
 * valgrind to fail).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <valgrind/memcheck.h>

#include "falcon_accel_kem.h"

#define SECRET(p, n) VALGRIND_MAKE_MEM_UNDEFINED((p), (n))
#define PUBLIC(p, n) VALGRIND_MAKE_MEM_DEFINED((p), (n))

static uint8_t tmp[FA_KEM_TMPSIZE_MAX];

static int fail(const char *what, unsigned level, int r)
{
	fprintf(stderr, "ct_mlkem: %s (ML-KEM-%u) failed (%d)\n", what,
		level, r);
	exit(2);
}

int main(int argc, char **argv)
{
	static uint8_t ek[FA_KEM_EK_MAXSIZE], dk[FA_KEM_DK_MAXSIZE];
	static uint8_t ct[FA_KEM_CT_MAXSIZE];
	uint8_t d[32], z[32], m[32], ss_e[32], ss_d[32], ss_r[32];
	unsigned only = argc > 1 ? (unsigned)atoi(argv[1]) : 0;
	const char *bname = argc > 2 ? argv[2] : "portable";
	int leak = argc > 3 && strcmp(argv[3], "leak") == 0;
	const fa_backend *be = fa_backend_find(bname);
	static const unsigned levels[3] = { 512, 768, 1024 };
	int i, r;

	if (be == NULL) {
		fprintf(stderr, "ct_mlkem: backend %s unavailable\n", bname);
		return 2;
	}
	if (!RUNNING_ON_VALGRIND) {
		fprintf(stderr, "ct_mlkem: not running under valgrind\n");
		return 2;
	}
	for (i = 0; i < 3; i ++) {
		unsigned level = levels[i], k = FA_KEM_K(level);
		size_t ekl = FA_KEM_EK_SIZE(level), dkl = FA_KEM_DK_SIZE(level);
		size_t ctl = FA_KEM_CT_SIZE(level);
		size_t pke = 384u * k;   /* dk = dk_pke || ek || H(ek) || z */

		if (only != 0 && only != level) {
			continue;
		}
		memset(d, 0x11 + i, sizeof d);
		memset(z, 0x22 + i, sizeof z);
		memset(m, 0x33 + i, sizeof m);

		/* keygen: d and z secret */
		SECRET(d, sizeof d);
		SECRET(z, sizeof z);
		r = fa_kem_keygen_derand(be, level, ek, ekl, dk, dkl, d, z,
			tmp, sizeof tmp);
		if (r != FA_OK) {
			return fail("keygen", level, r);
		}
		PUBLIC(ek, ekl);

		if (leak) {
			/* deliberate secret-dependent branch */
			if (dk[0] & 1) {
				printf("odd\n");
			} else {
				printf("even\n");
			}
		}

		/* encaps: m secret, ek public */
		SECRET(m, sizeof m);
		r = fa_kem_encaps_derand(be, level, ct, ctl, ss_e, ek, ekl, m,
			tmp, sizeof tmp);
		if (r != FA_OK) {
			return fail("encaps", level, r);
		}
		PUBLIC(ct, ctl);

		/* decaps: dk_pke and z secret; ek || H(ek) public */
		SECRET(dk, pke);
		PUBLIC(dk + pke, ekl + 32);
		SECRET(dk + pke + ekl + 32, 32);
		r = fa_kem_decaps(be, level, ss_d, ct, ctl, dk, dkl, tmp,
			sizeof tmp);
		if (r != FA_OK) {
			return fail("decaps", level, r);
		}
		/* implicit rejection: a modified (public) ciphertext */
		ct[ctl / 2] ^= 0x40;
		SECRET(dk, pke);
		SECRET(dk + pke + ekl + 32, 32);
		r = fa_kem_decaps(be, level, ss_r, ct, ctl, dk, dkl, tmp,
			sizeof tmp);
		if (r != FA_OK) {
			return fail("decaps (modified ciphertext)", level, r);
		}
		PUBLIC(ss_e, 32);
		PUBLIC(ss_d, 32);
		PUBLIC(ss_r, 32);
		if (memcmp(ss_e, ss_d, 32) != 0) {
			return fail("shared secrets differ", level, -1);
		}
		if (memcmp(ss_d, ss_r, 32) == 0) {
			return fail("implicit rejection", level, -1);
		}
		PUBLIC(dk, dkl);
	}
	printf("ct_mlkem: keygen, encaps, decaps (genuine and modified "
		"ciphertext) done, backend %s\n", fa_backend_name(be));
	return 0;
}
