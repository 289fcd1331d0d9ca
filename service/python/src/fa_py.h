/*
 * fa_py.h -- the functions the Python binding (service/python/falcon_accel,
 * cffi ABI mode) calls besides the public headers:
 * service/python/src/fa_py.c (sizes, layout checks),
 * service/python/src/fa_py_keys.c (the key registry) and
 * service/python/src/fa_py_batch_front.c (the batch parser: batch
 * requests from JSON body to broker job and back). Not part of the C
 * library. The package's cffi
 * declarations are generated from this header and include/falcon_accel.h,
 * service/include/falcon_accel_edge.h (service/python/falcon_accel/_cdef.py).
 */
#ifndef FA_PY_H
#define FA_PY_H

#include <stddef.h>
#include <stdint.h>

#include "falcon_accel.h"
#include "falcon_accel_edge.h"

/* Version of the interface between the C side and falcon_accel/_ffi.py
   (ABI_VERSION there). */
int fa_py_abi_version(void);
/* Size in bytes of object `what` at degree logn (1..10); 0 if unknown:
   0 public key, 1 private key, 2 compressed signature (max), 3 padded
   signature, 4 CT signature, 5 expanded key, 6 largest signature; FN-DSA
   (logn 2..10): 7 public key, 8 private key, 9 signature, scratch of
   10 key generation, 11 signing, 12 verification. */
size_t fa_py_size(int what, unsigned logn);
/* sizeof (what 0..6) or offsetof (7, 8) of the structures the binding
   uses, checked against cffi's at import. */
size_t fa_py_sizeof(int what);

/* ------------------------------------------------------------------ */
/* The key registry (fa_py_keys.c): the one place that knows the
   service's keys, each with its id, scheme, degree and encoded keys.
   Python's KeyStore keeps its keys here, and the batch front looks key
   ids up here. Thread-safe (one lock). */

/* Longest key id. */
#define FA_PY_KEY_ID_MAX 64
/* Schemes. */
#define FA_PY_SCHEME_FALCON 0
#define FA_PY_SCHEME_FNDSA  1

typedef struct fa_py_keys fa_py_keys;
/* New empty registry; NULL when out of memory. */
fa_py_keys *fa_py_keys_new(void);
/* Wipe (private keys) and free; NULL accepted. */
void fa_py_keys_free(fa_py_keys *r);
/* Record id -> (scheme, public key, private key or NULL); a known id is
   replaced. The public key must be an encoded public key of the scheme
   (header 0x00 + logn, logn 1..10 for falcon, 2..10 for fn-dsa, the
   exact size), which gives the degree; the private key, when given,
   must have that degree's size. Returns FA_OK, FA_ERR_BADARG (id empty
   or longer than FA_PY_KEY_ID_MAX, unknown scheme), FA_ERR_HEADER,
   FA_ERR_LENGTH (the key that is wrong) or FA_ERR_INTERNAL (memory). */
int fa_py_keys_put(fa_py_keys *r, const char *id, size_t id_len,
	int scheme, const void *pk, size_t pk_len, const void *sk,
	size_t sk_len);
/* Copy out the key of that id: scheme, logn, the public key into pk
   (*pk_len: in, its room; out, the length) and the private key into sk
   (same; *sk_len = 0 when the registry has none). Returns FA_OK,
   FA_ERR_BADARG (unknown id) or FA_ERR_SIZE (room too small). */
int fa_py_keys_get(fa_py_keys *r, const char *id, size_t id_len,
	int *scheme, unsigned *logn, uint8_t *pk, size_t *pk_len,
	uint8_t *sk, size_t *sk_len);
/* Keys recorded, of `scheme` (-1: all). */
size_t fa_py_keys_count(fa_py_keys *r, int scheme);

/* ------------------------------------------------------------------ */
/* Batch requests (fa_py_batch_front.c): the one parser of the service's
   batch bodies, from JSON body to broker job and from done job to JSON
   answer. */

/* Distinct key ids one batch request may name for the C parser (more:
   the strict Python fallback). The one bound, read by Python from this
   header (falcon_accel.broker.BATCH_MAX_KEYS). */
#define FA_PY_BATCH_MAX_KEYS 64

/* Why a body is left to the strict Python fallback, which then reads it
   with the json module and names the culprit of a bad request (nothing
   was submitted): fa_py_front_parse's and fa_py_front_submit's answers
   other than FA_OK and the broker's errors (all negative). */
#define FA_PY_FALLBACK_FORM   1  /* not of the form: other members,
                                    escapes, non-ASCII, not JSON */
#define FA_PY_FALLBACK_ITEMS  2  /* more than the front's max_items */
#define FA_PY_FALLBACK_KEYS   3  /* more than FA_PY_BATCH_MAX_KEYS
                                    distinct key ids */
#define FA_PY_FALLBACK_BASE64 4  /* a field not valid padded base64 */
#define FA_PY_FALLBACK_FORMAT 5  /* "format" not exactly a format name */
#define FA_PY_FALLBACK_KEY    6  /* a key id the registry does not have
                                    as a falcon key (with its private key
                                    for signing) */
#define FA_PY_FALLBACK_SIZE   7  /* a signature of an impossible size for
                                    its key's degree */

/* A front: scratch for requests of up to max_items items and a key
   registry. One thread at a time. */
typedef struct fa_py_front fa_py_front;
/* With a registry of its own. */
fa_py_front *fa_py_front_new(size_t max_items);
/* On `keys`, borrowed: it must outlive the front. */
fa_py_front *fa_py_front_new_keys(size_t max_items, fa_py_keys *keys);
void fa_py_front_free(fa_py_front *f);
/* A falcon key into the front's registry (fa_py_keys_put). */
int fa_py_front_put_key(fa_py_front *f, const char *id, size_t id_len,
	const void *pk, size_t pk_len, const void *sk, size_t sk_len);
/* Falcon keys in the front's registry (the ones it serves). */
size_t fa_py_front_key_count(const fa_py_front *f);
/* The parser: reads a batch body of operation op (FA_OP_SIGN: items of
   key_id and message; FA_OP_VERIFY: and signature; an optional
   "format"), decoding its base64 fields into the front's scratch. FA_OK
   with info[0] = items, info[1] = distinct key ids, info[2..3] = span
   of the format string in the body (length SIZE_MAX when absent),
   info[4] = its FA_SIG_* value (verify: 0 for "any" or absent; sign:
   FA_SIG_COMPRESSED when absent; SIZE_MAX when not a format name);
   else an FA_PY_FALLBACK_* reason (FORM, ITEMS, KEYS, BASE64). */
int fa_py_front_parse(fa_py_front *f, int op, const char *body,
	size_t body_len, size_t *info);
/* Offset in the body of distinct key id k of the last parsed body; its
   length in *len. */
size_t fa_py_front_key_id(const fa_py_front *f, size_t k, size_t *len);
/* The last parsed body's items in the broker's packed form
   (fa_broker_submit_packed): for each item key keys[k] (k its key id's
   index; nkeys keys back to back, lengths key_lens), then its decoded
   fields. Lengths to lens_out (2 or 3 an item). Returns the bytes
   written, or -1 (out too small, nkeys not the parsed count). */
long fa_py_front_pack(const fa_py_front *f, const uint8_t *keys,
	const size_t *key_lens, size_t nkeys, uint8_t *out, size_t out_cap,
	size_t *lens_out);
/* Parse a body, look its key ids up in the registry and submit its
   items as one job with notify = 1, timeout_us (0: none) and tag, on the
   broker's default backend; *job gets the caller's reference and
   *sig_format the job's format. Returns FA_OK, an FA_PY_FALLBACK_*
   reason (nothing submitted) or the broker's error (FA_ERR_BUSY...). */
int fa_py_front_submit(fa_py_front *f, fa_broker *b, int op,
	const char *body, size_t body_len, int64_t timeout_us, uint64_t tag,
	fa_job **job, int *sig_format);
size_t fa_py_job_json_size(const fa_job *job);
long fa_py_job_json(const fa_job *job, int sig_format, char *out,
	size_t cap);

#endif
