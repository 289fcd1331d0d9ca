/*
 * Strict CBOR: canonical encodings accepted, every non-canonical or
 * unsupported form rejected with its specific error, map lookups, and
 * encoder output that the strict decoder accepts (round trips).
 */
#include "fido2_test_util.h"
#include "fido2_cbor.h"

static int
check_hex(const char *hex)
{
	uint8_t b[256];
	size_t n = unhex(b, hex);
	return fido2_cbor_check(b, n);
}

static void
test_accept_reject(void)
{
	static const struct { const char *hex; int want; const char *what; } v[] = {
		{ "00", 0, "0" },
		{ "17", 0, "23" },
		{ "1818", 0, "24" },
		{ "1817", FIDO2_CBOR_ERR_NONCANON, "23 in one extra byte" },
		{ "190100", 0, "256" },
		{ "1900ff", FIDO2_CBOR_ERR_NONCANON, "255 in two bytes" },
		{ "1a00010000", 0, "65536" },
		{ "1a0000ffff", FIDO2_CBOR_ERR_NONCANON, "65535 in four bytes" },
		{ "1b0000000100000000", 0, "2^32" },
		{ "1b00000000ffffffff", FIDO2_CBOR_ERR_NONCANON, "2^32-1 in eight bytes" },
		{ "20", 0, "-1" },
		{ "3818", 0, "-25" },
		{ "3817", FIDO2_CBOR_ERR_NONCANON, "-24 long form" },
		{ "4100", 0, "h'00'" },
		{ "5801ff", FIDO2_CBOR_ERR_NONCANON, "1-byte string with long length" },
		{ "42ff", FIDO2_CBOR_ERR_TRUNCATED, "string past the end" },
		{ "6161", 0, "\"a\"" },
		{ "62c3a9", 0, "\"\\u00e9\"" },
		{ "62c0af", FIDO2_CBOR_ERR_UTF8, "overlong UTF-8" },
		{ "63eda080", FIDO2_CBOR_ERR_UTF8, "UTF-16 surrogate" },
		{ "64f4908080", FIDO2_CBOR_ERR_UTF8, "above U+10FFFF" },
		{ "61ff", FIDO2_CBOR_ERR_UTF8, "0xff byte" },
		{ "80", 0, "[]" },
		{ "820102", 0, "[1,2]" },
		{ "8201", FIDO2_CBOR_ERR_TRUNCATED, "array short of elements" },
		{ "9fff", FIDO2_CBOR_ERR_UNSUPPORTED, "indefinite array" },
		{ "5f41004100ff", FIDO2_CBOR_ERR_UNSUPPORTED, "indefinite byte string" },
		{ "a0", 0, "{}" },
		{ "a201020304", 0, "{1:2,3:4}" },
		{ "a203040102", FIDO2_CBOR_ERR_KEY_ORDER, "keys 3, 1" },
		{ "a201020103", FIDO2_CBOR_ERR_KEY_ORDER, "duplicate key" },
		{ "a220000100", FIDO2_CBOR_ERR_KEY_ORDER, "-1 before 1 (major order)" },
		{ "a201002000", 0, "{1:0,-1:0}" },
		{ "a2181800200000", FIDO2_CBOR_ERR_TRAILING, "extra byte after map" },
		{ "a218180020", FIDO2_CBOR_ERR_TRUNCATED, "map value missing" },
		{ "a21818002000", 0, "{24:0,-1:0}: major type before length" },
		{ "a261610062616100", 0, "{\"a\":0,\"aa\":0}" },
		{ "a2626161006161 00", FIDO2_CBOR_ERR_KEY_ORDER, "longer text key first" },
		{ "a1410000", FIDO2_CBOR_ERR_KEY_TYPE, "byte-string key" },
		{ "a1800000", FIDO2_CBOR_ERR_KEY_TYPE, "array key" },
		{ "c100", FIDO2_CBOR_ERR_UNSUPPORTED, "tag" },
		{ "f4", 0, "false" },
		{ "f5", 0, "true" },
		{ "f6", 0, "null" },
		{ "f7", FIDO2_CBOR_ERR_UNSUPPORTED, "undefined" },
		{ "f0", FIDO2_CBOR_ERR_UNSUPPORTED, "simple 16" },
		{ "f818", FIDO2_CBOR_ERR_UNSUPPORTED, "one-byte simple" },
		{ "f93c00", FIDO2_CBOR_ERR_UNSUPPORTED, "half float" },
		{ "fb3ff0000000000000", FIDO2_CBOR_ERR_UNSUPPORTED, "double" },
		{ "1c", FIDO2_CBOR_ERR_UNSUPPORTED, "reserved ai 28" },
		{ "ff", FIDO2_CBOR_ERR_UNSUPPORTED, "lone break" },
		{ "", FIDO2_CBOR_ERR_TRUNCATED, "empty" },
		{ "0000", FIDO2_CBOR_ERR_TRAILING, "two items" },
		{ "9b0000000100000000", FIDO2_CBOR_ERR_TRUNCATED, "huge array count" },
		{ "bb7fffffffffffffff", FIDO2_CBOR_ERR_TRUNCATED, "huge map count" },
		{ "5b7fffffffffffffff", FIDO2_CBOR_ERR_TRUNCATED, "huge string length" },
		{ "818181818181818100", 0, "depth 8" },
		{ "81818181818181818100", FIDO2_CBOR_ERR_DEPTH, "depth 9" },
	};
	size_t i;
	for (i = 0; i < sizeof v / sizeof v[0]; i++) {
		/* Spaces in the table only separate bytes for reading. */
		char clean[512];
		size_t j, k = 0;
		for (j = 0; v[i].hex[j]; j++) {
			if (v[i].hex[j] != ' ') clean[k++] = v[i].hex[j];
		}
		clean[k] = 0;
		{
			int r = check_hex(clean);
			CHECK(r == v[i].want, "%s (%s): got %d, want %d", v[i].what,
				clean, r, v[i].want);
		}
	}
}

static void
test_lookup_and_roundtrip(void)
{
	uint8_t buf[512];
	fido2_cbor_enc e;
	fido2_cbor_item top, v, w;
	int64_t x;
	static const int64_t ints[] = { 0, 1, 23, 24, 255, 256, 65535, 65536,
		4294967295LL, 4294967296LL, INT64_MAX, -1, -24, -25, -256, -257,
		-65536, -65537, INT64_MIN };
	size_t i;

	for (i = 0; i < sizeof ints / sizeof ints[0]; i++) {
		fido2_cbor_enc_init(&e, buf, sizeof buf);
		fido2_cbor_put_int(&e, ints[i]);
		CHECK(fido2_cbor_check(buf, e.len) == 0, "int %lld canonical",
			(long long)ints[i]);
		fido2_cbor_item_at(buf, e.len, &v);
		CHECK(fido2_cbor_get_int(&v, &x) == 0 && x == ints[i], "int %lld round trip",
			(long long)ints[i]);
	}
	/* {1: "x", 3: [h'0102', true], -1: {"id": h'aa', "type": "t"}} */
	fido2_cbor_enc_init(&e, buf, sizeof buf);
	fido2_cbor_put_map(&e, 3);
	fido2_cbor_put_int(&e, 1);
	fido2_cbor_put_textz(&e, "x");
	fido2_cbor_put_int(&e, 3);
	fido2_cbor_put_array(&e, 2);
	fido2_cbor_put_bytes(&e, "\x01\x02", 2);
	fido2_cbor_put_bool(&e, 1);
	fido2_cbor_put_int(&e, -1);
	fido2_cbor_put_map(&e, 2);
	fido2_cbor_put_textz(&e, "id");
	fido2_cbor_put_bytes(&e, "\xaa", 1);
	fido2_cbor_put_textz(&e, "type");
	fido2_cbor_put_textz(&e, "t");
	CHECK(!e.err && fido2_cbor_check(buf, e.len) == 0, "nested map canonical");
	fido2_cbor_item_at(buf, e.len, &top);
	CHECK(top.major == FIDO2_CBOR_MAP && top.val == 3 && top.enc_len == e.len, "top item");
	CHECK(fido2_cbor_map_int(&top, 1, &v) && fido2_cbor_text_eq(&v, "x"), "lookup 1");
	CHECK(!fido2_cbor_map_int(&top, 2, &v), "lookup absent key");
	CHECK(fido2_cbor_map_int(&top, 3, &v) && v.major == FIDO2_CBOR_ARRAY
		&& fido2_cbor_array_at(&v, 1, &w) && w.major == FIDO2_CBOR_SIMPLE
		&& w.val == 21 && !fido2_cbor_array_at(&v, 2, &w), "array lookups");
	CHECK(fido2_cbor_map_int(&top, -1, &v) && fido2_cbor_map_text(&v, "type", &w)
		&& fido2_cbor_text_eq(&w, "t") && !fido2_cbor_text_eq(&w, "tt"),
		"nested text lookup");
	/* Every truncation of the valid message is rejected. */
	for (i = 0; i < e.len; i++) {
		CHECK(fido2_cbor_check(buf, i) != 0, "truncated to %zu accepted", i);
	}
	/* Encoder overflow is reported, never written past cap. */
	{
		uint8_t small[4] = { 0, 0, 0, 0xee };
		fido2_cbor_enc_init(&e, small, 3);
		fido2_cbor_put_bytes(&e, "abcdef", 6);
		CHECK(e.err && small[3] == 0xee, "encoder overflow");
	}
}

int
main(void)
{
	test_accept_reject();
	test_lookup_and_roundtrip();
	return T_DONE();
}
