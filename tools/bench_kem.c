/*
 * bench_kem.c -- ML-KEM (FIPS 203) timings for `falcon-accel bench`.
 *
 * Method (as bench.c): one warm-up call, then samples of one call each,
 * median in microseconds. Key generation uses the deterministic entry
 * point (d, z varied per call, as the libcrux-ml-kem peer does),
 * encapsulation fa_kem_encaps_derand (m varied per call; the ek modulus
 * check included), decapsulation fa_kem_decaps (dk hash check included)
 * of one valid ciphertext.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "bench_kem.h"
#include "falcon_accel_kem.h"

#define KEM_DEFAULT_RUNS 201u
#define KEM_MIN_RUNS     5u
#define KEM_BUDGET_NS    1e9

static double
kem_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int
kem_cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return (a > b) - (a < b);
}

typedef struct {
	const fa_backend *be;
	unsigned level;
	uint8_t seed[64], m[32], ss[32];
	uint8_t ek[FA_KEM_EK_MAXSIZE], dk[FA_KEM_DK_MAXSIZE];
	uint8_t ct[FA_KEM_CT_MAXSIZE];
	uint8_t tmp[FA_KEM_TMPSIZE_MAX];
	unsigned counter;
} kem_state;

static void
kem_check(int rc, const char *what, unsigned level)
{
	if (rc != FA_OK) {
		cli_fail(CLI_EXIT_ERROR, "bench: ML-KEM-%u %s: %s", level, what,
			fa_strerror(rc));
	}
}

static void
op_keygen(kem_state *st)
{
	uint8_t ek[FA_KEM_EK_MAXSIZE], dk[FA_KEM_DK_MAXSIZE];

	st->seed[0] = (uint8_t)st->counter ++;
	kem_check(fa_kem_keygen_derand(st->be, st->level, ek, sizeof ek, dk,
		sizeof dk, st->seed, st->seed + 32, st->tmp, sizeof st->tmp),
		"keygen", st->level);
}

static void
op_encaps(kem_state *st)
{
	uint8_t ct[FA_KEM_CT_MAXSIZE], ss[32];

	st->m[0] = (uint8_t)st->counter ++;
	kem_check(fa_kem_encaps_derand(st->be, st->level, ct, sizeof ct, ss,
		st->ek, FA_KEM_EK_SIZE(st->level), st->m, st->tmp,
		sizeof st->tmp), "encaps", st->level);
}

static void
op_decaps(kem_state *st)
{
	uint8_t ss[32];

	kem_check(fa_kem_decaps(st->be, st->level, ss, st->ct,
		FA_KEM_CT_SIZE(st->level), st->dk, FA_KEM_DK_SIZE(st->level),
		st->tmp, sizeof st->tmp), "decaps", st->level);
	if (memcmp(ss, st->ss, 32) != 0) {
		cli_fail(CLI_EXIT_ERROR, "bench: ML-KEM-%u: decapsulated secret "
			"differs", st->level);
	}
}

static double
kem_measure(kem_state *st, void (*op)(kem_state *), unsigned runs,
	unsigned *done)
{
	unsigned max = runs ? runs : KEM_DEFAULT_RUNS, n = 0;
	double *v = cli_alloc(max * sizeof *v), start, med;

	op(st);   /* warm-up */
	start = kem_now_ns();
	while (n < max) {
		double t0 = kem_now_ns();

		op(st);
		v[n ++] = kem_now_ns() - t0;
		if (runs == 0 && n >= KEM_MIN_RUNS
			&& kem_now_ns() - start > KEM_BUDGET_NS)
		{
			break;
		}
	}
	qsort(v, n, sizeof *v, kem_cmp_double);
	med = (n & 1) ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	free(v);
	*done = n;
	return med / 1000.0;
}

void
bench_kem(const fa_backend *be, unsigned runs, bench_kem_result *out)
{
	static const unsigned levels[3] = { 512, 768, 1024 };
	static const char *const names[3] = {
		"kem_keygen", "kem_encaps", "kem_decaps"
	};
	void (*const ops[3])(kem_state *) = { op_keygen, op_encaps, op_decaps };
	kem_state *st = cli_alloc(sizeof *st);
	unsigned i, j;

	for (i = 0; i < 3; i ++) {
		memset(st, 0, sizeof *st);
		st->be = be;
		st->level = levels[i];
		memset(st->seed, 0x42, sizeof st->seed);
		memset(st->m, 0x24, sizeof st->m);
		kem_check(fa_kem_keygen_derand(be, st->level, st->ek,
			sizeof st->ek, st->dk, sizeof st->dk, st->seed,
			st->seed + 32, st->tmp, sizeof st->tmp), "keygen",
			st->level);
		kem_check(fa_kem_encaps_derand(be, st->level, st->ct,
			sizeof st->ct, st->ss, st->ek, FA_KEM_EK_SIZE(st->level),
			st->m, st->tmp, sizeof st->tmp), "encaps", st->level);
		for (j = 0; j < 3; j ++) {
			bench_kem_result *r = &out[3 * i + j];

			r->op = names[j];
			r->level = st->level;
			r->median_us = kem_measure(st, ops[j], runs, &r->runs);
		}
	}
	free(st);
}
