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

/* Deterministic test PRNG (xorshift64*), not for cryptography. */
static inline uint64_t tu_rand64(uint64_t *s)
{
	uint64_t x = *s;
	x ^= x >> 12; x ^= x << 25; x ^= x >> 27;
	*s = x;
	return x * 0x2545F4914F6CDD1DULL;
}

#endif
