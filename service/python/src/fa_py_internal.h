/*
 * fa_py_internal.h -- what the C files of the Python binding share
 * besides fa_py.h: the JSON reader and base64 decoder of fa_py.c under
 * the batch parser (fa_py_batch_front.c), and the registry's lock and
 * lookup (fa_py_keys.c) under the batch front. Not declared to cffi.
 */
#ifndef FA_PY_INTERNAL_H
#define FA_PY_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "fa_py.h"

/* Reads a batch body (JSON, `per` base64 fields an item): spans of the
   fields, key ids (key_idx, key_spans), summary in info. 0, or an
   FA_PY_FALLBACK_* reason (FORM, ITEMS, KEYS). fa_py.c */
int fa_py_scan_batch(const char *body, size_t body_len, unsigned per,
	size_t max_items, size_t *spans, uint32_t *key_idx,
	size_t *key_spans, size_t max_keys, size_t *info);
/* Decodes the base64 fields of the n items found by fa_py_scan_batch
   into out, back to back, their lengths (per an item) into lens_out;
   returns the bytes written or a negative value. fa_py.c */
long fa_py_b64_decode_fields(const char *body, const size_t *spans,
	unsigned per, size_t n, uint8_t *out, size_t out_cap,
	size_t *lens_out);

/* One key of the registry (fa_py_keys.c). */
typedef struct {
	char id[FA_PY_KEY_ID_MAX];
	size_t id_len;          /* 0: free slot */
	int scheme;             /* FA_PY_SCHEME_* */
	unsigned logn;
	uint8_t *pk;
	size_t pk_len;
	uint8_t *sk;            /* NULL if the private key is not known */
	size_t sk_len;
} fa_py_key;

/* Hold the registry's lock: the entries fa_py_keys_find returns stay
   valid (and unchanged) until fa_py_keys_unlock. */
void fa_py_keys_lock(fa_py_keys *r);
void fa_py_keys_unlock(fa_py_keys *r);
/* The key of that id, or NULL; with the lock held. */
const fa_py_key *fa_py_keys_find(const fa_py_keys *r, const char *id,
	size_t id_len);

#endif
