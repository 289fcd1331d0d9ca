/*
 * Strict CBOR (RFC 8949) for CTAP2: an encoder that writes the CTAP2
 * canonical form, and a decoder that accepts only it.
 *
 * Accepted by fido2_cbor_check (everything else is an error):
 *  - major types 0..5 and the simple values false, true, null;
 *  - integers and lengths in their shortest form (no leading zero bytes);
 *  - definite lengths only; text strings in valid UTF-8 (no overlong
 *    forms, no surrogates, nothing above U+10FFFF);
 *  - map keys that are integers or text strings, in CTAP2 canonical order
 *    (major type, then encoded length, then bytes), with no duplicates;
 *  - nesting at most FIDO2_CBOR_MAX_DEPTH containers deep.
 * Rejected: tags, floats, undefined, other simple values, indefinite
 * lengths, reserved additional information 28..30, trailing bytes.
 */
#ifndef FIDO2_CBOR_H
#define FIDO2_CBOR_H

#include <stddef.h>
#include <stdint.h>

#define FIDO2_CBOR_MAX_DEPTH 8

/* Decoder error codes (negative). */
#define FIDO2_CBOR_OK             0
#define FIDO2_CBOR_ERR_TRUNCATED -1  /* input ends inside an item */
#define FIDO2_CBOR_ERR_NONCANON  -2  /* not the shortest integer/length form */
#define FIDO2_CBOR_ERR_UNSUPPORTED -3 /* tag, float, indefinite, simple */
#define FIDO2_CBOR_ERR_DEPTH     -4  /* nested deeper than the bound */
#define FIDO2_CBOR_ERR_KEY_ORDER -5  /* map keys unsorted or duplicated */
#define FIDO2_CBOR_ERR_KEY_TYPE  -6  /* map key neither integer nor text */
#define FIDO2_CBOR_ERR_UTF8      -7  /* invalid UTF-8 in a text string */
#define FIDO2_CBOR_ERR_TRAILING  -8  /* bytes after the top-level item */

#define FIDO2_CBOR_UINT   0
#define FIDO2_CBOR_NINT   1
#define FIDO2_CBOR_BYTES  2
#define FIDO2_CBOR_TEXT   3
#define FIDO2_CBOR_ARRAY  4
#define FIDO2_CBOR_MAP    5
#define FIDO2_CBOR_SIMPLE 7   /* val: 20 false, 21 true, 22 null */

/* One decoded item. For BYTES/TEXT, data/val are the payload and its
   length; for ARRAY/MAP, data points at the first element and val is the
   element count (pairs for a map); enc_len is the length of the whole
   encoding, elements included. */
typedef struct {
	int major;
	uint64_t val;
	const uint8_t *data;
	const uint8_t *start;  /* first byte of the encoding */
	size_t enc_len;
} fido2_cbor_item;

/* Validates that buf[0..len) is exactly one well-formed canonical item. */
int fido2_cbor_check(const uint8_t *buf, size_t len);
/* Decodes the item at buf (which must lie inside a checked buffer, or
   be checked by the return value: it never reads past len). */
int fido2_cbor_item_at(const uint8_t *buf, size_t len, fido2_cbor_item *it);

/* Map lookup in a checked map item: the value for an integer key or a
   text key. Returns 1 and fills *val if found, 0 if absent. */
int fido2_cbor_map_int(const fido2_cbor_item *map, int64_t key,
	fido2_cbor_item *val);
int fido2_cbor_map_text(const fido2_cbor_item *map, const char *key,
	fido2_cbor_item *val);
/* i-th element of a checked array (0 if out of range). */
int fido2_cbor_array_at(const fido2_cbor_item *arr, uint64_t i,
	fido2_cbor_item *val);
/* Integer value of a UINT or NINT item; 0 on success, -1 if the item is
   not an integer or does not fit int64_t. */
int fido2_cbor_get_int(const fido2_cbor_item *it, int64_t *v);
/* 1 if the item is the text string s (NUL-terminated). */
int fido2_cbor_text_eq(const fido2_cbor_item *it, const char *s);

/* Encoder: writes into buf; on overflow sets err and writes nothing more. */
typedef struct {
	uint8_t *buf;
	size_t cap, len;
	int err;
} fido2_cbor_enc;

void fido2_cbor_enc_init(fido2_cbor_enc *e, uint8_t *buf, size_t cap);
void fido2_cbor_put_uint(fido2_cbor_enc *e, uint64_t v);
void fido2_cbor_put_int(fido2_cbor_enc *e, int64_t v);
void fido2_cbor_put_bytes(fido2_cbor_enc *e, const void *p, size_t n);
void fido2_cbor_put_text(fido2_cbor_enc *e, const char *s, size_t n);
void fido2_cbor_put_textz(fido2_cbor_enc *e, const char *s);
void fido2_cbor_put_array(fido2_cbor_enc *e, uint64_t n);
void fido2_cbor_put_map(fido2_cbor_enc *e, uint64_t n);
void fido2_cbor_put_bool(fido2_cbor_enc *e, int b);
/* Appends raw bytes (an already encoded item). */
void fido2_cbor_put_raw(fido2_cbor_enc *e, const void *p, size_t n);

#endif
