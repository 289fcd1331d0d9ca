/*
 * Strict canonical CBOR for CTAP2 (see fido2_cbor.h for what is accepted).
 * The checker recurses once per container level, bounded by
 * FIDO2_CBOR_MAX_DEPTH; element counts are bounded by the remaining input
 * (every element takes at least one byte), so a hostile count fails fast.
 */
#include "fido2_cbor.h"
#include "fido2_sha256.h"

/* Head of an item: major type, argument, head length. */
static int
read_head(const uint8_t *p, size_t len, int *major, uint64_t *arg,
	size_t *hlen)
{
	unsigned ai;
	size_t n, i;
	uint64_t v;

	if (len < 1) {
		return FIDO2_CBOR_ERR_TRUNCATED;
	}
	*major = p[0] >> 5;
	ai = p[0] & 31u;
	if (ai < 24) {
		*arg = ai;
		*hlen = 1;
		return FIDO2_CBOR_OK;
	}
	if (ai > 27) {
		/* 28..30 reserved, 31 indefinite length or break. */
		return FIDO2_CBOR_ERR_UNSUPPORTED;
	}
	n = (size_t)1 << (ai - 24);   /* 1, 2, 4 or 8 bytes */
	if (len < 1 + n) {
		return FIDO2_CBOR_ERR_TRUNCATED;
	}
	v = 0;
	for (i = 0; i < n; i++) {
		v = (v << 8) | p[1 + i];
	}
	*arg = v;
	*hlen = 1 + n;
	if (*major == 7) {
		/* Floats (25..27) and one-byte simple values (24) are out. */
		return FIDO2_CBOR_ERR_UNSUPPORTED;
	}
	/* Shortest form: the value must need the width used. */
	if ((ai == 24 && v < 24) || (ai == 25 && v <= 0xff)
		|| (ai == 26 && v <= 0xffff) || (ai == 27 && v <= 0xffffffffu)) {
		return FIDO2_CBOR_ERR_NONCANON;
	}
	return FIDO2_CBOR_OK;
}

static int
check_utf8(const uint8_t *s, uint64_t n)
{
	uint64_t i = 0;
	while (i < n) {
		uint32_t c = s[i], cp;
		unsigned k, j;
		if (c < 0x80) {
			i++;
			continue;
		}
		if (c >= 0xc2 && c <= 0xdf) {
			k = 1; cp = c & 0x1f;
		} else if (c >= 0xe0 && c <= 0xef) {
			k = 2; cp = c & 0x0f;
		} else if (c >= 0xf0 && c <= 0xf4) {
			k = 3; cp = c & 0x07;
		} else {
			return FIDO2_CBOR_ERR_UTF8;
		}
		if (n - i <= k) {
			return FIDO2_CBOR_ERR_UTF8;
		}
		for (j = 1; j <= k; j++) {
			if ((s[i + j] & 0xc0) != 0x80) {
				return FIDO2_CBOR_ERR_UTF8;
			}
			cp = (cp << 6) | (s[i + j] & 0x3f);
		}
		if ((k == 2 && cp < 0x800) || (k == 3 && cp < 0x10000)
			|| cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) {
			return FIDO2_CBOR_ERR_UTF8;
		}
		i += k + 1;
	}
	return FIDO2_CBOR_OK;
}

/* CTAP2 canonical key order: -1, 0 or 1 as a sorts before, equal to or
   after b (encoded keys of lengths la, lb). */
static int
key_cmp(const uint8_t *a, size_t la, const uint8_t *b, size_t lb)
{
	size_t i;
	if ((a[0] >> 5) != (b[0] >> 5)) {
		return (a[0] >> 5) < (b[0] >> 5) ? -1 : 1;
	}
	if (la != lb) {
		return la < lb ? -1 : 1;
	}
	for (i = 0; i < la; i++) {
		if (a[i] != b[i]) {
			return a[i] < b[i] ? -1 : 1;
		}
	}
	return 0;
}

/* Checks one item at p (at most len bytes); *used gets its length. */
static int
check_item(const uint8_t *p, size_t len, unsigned depth, size_t *used)
{
	int major, r;
	uint64_t arg, i;
	size_t hlen, pos, sub;

	r = read_head(p, len, &major, &arg, &hlen);
	if (r != FIDO2_CBOR_OK) {
		return r;
	}
	pos = hlen;
	switch (major) {
	case 0:
	case 1:
		break;
	case 2:
	case 3:
		if (arg > len - pos) {
			return FIDO2_CBOR_ERR_TRUNCATED;
		}
		if (major == 3) {
			r = check_utf8(p + pos, arg);
			if (r != FIDO2_CBOR_OK) {
				return r;
			}
		}
		pos += (size_t)arg;
		break;
	case 4:
	case 5:
		if (depth >= FIDO2_CBOR_MAX_DEPTH) {
			return FIDO2_CBOR_ERR_DEPTH;
		}
		/* Each element needs at least one byte. */
		if (arg > (uint64_t)(len - pos)
			|| (major == 5 && arg > (uint64_t)(len - pos) / 2)) {
			return FIDO2_CBOR_ERR_TRUNCATED;
		}
		{
			const uint8_t *prev = NULL;
			size_t prev_len = 0;
			for (i = 0; i < arg; i++) {
				if (major == 5) {
					const uint8_t *k = p + pos;
					if (len - pos < 1) {
						return FIDO2_CBOR_ERR_TRUNCATED;
					}
					if ((k[0] >> 5) != 0 && (k[0] >> 5) != 1
						&& (k[0] >> 5) != 3) {
						return FIDO2_CBOR_ERR_KEY_TYPE;
					}
					r = check_item(k, len - pos, depth + 1, &sub);
					if (r != FIDO2_CBOR_OK) {
						return r;
					}
					if (prev != NULL
						&& key_cmp(prev, prev_len, k, sub) >= 0) {
						return FIDO2_CBOR_ERR_KEY_ORDER;
					}
					prev = k;
					prev_len = sub;
					pos += sub;
				}
				r = check_item(p + pos, len - pos, depth + 1, &sub);
				if (r != FIDO2_CBOR_OK) {
					return r;
				}
				pos += sub;
			}
		}
		break;
	case 6:
		return FIDO2_CBOR_ERR_UNSUPPORTED;
	default: /* 7: only false, true, null */
		if (arg < 20 || arg > 22) {
			return FIDO2_CBOR_ERR_UNSUPPORTED;
		}
		break;
	}
	*used = pos;
	return FIDO2_CBOR_OK;
}

int
fido2_cbor_check(const uint8_t *buf, size_t len)
{
	size_t used;
	int r = check_item(buf, len, 0, &used);
	if (r != FIDO2_CBOR_OK) {
		return r;
	}
	return used == len ? FIDO2_CBOR_OK : FIDO2_CBOR_ERR_TRAILING;
}

int
fido2_cbor_item_at(const uint8_t *buf, size_t len, fido2_cbor_item *it)
{
	/* Walks the item without recursion: `pending` counts the items
	   still to skip (containers add their elements). */
	uint64_t pending = 1;
	size_t pos = 0;
	int first = 1;

	while (pending > 0) {
		int major, r;
		uint64_t arg;
		size_t hlen;
		r = read_head(buf + pos, len - pos, &major, &arg, &hlen);
		if (r != FIDO2_CBOR_OK) {
			return r;
		}
		if (first) {
			it->major = major;
			it->val = arg;
			it->data = buf + hlen;
			it->start = buf;
			first = 0;
		}
		pos += hlen;
		pending--;
		if (major == 2 || major == 3) {
			if (arg > len - pos) {
				return FIDO2_CBOR_ERR_TRUNCATED;
			}
			pos += (size_t)arg;
		} else if (major == 4 || major == 5) {
			uint64_t add = major == 5 ? arg * 2 : arg;
			if (arg > len - pos || add > len - pos) {
				return FIDO2_CBOR_ERR_TRUNCATED;
			}
			pending += add;
		} else if (major == 6) {
			return FIDO2_CBOR_ERR_UNSUPPORTED;
		}
	}
	it->enc_len = pos;
	return FIDO2_CBOR_OK;
}

/* Walks a checked map's pairs for the key with encoding kenc. */
static int
map_find(const fido2_cbor_item *map, const uint8_t *kenc, size_t klen,
	fido2_cbor_item *val)
{
	const uint8_t *p = map->data;
	const uint8_t *end = map->start + map->enc_len;
	uint64_t i;
	fido2_cbor_item k;

	if (map->major != FIDO2_CBOR_MAP) {
		return 0;
	}
	for (i = 0; i < map->val; i++) {
		if (fido2_cbor_item_at(p, (size_t)(end - p), &k) != FIDO2_CBOR_OK) {
			return 0;
		}
		p += k.enc_len;
		if (fido2_cbor_item_at(p, (size_t)(end - p), val) != FIDO2_CBOR_OK) {
			return 0;
		}
		if (k.enc_len == klen && fido2_ct_equal(k.start, kenc, klen)) {
			return 1;
		}
		p += val->enc_len;
	}
	return 0;
}

int
fido2_cbor_map_int(const fido2_cbor_item *map, int64_t key,
	fido2_cbor_item *val)
{
	uint8_t kb[9];
	fido2_cbor_enc e;
	fido2_cbor_enc_init(&e, kb, sizeof kb);
	fido2_cbor_put_int(&e, key);
	return map_find(map, kb, e.len, val);
}

int
fido2_cbor_map_text(const fido2_cbor_item *map, const char *key,
	fido2_cbor_item *val)
{
	uint8_t kb[64];
	fido2_cbor_enc e;
	fido2_cbor_enc_init(&e, kb, sizeof kb);
	fido2_cbor_put_textz(&e, key);
	if (e.err) {
		return 0;
	}
	return map_find(map, kb, e.len, val);
}

int
fido2_cbor_array_at(const fido2_cbor_item *arr, uint64_t idx,
	fido2_cbor_item *val)
{
	const uint8_t *p = arr->data;
	const uint8_t *end = arr->start + arr->enc_len;
	uint64_t i;

	if (arr->major != FIDO2_CBOR_ARRAY || idx >= arr->val) {
		return 0;
	}
	for (i = 0; i <= idx; i++) {
		if (fido2_cbor_item_at(p, (size_t)(end - p), val) != FIDO2_CBOR_OK) {
			return 0;
		}
		p += val->enc_len;
	}
	return 1;
}

int
fido2_cbor_get_int(const fido2_cbor_item *it, int64_t *v)
{
	if (it->major == FIDO2_CBOR_UINT && it->val <= (uint64_t)INT64_MAX) {
		*v = (int64_t)it->val;
		return 0;
	}
	if (it->major == FIDO2_CBOR_NINT && it->val <= (uint64_t)INT64_MAX) {
		/* -1 - val, in range since val <= INT64_MAX. */
		*v = -1 - (int64_t)it->val;
		return 0;
	}
	return -1;
}

int
fido2_cbor_text_eq(const fido2_cbor_item *it, const char *s)
{
	uint64_t i;
	if (it->major != FIDO2_CBOR_TEXT) {
		return 0;
	}
	for (i = 0; i < it->val; i++) {
		if (s[i] == 0 || (uint8_t)s[i] != it->data[i]) {
			return 0;
		}
	}
	return s[it->val] == 0;
}

/* ---------------------------------------------------------------- */

void
fido2_cbor_enc_init(fido2_cbor_enc *e, uint8_t *buf, size_t cap)
{
	e->buf = buf;
	e->cap = cap;
	e->len = 0;
	e->err = 0;
}

void
fido2_cbor_put_raw(fido2_cbor_enc *e, const void *p, size_t n)
{
	if (e->err || n > e->cap - e->len) {
		e->err = 1;
		return;
	}
	fido2_memcpy(e->buf + e->len, p, n);
	e->len += n;
}

/* Head with the shortest argument encoding (canonical form). */
static void
put_head(fido2_cbor_enc *e, int major, uint64_t v)
{
	uint8_t h[9];
	size_t n, i;
	unsigned ai;
	if (v < 24) {
		h[0] = (uint8_t)((major << 5) | (int)v);
		fido2_cbor_put_raw(e, h, 1);
		return;
	} else if (v <= 0xff) {
		ai = 24; n = 1;
	} else if (v <= 0xffff) {
		ai = 25; n = 2;
	} else if (v <= 0xffffffffu) {
		ai = 26; n = 4;
	} else {
		ai = 27; n = 8;
	}
	h[0] = (uint8_t)((major << 5) | (int)ai);
	for (i = 0; i < n; i++) {
		h[1 + i] = (uint8_t)(v >> (8 * (n - 1 - i)));
	}
	fido2_cbor_put_raw(e, h, 1 + n);
}

void
fido2_cbor_put_uint(fido2_cbor_enc *e, uint64_t v)
{
	put_head(e, 0, v);
}

void
fido2_cbor_put_int(fido2_cbor_enc *e, int64_t v)
{
	if (v >= 0) {
		put_head(e, 0, (uint64_t)v);
	} else {
		/* -1 - v >= 0 without overflow for every negative int64. */
		put_head(e, 1, (uint64_t)(-1 - v));
	}
}

void
fido2_cbor_put_bytes(fido2_cbor_enc *e, const void *p, size_t n)
{
	put_head(e, 2, n);
	fido2_cbor_put_raw(e, p, n);
}

void
fido2_cbor_put_text(fido2_cbor_enc *e, const char *s, size_t n)
{
	put_head(e, 3, n);
	fido2_cbor_put_raw(e, s, n);
}

void
fido2_cbor_put_textz(fido2_cbor_enc *e, const char *s)
{
	size_t n = 0;
	while (s[n] != 0) {
		n++;
	}
	fido2_cbor_put_text(e, s, n);
}

void
fido2_cbor_put_array(fido2_cbor_enc *e, uint64_t n)
{
	put_head(e, 4, n);
}

void
fido2_cbor_put_map(fido2_cbor_enc *e, uint64_t n)
{
	put_head(e, 5, n);
}

void
fido2_cbor_put_bool(fido2_cbor_enc *e, int b)
{
	put_head(e, 7, b ? 21 : 20);
}
