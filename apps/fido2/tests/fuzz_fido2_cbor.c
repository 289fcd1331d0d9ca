/*
 * Fuzz target: the strict CBOR decoder. Any input must be either rejected
 * with a FIDO2_CBOR_ERR_* code or accepted as exactly one item whose walk
 * (lookups, array indexing, integer reads) stays inside the input; an
 * accepted integer re-encodes to the same bytes (canonical form is unique).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "fido2_cbor.h"

static void
walk(const fido2_cbor_item *it, int depth)
{
	fido2_cbor_item v;
	uint64_t i;
	int64_t x;
	if (depth > FIDO2_CBOR_MAX_DEPTH + 1) {
		abort();   /* the checker bounds the depth */
	}
	if (it->major == FIDO2_CBOR_ARRAY) {
		for (i = 0; i < it->val && i < 64; i++) {
			if (!fido2_cbor_array_at(it, i, &v)) abort();
			walk(&v, depth + 1);
		}
		if (fido2_cbor_array_at(it, it->val, &v)) abort();
	} else if (it->major == FIDO2_CBOR_MAP) {
		static const int64_t keys[] = { 1, 2, 3, 4, 5, -1, 24 };
		static const char *const tkeys[] = { "id", "type", "alg", "rk", "up" };
		size_t k;
		for (k = 0; k < sizeof keys / sizeof keys[0]; k++) {
			if (fido2_cbor_map_int(it, keys[k], &v)) walk(&v, depth + 1);
		}
		for (k = 0; k < sizeof tkeys / sizeof tkeys[0]; k++) {
			if (fido2_cbor_map_text(it, tkeys[k], &v)) walk(&v, depth + 1);
		}
	} else if (fido2_cbor_get_int(it, &x) == 0) {
		uint8_t b[9];
		fido2_cbor_enc e;
		fido2_cbor_enc_init(&e, b, sizeof b);
		fido2_cbor_put_int(&e, x);
		if (e.len != it->enc_len || memcmp(b, it->start, e.len) != 0) abort();
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fido2_cbor_item top;
	int r = fido2_cbor_check(data, size);
	if (r != FIDO2_CBOR_OK) {
		if (r > 0 || r < FIDO2_CBOR_ERR_TRAILING) abort();
		return 0;
	}
	if (fido2_cbor_item_at(data, size, &top) != FIDO2_CBOR_OK
		|| top.enc_len != size) {
		abort();
	}
	walk(&top, 0);
	return 0;
}
