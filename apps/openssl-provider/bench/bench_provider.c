/*
 * bench_provider.c -- the falconaccel provider through EVP against
 * libfalcon_accel called directly, same backend, same key, same message.
 *
 *   cmake --build <build> --target bench-provider
 *   (bench_provider PROVIDER_DIR [rounds] [ops per round])
 *
 * Per operation and algorithm: `rounds` rounds, each timing `ops` calls of
 * the library then `ops` calls through the provider (interleaved, so load
 * changes hit both), thread CPU time; medians of the per-call times and
 * their ratio (provider / library). The library side does what the
 * provider does per call: sign = OS-seeded SHAKE256 PRNG + fa_sign_dyn
 * (compressed) / fa_fndsa_sign; verify = fa_verify / fa_fndsa_verify on
 * the encoded public key. The provider side: EVP_DigestSignInit_ex +
 * EVP_DigestSign (EVP_DigestVerifyInit_ex + EVP_DigestVerify) on a
 * reused EVP_MD_CTX, as an application signing many messages does.
 * Backend: $FALCON_ACCEL_BACKEND for both, else the library's default.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/provider.h>

#include "falcon_accel.h"
#include "falcon_accel_pki.h"

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof *v, cmp_d);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static void die(const char *what)
{
	fprintf(stderr, "bench_provider: %s\n", what);
	ERR_print_errors_fp(stderr);
	exit(1);
}

int main(int argc, char **argv)
{
	const char *algs[] = { "falcon512", "falcon1024", "fndsa512", "fndsa1024" };
	int rounds = argc > 2 ? atoi(argv[2]) : 9;
	int ops = argc > 3 ? atoi(argv[3]) : 100;
	const char *env = getenv("FALCON_ACCEL_BACKEND");
	const fa_backend *be = env != NULL && env[0] ? fa_backend_find(env)
		: fa_backend_default();
	uint8_t msg[100];
	size_t a;

	if (argc < 2 || rounds < 1 || ops < 1) {
		fprintf(stderr, "usage: bench_provider PROVIDER_DIR [rounds] [ops]\n");
		return 2;
	}
	if (be == NULL) {
		die("unknown FALCON_ACCEL_BACKEND");
	}
	if (!OSSL_PROVIDER_set_default_search_path(NULL, argv[1])
		|| OSSL_PROVIDER_load(NULL, "falconaccel") == NULL
		|| OSSL_PROVIDER_load(NULL, "default") == NULL)
	{
		die("cannot load the falconaccel provider");
	}
	memset(msg, 0x5A, sizeof msg);
	printf("backend %s, %d rounds x %d calls, thread CPU time, medians "
		"(us per call)\n", fa_backend_name(be), rounds, ops);
	printf("%-11s %-7s %10s %10s %8s\n", "algorithm", "op", "library",
		"provider", "ratio");
	for (a = 0; a < sizeof algs / sizeof algs[0]; a ++) {
		int alg = (int)a, fndsa = fa_pki_alg_fndsa(alg), r, i, k;
		unsigned logn = fa_pki_alg_logn(alg);
		size_t sk_len = fa_pki_alg_sk_len(alg), pk_len = fa_pki_alg_pk_len(alg);
		size_t tl = fndsa ? FA_TMPSIZE_FNDSA_KEYGEN(logn) : FA_TMPSIZE_KEYGEN(logn);
		size_t stl = fndsa ? FA_TMPSIZE_FNDSA_SIGN(logn) : FA_TMPSIZE_SIGN_DYN(logn);
		uint8_t *sk = malloc(sk_len), *pk = malloc(pk_len);
		uint8_t *tmp = malloc(tl > stl ? tl : stl), sig[2048], sig2[2048];
		size_t sig_len, sig2_len;
		double lib_s[64], prov_s[64], lib_v[64], prov_v[64], t;
		fa_shake256_ctx rng;
		EVP_PKEY_CTX *kc;
		EVP_PKEY *pkey = NULL;
		EVP_MD_CTX *mctx = EVP_MD_CTX_new();
		OSSL_PARAM p[3];

		if (rounds > 64) {
			rounds = 64;
		}
		fa_shake256_init_prng_from_system(&rng);
		r = fndsa ? fa_fndsa_keygen(be, &rng, logn, sk, sk_len, pk, pk_len, tmp, tl)
			: fa_keygen(be, &rng, logn, sk, sk_len, pk, pk_len, tmp, tl);
		if (r != FA_OK) {
			die("keygen");
		}
		kc = EVP_PKEY_CTX_new_from_name(NULL, algs[a], NULL);
		p[0] = OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PRIV_KEY, sk, sk_len);
		p[1] = OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PUB_KEY, pk, pk_len);
		p[2] = OSSL_PARAM_construct_end();
		if (kc == NULL || EVP_PKEY_fromdata_init(kc) <= 0
			|| EVP_PKEY_fromdata(kc, &pkey, EVP_PKEY_KEYPAIR, p) <= 0)
		{
			die("EVP_PKEY_fromdata");
		}
		for (i = 0; i < rounds; i ++) {
			/* sign: library */
			t = now_us();
			for (k = 0; k < ops; k ++) {
				fa_shake256_init_prng_from_system(&rng);
				sig_len = sizeof sig;
				r = fndsa ? fa_fndsa_sign(be, &rng, sig, FA_FNDSA_SIG_SIZE(logn),
						sk, sk_len, NULL, 0, FA_FNDSA_PH_NONE, msg, sizeof msg,
						tmp, stl)
					: fa_sign_dyn(be, &rng, sig, &sig_len, FA_SIG_COMPRESSED,
						sk, sk_len, msg, sizeof msg, tmp, stl);
				if (r != FA_OK) {
					die("fa_sign");
				}
			}
			lib_s[i] = (now_us() - t) / ops;
			/* sign: provider */
			t = now_us();
			for (k = 0; k < ops; k ++) {
				sig2_len = sizeof sig2;
				if (EVP_DigestSignInit_ex(mctx, NULL, NULL, NULL, NULL, pkey, NULL) <= 0
					|| EVP_DigestSign(mctx, sig2, &sig2_len, msg, sizeof msg) <= 0)
				{
					die("EVP_DigestSign");
				}
			}
			prov_s[i] = (now_us() - t) / ops;
			if (fndsa) {
				sig_len = FA_FNDSA_SIG_SIZE(logn);
			}
			/* verify: library */
			t = now_us();
			for (k = 0; k < ops; k ++) {
				r = fndsa ? fa_fndsa_verify(be, sig2, sig2_len, pk, pk_len, NULL, 0,
						FA_FNDSA_PH_NONE, msg, sizeof msg, tmp, stl)
					: fa_verify(be, sig2, sig2_len, 0, pk, pk_len, msg, sizeof msg,
						tmp, stl);
				if (r != FA_OK) {
					die("fa_verify of the provider's signature");
				}
			}
			lib_v[i] = (now_us() - t) / ops;
			/* verify: provider */
			t = now_us();
			for (k = 0; k < ops; k ++) {
				if (EVP_DigestVerifyInit_ex(mctx, NULL, NULL, NULL, NULL, pkey, NULL) <= 0
					|| EVP_DigestVerify(mctx, sig, sig_len, msg, sizeof msg) != 1)
				{
					die("EVP_DigestVerify of the library's signature");
				}
			}
			prov_v[i] = (now_us() - t) / ops;
		}
		{
			double ls = median(lib_s, rounds), ps = median(prov_s, rounds);
			double lv = median(lib_v, rounds), pv = median(prov_v, rounds);

			printf("%-11s %-7s %10.1f %10.1f %8.3f\n", algs[a], "sign", ls, ps, ps / ls);
			printf("%-11s %-7s %10.1f %10.1f %8.3f\n", algs[a], "verify", lv, pv, pv / lv);
		}
		EVP_PKEY_free(pkey);
		EVP_PKEY_CTX_free(kc);
		EVP_MD_CTX_free(mctx);
		free(sk);
		free(pk);
		free(tmp);
	}
	return 0;
}
