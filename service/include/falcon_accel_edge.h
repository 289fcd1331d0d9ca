/*
 * falcon_accel_edge.h -- the "edge" library (falcon_accel_edge): the parts
 * of falcon-accel that need an operating system: heap allocation, threads
 * (POSIX threads), the OS random source and a monotonic clock.
 *
 *  1. Allocating wrappers: the calls of falcon_accel.h with the scratch
 *     buffer allocated (and wiped) internally and randomness from the OS.
 *  2. Batch API: fa_sign_batch / fa_verify_batch run many independent
 *     (key, message) items on a worker pool (fa_pool).
 *  3. Broker: a request broker in front of the backends. Callers on any
 *     thread submit sign/verify jobs; the broker queues them in a bounded
 *     queue (a full queue refuses with FA_ERR_BUSY), groups queued items
 *     into batches per (operation, backend, format), runs the batches on
 *     the workers of an fa_pool of its own (or hands them to a
 *     per-backend batch executor, the seam for accelerators), keeps
 *     expanded private keys and prepared public keys in an LRU cache
 *     bounded in bytes, enforces per-job
 *     deadlines and cancellation, and completes jobs by callback, by
 *     waiting on the job, or through a completion queue with a pollable
 *     file descriptor (for event loops such as Python's asyncio).
 *
 * Conventions are those of falcon_accel.h (0 = FA_OK, negative FA_ERR_*
 * codes; `be` NULL means fa_backend_default()). Allocation failures are
 * reported as FA_ERR_INTERNAL. The library has no global mutable state:
 * every piece of state lives in an fa_pool, fa_broker or fa_job object.
 *
 * Thread safety is stated per function ("Thread-safe" = may be called
 * concurrently from any number of threads on the same object).
 */
#ifndef FALCON_ACCEL_EDGE_H
#define FALCON_ACCEL_EDGE_H

#include <stddef.h>
#include <stdint.h>

#include "falcon_accel.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ================================================================== */
/* 1. Allocating wrappers.
   Each allocates its scratch buffer with malloc, wipes it before freeing
   it, and takes randomness from a SHAKE256 PRNG seeded with `seed` when
   seed != NULL (deterministic: for tests and known-answer checks) or from
   the OS random source when seed == NULL.
   Thread-safe (no shared state); outputs must not be shared. */

/* Key pair: FA_PRIVKEY_SIZE(logn) bytes to sk, FA_PUBKEY_SIZE(logn) to pk
   (pk may be NULL). */
int fa_keygen_alloc(const fa_backend *be, unsigned logn,
	const void *seed, size_t seed_len,
	void *sk, size_t sk_len, void *pk, size_t pk_len);

/* Public key (FA_PUBKEY_SIZE(logn) bytes) from a private key. */
int fa_make_public_alloc(void *pk, size_t pk_len,
	const void *sk, size_t sk_len);

/* Expanded private key into a new buffer of *expanded_key_len =
   FA_EXPANDED_KEY_SIZE(logn) bytes, stored in *expanded_key; release it
   with fa_free_secret(*expanded_key, *expanded_key_len). */
int fa_expand_privkey_alloc(const fa_backend *be, void **expanded_key,
	size_t *expanded_key_len, const void *sk, size_t sk_len);

/* Wipe `len` bytes at p, then free p (p may be NULL). */
void fa_free_secret(void *p, size_t len);

/* Sign with an encoded private key (fa_sign_dyn). *sig_len: in, size of
   sig; out, signature length. */
int fa_sign_alloc(const fa_backend *be, const void *seed, size_t seed_len,
	void *sig, size_t *sig_len, int sig_format,
	const void *sk, size_t sk_len, const void *msg, size_t msg_len);

/* Sign with an expanded private key (fa_sign_tree). */
int fa_sign_tree_alloc(const fa_backend *be, const void *seed,
	size_t seed_len, void *sig, size_t *sig_len, int sig_format,
	const void *expanded_key, const void *msg, size_t msg_len);

/* Verify (fa_verify): FA_OK, FA_ERR_BADSIG or a decoding error. */
int fa_verify_alloc(const fa_backend *be, const void *sig, size_t sig_len,
	int sig_format, const void *pk, size_t pk_len,
	const void *msg, size_t msg_len);

/* Number of CPUs this process may run on (at least 1). Thread-safe. */
unsigned fa_cpu_count(void);

/* Monotonic clock in microseconds (the clock of every deadline and
   latency below). Thread-safe. */
int64_t fa_now_us(void);

/* ================================================================== */
/* 2. Batch API. */

/* A worker pool: `nthreads` threads, each with its own scratch buffer
   and its own SHAKE256 PRNG seeded from the OS. */
typedef struct fa_pool fa_pool;

/* New pool; nthreads == 0 means one thread per CPU (fa_cpu_count()).
   Returns NULL on failure (threads or memory). Thread-safe. */
fa_pool *fa_pool_new(unsigned nthreads);

/* Stop and join the threads, wipe and free the pool. NULL is accepted.
   Must not run concurrently with any other use of the same pool. */
void fa_pool_free(fa_pool *pool);

/* Number of threads. Thread-safe. */
unsigned fa_pool_size(const fa_pool *pool);

/* One signing item. Either `expanded_key` (fa_sign_tree; must hold
   FA_EXPANDED_KEY_SIZE(logn) bytes from fa_expand_privkey, 8-byte
   aligned as that function requires; not modified, so one expanded key
   may serve many items and threads at once) or, when it is
   NULL, the encoded private key sk/sk_len (fa_sign_dyn). sig/sig_len: on
   input the output buffer and its size, on output sig_len is the
   signature length. seed: NULL (randomness from the worker's OS-seeded
   PRNG), or seed_len bytes that seed a SHAKE256 PRNG for this item alone,
   which makes the signature deterministic and equal to that of
   fa_sign_alloc / fa_sign_tree_alloc with the same seed (tests, KATs).
   err: FA_OK or the item's error code. */
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

/* One verification item. When `pp` is not NULL it is used and pk/pk_len
   are ignored. err: FA_OK, FA_ERR_BADSIG or a decoding error code. */
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

/*
 * Run the n items on the pool (pool == NULL: on the calling thread, with
 * a scratch buffer allocated for the call and an OS-seeded PRNG); returns
 * when every item is done. The calling thread only waits; with a pool of
 * one thread per CPU the CPUs are all busy. Items are independent and may
 * use different keys and degrees; each item's result is exactly that of
 * the single call (fa_sign_tree / fa_sign_dyn / fa_verify_prepared /
 * fa_verify) on the same inputs, with fresh randomness per signature.
 *
 * Returns the number of items whose err is not FA_OK (so 0 when all
 * succeeded), or a negative code when the batch could not run at all
 * (FA_ERR_BADARG: items == NULL with n > 0 or an unknown sig_format;
 * FA_ERR_INTERNAL: out of memory).
 *
 * Thread-safe: any number of threads may run batches on the same pool
 * concurrently (the pool serves them in submission order); items must not
 * be shared between concurrent batches.
 */
int fa_sign_batch(fa_pool *pool, const fa_backend *be, int sig_format,
	fa_sign_item *items, size_t n);
int fa_verify_batch(fa_pool *pool, const fa_backend *be, int sig_format,
	fa_verify_item *items, size_t n);

/* ================================================================== */
/* 3. Broker. */

typedef struct fa_broker fa_broker;
typedef struct fa_job fa_job;

#define FA_OP_SIGN    1
#define FA_OP_VERIFY  2

/* Job status: FA_JOB_PENDING until the job is done, then FA_OK (every
   item ran; each item has its own result), FA_ERR_CANCELLED or
   FA_ERR_DEADLINE (some items did not run and carry that code). */
#define FA_JOB_PENDING 1

/*
 * A batch executor: runs a whole batch of same-operation items on one
 * backend, e.g. on an accelerator. `op` is FA_OP_SIGN (then `items` is an
 * fa_sign_item array, every item with expanded_key set) or FA_OP_VERIFY
 * (fa_verify_item array, every item with pp set). It must set every
 * item's err (and, for a signature, write it to sig, a buffer of sig_len
 * = FA_SIG_MAXSIZE(logn) bytes, and set sig_len to its length), and
 * return FA_OK; a negative
 * return means the batch failed as a whole and the broker stores that
 * code into every item. It is called from broker worker threads,
 * concurrently for different batches.
 */
typedef int (*fa_batch_executor)(void *ctx, int op, const fa_backend *be,
	int sig_format, void *items, size_t n);

typedef struct {
	/* Worker threads; 0 = one per CPU. */
	unsigned threads;
	/* Bound on items waiting in the queue (not yet started); a submit
	   that would pass it fails with FA_ERR_BUSY. 0 = 4096. */
	size_t queue_capacity;
	/* Bound on the bytes held by queued and running jobs (their copies
	   of keys, messages, signatures and result buffers); a submit that
	   would pass it fails with FA_ERR_BUSY. 0 = 64 MiB. */
	size_t queue_max_bytes;
	/* Largest batch handed to one worker or executor. 0 = 64. */
	size_t max_batch;
	/* Byte budget of the key cache (expanded private keys and prepared
	   public keys, LRU). 0 = 32 MiB; a key larger than the budget is
	   used without being cached. */
	size_t key_cache_bytes;
	/* Backend for jobs that name none; NULL = fa_backend_default(). */
	const fa_backend *backend;
} fa_broker_config;

/* Completion callback: called once, on a broker thread (or on the thread
   that cancels the job or frees the broker), after the job is done. The
   job reference is borrowed for the call (fa_job_retain to keep it).
   It must not call fa_broker_free. */
typedef void (*fa_job_callback)(fa_job *job, void *user);

typedef struct {
	int op;                 /* FA_OP_SIGN or FA_OP_VERIFY */
	const fa_backend *be;   /* NULL = the broker's backend */
	int sig_format;         /* sign: FA_SIG_*; verify: 0 = any */
	int64_t timeout_us;     /* deadline relative to submission; 0 = none:
	                           items not started by then (queued or
	                           waiting in a batch) get FA_ERR_DEADLINE */
	fa_job_callback cb;     /* may be NULL */
	void *user;             /* passed to cb, see fa_job_user */
	uint64_t tag;           /* free for the caller, see fa_job_tag */
	int notify;             /* 1: push the done job to the completion
	                           queue (fa_broker_poll) */
} fa_job_options;

/* One item of a job. sign: key = encoded private key, sig unused.
   verify: key = encoded public key, sig = the signature. The broker
   copies everything at submission; the caller's buffers may be reused as
   soon as fa_broker_submit returns. */
typedef struct {
	const void *key;
	size_t key_len;
	const void *msg;
	size_t msg_len;
	const void *sig;
	size_t sig_len;
} fa_broker_item;

/* Configuration with every field at its default. Thread-safe. */
void fa_broker_config_init(fa_broker_config *cfg);

/* New broker (cfg NULL = defaults). Returns NULL on failure and, when err
   is not NULL, stores the reason (FA_ERR_BADARG, FA_ERR_INTERNAL,
   FA_ERR_BACKEND). Thread-safe. */
fa_broker *fa_broker_new(const fa_broker_config *cfg, int *err);

/* Stop the broker: refuse new jobs, complete every queued job with
   FA_ERR_CANCELLED (callbacks run on this thread), let running batches
   finish, join the threads, release the completion queue and wipe the key
   cache. Job handles the caller holds stay valid (fa_job_release them).
   NULL is accepted. Must not run concurrently with any other call on the
   broker or on its pending jobs (fa_job_cancel). */
void fa_broker_free(fa_broker *b);

/* Register a batch executor for backend `be` (NULL fn: remove it). Jobs
   on that backend are then handed over in batches of up to max_batch
   items. At most 8 backends. Returns FA_OK or FA_ERR_BADARG.
   Thread-safe; applies to batches formed after the call. */
int fa_broker_set_executor(fa_broker *b, const fa_backend *be,
	fa_batch_executor fn, void *ctx);

/*
 * Submit a job of n >= 1 items. On success returns FA_OK and, when job is
 * not NULL, a new reference in *job (release it with fa_job_release).
 * Fails without side effect with:
 *   FA_ERR_BUSY     the queue is full (queue_capacity or queue_max_bytes);
 *                   nothing is kept; try again later
 *   FA_ERR_BADARG   bad options, NULL items, n == 0, or a job that could
 *                   never fit the queue bounds
 *   FA_ERR_BACKEND  `be` is unavailable on this machine
 *   FA_ERR_INTERNAL out of memory, or the broker is stopping
 * Malformed keys or signatures are not submission errors: the item then
 * fails with the decoding error code.
 * Thread-safe.
 */
int fa_broker_submit(fa_broker *b, const fa_job_options *opt,
	const fa_broker_item *items, size_t n, fa_job **job);

/* Same as fa_broker_submit, with the items packed for bindings (one
   buffer instead of n structures): `data` is the concatenation, item by
   item, of key, message and (verify only) signature; `lens` has 2*n
   (sign: key_len, msg_len per item) or 3*n (verify: key_len, msg_len,
   sig_len) entries. Returns FA_ERR_BADARG if the lengths do not add up
   to data_len. Thread-safe. */
int fa_broker_submit_packed(fa_broker *b, const fa_job_options *opt,
	const void *data, size_t data_len, const size_t *lens, size_t n,
	fa_job **job);

/* Expand (or prepare) a key now, on the calling thread, and put it in the
   key cache so that later jobs find it. kind: FA_OP_SIGN for an encoded
   private key, FA_OP_VERIFY for an encoded public key. Returns FA_OK,
   a decoding error, FA_ERR_SIZE if the key cannot fit the cache budget.
   Thread-safe. */
int fa_broker_preload_key(fa_broker *b, int kind,
	const void *key, size_t key_len);

/* Remove a key from the cache (wiping it) if it is there and not in use.
   Returns 1 if removed, 0 if not. Thread-safe. */
int fa_broker_forget_key(fa_broker *b, int kind,
	const void *key, size_t key_len);

/* Read end of the completion queue's wake-up pipe (non-blocking): it
   becomes readable when jobs submitted with notify = 1 are done. Drain it
   (read until EAGAIN) and then call fa_broker_poll until it returns 0.
   The descriptor is owned by the broker. Thread-safe. */
int fa_broker_completion_fd(const fa_broker *b);

/* Move up to max done jobs from the completion queue to out[]; returns
   their number. Each is a new reference (fa_job_release). Thread-safe. */
size_t fa_broker_poll(fa_broker *b, fa_job **out, size_t max);

#define FA_BROKER_HIST_BUCKETS 12
#define FA_BROKER_MAX_BACKENDS 8

/* Per-backend counters. busy_us: worker time spent on its batches. */
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
	/* Queue: items waiting now, items running now, the bounds. */
	uint64_t queue_depth;
	uint64_t queue_bytes;
	uint64_t in_flight;
	uint64_t queue_capacity;
	uint64_t queue_max_bytes;
	/* Totals since creation. */
	uint64_t jobs_submitted;
	uint64_t items_submitted;
	uint64_t jobs_completed;
	uint64_t items_completed;     /* ran, any result */
	uint64_t items_failed;        /* ran, result not FA_OK */
	uint64_t items_cancelled;
	uint64_t items_expired;       /* deadline passed before running */
	uint64_t rejected_busy;       /* submits refused with FA_ERR_BUSY */
	/* Batch sizes: bucket 0 counts batches of 1 item, bucket k >= 1
	   batches of 2^(k-1)+1 .. 2^k items, the last bucket everything
	   larger. */
	uint64_t batches;
	uint64_t batch_hist[FA_BROKER_HIST_BUCKETS];
	/* Job latency (submission to completion), microseconds, over the
	   last (up to) 8192 completed jobs. */
	uint64_t latency_samples;
	uint64_t latency_p50_us;
	uint64_t latency_p90_us;
	uint64_t latency_p99_us;
	uint64_t latency_max_us;
	/* Key cache. */
	uint64_t cache_hits;
	uint64_t cache_misses;
	uint64_t cache_evictions;
	uint64_t cache_entries;
	uint64_t cache_bytes;
	uint64_t cache_capacity_bytes;
	/* Backends that ran batches, in order of first use. */
	uint64_t backend_count;
	fa_broker_backend_stats backend[FA_BROKER_MAX_BACKENDS];
} fa_broker_metrics;

/* Snapshot of the counters. Thread-safe. */
void fa_broker_get_metrics(fa_broker *b, fa_broker_metrics *m);

/* ---- Jobs. Unless stated otherwise, thread-safe on a job whose
   reference the caller holds. Results may be read once the job is done
   and do not change afterwards. */

/* Wait until the job is done and its callback (if any) has returned, at
   most timeout_us (< 0: no limit). Returns 1 if so, 0 on timeout. */
int fa_job_wait(fa_job *job, int64_t timeout_us);
int fa_job_is_done(const fa_job *job);
/* FA_JOB_PENDING, FA_OK, FA_ERR_CANCELLED or FA_ERR_DEADLINE. */
int fa_job_status(const fa_job *job);
int fa_job_op(const fa_job *job);
size_t fa_job_count(const fa_job *job);
/* Result of item i (FA_JOB_PENDING until the job is done; FA_ERR_BADARG
   when i is out of range). */
int fa_job_item_status(const fa_job *job, size_t i);
/* Results of items 0..n-1 into out (n is clamped to the job's count);
   returns the number written. */
size_t fa_job_item_statuses(const fa_job *job, int *out, size_t n);
/* Signature of item i of a done sign job whose item status is FA_OK:
   points into the job (valid while the reference is held). Returns FA_OK
   or the item's status (FA_ERR_BADARG: out of range or not a sign job,
   FA_JOB_PENDING: not done). */
int fa_job_signature(const fa_job *job, size_t i,
	const uint8_t **sig, size_t *sig_len);
uint64_t fa_job_tag(const fa_job *job);
void *fa_job_user(const fa_job *job);
/* Submission-to-completion time (microseconds; -1 while pending). */
int64_t fa_job_latency_us(const fa_job *job);

/* Cancel: items not yet started (queued, or waiting in a worker's batch)
   get FA_ERR_CANCELLED; the job completes as soon as its running items
   are done. Returns 1 if this call cancelled the job, 0 if it was
   already done, cut by its deadline or cancelled. Must not run
   concurrently with fa_broker_free of the job's broker. */
int fa_job_cancel(fa_job *job);

void fa_job_retain(fa_job *job);
/* Drop a reference; the last one frees the job (wiping the keys it holds).
   NULL is accepted. */
void fa_job_release(fa_job *job);

#ifdef __cplusplus
}
#endif

#endif
