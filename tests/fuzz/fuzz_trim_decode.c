/*
 * fuzz_trim_decode.c -- fa_trim_i8_decode / fa_trim_i16_decode.
 * Input: byte 0 selects logn (1 + b % 10); byte 1 selects the decoder
 * (bit 7: i16) and the width (i8: 2 + b % 7, i16: 2 + b % 15, on the low
 * 7 bits); the rest is the encoding.
 * Properties: a known error code, or the bytes read fit the input, every
 * value is in [-(2^(bits-1) - 1), 2^(bits-1) - 1], and re-encoding gives
 * back exactly the bytes read.
 */
#include "fuzz_common.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int8_t x8[1024];
	int16_t x16[1024];
	uint8_t re[2048];
	unsigned logn, bits, wide;
	int32_t maxv;
	size_t n, u, len;
	int r;

	if (size < 2) {
		return 0;
	}
	logn = fuzz_logn(data[0]);
	wide = data[1] >> 7;
	bits = wide ? 2u + (data[1] & 0x7Fu) % 15u : 2u + (data[1] & 0x7Fu) % 7u;
	data += 2;
	size -= 2;
	n = MKN(logn);
	maxv = ((int32_t)1 << (bits - 1)) - 1;
	r = wide ? fa_trim_i16_decode(x16, logn, bits, data, size)
		: fa_trim_i8_decode(x8, logn, bits, data, size);
	if (r < 0) {
		FUZZ_ASSERT(r == FA_ERR_LENGTH || r == FA_ERR_COEFF_RANGE
			|| r == FA_ERR_PADDING);
		return 0;
	}
	FUZZ_ASSERT((size_t)r <= size);
	for (u = 0; u < n; u ++) {
		int32_t v = wide ? x16[u] : x8[u];

		FUZZ_ASSERT(v >= -maxv && v <= maxv);
	}
	len = wide ? fa_trim_i16_encode(re, sizeof re, x16, logn, bits)
		: fa_trim_i8_encode(re, sizeof re, x8, logn, bits);
	FUZZ_ASSERT(len == (size_t)r);
	FUZZ_ASSERT(memcmp(re, data, len) == 0);
	return 0;
}
