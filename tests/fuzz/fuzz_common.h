/*
 * fuzz_common.h -- shared by the decoder fuzz targets (libFuzzer entry
 * point LLVMFuzzerTestOneInput; tests/fuzz/standalone_main.c replays
 * corpora with any compiler). A failed property calls abort().
 */
#ifndef FA_FUZZ_COMMON_H
#define FA_FUZZ_COMMON_H

#include "inner.h"

#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_ASSERT(cond) do { \
	if (!(cond)) { \
		fprintf(stderr, "fuzz property failed: %s (%s:%d)\n", \
			#cond, __FILE__, __LINE__); \
		abort(); \
	} \
} while (0)

/* logn in 1..10 from a selector byte. */
static inline unsigned
fuzz_logn(uint8_t b)
{
	return 1u + (unsigned)(b % 10u);
}

#endif
