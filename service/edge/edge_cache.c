/*
 * edge_cache.c -- the broker's key cache: expanded private keys and
 * prepared public keys, LRU within a byte budget.
 *
 * Entries are found by the SHAKE256 digest of (kind byte, encoded key)
 * in a chained hash table; a doubly linked list orders them by last use.
 * An entry's charge is its header plus its data. Pinned entries (refs > 0)
 * are skipped by eviction, so the budget is never exceeded: a key that
 * cannot be fit is built into an unlisted entry that its user frees.
 * Private key material is wiped before its memory is freed.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "edge_internal.h"

struct fa_cache_entry {
	uint8_t digest[FA_KEY_DIGEST_SIZE];
	int kind;
	int refs;                 /* pins, under the cache lock */
	int listed;               /* 1: in the table and the LRU list */
	size_t data_len;
	size_t charge;            /* bytes counted against the budget */
	fa_cache_entry *hnext;
	fa_cache_entry *lru_prev, *lru_next;
	/* data follows, 8-byte aligned (the expanded key holds binary64) */
	uint64_t data[];
};

#define NBUCKETS_MIN 64u

size_t
fa_key_material_size(int kind, const void *key, size_t key_len)
{
	int logn = fa_get_logn(key, key_len);

	if (logn < FA_LOGN_MIN || logn > FA_LOGN_MAX) {
		return 0;
	}
	if (kind == FA_OP_SIGN) {
		return FA_EXPANDED_KEY_SIZE((unsigned)logn);
	}
	return sizeof(fa_prepared_pubkey);
}

int
fa_key_cache_init(fa_key_cache *c, size_t capacity)
{
	size_t nb;

	memset(c, 0, sizeof *c);
	/* About one bucket per smallest degree-512 entry that fits, a power
	   of two, at least NBUCKETS_MIN. */
	nb = NBUCKETS_MIN;
	while (nb < capacity / 4096u && nb < ((size_t)1 << 20)) {
		nb <<= 1;
	}
	c->buckets = calloc(nb, sizeof *c->buckets);
	if (c->buckets == NULL) {
		return FA_ERR_INTERNAL;
	}
	c->nbuckets = nb;
	c->capacity = capacity;
	pthread_mutex_init(&c->lock, NULL);
	return FA_OK;
}

static void
entry_free(fa_cache_entry *e)
{
	fa_free_secret(e, sizeof *e + e->data_len);
}

void
fa_key_cache_clear(fa_key_cache *c)
{
	fa_cache_entry *e, *next;

	if (c->buckets == NULL) {
		return;
	}
	for (e = c->lru_head; e != NULL; e = next) {
		next = e->lru_next;
		entry_free(e);
	}
	free(c->buckets);
	c->buckets = NULL;
	c->lru_head = c->lru_tail = NULL;
	c->bytes = 0;
	c->entries = 0;
	pthread_mutex_destroy(&c->lock);
}

void
fa_key_digest(uint8_t digest[FA_KEY_DIGEST_SIZE], int kind,
	const void *key, size_t key_len)
{
	fa_shake256_ctx sc;
	uint8_t k = (uint8_t)kind;

	fa_shake256_init(&sc);
	fa_shake256_inject(&sc, &k, 1);
	fa_shake256_inject(&sc, key, key_len);
	fa_shake256_flip(&sc);
	fa_shake256_extract(&sc, digest, FA_KEY_DIGEST_SIZE);
	fa_edge_wipe(&sc, sizeof sc);
}

static size_t
bucket_of(const fa_key_cache *c, const uint8_t *digest)
{
	uint64_t h;

	memcpy(&h, digest, sizeof h);
	return (size_t)h & (c->nbuckets - 1);
}

/* ---- LRU list and table, under the lock ---- */

static void
lru_unlink(fa_key_cache *c, fa_cache_entry *e)
{
	if (e->lru_prev != NULL) {
		e->lru_prev->lru_next = e->lru_next;
	} else {
		c->lru_head = e->lru_next;
	}
	if (e->lru_next != NULL) {
		e->lru_next->lru_prev = e->lru_prev;
	} else {
		c->lru_tail = e->lru_prev;
	}
	e->lru_prev = e->lru_next = NULL;
}

static void
lru_push_front(fa_key_cache *c, fa_cache_entry *e)
{
	e->lru_prev = NULL;
	e->lru_next = c->lru_head;
	if (c->lru_head != NULL) {
		c->lru_head->lru_prev = e;
	} else {
		c->lru_tail = e;
	}
	c->lru_head = e;
}

static fa_cache_entry *
table_find(const fa_key_cache *c, int kind, const uint8_t *digest)
{
	fa_cache_entry *e;

	for (e = c->buckets[bucket_of(c, digest)]; e != NULL; e = e->hnext) {
		if (e->kind == kind
			&& memcmp(e->digest, digest, FA_KEY_DIGEST_SIZE) == 0)
		{
			return e;
		}
	}
	return NULL;
}

static void
table_remove(fa_key_cache *c, fa_cache_entry *e)
{
	fa_cache_entry **pp = &c->buckets[bucket_of(c, e->digest)];

	while (*pp != e) {
		pp = &(*pp)->hnext;
	}
	*pp = e->hnext;
	e->hnext = NULL;
}

/* Unlist e (refs == 0) and free it. */
static void
evict(fa_key_cache *c, fa_cache_entry *e)
{
	table_remove(c, e);
	lru_unlink(c, e);
	c->bytes -= e->charge;
	c->entries --;
	entry_free(e);
}

/* Evict unpinned entries from the LRU end until `need` more bytes fit.
   Returns 1 if they fit. */
static int
make_room(fa_key_cache *c, size_t need)
{
	fa_cache_entry *e, *prev;

	if (need > c->capacity) {
		return 0;
	}
	for (e = c->lru_tail; e != NULL && c->bytes + need > c->capacity;
		e = prev)
	{
		prev = e->lru_prev;
		if (e->refs == 0) {
			evict(c, e);
			c->evictions ++;
		}
	}
	return c->bytes + need <= c->capacity;
}

/* Build the key material of an encoded key into a new unlisted entry. */
static int
build_entry(fa_edge_worker *w, const fa_backend *be, int kind,
	const uint8_t *digest, const void *key, size_t key_len,
	fa_cache_entry **out)
{
	size_t len = fa_key_material_size(kind, key, key_len);
	fa_cache_entry *e;
	int err;

	*out = NULL;
	if (len == 0) {
		/* Invalid header: let the core report the exact error. */
		int logn = fa_get_logn(key, key_len);
		return logn < 0 ? logn : FA_ERR_HEADER;
	}
	e = malloc(sizeof *e + len);
	if (e == NULL) {
		return FA_ERR_INTERNAL;
	}
	memset(e, 0, sizeof *e);
	memcpy(e->digest, digest, FA_KEY_DIGEST_SIZE);
	e->kind = kind;
	e->data_len = len;
	e->charge = sizeof *e + len;
	if (kind == FA_OP_SIGN) {
		err = fa_expand_privkey(be, e->data, len, key, key_len,
			w->tmp, FA_EDGE_TMP_BYTES);
	} else {
		err = fa_pubkey_prepare(be, (fa_prepared_pubkey *)e->data,
			key, key_len);
	}
	if (err != FA_OK) {
		entry_free(e);
		return err;
	}
	*out = e;
	return FA_OK;
}

int
fa_key_cache_acquire(fa_key_cache *c, fa_edge_worker *w,
	const fa_backend *be, int kind, const uint8_t *digest,
	const void *key, size_t key_len, int cache_it,
	const void **data, fa_cache_entry **pin)
{
	fa_cache_entry *e, *found;
	int err;

	pthread_mutex_lock(&c->lock);
	e = table_find(c, kind, digest);
	if (e != NULL) {
		e->refs ++;
		lru_unlink(c, e);
		lru_push_front(c, e);
		c->hits ++;
		pthread_mutex_unlock(&c->lock);
		*data = e->data;
		*pin = e;
		return FA_OK;
	}
	c->misses ++;
	pthread_mutex_unlock(&c->lock);

	/* Build outside the lock (expansion takes tens of microseconds or
	   more); another thread may build the same key meanwhile. */
	err = build_entry(w, be, kind, digest, key, key_len, &e);
	if (err != FA_OK) {
		return err;
	}
	e->refs = 1;
	pthread_mutex_lock(&c->lock);
	found = table_find(c, kind, digest);
	if (found != NULL) {
		/* Lost the race: use the listed one. */
		found->refs ++;
		pthread_mutex_unlock(&c->lock);
		entry_free(e);
		e = found;
	} else {
		if (cache_it && make_room(c, e->charge)) {
			size_t b = bucket_of(c, digest);

			e->hnext = c->buckets[b];
			c->buckets[b] = e;
			lru_push_front(c, e);
			e->listed = 1;
			c->bytes += e->charge;
			c->entries ++;
		}
		pthread_mutex_unlock(&c->lock);
	}
	*data = e->data;
	*pin = e;
	return FA_OK;
}

void
fa_key_cache_unpin(fa_key_cache *c, fa_cache_entry *e)
{
	int drop;

	pthread_mutex_lock(&c->lock);
	e->refs --;
	drop = !e->listed && e->refs == 0;
	pthread_mutex_unlock(&c->lock);
	if (drop) {
		entry_free(e);
	}
}

int
fa_key_cache_forget(fa_key_cache *c, int kind, const uint8_t *digest)
{
	fa_cache_entry *e;
	int removed = 0;

	pthread_mutex_lock(&c->lock);
	e = table_find(c, kind, digest);
	if (e != NULL && e->refs == 0) {
		evict(c, e);
		removed = 1;
	}
	pthread_mutex_unlock(&c->lock);
	return removed;
}
