/*
 * bench_privkey_check.c -- cost of the private-key check done at decode
 * (src/codec_keys.c fa_privkey_decode_full), per part and per degree, next to the
 * operations that pay it (fa_make_public, fa_sign_dyn) and sign_tree
 * (which does not).
 *
 * Parts (check = the first four):
 *        complete  G = gF/f mod q (fa_complete_private, NTT mod q)
 *        ntru      fG - gF = q exactly (fa_ntru_equation_ok, NTT mod p)
 *        gsnorm    keygen's Gram-Schmidt bound (fa_gs_norm_ok, FFT)
 *        fgnorm    ||(f, g)||^2 bound (fa_fg_norm_ok)
 * Times: thread CPU time (CLOCK_THREAD_CPUTIME_ID), microseconds per
 * call, median of ROUNDS rounds of ITERS calls each (rounds interleave
 * the parts, so that load changes hit them alike).
 * Usage: bench_privkey_check [ROUNDS] [ITERS] [LOGN_MIN] [LOGN_MAX] [BACKEND]
 * (BACKEND: portable by default; fa_make_public always uses the default
 * backend, as the API does.)
 * Build: make bench-keycheck (portable backend, Release).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "inner.h"

#define NPART 8
static const char *part_name[NPART] = {
	"complete", "ntru", "gsnorm", "fgnorm", "make_public", "sign_dyn",
	"sign_tree", "ntru_peer"
};

/*
 * ntru_peer: another implementation of fa_ntru_equation_ok measured in
 * the same run (before/after comparisons), linked in under the name
 * fa_ntru_equation_ok_peer when built with -DPEER (make bench-keycheck
 * PEER=<git revision> compiles that revision's src/privkey_check.c with
 * the symbol renamed); without it, the column repeats "ntru".
 */
#ifdef PEER
int fa_ntru_equation_ok_peer(const int8_t *f, const int8_t *g,
	const int8_t *F, const int8_t *G, unsigned logn, uint8_t *tmp);
#else
#define fa_ntru_equation_ok_peer fa_ntru_equation_ok
#endif

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static uint8_t tmp[FA_TMPSIZE_KEYGEN(10) + FA_TMPSIZE_SIGN_DYN(10) + 64];
static uint64_t ek[(FA_EXPANDED_KEY_SIZE(10) + 7) / 8];
static volatile int sink;

int main(int argc, char **argv)
{
	static uint8_t sk[FA_PRIVKEY_SIZE(10)], pk[FA_PUBKEY_SIZE(10)];
	static uint8_t sig[FA_SIG_MAXSIZE(10)];
	static int8_t f[1024], g[1024], F[1024], G[1024];
	static double t[NPART][64];
	int rounds = argc > 1 ? atoi(argv[1]) : 7;
	int iters = argc > 2 ? atoi(argv[2]) : 200;
	unsigned lmin = argc > 3 ? (unsigned)atoi(argv[3]) : 2;
	unsigned lmax = argc > 4 ? (unsigned)atoi(argv[4]) : 10;
	const char *bname = argc > 5 ? argv[5] : "portable";
	const struct fa_kernels *k = fa_kernels_resolve(
		fa_backend_find(bname));
	uint8_t *t8 = fa_align8(tmp);
	unsigned logn;

	if (rounds < 1 || rounds > 64 || iters < 1
		|| fa_backend_find(bname) == NULL)
	{
		return 2;
	}
	printf("# us per call, thread CPU time, median of %d rounds x %d "
		"calls, backend %s (make_public: %s)\n", rounds, iters,
		fa_backend_name(k), fa_backend_name(fa_backend_default()));
	printf("%-5s", "logn");
	for (int p = 0; p < NPART; p ++) {
		printf(" %11s", part_name[p]);
	}
	printf(" %11s %8s\n", "check", "check/sd");
	for (logn = lmin; logn <= lmax; logn ++) {
		fa_shake256_ctx rng;
		size_t n = MKN(logn), skl = FA_PRIVKEY_SIZE(logn);
		double med[NPART], check;

		fa_shake256_init_prng_from_seed(&rng, "bench", 5);
		if (fa_keygen(k, &rng, logn, sk, skl, pk, FA_PUBKEY_SIZE(logn),
			tmp, sizeof tmp) != FA_OK)
		{
			return 1;
		}
		/* f, g, F from the encoding (the decoder's own layout) */
		{
			unsigned b = FA_FG_BITS(logn);
			size_t off = 1;
			int r;

			r = fa_trim_i8_decode(f, logn, b, sk + off, skl - off);
			off += (size_t)r;
			r = fa_trim_i8_decode(g, logn, b, sk + off, skl - off);
			off += (size_t)r;
			r = fa_trim_i8_decode(F, logn, 8, sk + off, skl - off);
			if (r < 0) {
				return 1;
			}
		}
		if (!fa_complete_private(G, f, g, F, logn, t8, k)
			|| !fa_ntru_equation_ok(f, g, F, G, logn, t8)
			|| fa_expand_privkey(k, ek, sizeof ek, sk, skl, tmp,
				sizeof tmp) != FA_OK)
		{
			fprintf(stderr, "genuine key refused\n");
			return 1;
		}
		for (int r = 0; r < rounds; r ++) {
			for (int p = 0; p < NPART; p ++) {
				double t0 = now_us();
				int acc = 0;

				for (int i = 0; i < iters; i ++) {
					size_t sl = sizeof sig;

					switch (p) {
					case 0:
						acc += fa_complete_private(G, f,
							g, F, logn, t8, k);
						break;
					case 1:
						acc += fa_ntru_equation_ok(f, g,
							F, G, logn, t8);
						break;
					case 2:
						acc += fa_gs_norm_ok(f, g, logn,
							(fpr *)(void *)t8, k);
						break;
					case 3:
						acc += fa_fg_norm_ok(f, g, logn);
						break;
					case 4:
						acc += fa_make_public(pk,
							sizeof pk, sk, skl, tmp,
							sizeof tmp);
						break;
					case 5:
						acc += fa_sign_dyn(k, &rng, sig,
							&sl, FA_SIG_COMPRESSED, sk,
							skl, "m", 1, tmp,
							sizeof tmp);
						break;
					case 7:
						acc += fa_ntru_equation_ok_peer(
							f, g, F, G, logn, t8);
						break;
					default:
						acc += fa_sign_tree(k, &rng,
							sig, &sl,
							FA_SIG_COMPRESSED, ek,
							"m", 1, tmp,
							sizeof tmp);
						break;
					}
				}
				t[p][r] = (now_us() - t0) / iters;
				sink += acc;
			}
		}
		for (int p = 0; p < NPART; p ++) {
			qsort(t[p], (size_t)rounds, sizeof t[p][0], cmp_d);
			med[p] = t[p][rounds / 2];
		}
		check = med[0] + med[1] + med[2] + med[3];
		if (!fa_ntru_equation_ok_peer(f, g, F, G, logn, t8)) {
			fprintf(stderr, "peer refuses a genuine key\n");
			return 1;
		}
		printf("%-5u", logn);
		for (int p = 0; p < NPART; p ++) {
			printf(" %11.2f", med[p]);
		}
		printf(" %11.2f %7.1f%%\n", check, 100.0 * check / med[5]);
		(void)n;
	}
	return 0;
}
