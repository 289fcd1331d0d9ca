"""cffi (ABI mode) declarations of the falcon-accel C library and loading.

The shared object ``_falcon_accel.so`` is built by CMake from the same
sources as the C library (python/falcon_accel_py.cmake) and installed next
to this file. ``FALCON_ACCEL_LIB`` overrides its path (development: point
it at a build directory's ``_falcon_accel.so``).

cffi releases the GIL around every C call, so batch calls and broker waits
let other Python threads run.
"""
from __future__ import annotations

import os
from pathlib import Path

from cffi import FFI

ABI_VERSION = 4

CDEF = r"""
typedef struct fa_kernels fa_backend;

typedef struct {
    uint32_t logn;
    uint16_t h_ntt[1024];
} fa_prepared_pubkey;

const char *fa_strerror(int err);
size_t fa_backend_count(void);
const fa_backend *fa_backend_at(size_t i);
const fa_backend *fa_backend_find(const char *name);
const fa_backend *fa_backend_default(void);
const char *fa_backend_name(const fa_backend *be);
int fa_backend_available(const fa_backend *be);
int fa_get_logn(const void *obj, size_t len);
int fa_pubkey_prepare(const fa_backend *be, fa_prepared_pubkey *pp,
    const void *pk, size_t pk_len);

int fa_keygen_alloc(const fa_backend *be, unsigned logn,
    const void *seed, size_t seed_len,
    void *sk, size_t sk_len, void *pk, size_t pk_len);
int fa_make_public_alloc(void *pk, size_t pk_len,
    const void *sk, size_t sk_len);
int fa_expand_privkey_alloc(const fa_backend *be, void **expanded_key,
    size_t *expanded_key_len, const void *sk, size_t sk_len);
void fa_free_secret(void *p, size_t len);
int fa_sign_alloc(const fa_backend *be, const void *seed, size_t seed_len,
    void *sig, size_t *sig_len, int sig_format,
    const void *sk, size_t sk_len, const void *msg, size_t msg_len);
int fa_sign_tree_alloc(const fa_backend *be, const void *seed,
    size_t seed_len, void *sig, size_t *sig_len, int sig_format,
    const void *expanded_key, const void *msg, size_t msg_len);
int fa_verify_alloc(const fa_backend *be, const void *sig, size_t sig_len,
    int sig_format, const void *pk, size_t pk_len,
    const void *msg, size_t msg_len);
unsigned fa_cpu_count(void);
int64_t fa_now_us(void);

typedef struct fa_pool fa_pool;
fa_pool *fa_pool_new(unsigned nthreads);
void fa_pool_free(fa_pool *pool);
unsigned fa_pool_size(const fa_pool *pool);

typedef struct {
    const void *sk;
    size_t sk_len;
    const void *expanded_key;
    const void *msg;
    size_t msg_len;
    void *sig;
    size_t sig_len;
    const void *seed;
    size_t seed_len;
    int err;
} fa_sign_item;

typedef struct {
    const void *sig;
    size_t sig_len;
    const void *pk;
    size_t pk_len;
    const fa_prepared_pubkey *pp;
    const void *msg;
    size_t msg_len;
    int err;
} fa_verify_item;

int fa_sign_batch(fa_pool *pool, const fa_backend *be, int sig_format,
    fa_sign_item *items, size_t n);
int fa_verify_batch(fa_pool *pool, const fa_backend *be, int sig_format,
    fa_verify_item *items, size_t n);

typedef struct fa_broker fa_broker;
typedef struct fa_job fa_job;

typedef int (*fa_batch_executor)(void *ctx, int op, const fa_backend *be,
    int sig_format, void *items, size_t n);

typedef struct {
    unsigned threads;
    size_t queue_capacity;
    size_t queue_max_bytes;
    size_t max_batch;
    size_t key_cache_bytes;
    const fa_backend *backend;
} fa_broker_config;

typedef void (*fa_job_callback)(fa_job *job, void *user);

typedef struct {
    int op;
    const fa_backend *be;
    int sig_format;
    int64_t timeout_us;
    fa_job_callback cb;
    void *user;
    uint64_t tag;
    int notify;
} fa_job_options;

typedef struct {
    const void *key;
    size_t key_len;
    const void *msg;
    size_t msg_len;
    const void *sig;
    size_t sig_len;
} fa_broker_item;

typedef struct {
    const char *name;
    uint64_t sign_items;
    uint64_t verify_items;
    uint64_t batches;
    uint64_t busy_us;
} fa_broker_backend_stats;

typedef struct {
    uint64_t uptime_us;
    uint64_t threads;
    uint64_t queue_depth;
    uint64_t queue_bytes;
    uint64_t in_flight;
    uint64_t queue_capacity;
    uint64_t queue_max_bytes;
    uint64_t jobs_submitted;
    uint64_t items_submitted;
    uint64_t jobs_completed;
    uint64_t items_completed;
    uint64_t items_failed;
    uint64_t items_cancelled;
    uint64_t items_expired;
    uint64_t rejected_busy;
    uint64_t batches;
    uint64_t batch_hist[12];
    uint64_t latency_samples;
    uint64_t latency_p50_us;
    uint64_t latency_p90_us;
    uint64_t latency_p99_us;
    uint64_t latency_max_us;
    uint64_t cache_hits;
    uint64_t cache_misses;
    uint64_t cache_evictions;
    uint64_t cache_entries;
    uint64_t cache_bytes;
    uint64_t cache_capacity_bytes;
    uint64_t backend_count;
    fa_broker_backend_stats backend[8];
} fa_broker_metrics;

void fa_broker_config_init(fa_broker_config *cfg);
fa_broker *fa_broker_new(const fa_broker_config *cfg, int *err);
void fa_broker_free(fa_broker *b);
int fa_broker_submit(fa_broker *b, const fa_job_options *opt,
    const fa_broker_item *items, size_t n, fa_job **job);
int fa_broker_submit_packed(fa_broker *b, const fa_job_options *opt,
    const void *data, size_t data_len, const size_t *lens, size_t n,
    fa_job **job);
int fa_broker_preload_key(fa_broker *b, int kind,
    const void *key, size_t key_len);
int fa_broker_forget_key(fa_broker *b, int kind,
    const void *key, size_t key_len);
int fa_broker_completion_fd(const fa_broker *b);
size_t fa_broker_poll(fa_broker *b, fa_job **out, size_t max);
void fa_broker_get_metrics(fa_broker *b, fa_broker_metrics *m);

int fa_job_wait(fa_job *job, int64_t timeout_us);
int fa_job_is_done(const fa_job *job);
int fa_job_status(const fa_job *job);
int fa_job_op(const fa_job *job);
size_t fa_job_count(const fa_job *job);
int fa_job_item_status(const fa_job *job, size_t i);
size_t fa_job_item_statuses(const fa_job *job, int *out, size_t n);
int fa_job_signature(const fa_job *job, size_t i,
    const uint8_t **sig, size_t *sig_len);
uint64_t fa_job_tag(const fa_job *job);
int64_t fa_job_latency_us(const fa_job *job);
int fa_job_cancel(fa_job *job);
void fa_job_retain(fa_job *job);
void fa_job_release(fa_job *job);

int fa_py_abi_version(void);
size_t fa_py_size(int what, unsigned logn);
size_t fa_py_sizeof(int what);
int fa_py_scan_batch(const char *body, size_t body_len, unsigned per,
    size_t max_items, size_t *spans, uint32_t *key_idx,
    size_t *key_spans, size_t max_keys, size_t *info);
long fa_py_pack_b64_spans(const uint8_t *keys, const size_t *key_lens,
    size_t nkeys, const uint32_t *key_idx, const char *body,
    const size_t *spans, unsigned per, size_t n,
    uint8_t *out, size_t out_cap, size_t *lens_out);
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
"""

ffi = FFI()
ffi.cdef(CDEF)

LIB_NAME = "_falcon_accel.so"


def _find_library() -> str:
    env = os.environ.get("FALCON_ACCEL_LIB")
    if env:
        return env
    here = Path(__file__).resolve().parent / LIB_NAME
    if here.exists():
        return str(here)
    raise ImportError(
        f"falcon_accel: {LIB_NAME} not found next to {__file__}; install the "
        "package with 'pip install ./python' or set FALCON_ACCEL_LIB to a "
        "built _falcon_accel.so")


lib = ffi.dlopen(_find_library())


def _check_layout() -> None:
    """Refuse to run with declarations that differ from the compiled C."""
    if lib.fa_py_abi_version() != ABI_VERSION:
        raise ImportError("falcon_accel: shared library ABI version mismatch")
    checks = [
        (0, ffi.sizeof("fa_sign_item")),
        (1, ffi.sizeof("fa_verify_item")),
        (2, ffi.sizeof("fa_broker_config")),
        (3, ffi.sizeof("fa_job_options")),
        (4, ffi.sizeof("fa_broker_item")),
        (5, ffi.sizeof("fa_broker_metrics")),
        (6, ffi.sizeof("fa_prepared_pubkey")),
        (7, ffi.offsetof("fa_broker_metrics", "backend")),
        (8, ffi.offsetof("fa_job_options", "notify")),
    ]
    for what, size in checks:
        if lib.fa_py_sizeof(what) != size:
            raise ImportError(
                f"falcon_accel: structure layout {what} differs between "
                "_ffi.py and the C headers")


_check_layout()
