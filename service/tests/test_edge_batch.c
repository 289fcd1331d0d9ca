/*
 * test_edge_batch.c -- allocating wrappers and the batch API.
 *
 * References: the single-call API of falcon_accel.h with explicitly
 * seeded PRNGs and caller scratch (an independent path from the edge
 * code), and fa_verify on every produced signature. Negative cases:
 * tampered messages and signatures, bad keys, bad arguments.
 * Usage: test_edge_batch [--bench SECONDS] (bench: batch verify/sign
 * throughput at logn 9 with one thread per CPU).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "falcon_accel_edge.h"
#include "test_util.h"

#ifndef LOGN
#define LOGN 9   /* -DLOGN=... to try other degrees */
#endif
#define NKEYS 3

typedef struct {
	unsigned logn;
	uint8_t sk[FA_PRIVKEY_SIZE(10)];
	uint8_t pk[FA_PUBKEY_SIZE(10)];
	size_t sk_len, pk_len;
	void *ek;
	size_t ek_len;
} key;

/* NKEYS of degree 2^LOGN, then one of degree 16 and one of degree 1024. */
#define NALL (NKEYS + 2)
static key keys[NALL];

static void
make_keys(void)
{
	unsigned i;

	for (i = 0; i < NALL; i ++) {
		key *k = &keys[i];
		uint8_t seed[8] = { 'k', 'e', 'y', (uint8_t)i };
		uint8_t sk2[FA_PRIVKEY_SIZE(10)], pk2[FA_PUBKEY_SIZE(10)];
		uint8_t *tmp;
		fa_shake256_ctx rng;
		int r;

		k->logn = i < NKEYS ? LOGN : i == NKEYS ? 4 : 10;
		k->sk_len = FA_PRIVKEY_SIZE(k->logn);
		k->pk_len = FA_PUBKEY_SIZE(k->logn);
		r = fa_keygen_alloc(NULL, k->logn, seed, sizeof seed,
			k->sk, k->sk_len, k->pk, k->pk_len);
		CHECK(r == FA_OK, "keygen_alloc %d", r);
		/* Same seed through the core call: same key pair. */
		tmp = malloc(FA_TMPSIZE_KEYGEN(k->logn));
		fa_shake256_init_prng_from_seed(&rng, seed, sizeof seed);
		r = fa_keygen(NULL, &rng, k->logn, sk2, k->sk_len,
			pk2, k->pk_len, tmp, FA_TMPSIZE_KEYGEN(k->logn));
		free(tmp);
		CHECK(r == FA_OK && memcmp(sk2, k->sk, k->sk_len) == 0
			&& memcmp(pk2, k->pk, k->pk_len) == 0,
			"keygen_alloc differs from fa_keygen (key %u)", i);
		r = fa_make_public_alloc(pk2, k->pk_len, k->sk, k->sk_len);
		CHECK(r == FA_OK && memcmp(pk2, k->pk, k->pk_len) == 0,
			"make_public_alloc (key %u)", i);
		r = fa_expand_privkey_alloc(NULL, &k->ek, &k->ek_len,
			k->sk, k->sk_len);
		CHECK(r == FA_OK && k->ek_len == FA_EXPANDED_KEY_SIZE(k->logn),
			"expand_alloc %d", r);
	}
	/* Wrong degree and bad headers are refused. */
	CHECK(fa_keygen_alloc(NULL, 11, NULL, 0, keys[0].sk, 1, NULL, 0)
		== FA_ERR_BADARG, "keygen logn 11");
}

/* Reference signature: core call with an explicitly seeded PRNG. */
static int
ref_sign(const key *k, int use_tree, int fmt, const void *seed,
	size_t seed_len, const void *msg, size_t msg_len,
	uint8_t *sig, size_t *sig_len)
{
	fa_shake256_ctx rng;
	uint8_t *tmp = malloc(FA_TMPSIZE_SIGN_DYN(10));
	int r;

	fa_shake256_init_prng_from_seed(&rng, seed, seed_len);
	if (use_tree) {
		r = fa_sign_tree(NULL, &rng, sig, sig_len, fmt, k->ek,
			msg, msg_len, tmp, FA_TMPSIZE_SIGN_DYN(10));
	} else {
		r = fa_sign_dyn(NULL, &rng, sig, sig_len, fmt, k->sk,
			k->sk_len, msg, msg_len, tmp, FA_TMPSIZE_SIGN_DYN(10));
	}
	free(tmp);
	return r;
}

static void
test_alloc_wrappers(void)
{
	static const char msg[] = "allocating wrappers";
	uint8_t sig1[FA_SIG_MAXSIZE(10)], sig2[FA_SIG_MAXSIZE(10)];
	size_t l1, l2;
	int fmt, r;

	for (fmt = FA_SIG_COMPRESSED; fmt <= FA_SIG_CT; fmt ++) {
		l1 = sizeof sig1;
		r = fa_sign_alloc(NULL, "s", 1, sig1, &l1, fmt, keys[0].sk,
			keys[0].sk_len, msg, sizeof msg);
		CHECK(r == FA_OK, "sign_alloc fmt %d: %d", fmt, r);
		l2 = sizeof sig2;
		r = ref_sign(&keys[0], 0, fmt, "s", 1, msg, sizeof msg,
			sig2, &l2);
		CHECK(r == FA_OK && l1 == l2 && memcmp(sig1, sig2, l1) == 0,
			"sign_alloc differs from fa_sign_dyn (fmt %d)", fmt);
		l2 = sizeof sig2;
		r = fa_sign_tree_alloc(NULL, "s", 1, sig2, &l2, fmt,
			keys[0].ek, msg, sizeof msg);
		CHECK(r == FA_OK, "sign_tree_alloc %d", r);
		CHECK(fa_verify_alloc(NULL, sig1, l1, fmt, keys[0].pk,
			keys[0].pk_len, msg, sizeof msg) == FA_OK,
			"verify_alloc dyn fmt %d", fmt);
		CHECK(fa_verify_alloc(NULL, sig2, l2, 0, keys[0].pk,
			keys[0].pk_len, msg, sizeof msg) == FA_OK,
			"verify_alloc tree fmt %d", fmt);
		/* Wrong message, wrong key: rejected. */
		CHECK(fa_verify_alloc(NULL, sig1, l1, fmt, keys[0].pk,
			keys[0].pk_len, msg, sizeof msg - 1) == FA_ERR_BADSIG,
			"verify_alloc accepted a wrong message");
		CHECK(fa_verify_alloc(NULL, sig1, l1, fmt, keys[1].pk,
			keys[1].pk_len, msg, sizeof msg) == FA_ERR_BADSIG,
			"verify_alloc accepted a wrong key");
	}
	/* System randomness: two signatures differ (fresh nonces). */
	l1 = l2 = sizeof sig1;
	CHECK(fa_sign_alloc(NULL, NULL, 0, sig1, &l1, FA_SIG_PADDED,
		keys[0].sk, keys[0].sk_len, msg, 3) == FA_OK
		&& fa_sign_alloc(NULL, NULL, 0, sig2, &l2, FA_SIG_PADDED,
		keys[0].sk, keys[0].sk_len, msg, 3) == FA_OK
		&& memcmp(sig1, sig2, l1) != 0, "OS-seeded signatures");
	/* Bad key header. */
	{
		uint8_t bad[FA_PRIVKEY_SIZE(LOGN)];

		memcpy(bad, keys[0].sk, sizeof bad);
		bad[0] = 0x5F;
		l1 = sizeof sig1;
		CHECK(fa_sign_alloc(NULL, "s", 1, sig1, &l1, FA_SIG_PADDED,
			bad, sizeof bad, msg, 3) < 0, "bad header signed");
	}
}

/* ---- batches ---- */

#define NITEMS 37

typedef struct {
	uint8_t msg[48];
	size_t msg_len;
	uint8_t seed[16];
	uint8_t sig[FA_SIG_MAXSIZE(10)];
	size_t sig_len;
	int key;
	int tree;
} case_t;

static case_t cases[NITEMS];

static void
make_cases(uint64_t *rs)
{
	size_t i;

	for (i = 0; i < NITEMS; i ++) {
		case_t *c = &cases[i];
		size_t j;

		c->key = (int)(tu_rand64(rs) % NALL);
		c->tree = (int)(tu_rand64(rs) & 1);
		c->msg_len = (size_t)(tu_rand64(rs) % sizeof c->msg);
		for (j = 0; j < sizeof c->msg; j ++) {
			c->msg[j] = (uint8_t)tu_rand64(rs);
		}
		for (j = 0; j < sizeof c->seed; j ++) {
			c->seed[j] = (uint8_t)tu_rand64(rs);
		}
	}
}

static void
fill_sign_items(fa_sign_item *it, int seeded)
{
	size_t i;

	memset(it, 0, NITEMS * sizeof *it);
	for (i = 0; i < NITEMS; i ++) {
		case_t *c = &cases[i];

		if (c->tree) {
			it[i].expanded_key = keys[c->key].ek;
		} else {
			it[i].sk = keys[c->key].sk;
			it[i].sk_len = keys[c->key].sk_len;
		}
		it[i].msg = c->msg;
		it[i].msg_len = c->msg_len;
		it[i].sig = c->sig;
		it[i].sig_len = sizeof c->sig;
		if (seeded) {
			it[i].seed = c->seed;
			it[i].seed_len = sizeof c->seed;
		}
		it[i].err = 12345;
	}
}

static void
test_sign_batch(fa_pool *pool, int fmt, const char *what)
{
	fa_sign_item it[NITEMS];
	size_t i;
	int r;

	/* Seeded: byte-identical to the single call. */
	fill_sign_items(it, 1);
	r = fa_sign_batch(pool, NULL, fmt, it, NITEMS);
	CHECK(r == 0, "%s: sign_batch returned %d", what, r);
	for (i = 0; i < NITEMS; i ++) {
		case_t *c = &cases[i];
		uint8_t ref[FA_SIG_MAXSIZE(10)];
		size_t ref_len = sizeof ref;

		r = ref_sign(&keys[c->key], c->tree, fmt, c->seed,
			sizeof c->seed, c->msg, c->msg_len, ref, &ref_len);
		CHECK(it[i].err == FA_OK && r == FA_OK
			&& it[i].sig_len == ref_len
			&& memcmp(ref, c->sig, ref_len) == 0,
			"%s: item %zu differs from the single call", what, i);
		c->sig_len = it[i].sig_len;
	}
	/* Unseeded: every signature verifies. */
	fill_sign_items(it, 0);
	r = fa_sign_batch(pool, NULL, fmt, it, NITEMS);
	CHECK(r == 0, "%s: unseeded sign_batch returned %d", what, r);
	for (i = 0; i < NITEMS; i ++) {
		const key *k = &keys[cases[i].key];

		CHECK(fa_verify_alloc(NULL, cases[i].sig, it[i].sig_len, fmt,
			k->pk, k->pk_len, cases[i].msg, cases[i].msg_len)
			== FA_OK, "%s: unseeded item %zu", what, i);
		cases[i].sig_len = it[i].sig_len;
	}
}

/* Verification items over the current signatures of `cases`, with
   damage: every 3rd message altered, every 5th signature truncated,
   every 7th uses the wrong key; every other item is prepared. */
static fa_prepared_pubkey pps[NALL];
static uint8_t vmsg[NITEMS][48];

static void
fill_verify_items(fa_verify_item *it)
{
	size_t i;

	memset(it, 0, NITEMS * sizeof *it);
	for (i = 0; i < NITEMS; i ++) {
		case_t *c = &cases[i];
		int kk = i % 7 == 6 ? (c->key + 1) % NALL : c->key;

		memcpy(vmsg[i], c->msg, sizeof c->msg);
		if (i % 3 == 2) {
			vmsg[i][0] ^= 1;
			if (c->msg_len == 0) {
				c->msg_len = 1;
			}
		}
		it[i].sig = c->sig;
		it[i].sig_len = i % 5 == 4 ? c->sig_len - 1 : c->sig_len;
		if (i & 1) {
			it[i].pp = &pps[kk];
		} else {
			it[i].pk = keys[kk].pk;
			it[i].pk_len = keys[kk].pk_len;
		}
		it[i].msg = vmsg[i];
		it[i].msg_len = c->msg_len;
		it[i].err = 12345;
	}
}

static void
test_verify_batch(fa_pool *pool, int fmt, const char *what)
{
	fa_verify_item it[NITEMS];
	size_t i, bad = 0;
	int r;

	fill_verify_items(it);
	r = fa_verify_batch(pool, NULL, fmt, it, NITEMS);
	for (i = 0; i < NITEMS; i ++) {
		const key *k = it[i].pp != NULL ? &keys[it[i].pp - pps] : NULL;
		int ref;

		if (k == NULL) {
			ref = fa_verify_alloc(NULL, it[i].sig, it[i].sig_len, fmt,
				it[i].pk, it[i].pk_len, it[i].msg, it[i].msg_len);
		} else {
			ref = fa_verify_alloc(NULL, it[i].sig, it[i].sig_len, fmt,
				k->pk, k->pk_len, it[i].msg, it[i].msg_len);
		}
		CHECK(it[i].err == ref, "%s: item %zu: %d, single call %d",
			what, i, it[i].err, ref);
		bad += ref != FA_OK;
		/* Undamaged items verify. A padded signature with one byte of
		   padding, cut by one byte, is a genuine compressed signature,
		   which format 0 (any format) rightly accepts: only such an
		   item may pass among the damaged ones. */
		if (i % 3 != 2 && i % 5 != 4 && i % 7 != 6) {
			CHECK(it[i].err == FA_OK, "%s: good item %zu: %d",
				what, i, it[i].err);
		} else if (!(fmt == 0 && i % 3 != 2 && i % 7 != 6
			&& fa_verify_alloc(NULL, it[i].sig, it[i].sig_len,
			FA_SIG_COMPRESSED, k != NULL ? k->pk : it[i].pk,
			k != NULL ? k->pk_len : it[i].pk_len, it[i].msg,
			it[i].msg_len) == FA_OK))
		{
			CHECK(it[i].err != FA_OK, "%s: damaged item %zu passed",
				what, i);
		}
	}
	CHECK(r == (int)bad, "%s: verify_batch returned %d, want %zu",
		what, r, bad);
}

static void
test_bad_args(fa_pool *pool)
{
	fa_sign_item s;
	fa_verify_item v;
	uint8_t sig[FA_SIG_MAXSIZE(LOGN)];
	uint8_t badsk[FA_PRIVKEY_SIZE(LOGN)];

	CHECK(fa_sign_batch(pool, NULL, FA_SIG_PADDED, NULL, 3)
		== FA_ERR_BADARG, "NULL items");
	CHECK(fa_verify_batch(pool, NULL, 0, NULL, 0) == 0, "empty batch");
	memset(&s, 0, sizeof s);
	CHECK(fa_sign_batch(pool, NULL, 0, &s, 1) == FA_ERR_BADARG,
		"sign format 0");
	memset(&v, 0, sizeof v);
	CHECK(fa_verify_batch(pool, NULL, 9, &v, 1) == FA_ERR_BADARG,
		"verify format 9");
	/* Item-level errors: no signature buffer; corrupt key header. */
	s.sk = keys[0].sk;
	s.sk_len = keys[0].sk_len;
	CHECK(fa_sign_batch(pool, NULL, FA_SIG_PADDED, &s, 1) == 1
		&& s.err == FA_ERR_BADARG, "item without sig buffer: %d",
		s.err);
	memcpy(badsk, keys[0].sk, sizeof badsk);
	badsk[0] = 0x0B;
	s.sk = badsk;
	s.sig = sig;
	s.sig_len = sizeof sig;
	CHECK(fa_sign_batch(pool, NULL, FA_SIG_PADDED, &s, 1) == 1
		&& s.err < 0, "corrupt key header: %d", s.err);
	/* Signature buffer too small. */
	s.sk = keys[0].sk;
	s.sig_len = 10;
	CHECK(fa_sign_batch(pool, NULL, FA_SIG_PADDED, &s, 1) == 1
		&& s.err == FA_ERR_SIZE, "small sig buffer: %d", s.err);
}

/* Several threads running batches on one pool at once. */
typedef struct {
	fa_pool *pool;
	int fails;
} conc_arg;

static void *
conc_main(void *p)
{
	conc_arg *a = p;
	int round;

	for (round = 0; round < 5; round ++) {
		fa_verify_item it[NITEMS];
		size_t i;

		memset(it, 0, sizeof it);
		for (i = 0; i < NITEMS; i ++) {
			it[i].sig = cases[i].sig;
			it[i].sig_len = cases[i].sig_len;
			it[i].pp = &pps[cases[i].key];
			it[i].msg = cases[i].msg;
			it[i].msg_len = cases[i].msg_len;
		}
		if (fa_verify_batch(a->pool, NULL, 0, it, NITEMS) != 0) {
			a->fails ++;
		}
	}
	return NULL;
}

static void
test_concurrent(fa_pool *pool)
{
	fa_sign_item it[NITEMS];
	pthread_t th[4];
	conc_arg args[4];
	int i;

	/* Fresh valid signatures for every case. */
	fill_sign_items(it, 0);
	CHECK(fa_sign_batch(pool, NULL, FA_SIG_COMPRESSED, it, NITEMS) == 0,
		"sign for concurrency test");
	for (i = 0; i < NITEMS; i ++) {
		cases[i].sig_len = it[i].sig_len;
	}
	for (i = 0; i < 4; i ++) {
		args[i].pool = pool;
		args[i].fails = 0;
		pthread_create(&th[i], NULL, conc_main, &args[i]);
	}
	for (i = 0; i < 4; i ++) {
		pthread_join(th[i], NULL);
		CHECK(args[i].fails == 0, "concurrent batches: thread %d", i);
	}
}

/* ---- throughput ---- */

static void
bench(double seconds)
{
	enum { N = 256 };
	fa_pool *pool = fa_pool_new(0);
	static fa_sign_item s[N];
	static fa_verify_item v[N];
	static uint8_t sigs[N][FA_SIG_MAXSIZE(LOGN)];
	static uint8_t msgs[N][32];
	int64_t t0;
	uint64_t done;
	size_t i;

	for (i = 0; i < N; i ++) {
		memset(msgs[i], (int)i, sizeof msgs[i]);
		s[i].expanded_key = keys[i % NKEYS].ek;
		s[i].msg = msgs[i];
		s[i].msg_len = sizeof msgs[i];
		s[i].sig = sigs[i];
	}
	done = 0;
	t0 = fa_now_us();
	do {
		for (i = 0; i < N; i ++) {
			s[i].sig_len = sizeof sigs[i];
		}
		CHECK(fa_sign_batch(pool, NULL, FA_SIG_COMPRESSED, s, N) == 0,
			"bench sign");
		done += N;
	} while (fa_now_us() - t0 < (int64_t)(seconds * 1e6));
	printf("bench: sign_batch   logn %d, %u threads: %.0f signatures/s\n",
		LOGN, fa_pool_size(pool), done * 1e6 / (fa_now_us() - t0));
	for (i = 0; i < N; i ++) {
		v[i].sig = sigs[i];
		v[i].sig_len = s[i].sig_len;
		v[i].pp = &pps[i % NKEYS];
		v[i].msg = msgs[i];
		v[i].msg_len = sizeof msgs[i];
	}
	done = 0;
	t0 = fa_now_us();
	do {
		CHECK(fa_verify_batch(pool, NULL, 0, v, N) == 0, "bench verify");
		done += N;
	} while (fa_now_us() - t0 < (int64_t)(seconds * 1e6));
	printf("bench: verify_batch logn %d, %u threads: %.0f verifications/s\n",
		LOGN, fa_pool_size(pool), done * 1e6 / (fa_now_us() - t0));
	fa_pool_free(pool);
}

int
main(int argc, char **argv)
{
	uint64_t rs = 0x0123456789ABCDEFu;
	fa_pool *pools[3];
	unsigned p;
	int fmt, i;

	CHECK(fa_cpu_count() >= 1, "cpu count");
	make_keys();
	for (i = 0; i < NALL; i ++) {
		CHECK(fa_pubkey_prepare(NULL, &pps[i], keys[i].pk,
			keys[i].pk_len) == FA_OK, "prepare %d", i);
	}
	if (argc == 3 && strcmp(argv[1], "--bench") == 0) {
		bench(atof(argv[2]));
		return tu_finish("test_edge_batch");
	}
	test_alloc_wrappers();
	make_cases(&rs);

	pools[0] = NULL;
	pools[1] = fa_pool_new(1);
	pools[2] = fa_pool_new(3);
	CHECK(pools[1] != NULL && fa_pool_size(pools[1]) == 1, "pool 1");
	CHECK(pools[2] != NULL && fa_pool_size(pools[2]) == 3, "pool 3");
	for (p = 0; p < 3; p ++) {
		for (fmt = FA_SIG_COMPRESSED; fmt <= FA_SIG_CT; fmt ++) {
			char what[64];

			snprintf(what, sizeof what, "pool %u fmt %d", p, fmt);
			test_sign_batch(pools[p], fmt, what);
			test_verify_batch(pools[p], fmt, what);
			/* Format 0 accepts any. */
			test_verify_batch(pools[p], 0, what);
		}
		test_bad_args(pools[p]);
	}
	test_concurrent(pools[2]);
	{
		fa_pool *dflt = fa_pool_new(0);

		CHECK(dflt != NULL && fa_pool_size(dflt) == fa_cpu_count(),
			"default pool size");
		test_concurrent(dflt);
		fa_pool_free(dflt);
	}
	fa_pool_free(pools[1]);
	fa_pool_free(pools[2]);
	fa_pool_free(NULL);
	for (i = 0; i < NALL; i ++) {
		fa_free_secret(keys[i].ek, keys[i].ek_len);
	}
	return tu_finish("test_edge_batch");
}
