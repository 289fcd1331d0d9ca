/*
 * fa_py.c -- helpers for the Python binding (cffi, ABI mode): the sizes of
 * the C macros and structures, so that the Python side computes nothing
 * that the C headers already define, and can check its declarations of
 * the structures against the compiler's layout at import time.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "falcon_accel.h"
#include "falcon_accel_edge.h"

/* Version of the interface between this file and falcon_accel/_ffi.py. */
int
fa_py_abi_version(void)
{
	return 2;
}

/* Size in bytes of object `what` at degree logn (1..10); 0 if unknown. */
size_t
fa_py_size(int what, unsigned logn)
{
	if (logn < FA_LOGN_MIN || logn > FA_LOGN_MAX) {
		return 0;
	}
	switch (what) {
	case 0: return FA_PUBKEY_SIZE(logn);
	case 1: return FA_PRIVKEY_SIZE(logn);
	case 2: return FA_SIG_COMPRESSED_MAXSIZE(logn);
	case 3: return FA_SIG_PADDED_SIZE(logn);
	case 4: return FA_SIG_CT_SIZE(logn);
	case 5: return FA_EXPANDED_KEY_SIZE(logn);
	case 6: return FA_SIG_MAXSIZE(logn);
	default: return 0;
	}
}

/* sizeof of the structures _ffi.py declares. */
size_t
fa_py_sizeof(int what)
{
	switch (what) {
	case 0: return sizeof(fa_sign_item);
	case 1: return sizeof(fa_verify_item);
	case 2: return sizeof(fa_broker_config);
	case 3: return sizeof(fa_job_options);
	case 4: return sizeof(fa_broker_item);
	case 5: return sizeof(fa_broker_metrics);
	case 6: return sizeof(fa_prepared_pubkey);
	case 7: return offsetof(fa_broker_metrics, backend);
	case 8: return offsetof(fa_job_options, notify);
	default: return 0;
	}
}

/* ------------------------------------------------------------------ */
/* Batch request packing for the HTTP service: base64 decoding of every
   item's fields and the layout of fa_broker_submit_packed in one call,
   instead of one Python call per field. */

/* Standard base64 alphabet (RFC 4648, section 4); 0xFF: not in it. */
static void
b64_table(uint8_t t[256])
{
	unsigned i;

	memset(t, 0xFF, 256);
	for (i = 0; i < 26; i ++) {
		t['A' + i] = (uint8_t)i;
		t['a' + i] = (uint8_t)(26 + i);
	}
	for (i = 0; i < 10; i ++) {
		t['0' + i] = (uint8_t)(52 + i);
	}
	t['+'] = 62;
	t['/'] = 63;
}

/* Decode one padded base64 string (length a multiple of 4, '=' only as
   the last one or two characters); returns the decoded length, or -1 if
   invalid. Leftover bits of the last group are ignored, as Python's
   binascii does. out has room for len / 4 * 3 bytes. */
static long
b64_decode(const uint8_t t[256], const char *in, size_t len, uint8_t *out)
{
	size_t i, o = 0;

	if (len % 4 != 0) {
		return -1;
	}
	for (i = 0; i < len; i += 4) {
		unsigned a = t[(uint8_t)in[i]], b = t[(uint8_t)in[i + 1]];
		unsigned c = t[(uint8_t)in[i + 2]], d = t[(uint8_t)in[i + 3]];

		if ((a | b | c | d) < 64) {
			uint32_t w = (a << 18) | (b << 12) | (c << 6) | d;

			out[o ++] = (uint8_t)(w >> 16);
			out[o ++] = (uint8_t)(w >> 8);
			out[o ++] = (uint8_t)w;
			continue;
		}
		/* Padding: only in the last group, "xx==" or "xxx=". */
		if (i + 4 != len || (a | b) >= 64 || in[i + 3] != '=') {
			return -1;
		}
		if (in[i + 2] == '=') {
			out[o ++] = (uint8_t)((a << 2) | (b >> 4));
		} else if (c < 64) {
			out[o ++] = (uint8_t)((a << 2) | (b >> 4));
			out[o ++] = (uint8_t)((b << 4) | (c >> 2));
		} else {
			return -1;
		}
	}
	return (long)o;
}

/*
 * Items i = 0..n-1 each have a binary key keys[key_idx[i]] (one of nkeys
 * keys laid out back to back, lengths key_lens) and `per` (1 or 2)
 * base64 fields, which b64 holds back to back (n * per lengths in
 * seg_lens). Writes, item by item, the key then each decoded field to
 * out, and their lengths to lens_out ((1 + per) * n entries): exactly the
 * input of fa_broker_submit_packed. Returns the bytes written, -(1 + i)
 * if item i has invalid base64 or an out-of-range key index, or
 * -(1 + n) if out is too small or an argument is invalid.
 */
long
fa_py_pack_b64_items(const uint8_t *keys, const size_t *key_lens,
	size_t nkeys, const uint32_t *key_idx, const char *b64,
	size_t b64_len, const size_t *seg_lens, unsigned per, size_t n,
	uint8_t *out, size_t out_cap, size_t *lens_out)
{
	uint8_t t[256];
	size_t i, k, pos = 0, in_pos = 0;
	size_t *key_off;
	long too_small = -(long)(n + 1);

	if (per < 1 || per > 2 || nkeys == 0) {
		return too_small;
	}
	key_off = malloc(nkeys * sizeof *key_off);
	if (key_off == NULL) {
		return too_small;
	}
	for (k = 0, i = 0; k < nkeys; k ++) {
		key_off[k] = i;
		i += key_lens[k];
	}
	b64_table(t);
	for (i = 0; i < n; i ++) {
		uint32_t kx = key_idx[i];
		size_t *lens = lens_out + (1 + per) * i;

		if (kx >= nkeys) {
			free(key_off);
			return -(long)(i + 1);
		}
		if (key_lens[kx] > out_cap - pos) {
			free(key_off);
			return too_small;
		}
		memcpy(out + pos, keys + key_off[kx], key_lens[kx]);
		pos += key_lens[kx];
		lens[0] = key_lens[kx];
		for (k = 0; k < per; k ++) {
			size_t sl = seg_lens[per * i + k];
			long d;

			if (sl > b64_len - in_pos || sl / 4 * 3 > out_cap - pos) {
				free(key_off);
				return sl > b64_len - in_pos ? -(long)(i + 1)
					: too_small;
			}
			d = b64_decode(t, b64 + in_pos, sl, out + pos);
			if (d < 0) {
				free(key_off);
				return -(long)(i + 1);
			}
			in_pos += sl;
			pos += (size_t)d;
			lens[1 + k] = (size_t)d;
		}
	}
	free(key_off);
	return (long)pos;
}
