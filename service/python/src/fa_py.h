/*
 * fa_py.h -- the functions the Python binding (service/python/falcon_accel, cffi
 * ABI mode) calls besides the public headers: service/python/src/fa_py.c (sizes,
 * layout checks, the batch-body reader and base64 packer) and
 * service/python/src/fa_py_batch_front.c (batch requests from JSON body to broker
 * job and back). Not part of the C library. The package's cffi
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

/* Reads a batch body (JSON, `per` base64 fields an item): spans of the
   fields, key ids (key_idx, key_spans), summary in info. */
int fa_py_scan_batch(const char *body, size_t body_len, unsigned per,
	size_t max_items, size_t *spans, uint32_t *key_idx,
	size_t *key_spans, size_t max_keys, size_t *info);
/* Decodes the base64 spans of n items into out, packed as the broker's
   fa_broker_submit_packed takes them; returns the bytes written or a
   negative value. */
long fa_py_pack_b64_spans(const uint8_t *keys, const size_t *key_lens,
	size_t nkeys, const uint32_t *key_idx, const char *body,
	const size_t *spans, unsigned per, size_t n,
	uint8_t *out, size_t out_cap, size_t *lens_out);

/* The service's batch front (fa_py_batch_front.c): loaded keys and
   scratch for requests of up to max_items items. One thread at a time. */
typedef struct fa_py_front fa_py_front;
fa_py_front *fa_py_front_new(size_t max_items);
void fa_py_front_free(fa_py_front *f);
int fa_py_front_put_key(fa_py_front *f, const char *id, size_t id_len,
	const void *pk, size_t pk_len, const void *sk, size_t sk_len);
size_t fa_py_front_key_count(const fa_py_front *f);
int fa_py_front_submit(fa_py_front *f, fa_broker *b, int op,
	const char *body, size_t body_len, int64_t timeout_us, uint64_t tag,
	fa_job **job, int *sig_format);
size_t fa_py_job_json_size(const fa_job *job);
long fa_py_job_json(const fa_job *job, int sig_format, char *out,
	size_t cap);

#endif
