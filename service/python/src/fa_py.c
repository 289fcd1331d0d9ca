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
#include "fa_py.h"
#include "fa_py_internal.h"

/* AVX2 versions of the base64 decoder and the string scanner below, used
   when the CPU has AVX2 (checked at run time; GCC and Clang on x86-64). */
#if defined(__x86_64__) && defined(__GNUC__)
#define FA_PY_AVX2 1
#include <immintrin.h>
#define FA_PY_AVX2_FN __attribute__((target("avx2")))
#else
#define FA_PY_AVX2 0
#endif

/* Version of the interface between this file and falcon_accel/_ffi.py. */
int
fa_py_abi_version(void)
{
	return 6;
}

/* Size in bytes of object `what` at degree logn (1..10; FN-DSA objects,
   what >= 7: 2..10); 0 if unknown. */
size_t
fa_py_size(int what, unsigned logn)
{
	if (logn < FA_LOGN_MIN || logn > FA_LOGN_MAX
		|| (what >= 7 && logn < FA_FNDSA_LOGN_MIN))
	{
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
	case 7: return FA_FNDSA_PUBKEY_SIZE(logn);
	case 8: return FA_FNDSA_PRIVKEY_SIZE(logn);
	case 9: return FA_FNDSA_SIG_SIZE(logn);
	case 10: return FA_TMPSIZE_FNDSA_KEYGEN(logn);
	case 11: return FA_TMPSIZE_FNDSA_SIGN(logn);
	case 12: return FA_TMPSIZE_FNDSA_VERIFY(logn);
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
/* Base64 (the service's encoding of binary fields). */

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

/* The decoding table shifted for each position of a 4-character group:
   sh[k][ch] = value << (18 - 6 k), or 1 << 31 for a character outside the
   alphabet, so that one OR of four lookups decodes a group and bit 31
   flags anything else. */
typedef struct {
	uint32_t sh[4][256];
} b64_group_table;

static void
b64_group_table_init(b64_group_table *g, const uint8_t t[256])
{
	unsigned k, ch;

	for (k = 0; k < 4; k ++) {
		for (ch = 0; ch < 256; ch ++) {
			g->sh[k][ch] = t[ch] < 64
				? (uint32_t)t[ch] << (18 - 6 * k) : (uint32_t)1 << 31;
		}
	}
}

/* Decode one padded base64 string (length a multiple of 4, '=' only as
   the last one or two characters); returns the decoded length, or -1 if
   invalid. Leftover bits of the last group are ignored, as Python's
   binascii does. out has room for len / 4 * 3 bytes. */
#if FA_PY_AVX2
/*
 * 32 characters to 24 bytes, while at least one group remains after them
 * (the last group, which may hold padding, is the scalar loop's). A byte
 * is in the alphabet iff lo[low nibble] & hi[high nibble] == 0: hi gives
 * each high nibble a class bit (2: '+' '/' only, 3: digits, 4 and 6:
 * letters from 1, 5 and 7: letters to 0xA, others: never), lo sets the
 * class bits of the low nibbles that class refuses. The value is the
 * character plus roll[high nibble, or 1 for '/']: 'A' -> 0, 'a' -> 26,
 * '0' -> 52, '+' -> 62, '/' -> 63. Pairs of 6-bit values are merged
 * into 12 bits (maddubs), pairs of those into 24 (madd), and the three
 * low bytes of each 32-bit word are gathered big-end first. Returns the
 * characters consumed (a multiple of 32), stopping before a block with a
 * character outside the alphabet.
 */
static FA_PY_AVX2_FN size_t
b64_decode_avx2(const uint8_t *in, size_t len, uint8_t *out)
{
	const __m256i lo_lut = _mm256_setr_epi8(
		0x15, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11,
		0x11, 0x11, 0x13, 0x1A, 0x1B, 0x1B, 0x1B, 0x1A,
		0x15, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11,
		0x11, 0x11, 0x13, 0x1A, 0x1B, 0x1B, 0x1B, 0x1A);
	const __m256i hi_lut = _mm256_setr_epi8(
		0x10, 0x10, 0x01, 0x02, 0x04, 0x08, 0x04, 0x08,
		0x10, 0x10, 0x10, 0x10, 0x10, 0x10, 0x10, 0x10,
		0x10, 0x10, 0x01, 0x02, 0x04, 0x08, 0x04, 0x08,
		0x10, 0x10, 0x10, 0x10, 0x10, 0x10, 0x10, 0x10);
	const __m256i roll_lut = _mm256_setr_epi8(
		0, 16, 19, 4, -65, -65, -71, -71, 0, 0, 0, 0, 0, 0, 0, 0,
		0, 16, 19, 4, -65, -65, -71, -71, 0, 0, 0, 0, 0, 0, 0, 0);
	const __m256i nib = _mm256_set1_epi8(0x0F);
	const __m256i slash = _mm256_set1_epi8(0x2F);
	const __m256i gather = _mm256_setr_epi8(
		2, 1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12, -1, -1, -1, -1,
		2, 1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12, -1, -1, -1, -1);
	const __m256i pack = _mm256_setr_epi32(0, 1, 2, 4, 5, 6, 3, 7);
	size_t i = 0;

	while (i + 32 + 4 <= len) {
		__m256i v = _mm256_loadu_si256((const __m256i *)(in + i));
		__m256i hn = _mm256_and_si256(_mm256_srli_epi32(v, 4), nib);
		__m256i lo = _mm256_shuffle_epi8(lo_lut,
			_mm256_and_si256(v, nib));
		__m256i hi = _mm256_shuffle_epi8(hi_lut, hn);
		__m256i roll, w;

		if (!_mm256_testz_si256(lo, hi)) {
			break;
		}
		roll = _mm256_shuffle_epi8(roll_lut, _mm256_add_epi8(hn,
			_mm256_cmpeq_epi8(v, slash)));
		v = _mm256_add_epi8(v, roll);
		w = _mm256_maddubs_epi16(v, _mm256_set1_epi32(0x01400140));
		w = _mm256_madd_epi16(w, _mm256_set1_epi32(0x00011000));
		w = _mm256_shuffle_epi8(w, gather);
		w = _mm256_permutevar8x32_epi32(w, pack);
		_mm_storeu_si128((__m128i *)out, _mm256_castsi256_si128(w));
		_mm_storel_epi64((__m128i *)(out + 16),
			_mm256_extracti128_si256(w, 1));
		i += 32;
		out += 24;
	}
	return i;
}

static int
have_avx2(void)
{
	__builtin_cpu_init();
	return __builtin_cpu_supports("avx2");
}
#endif

static long
b64_decode(const uint8_t t[256], const b64_group_table *g, const char *in,
	size_t len, uint8_t *out, int avx2)
{
	const uint8_t *u = (const uint8_t *)in;
	size_t i = 0, o = 0;

	if (len % 4 != 0) {
		return -1;
	}
#if FA_PY_AVX2
	if (avx2) {
		i = b64_decode_avx2(u, len, out);
		o = i / 4 * 3;
	}
#else
	(void)avx2;
#endif
	for (; i < len; i += 4) {
		uint32_t w = g->sh[0][u[i]] | g->sh[1][u[i + 1]]
			| g->sh[2][u[i + 2]] | g->sh[3][u[i + 3]];
		unsigned a, b, c;

		if ((w >> 31) == 0) {
			out[o ++] = (uint8_t)(w >> 16);
			out[o ++] = (uint8_t)(w >> 8);
			out[o ++] = (uint8_t)w;
			continue;
		}
		a = t[u[i]];
		b = t[u[i + 1]];
		c = t[u[i + 2]];
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

/* ------------------------------------------------------------------ */
/* The reader of batch request bodies under the batch parser
   (fa_py_front_parse, fa_py_batch_front.c): one call finds every item's
   fields in the JSON body, one call decodes them, so that the service
   does no Python work per item. The reader accepts a strict subset of
   JSON (string values without escapes or non-ASCII characters, the known
   fields once each); anything else is declined, and the service then
   reads the body with its strict Python fallback (the json module),
   which names the culprit. */

typedef struct {
	const char *s;
	size_t len;
	size_t pos;
	int avx2;
} json_scan;

#if FA_PY_AVX2
/* Length of the run of plain string characters (printable ASCII other
   than '"' and '\\') at the start of s[0..len), in blocks of 32 (the
   rest is the caller's). */
static FA_PY_AVX2_FN size_t
scan_plain_avx2(const char *s, size_t len)
{
	const __m256i quote = _mm256_set1_epi8('"');
	const __m256i bslash = _mm256_set1_epi8('\\');
	const __m256i space = _mm256_set1_epi8(0x20);
	const __m256i del = _mm256_set1_epi8(0x7F);
	size_t i = 0;

	while (i + 32 <= len) {
		__m256i v = _mm256_loadu_si256((const __m256i *)(s + i));
		/* Signed: bytes from 0x80 are below 0x20 too. */
		__m256i bad = _mm256_or_si256(
			_mm256_or_si256(_mm256_cmpeq_epi8(v, quote),
				_mm256_cmpeq_epi8(v, bslash)),
			_mm256_or_si256(_mm256_cmpgt_epi8(space, v),
				_mm256_cmpeq_epi8(v, del)));
		unsigned m = (unsigned)_mm256_movemask_epi8(bad);

		if (m != 0) {
			return i + (size_t)__builtin_ctz(m);
		}
		i += 32;
	}
	return i;
}
#endif

static void
scan_ws(json_scan *c)
{
	while (c->pos < c->len) {
		char ch = c->s[c->pos];

		if (ch != ' ' && ch != '\t' && ch != '\n' && ch != '\r') {
			break;
		}
		c->pos ++;
	}
}

/* Consume `ch` (after white space); 1 if it was there. */
static int
scan_char(json_scan *c, char ch)
{
	scan_ws(c);
	if (c->pos < c->len && c->s[c->pos] == ch) {
		c->pos ++;
		return 1;
	}
	return 0;
}

/* Nonzero if one of the 8 bytes of w is '"', '\\', below 0x20 or above
   0x7E (a byte with the top bit set counts), i.e. may end or disqualify a
   plain string. Each test is exact for "some byte" (bytes are
   independent: a borrow only propagates from a byte that matched). */
static uint64_t
swar_special(uint64_t w)
{
	const uint64_t ones = 0x0101010101010101u;
	const uint64_t high = 0x8080808080808080u;
	uint64_t q = w ^ (ones * '"');
	uint64_t bs = w ^ (ones * '\\');

	return (((q - ones) & ~q) | ((bs - ones) & ~bs)
		| ((w - ones * 0x20) & ~w) | (w + ones) | w) & high;
}

/* A string of printable ASCII without escapes; its content's offset and
   length in *off, *n. 0 if the next value is anything else. */
static int
scan_plain_string(json_scan *c, size_t *off, size_t *n)
{
	size_t start;

	scan_ws(c);
	if (c->pos >= c->len || c->s[c->pos] != '"') {
		return 0;
	}
	start = ++ c->pos;
	while (c->pos < c->len) {
		unsigned char ch;

#if FA_PY_AVX2
		if (c->avx2) {
			c->pos += scan_plain_avx2(c->s + c->pos,
				c->len - c->pos);
		}
#endif
		/* Eight plain characters at a time. */
		while (c->pos + 8 <= c->len) {
			uint64_t w;

			memcpy(&w, c->s + c->pos, 8);
			if (swar_special(w)) {
				break;
			}
			c->pos += 8;
		}
		if (c->pos >= c->len) {
			break;
		}
		ch = (unsigned char)c->s[c->pos];

		if (ch == '"') {
			*off = start;
			*n = c->pos - start;
			c->pos ++;
			return 1;
		}
		if (ch < 0x20 || ch > 0x7E || ch == '\\') {
			return 0;
		}
		c->pos ++;
	}
	return 0;
}

static int
span_is(const json_scan *c, size_t off, size_t n, const char *word)
{
	size_t k = strlen(word);

	return n == k && memcmp(c->s + off, word, k) == 0;
}

/* Field names of an item: key_id, message, then (per == 2) signature. */
static const char *const item_fields[3] = { "key_id", "message",
	"signature" };

/*
 * Reads a body {"items": [{"key_id": K, "message": M[, "signature": S]},
 * ...][, "format": F]} (members in any order; per = 1 for signing, 2 for
 * verification). For item i, spans[2 * ((1 + per) * i + f)] and the entry
 * after it are the offset and length in `body` of field f (key_id,
 * message, signature); key_idx[i] is the index of its key id among the
 * distinct ones, whose spans go to key_spans (at most max_keys). info[0]
 * = items, info[1] = distinct key ids, info[2..3] = span of the format
 * string (length SIZE_MAX when absent). Returns 0, or
 * FA_PY_FALLBACK_FORM if the body is not of that form,
 * FA_PY_FALLBACK_ITEMS if it has more than max_items items,
 * FA_PY_FALLBACK_KEYS if it names more than max_keys distinct key ids.
 */
int
fa_py_scan_batch(const char *body, size_t body_len, unsigned per,
	size_t max_items, size_t *spans, uint32_t *key_idx,
	size_t *key_spans, size_t max_keys, size_t *info)
{
	json_scan c;
	size_t n = 0, nkeys = 0, off, len;
	int seen_items = 0, seen_format = 0;

	if (per < 1 || per > 2) {
		return FA_PY_FALLBACK_FORM;
	}
	c.s = body;
	c.len = body_len;
	c.pos = 0;
	c.avx2 = 0;
#if FA_PY_AVX2
	c.avx2 = have_avx2();
#endif
	info[2] = 0;
	info[3] = (size_t)-1;
	if (!scan_char(&c, '{')) {
		return FA_PY_FALLBACK_FORM;
	}
	do {
		if (!scan_plain_string(&c, &off, &len) || !scan_char(&c, ':')) {
			return FA_PY_FALLBACK_FORM;
		}
		if (span_is(&c, off, len, "format") && !seen_format) {
			seen_format = 1;
			if (!scan_plain_string(&c, &info[2], &info[3])) {
				return FA_PY_FALLBACK_FORM;
			}
			continue;
		}
		if (!span_is(&c, off, len, "items") || seen_items
			|| !scan_char(&c, '['))
		{
			return FA_PY_FALLBACK_FORM;
		}
		seen_items = 1;
		do {
			size_t *sp = spans + 2 * (1 + per) * n;
			unsigned seen = 0, f, k;

			if (n == max_items) {
				return FA_PY_FALLBACK_ITEMS;
			}
			if (!scan_char(&c, '{')) {
				return FA_PY_FALLBACK_FORM;
			}
			do {
				if (!scan_plain_string(&c, &off, &len)
					|| !scan_char(&c, ':'))
				{
					return FA_PY_FALLBACK_FORM;
				}
				for (f = 0; f <= per; f ++) {
					if (span_is(&c, off, len,
						item_fields[f]))
					{
						break;
					}
				}
				if (f > per || (seen & (1u << f)) != 0
					|| !scan_plain_string(&c, &sp[2 * f],
						&sp[2 * f + 1]))
				{
					return FA_PY_FALLBACK_FORM;
				}
				seen |= 1u << f;
			} while (scan_char(&c, ','));
			if (!scan_char(&c, '}') || seen != (2u << per) - 1) {
				return FA_PY_FALLBACK_FORM;
			}
			/* Distinct key ids (a batch usually has one). */
			for (k = 0; k < nkeys; k ++) {
				if (key_spans[2 * k + 1] == sp[1]
					&& memcmp(body + key_spans[2 * k],
						body + sp[0], sp[1]) == 0)
				{
					break;
				}
			}
			if (k == nkeys) {
				if (nkeys == max_keys) {
					return FA_PY_FALLBACK_KEYS;
				}
				key_spans[2 * k] = sp[0];
				key_spans[2 * k + 1] = sp[1];
				nkeys ++;
			}
			key_idx[n ++] = (uint32_t)k;
		} while (scan_char(&c, ','));
		if (!scan_char(&c, ']')) {
			return FA_PY_FALLBACK_FORM;
		}
	} while (scan_char(&c, ','));
	if (!scan_char(&c, '}')) {
		return FA_PY_FALLBACK_FORM;
	}
	scan_ws(&c);
	if (c.pos != c.len || n == 0) {
		return FA_PY_FALLBACK_FORM;
	}
	info[0] = n;
	info[1] = nkeys;
	return 0;
}

/*
 * Decodes the base64 fields of the n items found by fa_py_scan_batch
 * (fields 1..per of each item: message, then the signature; spans as
 * fa_py_scan_batch wrote them) into out, back to back, and their lengths
 * into lens_out (per entries an item). Returns the bytes written, -(1 +
 * i) if item i has invalid base64, or -(1 + n) if out is too small or an
 * argument is invalid.
 */
long
fa_py_b64_decode_fields(const char *body, const size_t *spans, unsigned per,
	size_t n, uint8_t *out, size_t out_cap, size_t *lens_out)
{
	uint8_t t[256];
	b64_group_table g;
	size_t i, k, pos = 0;
	int avx2 = 0;
	long too_small = -(long)(n + 1);

	if (per < 1 || per > 2) {
		return too_small;
	}
	b64_table(t);
	b64_group_table_init(&g, t);
#if FA_PY_AVX2
	avx2 = have_avx2();
#endif
	for (i = 0; i < n; i ++) {
		const size_t *sp = spans + 2 * (1 + per) * i;
		size_t *lens = lens_out + per * i;

		for (k = 1; k <= per; k ++) {
			size_t sl = sp[2 * k + 1];
			long d;

			if (sl / 4 * 3 > out_cap - pos) {
				return too_small;
			}
			d = b64_decode(t, &g, body + sp[2 * k], sl, out + pos,
				avx2);
			if (d < 0) {
				return -(long)(i + 1);
			}
			pos += (size_t)d;
			lens[k - 1] = (size_t)d;
		}
	}
	return (long)pos;
}
