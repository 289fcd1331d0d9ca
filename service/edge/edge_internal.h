/*
 * edge_internal.h -- declarations shared by the edge library sources
 * (the .c files of service/edge); not installed.
 */
#ifndef FA_EDGE_INTERNAL_H
#define FA_EDGE_INTERNAL_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "falcon_accel_edge.h"

/* Scratch bytes enough for every core call at every degree: the largest
   FA_TMPSIZE_* at logn = FA_LOGN_MAX (each grows with logn). */
#define FA_EDGE_MAX2(a, b) ((a) > (b) ? (a) : (b))
#define FA_EDGE_TMP_BYTES ((size_t)FA_EDGE_MAX2( \
	FA_EDGE_MAX2(FA_TMPSIZE_KEYGEN(FA_LOGN_MAX), \
		FA_TMPSIZE_SIGN_DYN(FA_LOGN_MAX)), \
	FA_EDGE_MAX2(FA_EDGE_MAX2(FA_TMPSIZE_SIGN_TREE(FA_LOGN_MAX), \
		FA_TMPSIZE_EXPAND(FA_LOGN_MAX)), \
		FA_EDGE_MAX2(FA_TMPSIZE_VERIFY(FA_LOGN_MAX), \
		FA_TMPSIZE_MAKEPUB(FA_LOGN_MAX)))))

/* Per-thread working state: a scratch buffer and a PRNG. Owned by exactly
   one thread at a time. */
typedef struct {
	uint8_t *tmp;            /* FA_EDGE_TMP_BYTES bytes */
	fa_shake256_ctx rng;     /* flipped SHAKE256, secret */
	int rng_err;             /* FA_OK, or FA_ERR_RANDOM if seeding failed */
} fa_edge_worker;

/* Seed a PRNG from `seed` (NULL: from the OS, *rng_err = FA_ERR_RANDOM
   when that fails; else FA_OK). edge_worker.c */
void fa_edge_seed_rng(fa_shake256_ctx *rng, int *rng_err, const void *seed,
	size_t seed_len);

/* Allocate the scratch buffer, seed the PRNG from `seed` (NULL: from the
   OS). Returns FA_OK or FA_ERR_INTERNAL (memory). A seeding failure is
   not an error here: it is kept in rng_err and reported by signing. */
int fa_edge_worker_init(fa_edge_worker *w, const void *seed, size_t seed_len);
/* Wipe and free. */
void fa_edge_worker_clear(fa_edge_worker *w);

/* One item, as the single-call API (fa_sign_tree / fa_sign_dyn,
   fa_verify_prepared / fa_verify); sets it->err (and it->sig_len). */
void fa_edge_sign_one(fa_edge_worker *w, const fa_backend *be,
	int sig_format, fa_sign_item *it);
void fa_edge_verify_one(fa_edge_worker *w, const fa_backend *be,
	int sig_format, fa_verify_item *it);

/* 1 if the format is valid for signing (FA_SIG_COMPRESSED..FA_SIG_CT);
   verification also accepts 0 (any). */
int fa_edge_sign_format_ok(int sig_format);
int fa_edge_verify_format_ok(int sig_format);

/* Wipe memory in a way the compiler does not remove. */
void fa_edge_wipe(void *p, size_t len);

/* Condition variable on the monotonic clock, and a timed wait until the
   absolute fa_now_us() time `until_us`. */
int fa_edge_cond_init(pthread_cond_t *c);
void fa_edge_cond_wait_until(pthread_cond_t *c, pthread_mutex_t *m,
	int64_t until_us);

/* ------------------------------------------------------------------ */
/* Work sources of a pool (edge_pool.c): the broker runs its batches on a
   pool's workers. At most one source per pool. */

/* Attach `run`: after fa_pool_wake, up to that many idle workers call
   run(ctx, worker index < fa_pool_size, the worker's state) once each
   (batch tasks first); run returns 1 if it found work, 0 if not. */
void fa_pool_attach(fa_pool *pool,
	int (*run)(void *ctx, unsigned idx, fa_edge_worker *w), void *ctx);
/* Ask `workers` idle workers (at least 1) to call the source. */
void fa_pool_wake(fa_pool *pool, unsigned workers);
/* Detach the source; returns once no worker is running it. */
void fa_pool_detach(fa_pool *pool);

/* ------------------------------------------------------------------ */
/* Key cache (edge_cache.c): expanded private keys (kind FA_OP_SIGN) and
   prepared public keys (kind FA_OP_VERIFY), addressed by the SHAKE256
   digest of (kind, encoded key), LRU-evicted within a byte budget. An
   entry in use is pinned and never evicted; a key that cannot fit is
   built into an unlisted entry that is freed when unpinned. */

#define FA_KEY_DIGEST_SIZE 32

typedef struct fa_cache_entry fa_cache_entry;

typedef struct {
	pthread_mutex_t lock;
	fa_cache_entry **buckets;
	size_t nbuckets;             /* power of two */
	fa_cache_entry *lru_head;    /* most recently used */
	fa_cache_entry *lru_tail;
	size_t bytes;                /* charged bytes of listed entries */
	size_t capacity;
	uint64_t entries, hits, misses, evictions;
} fa_key_cache;

int fa_key_cache_init(fa_key_cache *c, size_t capacity);
/* Wipe and free every entry (none may be pinned). */
void fa_key_cache_clear(fa_key_cache *c);

void fa_key_digest(uint8_t digest[FA_KEY_DIGEST_SIZE], int kind,
	const void *key, size_t key_len);

/* Get the key material (an expanded private key for FA_OP_SIGN, an
   fa_prepared_pubkey for FA_OP_VERIFY) for the encoded key whose digest
   is given, building it with w's scratch on a miss. On FA_OK, *data
   points to it and *pin must be given back with fa_key_cache_unpin.
   `cache_it` 0: do not insert on a miss (unlisted entry). */
int fa_key_cache_acquire(fa_key_cache *c, fa_edge_worker *w,
	const fa_backend *be, int kind, const uint8_t *digest,
	const void *key, size_t key_len, int cache_it,
	const void **data, fa_cache_entry **pin);
void fa_key_cache_unpin(fa_key_cache *c, fa_cache_entry *e);
/* Remove an unpinned entry; 1 if removed. */
int fa_key_cache_forget(fa_key_cache *c, int kind, const uint8_t *digest);
/* Size the built material of an encoded key would have (entry data), or
   0 if the key header is invalid. */
size_t fa_key_material_size(int kind, const void *key, size_t key_len);

#endif
