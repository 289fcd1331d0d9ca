/* test_util.h -- minimal test harness: CHECK counts, the summary line
   "N passed, N failed" is what CI reads. */
#ifndef FA_TEST_UTIL_H
#define FA_TEST_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>

static unsigned long tu_pass, tu_fail;

#define CHECK(cond, ...) do { \
	if (cond) { tu_pass ++; } else { tu_fail ++; \
		fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond); \
		fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); } \
} while (0)

static inline int tu_finish(const char *name)
{
	printf("%s: %lu passed, %lu failed\n", name, tu_pass, tu_fail);
	return tu_fail ? 1 : 0;
}

/* A check that cannot run: a note, and a failure under CI=true. */
static inline void tu_cannot_run(const char *what)
{
	const char *ci = getenv("CI");

	if (ci != NULL && strcmp(ci, "true") == 0) {
		tu_fail ++;
		fprintf(stderr, "FAIL: %s (CI=true: a check that cannot run "
			"fails)\n", what);
	} else {
		printf("note: %s, skipped\n", what);
	}
}

/* The NIST KAT file of Falcon-n: the full one, $FA_SHARED_DIR/kat/
   falcon<n>-KAT.rsp (100 records), when readable, else the first records
   the repository keeps, tests/kat/falcon<n>-KAT.first3.rsp (3 records;
   ctest runs the tests from the repository root). *records: how many
   the opened file holds. NULL (after tu_cannot_run) if neither opens. */
static inline FILE *tu_kat_open(unsigned n, unsigned *records)
{
	char path[1024];
	const char *dir = getenv("FA_SHARED_DIR");
	FILE *fp = NULL;

	if (dir != NULL && dir[0] != 0) {
		snprintf(path, sizeof path, "%s/kat/falcon%u-KAT.rsp", dir, n);
		fp = fopen(path, "r");
		*records = 100;
	}
	if (fp == NULL) {
		snprintf(path, sizeof path, "tests/kat/falcon%u-KAT.first3.rsp",
			n);
		fp = fopen(path, "r");
		*records = 3;
	}
	if (fp == NULL) {
		*records = 0;
		snprintf(path, sizeof path, "KAT records of Falcon-%u not found "
			"($FA_SHARED_DIR/kat, tests/kat)", n);
		tu_cannot_run(path);
	}
	return fp;
}

/* Deterministic test PRNG (xorshift64*), not for cryptography. */
static inline uint64_t tu_rand64(uint64_t *s)
{
	uint64_t x = *s;
	x ^= x >> 12; x ^= x << 25; x ^= x >> 27;
	*s = x;
	return x * 0x2545F4914F6CDD1DULL;
}

#endif
