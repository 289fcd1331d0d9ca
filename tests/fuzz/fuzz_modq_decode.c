/*
 * fuzz_modq_decode.c -- fa_modq_decode on arbitrary bytes.
 * Input: byte 0 selects logn (1 + b % 10), the rest is the encoding.
 * Properties: a known error code, or the bytes read fit the input, every
 * value is below q, and re-encoding gives back exactly the bytes read.
 */
#include "fuzz_common.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint16_t x[1024];
	uint8_t re[2048];
	unsigned logn;
	size_t n, u, len;
	int r;

	if (size < 1) {
		return 0;
	}
	logn = fuzz_logn(data[0]);
	data ++;
	size --;
	n = MKN(logn);
	r = fa_modq_decode(x, logn, data, size);
	if (r < 0) {
		FUZZ_ASSERT(r == FA_ERR_LENGTH || r == FA_ERR_COEFF_RANGE
			|| r == FA_ERR_PADDING);
		return 0;
	}
	FUZZ_ASSERT((size_t)r <= size);
	for (u = 0; u < n; u ++) {
		FUZZ_ASSERT(x[u] < FA_Q);
	}
	len = fa_modq_encode(re, sizeof re, x, logn);
	FUZZ_ASSERT(len == (size_t)r);
	FUZZ_ASSERT(memcmp(re, data, len) == 0);
	return 0;
}
