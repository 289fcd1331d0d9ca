/*
 * CTAP 2.1 commands over the strict CBOR codec (see fido2_ctap2.h).
 *
 * authenticatorData (WebAuthn, 6.1):
 *   rpIdHash(32) | flags(1) | signCount(4, big-endian)
 *   [ aaguid(16) | credIdLen(2) | credId | COSE_Key ]   (flag AT)
 * COSE_Key of a credential: { 1: 7 (AKP), 3: alg, -1: public key } (the
 * FN-DSA or the round-3 encoding, by the scheme; identifiers in
 * fido2_cose.h).
 */
#include "fido2_ctap2.h"
#include "fido2_cbor.h"
#include "fido2_cose.h"
#include "fido2_aead.h"
#include "fido2_sha256.h"

#define FLAG_UP 0x01
#define FLAG_AT 0x40


static const char WRAP_LABEL[] = "falcon-accel fido2 credential wrap v1";

/* ---------------------------------------------------------------- */
/* Device state and the signature counter. */

static void
derive_keys(fido2_auth *a)
{
	fido2_hmac_sha256(a->st.master, 32, WRAP_LABEL, sizeof WRAP_LABEL - 1,
		a->wrap_key);
}

/* The second half of a Reset whose commit is written: the records of the
   old epoch go (the state licenses it), then the flag is cleared. 0, or
   -1 with the flag still set (in the store and in RAM: every later state
   write carries it, and makeCredential first retries this). */
static int
finish_reset(fido2_auth *a)
{
	fido2_dev_state ns;
	if (a->store->wipe(a->store_user) != 0) {
		return -1;
	}
	ns = a->st;
	ns.flags &= ~FIDO2_STATE_RESET_PENDING;
	if (a->store->save_state(a->store_user, &ns) != 0) {
		fido2_wipe(&ns, sizeof ns);
		return -1;
	}
	a->st = ns;
	fido2_wipe(&ns, sizeof ns);
	return 0;
}

int
fido2_auth_init(fido2_auth *a, const fido2_store_ops *store,
	void *store_user, const fido2_platform *plat, void *user,
	const fa_backend *be,
	void *tmp, size_t tmp_len)
{
	int r;
	static const uint8_t aaguid[16] = {
		/* "falcon-accel-fido" as an AAGUID: f a l c o n - a c c e l 2 0 2 6 */
		0x66, 0x61, 0x6c, 0x63, 0x6f, 0x6e, 0x2d, 0x61,
		0x63, 0x63, 0x65, 0x6c, 0x32, 0x30, 0x32, 0x36
	};

	fido2_memset(a, 0, sizeof *a);
	a->store = store;
	a->store_user = store_user;
	a->plat = plat;
	a->user = user;
	a->be = be;
	a->tmp = tmp;
	a->tmp_len = tmp_len;
	fido2_memcpy(a->aaguid, aaguid, 16);
	if (tmp_len < FIDO2_TMP_SIZE) {
		return -1;
	}
	r = store->load_state(store_user, &a->st);
	if (r < 0) {
		return r;
	}
	if (r == 1) {
		if (plat->rng(user, a->st.master, 32) != 0) {
			return -1;
		}
		a->st.counter_reserved = 0;
		a->st.epoch = 1;
		a->st.flags = 0;
		if (store->save_state(store_user, &a->st) != 0) {
			return -1;
		}
	}
	/* Values up to counter_reserved may have been used before a crash:
	   continue above them. */
	a->counter = a->st.counter_reserved;
	derive_keys(a);
	if (a->st.flags & FIDO2_STATE_RESET_PENDING) {
		return finish_reset(a) == 0 ? 0 : -1;
	}
	return 0;
}

/* Next signature counter value; reserves a block durably when needed.
   Returns 0, or -1 if the reservation could not be written. */
static int
next_counter(fido2_auth *a, uint32_t *out)
{
	if (a->counter >= a->st.counter_reserved) {
		fido2_dev_state ns = a->st;
		ns.counter_reserved = a->counter + FIDO2_COUNTER_STEP;
		if (a->store->save_state(a->store_user, &ns) != 0) {
			return -1;
		}
		a->st = ns;
	}
	*out = ++a->counter;
	return 0;
}

/* ---------------------------------------------------------------- */
/* Credential IDs and keys. */

static void
wrap_id(fido2_auth *a, const uint8_t rp_id_hash[32], unsigned scheme,
	unsigned logn, const uint8_t seed[32], const uint8_t nonce[12],
	uint8_t id[62])
{
	uint8_t aad[34];
	id[0] = (uint8_t)scheme;
	id[1] = (uint8_t)logn;
	fido2_memcpy(id + 2, nonce, 12);
	fido2_memcpy(id + 14, seed, 32);
	fido2_memcpy(aad, rp_id_hash, 32);
	aad[32] = id[0];
	aad[33] = id[1];
	fido2_aead_seal(a->wrap_key, id + 2, aad, 34, id + 14, 32, id + 46);
}

/* 0, the seed, the scheme and the degree if id is one of ours for this
   rpId hash, else -1. The scheme byte is authenticated: an ID made for
   round-3 Falcon (every ID made before FN-DSA: 0x01) never opens as an
   FN-DSA one, nor the reverse. */
static int
unwrap_id(fido2_auth *a, const uint8_t rp_id_hash[32], const uint8_t *id,
	size_t id_len, uint8_t seed[32], unsigned *scheme, unsigned *logn)
{
	uint8_t aad[34], buf[32];
	if (id_len != FIDO2_CRED_ID_LEN
		|| (id[0] != FIDO2_SCHEME_FALCON_R3 && id[0] != FIDO2_SCHEME_FNDSA)
		|| (id[1] != 9 && id[1] != 10)) {
		return -1;
	}
	fido2_memcpy(aad, rp_id_hash, 32);
	aad[32] = id[0];
	aad[33] = id[1];
	fido2_memcpy(buf, id + 14, 32);
	if (fido2_aead_open(a->wrap_key, id + 2, aad, 34, buf, 32, id + 46) != 0) {
		return -1;
	}
	fido2_memcpy(seed, buf, 32);
	fido2_wipe(buf, sizeof buf);
	*scheme = id[0];
	*logn = id[1];
	return 0;
}

/* Private key length of a scheme at a degree (public keys: the same
   length in both schemes, FA_PUBKEY_SIZE). */
static size_t
sk_len(unsigned scheme, unsigned logn)
{
	return scheme == FIDO2_SCHEME_FNDSA ? FA_FNDSA_PRIVKEY_SIZE(logn)
		: FA_PRIVKEY_SIZE(logn);
}

/* Key pair from a seed into a->sk, a->pk: FN-DSA's seeded key generation
   (fn-dsa's key for that seed), or for round 3 a SHAKE256 PRNG seeded
   with it driving fa_keygen. */
static int
keygen_from_seed(fido2_auth *a, unsigned scheme, unsigned logn,
	const uint8_t seed[32])
{
	fa_shake256_ctx rng;
	int r;
	if (scheme == FIDO2_SCHEME_FNDSA) {
		return fa_fndsa_keygen_seed(a->be, seed, logn, a->sk,
			FA_FNDSA_PRIVKEY_SIZE(logn), a->pk,
			FA_FNDSA_PUBKEY_SIZE(logn), a->tmp, a->tmp_len);
	}
	fa_shake256_init_prng_from_seed(&rng, seed, 32);
	r = fa_keygen(a->be, &rng, logn, a->sk, FA_PRIVKEY_SIZE(logn),
		a->pk, FA_PUBKEY_SIZE(logn), a->tmp, a->tmp_len);
	fido2_wipe(&rng, sizeof rng);
	return r;
}

static void
cache_put(fido2_auth *a, const uint8_t *id, unsigned scheme, unsigned logn)
{
	fido2_key_slot *s;
	if (FIDO2_KEY_CACHE == 0) {
		return;
	}
	s = &a->cache[a->cache_next % FIDO2_KEY_CACHE];
	a->cache_next++;
	fido2_memcpy(s->id, id, FIDO2_CRED_ID_LEN);
	s->logn = (uint8_t)logn;
	s->scheme = (uint8_t)scheme;
	fido2_memcpy(s->sk, a->sk, sk_len(scheme, logn));
	s->used = 1;
}

/* Private key of a non-discoverable credential into a->sk: from the RAM
   cache, else by keygen from its seed. */
static int
load_key(fido2_auth *a, const uint8_t *id, unsigned scheme, unsigned logn,
	const uint8_t seed[32])
{
	unsigned i;
	for (i = 0; i < FIDO2_KEY_CACHE; i++) {
		fido2_key_slot *s = &a->cache[i];
		if (s->used && s->logn == logn && s->scheme == scheme
			&& fido2_ct_equal(s->id, id, FIDO2_CRED_ID_LEN)) {
			fido2_memcpy(a->sk, s->sk, sk_len(scheme, logn));
			return 0;
		}
	}
	if (keygen_from_seed(a, scheme, logn, seed) != FA_OK) {
		return -1;
	}
	cache_put(a, id, scheme, logn);
	return 0;
}

static void
cache_clear(fido2_auth *a)
{
	fido2_wipe(a->cache, sizeof a->cache);
	a->cache_next = 0;
}

/* The credential kinds, in the order getInfo lists them. */
static const struct {
	int64_t alg;
	uint8_t scheme, logn;
} ALGS[4] = {
	{ FIDO2_COSE_ALG_FNDSA512, FIDO2_SCHEME_FNDSA, 9 },
	{ FIDO2_COSE_ALG_FNDSA1024, FIDO2_SCHEME_FNDSA, 10 },
	{ FIDO2_COSE_ALG_FALCON512_R3, FIDO2_SCHEME_FALCON_R3, 9 },
	{ FIDO2_COSE_ALG_FALCON1024_R3, FIDO2_SCHEME_FALCON_R3, 10 },
};

/* Scheme and degree of a COSE algorithm; 0 when it is not ours. */
static int
alg_to_cred(int64_t alg, unsigned *scheme)
{
	unsigned i;
	for (i = 0; i < 4; i++) {
		if (ALGS[i].alg == alg) {
			*scheme = ALGS[i].scheme;
			return ALGS[i].logn;
		}
	}
	return 0;
}

static int64_t
cred_alg(unsigned scheme, unsigned logn)
{
	unsigned i;
	for (i = 0; i < 3; i++) {
		if (ALGS[i].scheme == scheme && ALGS[i].logn == logn) {
			break;
		}
	}
	return ALGS[i].alg;
}

/* ---------------------------------------------------------------- */
/* Expanded-key cache (layout and write order: fido2_ctap2.h). */

#if defined(__GNUC__)
typedef uint32_t fido2_u32_alias __attribute__((may_alias));
#else
typedef uint32_t fido2_u32_alias;
#endif

/* Word w of the header, or of slot i's metadata (all 8-byte aligned). */
#define EK_HDR(a, w)  (((volatile fido2_u32_alias *)(void *)(a)->ek_buf)[w])
#define EK_META(a, i, w)  (((volatile fido2_u32_alias *)(void *) \
	((a)->ek_buf + FIDO2_EK_META_OFF(i)))[w])
#define EK_USED  0
#define EK_LOGN  1
#define EK_LAST  2
#define EK_SCHEME 3
#define EK_META_ID(a, i)  ((a)->ek_buf + FIDO2_EK_META_OFF(i) + 16)
#define EK_SLOT(a, i)  ((a)->ek_buf + FIDO2_EK_SLOT_OFF((a)->ek_slots, i))

/* Orders the stores before it before those after it (the compiler and
   the core): what persistent memory needs for the write order; then the
   platform's persist hook, if any. */
static void
ek_fence(fido2_auth *a)
{
#if defined(__GNUC__)
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
#endif
	if (a->ek_persist != NULL) {
		a->ek_persist(a->user);
	}
}

static void
ek_changing(fido2_auth *a)
{
	if (a->ek_changed != NULL) {
		a->ek_changed(a->user);
	}
}

/* Marks slot i unused (persisted first), then zeroises its expanded key
   and its metadata. */
static void
ek_evict(fido2_auth *a, unsigned i)
{
	EK_META(a, i, EK_USED) = 0;
	ek_fence(a);
	ek_changing(a);
	fido2_wipe(EK_SLOT(a, i), FIDO2_EK_SLOT_SIZE);
	fido2_wipe(a->ek_buf + FIDO2_EK_META_OFF(i), FIDO2_EK_META_SIZE);
	ek_fence(a);
}

static void
ek_clear(fido2_auth *a)
{
	unsigned i;
	for (i = 0; i < a->ek_slots; i++) {
		ek_evict(a, i);
	}
}

/* Fingerprint of the device secret in header words 6 and 7: the first 8
   bytes of SHA-256("falcon-accel fido2 ek cache" || master). A cache
   written under another device secret (a device state created anew while
   the cache memory was kept) is never adopted. One-way: it reveals
   nothing usable about the secret. */
static void
ek_fingerprint(const fido2_auth *a, uint32_t fp[2])
{
	static const char tag[] = "falcon-accel fido2 ek cache";
	fido2_sha256_ctx sc;
	uint8_t h[32];
	fido2_sha256_init(&sc);
	fido2_sha256_update(&sc, tag, sizeof tag - 1);
	fido2_sha256_update(&sc, a->st.master, sizeof a->st.master);
	fido2_sha256_final(&sc, h);
	fp[0] = (uint32_t)h[0] | ((uint32_t)h[1] << 8)
		| ((uint32_t)h[2] << 16) | ((uint32_t)h[3] << 24);
	fp[1] = (uint32_t)h[4] | ((uint32_t)h[5] << 8)
		| ((uint32_t)h[6] << 16) | ((uint32_t)h[7] << 24);
	fido2_wipe(h, sizeof h);
	fido2_wipe(&sc, sizeof sc);
}

/* Header words 5..7: the device epoch and secret the cache belongs to. */
static void
ek_set_owner(fido2_auth *a)
{
	uint32_t fp[2];
	ek_fingerprint(a, fp);
	EK_HDR(a, 5) = a->st.epoch;
	EK_HDR(a, 6) = fp[0];
	EK_HDR(a, 7) = fp[1];
}

/* Header and metadata zeroised (the magic first), then the header
   written (the magic last). */
static void
ek_format(fido2_auth *a)
{
	EK_HDR(a, 0) = 0;
	ek_fence(a);
	ek_changing(a);
	fido2_wipe(a->ek_buf, FIDO2_EK_CACHE_SIZE(a->ek_slots));
	ek_fence(a);
	EK_HDR(a, 1) = FIDO2_EK_VERSION;
	EK_HDR(a, 2) = a->ek_slots;
	EK_HDR(a, 3) = FIDO2_EK_SLOT_SIZE;
	EK_HDR(a, 4) = FIDO2_EK_META_SIZE;
	ek_set_owner(a);
	ek_fence(a);
	EK_HDR(a, 0) = FIDO2_EK_MAGIC;
	ek_fence(a);
}

/* 1 if the cache holds expanded keys of this scheme. */
static int
ek_scheme_ok(uint32_t scheme)
{
	return scheme == FIDO2_SCHEME_FALCON_R3 || scheme == FIDO2_SCHEME_FNDSA;
}

/* 1 if the buffer holds a cache of this layout, this device epoch and
   valid metadata; sets the LRU clock to the largest value in use. */
static int
ek_valid(fido2_auth *a)
{
	unsigned i;
	uint32_t clock = 0, fp[2];
	ek_fingerprint(a, fp);
	if (EK_HDR(a, 0) != FIDO2_EK_MAGIC || EK_HDR(a, 1) != FIDO2_EK_VERSION
		|| EK_HDR(a, 2) != a->ek_slots
		|| EK_HDR(a, 3) != FIDO2_EK_SLOT_SIZE
		|| EK_HDR(a, 4) != FIDO2_EK_META_SIZE
		|| EK_HDR(a, 5) != a->st.epoch
		|| EK_HDR(a, 6) != fp[0] || EK_HDR(a, 7) != fp[1])
	{
		return 0;
	}
	for (i = 0; i < a->ek_slots; i++) {
		uint32_t used = EK_META(a, i, EK_USED);
		uint32_t logn = EK_META(a, i, EK_LOGN);
		uint32_t scheme = EK_META(a, i, EK_SCHEME);
		if (used > 1 || scheme > FIDO2_SCHEME_FNDSA
			|| (logn != 0 && logn != 9 && logn != 10)
			|| (used && (logn == 0 || !ek_scheme_ok(scheme))))
		{
			return 0;
		}
		if (used && EK_META(a, i, EK_LAST) > clock) {
			clock = EK_META(a, i, EK_LAST);
		}
	}
	a->ek_clock = clock;
	return 1;
}

static void
ek_set(fido2_auth *a, void *buf, size_t len, void (*changed)(void *user),
	int persistent)
{
	unsigned n = 0, i;
	while (buf != NULL && n < FIDO2_EK_SLOTS
		&& FIDO2_EK_CACHE_SIZE(n + 1) <= len)
	{
		n++;
	}
	a->ek_changed = changed;
	a->ek_buf = n > 0 ? (uint8_t *)buf : NULL;
	a->ek_slots = n;
	a->ek_clock = 0;
	a->ek_expansions = 0;
	a->ek_adopted = 0;
	if (n == 0) {
		return;
	}
	if (persistent && ek_valid(a)) {
		a->ek_adopted = 1;
		/* an unused slot may hold the bytes of an interrupted
		   expansion: zeroise them */
		for (i = 0; i < n; i++) {
			if (!EK_META(a, i, EK_USED)) {
				ek_evict(a, i);
			}
		}
		return;
	}
	ek_format(a);
}

void
fido2_auth_set_ek_cache(fido2_auth *a, void *buf, size_t len,
	void (*changed)(void *user))
{
	ek_set(a, buf, len, changed, 0);
}

void
fido2_auth_set_ek_cache_persistent(fido2_auth *a, void *buf, size_t len,
	void (*changed)(void *user))
{
	ek_set(a, buf, len, changed, 1);
}

unsigned
fido2_auth_ek_slot_logn(const fido2_auth *a, unsigned i)
{
	if (i >= a->ek_slots || !EK_META(a, i, EK_USED)) {
		return 0;
	}
	return (unsigned)EK_META(a, i, EK_LOGN);
}

unsigned
fido2_auth_ek_slot_scheme(const fido2_auth *a, unsigned i)
{
	if (i >= a->ek_slots || !EK_META(a, i, EK_USED)) {
		return 0;
	}
	return (unsigned)EK_META(a, i, EK_SCHEME);
}

/* The slot holding the key of credential id (-1: none). Which slots are
   in use, their schemes and degrees are public (they show in the timing
   anyway); the ID (public too) is compared in full, in constant time. */
static int
ek_find(fido2_auth *a, const uint8_t *id, unsigned scheme, unsigned logn)
{
	unsigned i;
	int hit = -1;
	for (i = 0; i < a->ek_slots; i++) {
		if (EK_META(a, i, EK_USED) && EK_META(a, i, EK_LOGN) == logn
			&& EK_META(a, i, EK_SCHEME) == scheme
			&& fido2_ct_equal(EK_META_ID(a, i), id, FIDO2_CRED_ID_LEN))
		{
			hit = (int)i;
		}
	}
	return hit;
}

/* Expands a->sk (the key of credential id, of this scheme) into a free,
   or the least recently used, slot; -1 when the expansion fails. */
static int
ek_fill(fido2_auth *a, const uint8_t *id, unsigned scheme, unsigned logn)
{
	unsigned i, v = 0;
	int r;
	/* the first free slot, else the least recently used */
	for (i = 0; i < a->ek_slots; i++) {
		if (!EK_META(a, i, EK_USED)) {
			v = i;
			break;
		}
		if (EK_META(a, i, EK_LAST) < EK_META(a, v, EK_LAST)) {
			v = i;
		}
	}
	ek_evict(a, v);
	a->ek_expansions++;
	if (scheme == FIDO2_SCHEME_FNDSA) {
		r = fa_fndsa_expand_privkey(a->be, EK_SLOT(a, v),
			FA_FNDSA_EXPANDED_KEY_SIZE(logn), a->sk,
			FA_FNDSA_PRIVKEY_SIZE(logn), a->tmp, a->tmp_len);
	} else {
		r = fa_expand_privkey(a->be, EK_SLOT(a, v),
			FA_EXPANDED_KEY_SIZE(logn), a->sk, FA_PRIVKEY_SIZE(logn),
			a->tmp, a->tmp_len);
	}
	if (r != FA_OK) {
		ek_evict(a, v);
		return -1;
	}
	fido2_memcpy(EK_META_ID(a, v), id, FIDO2_CRED_ID_LEN);
	EK_META(a, v, EK_LOGN) = logn;
	EK_META(a, v, EK_SCHEME) = scheme;
	ek_fence(a);
	EK_META(a, v, EK_USED) = 1;
	ek_fence(a);
	return (int)v;
}

/* The signature of a->tbs[0..len) by the private key in a->sk (the
   key of a credential of this scheme), from a 40-byte seed (FN-DSA) or a
   PRNG (round 3). */
static int
sign_key(fido2_auth *a, unsigned scheme, unsigned logn, fa_shake256_ctx *rng,
	const uint8_t fseed[40], size_t len, uint8_t *sig, size_t *sig_len)
{
	if (scheme == FIDO2_SCHEME_FNDSA) {
		*sig_len = FA_FNDSA_SIG_SIZE(logn);
		return fa_fndsa_sign_seed(a->be, fseed, sig, FA_FNDSA_SIG_SIZE(logn),
			a->sk, FA_FNDSA_PRIVKEY_SIZE(logn), NULL, 0, FA_FNDSA_PH_NONE,
			a->tbs, len, a->tmp, a->tmp_len);
	}
	return fa_sign_dyn(a->be, rng, sig, sig_len, FA_SIG_COMPRESSED,
		a->sk, FA_PRIVKEY_SIZE(logn), a->tbs, len, a->tmp, a->tmp_len);
}

/* The same signature from the expanded key in cache slot `slot`. */
static int
sign_slot(fido2_auth *a, unsigned scheme, unsigned logn, unsigned slot,
	fa_shake256_ctx *rng, const uint8_t fseed[40], size_t len,
	uint8_t *sig, size_t *sig_len)
{
	if (scheme == FIDO2_SCHEME_FNDSA) {
		*sig_len = FA_FNDSA_SIG_SIZE(logn);
		return fa_fndsa_sign_tree(a->be, NULL, fseed, sig,
			FA_FNDSA_SIG_SIZE(logn), EK_SLOT(a, slot), NULL, 0,
			FA_FNDSA_PH_NONE, a->tbs, len, a->tmp, a->tmp_len);
	}
	return fa_sign_tree(a->be, rng, sig, sig_len, FA_SIG_COMPRESSED,
		EK_SLOT(a, slot), a->tbs, len, a->tmp, a->tmp_len);
}

/* Signs a->tbs[0..len) with the key of credential id (scheme, logn);
   writes the signature to sig (capacity *sig_len, FIDO2_SIG_MAX; its
   length on return). FN-DSA: pure, empty context, FA_FNDSA_SIG_SIZE(logn)
   bytes, from a fresh 40-byte seed of the platform's RNG; round 3:
   compressed, from a SHAKE256 PRNG seeded with 48 bytes of it. The key is
   in a->sk when seed is NULL, else it is loaded from seed (load_key) only
   when it is needed: a miss of the expanded-key cache, or no cache. With
   the cache: the slot's expanded key signs (the same bytes as the private
   key from the same seed or PRNG state). */
static int
sign_tbs(fido2_auth *a, const uint8_t *id, unsigned scheme, unsigned logn,
	const uint8_t *seed, size_t len, uint8_t *sig, size_t *sig_len)
{
	uint8_t rs[48];
	fa_shake256_ctx rng, rng0;
	int r = FA_ERR_KEY, slot = -1, have_sk = seed == NULL;
	size_t cap = *sig_len;
	size_t ns = scheme == FIDO2_SCHEME_FNDSA ? 40 : 48;
	if (scheme == FIDO2_SCHEME_FNDSA && cap < FA_FNDSA_SIG_SIZE(logn)) {
		return -1;
	}
	if (a->plat->rng(a->user, rs, ns) != 0) {
		return -1;
	}
	fido2_memset(&rng, 0, sizeof rng);
	if (scheme != FIDO2_SCHEME_FNDSA) {
		fa_shake256_init_prng_from_seed(&rng, rs, sizeof rs);
	}
	if (a->ek_slots > 0) {
		slot = ek_find(a, id, scheme, logn);
		if (slot < 0) {
			if (!have_sk) {
				if (load_key(a, id, scheme, logn, seed) != 0) {
					goto done;
				}
				have_sk = 1;
			}
			slot = ek_fill(a, id, scheme, logn);
		}
	}
	if (slot >= 0) {
		EK_META(a, (unsigned)slot, EK_LAST) = ++a->ek_clock;
		rng0 = rng;
		r = sign_slot(a, scheme, logn, (unsigned)slot, &rng, rs, len,
			sig, sig_len);
		if (r != FA_OK) {
			/* a slot the library refuses is dropped; sign afresh
			   from the same seed or PRNG state */
			ek_evict(a, (unsigned)slot);
			rng = rng0;
			*sig_len = cap;
		}
		fido2_wipe(&rng0, sizeof rng0);
	}
	if (r != FA_OK) {
		if (!have_sk) {
			if (load_key(a, id, scheme, logn, seed) != 0) {
				goto done;
			}
			have_sk = 1;
		}
		r = sign_key(a, scheme, logn, &rng, rs, len, sig, sig_len);
	}
done:
	fido2_wipe(rs, sizeof rs);
	fido2_wipe(&rng, sizeof rng);
	return r == FA_OK ? 0 : -1;
}

/* ---------------------------------------------------------------- */
/* Request parsing helpers. */

static int
up_status(int up)
{
	switch (up) {
	case FIDO2_UP_APPROVED: return CTAP2_OK;
	case FIDO2_UP_CANCEL: return CTAP2_ERR_KEEPALIVE_CANCEL;
	case FIDO2_UP_TIMEOUT: return CTAP2_ERR_USER_ACTION_TIMEOUT;
	default: return CTAP2_ERR_OPERATION_DENIED;
	}
}

static int
ask_up(fido2_auth *a, const char *what, const uint8_t *rp, size_t rp_len)
{
	return up_status(a->plat->user_presence(a->user, what, rp, rp_len));
}

/* An rpId as WebAuthn hands it to an authenticator: the relying party's
   effective domain, already in ASCII (IDNA) lower case. Accepted: 1..253
   bytes, dot-separated labels of 1..63 bytes from [a-z0-9-], no label
   starting or ending with '-', and a last label that is not all digits
   (an IPv4 address is not a domain). Anything else (empty, NUL or other
   control bytes, upper case, spaces, a trailing dot, 5,000 bytes) is
   CTAP1_ERR_INVALID_PARAMETER before any key or state is touched. */
#define FIDO2_RP_ID_MAX 253u

static int
rp_id_check(const fido2_cbor_item *rpid)
{
	const uint8_t *s = rpid->data;
	uint64_t n = rpid->val, i;
	size_t label = 0;
	int digits_only = 1;

	if (n == 0 || n > FIDO2_RP_ID_MAX) {
		return CTAP1_ERR_INVALID_PARAMETER;
	}
	for (i = 0; i < n; i++) {
		uint8_t c = s[i];
		if (c == '.') {
			if (label == 0 || s[i - 1] == '-') {
				return CTAP1_ERR_INVALID_PARAMETER;
			}
			label = 0;
			digits_only = 1;
			continue;
		}
		if (c >= '0' && c <= '9') {
			/* a digit */
		} else if ((c >= 'a' && c <= 'z') || c == '-') {
			if (c == '-' && label == 0) {
				return CTAP1_ERR_INVALID_PARAMETER;
			}
			digits_only = 0;
		} else {
			return CTAP1_ERR_INVALID_PARAMETER;
		}
		if (++label > 63) {
			return CTAP1_ERR_INVALID_PARAMETER;
		}
	}
	if (label == 0 || s[n - 1] == '-' || digits_only) {
		return CTAP1_ERR_INVALID_PARAMETER;
	}
	return CTAP2_OK;
}

/* Options map: reads rk/up/uv as -1 (absent), 0 or 1. */
static int
parse_options(const fido2_cbor_item *m, int *rk, int *up, int *uv)
{
	fido2_cbor_item v;
	static const char *const names[3] = { "rk", "up", "uv" };
	int *outs[3];
	int i;
	outs[0] = rk; outs[1] = up; outs[2] = uv;
	for (i = 0; i < 3; i++) {
		*outs[i] = -1;
	}
	if (m->major != FIDO2_CBOR_MAP) {
		return CTAP2_ERR_CBOR_UNEXPECTED_TYPE;
	}
	for (i = 0; i < 3; i++) {
		if (fido2_cbor_map_text(m, names[i], &v)) {
			if (v.major != FIDO2_CBOR_SIMPLE || v.val == 22) {
				return CTAP2_ERR_CBOR_UNEXPECTED_TYPE;
			}
			*outs[i] = v.val == 21;
		}
	}
	return CTAP2_OK;
}

/* PublicKeyCredentialDescriptor: {"id": bstr, "type": tstr}. Returns
   CTAP2_OK with *is_pk set when type is "public-key". */
static int
parse_descriptor(const fido2_cbor_item *d, fido2_cbor_item *id, int *is_pk)
{
	fido2_cbor_item t;
	if (d->major != FIDO2_CBOR_MAP) {
		return CTAP2_ERR_CBOR_UNEXPECTED_TYPE;
	}
	if (!fido2_cbor_map_text(d, "id", id) || !fido2_cbor_map_text(d, "type", &t)) {
		return CTAP2_ERR_MISSING_PARAMETER;
	}
	if (id->major != FIDO2_CBOR_BYTES || t.major != FIDO2_CBOR_TEXT) {
		return CTAP2_ERR_CBOR_UNEXPECTED_TYPE;
	}
	*is_pk = fido2_cbor_text_eq(&t, "public-key");
	return CTAP2_OK;
}

/* Checks the pinUvAuthParam/protocol pair of a request that carries one.
   This authenticator has no clientPIN: a zero-length param (the
   platform's "is a PIN set?" probe) gets PIN_NOT_SET after user presence,
   any other gets PIN_AUTH_INVALID. */
static int
check_pin_param(fido2_auth *a, const fido2_cbor_item *req, int64_t key,
	const uint8_t *rp, size_t rp_len)
{
	fido2_cbor_item v;
	int r;
	if (!fido2_cbor_map_int(req, key, &v)) {
		return CTAP2_OK;
	}
	if (v.major != FIDO2_CBOR_BYTES) {
		return CTAP2_ERR_CBOR_UNEXPECTED_TYPE;
	}
	if (v.val == 0) {
		r = ask_up(a, "select", rp, rp_len);
		return r != CTAP2_OK ? r : CTAP2_ERR_PIN_NOT_SET;
	}
	return CTAP2_ERR_PIN_AUTH_INVALID;
}

/* Copies at most FIDO2_NAME_MAX bytes of a text string, cut at a UTF-8
   character boundary (CTAP 2.1 allows truncation to 64 bytes). */
static uint8_t
copy_name(uint8_t *dst, const fido2_cbor_item *t)
{
	size_t n = t->val;
	if (n > FIDO2_NAME_MAX) {
		n = FIDO2_NAME_MAX;
		while (n > 0 && (t->data[n] & 0xc0) == 0x80) {
			n--;
		}
	}
	fido2_memcpy(dst, t->data, n);
	return (uint8_t)n;
}

/* authenticatorData header into a->tbs; returns its length (37). */
static size_t
put_auth_header(fido2_auth *a, const uint8_t rp_id_hash[32], uint8_t flags,
	uint32_t counter)
{
	fido2_memcpy(a->tbs, rp_id_hash, 32);
	a->tbs[32] = flags;
	a->tbs[33] = (uint8_t)(counter >> 24);
	a->tbs[34] = (uint8_t)(counter >> 16);
	a->tbs[35] = (uint8_t)(counter >> 8);
	a->tbs[36] = (uint8_t)counter;
	return 37;
}

/* ---------------------------------------------------------------- */
/* authenticatorMakeCredential */

static int
make_credential(fido2_auth *a, const fido2_cbor_item *req, fido2_cbor_enc *out)
{
	fido2_cbor_item cdh, rp, user, params, v, rpid, uid;
	int rk = 0, up = -1, uv = -1, r, logn = 0;
	unsigned scheme = 0;
	uint64_t i;
	uint8_t rp_id_hash[32], seed[32], nonce[12], id[FIDO2_CRED_ID_LEN];
	uint8_t sig[FIDO2_SIG_MAX];
	size_t sig_len = sizeof sig, ad_len;
	uint32_t counter;
	fido2_cbor_enc ce;

	if (!fido2_cbor_map_int(req, 1, &cdh) || !fido2_cbor_map_int(req, 2, &rp)
		|| !fido2_cbor_map_int(req, 3, &user)
		|| !fido2_cbor_map_int(req, 4, &params)) {
		return CTAP2_ERR_MISSING_PARAMETER;
	}
	if (cdh.major != FIDO2_CBOR_BYTES || rp.major != FIDO2_CBOR_MAP
		|| user.major != FIDO2_CBOR_MAP || params.major != FIDO2_CBOR_ARRAY) {
		return CTAP2_ERR_CBOR_UNEXPECTED_TYPE;
	}
	if (cdh.val != 32) {
		return CTAP1_ERR_INVALID_LENGTH;
	}
	if (!fido2_cbor_map_text(&rp, "id", &rpid)) {
		return CTAP2_ERR_MISSING_PARAMETER;
	}
	if (rpid.major != FIDO2_CBOR_TEXT) {
		return CTAP2_ERR_CBOR_UNEXPECTED_TYPE;
	}
	r = rp_id_check(&rpid);
	if (r != CTAP2_OK) {
		return r;
	}
	if (!fido2_cbor_map_text(&user, "id", &uid)) {
		return CTAP2_ERR_MISSING_PARAMETER;
	}
	if (uid.major != FIDO2_CBOR_BYTES) {
		return CTAP2_ERR_CBOR_UNEXPECTED_TYPE;
	}
	if (uid.val == 0 || uid.val > FIDO2_USER_ID_MAX) {
		return CTAP1_ERR_INVALID_LENGTH;
	}
	if (fido2_cbor_map_text(&user, "name", &v) && v.major != FIDO2_CBOR_TEXT) {
		return CTAP2_ERR_CBOR_UNEXPECTED_TYPE;
	}
	if (fido2_cbor_map_text(&user, "displayName", &v)
		&& v.major != FIDO2_CBOR_TEXT) {
		return CTAP2_ERR_CBOR_UNEXPECTED_TYPE;
	}
	if (fido2_cbor_map_text(&rp, "name", &v) && v.major != FIDO2_CBOR_TEXT) {
		return CTAP2_ERR_CBOR_UNEXPECTED_TYPE;
	}
	/* First supported algorithm in the RP's order of preference. */
	for (i = 0; i < params.val; i++) {
		fido2_cbor_item p, alg, type;
		int64_t al;
		fido2_cbor_array_at(&params, i, &p);
		if (p.major != FIDO2_CBOR_MAP) {
			return CTAP2_ERR_CBOR_UNEXPECTED_TYPE;
		}
		if (!fido2_cbor_map_text(&p, "alg", &alg)
			|| !fido2_cbor_map_text(&p, "type", &type)) {
			return CTAP2_ERR_MISSING_PARAMETER;
		}
		if (type.major != FIDO2_CBOR_TEXT || fido2_cbor_get_int(&alg, &al) != 0) {
			return CTAP2_ERR_CBOR_UNEXPECTED_TYPE;
		}
		if (logn == 0 && fido2_cbor_text_eq(&type, "public-key")) {
			logn = alg_to_cred(al, &scheme);
		}
	}
	if (fido2_cbor_map_int(req, 6, &v) && v.major != FIDO2_CBOR_MAP) {
		return CTAP2_ERR_CBOR_UNEXPECTED_TYPE;   /* extensions: none used */
	}
	if (fido2_cbor_map_int(req, 7, &v)) {
		r = parse_options(&v, &rk, &up, &uv);
		if (r != CTAP2_OK) {
			return r;
		}
		if (rk < 0) {
			rk = 0;
		}
	}
	r = check_pin_param(a, req, 8, rpid.data, rpid.val);
	if (r != CTAP2_OK) {
		return r;
	}
	if (uv == 1) {
		return CTAP2_ERR_UNSUPPORTED_OPTION;
	}
	if (up == 0) {
		return CTAP2_ERR_INVALID_OPTION;
	}
	fido2_sha256(rpid.data, rpid.val, rp_id_hash);

	/* excludeList: a credential of ours for this RP exists. */
	if (fido2_cbor_map_int(req, 5, &v)) {
		if (v.major != FIDO2_CBOR_ARRAY) {
			return CTAP2_ERR_CBOR_UNEXPECTED_TYPE;
		}
		for (i = 0; i < v.val; i++) {
			fido2_cbor_item d, did;
			int is_pk;
			unsigned ln, sc;
			fido2_cbor_array_at(&v, i, &d);
			r = parse_descriptor(&d, &did, &is_pk);
			if (r != CTAP2_OK) {
				return r;
			}
			if (is_pk && unwrap_id(a, rp_id_hash, did.data, did.val,
				seed, &sc, &ln) == 0) {
				fido2_wipe(seed, sizeof seed);
				r = ask_up(a, "register", rpid.data, rpid.val);
				return r != CTAP2_OK ? r : CTAP2_ERR_CREDENTIAL_EXCLUDED;
			}
		}
	}
	if (logn == 0) {
		return CTAP2_ERR_UNSUPPORTED_ALGORITHM;
	}
	/* A Reset whose wipe failed: no new record until it is finished (a
	   record written now would be wiped with the old ones at the next
	   start). */
	if ((a->st.flags & FIDO2_STATE_RESET_PENDING) && finish_reset(a) != 0) {
		return CTAP1_ERR_OTHER;
	}
	r = ask_up(a, "register", rpid.data, rpid.val);
	if (r != CTAP2_OK) {
		return r;
	}

	if (a->plat->rng(a->user, seed, 32) != 0
		|| a->plat->rng(a->user, nonce, 12) != 0) {
		return CTAP1_ERR_OTHER;
	}
	wrap_id(a, rp_id_hash, scheme, (unsigned)logn, seed, nonce, id);
	r = keygen_from_seed(a, scheme, (unsigned)logn, seed);
	fido2_wipe(seed, sizeof seed);
	if (r != FA_OK) {
		return CTAP1_ERR_OTHER;
	}
	if (next_counter(a, &counter) != 0) {
		return CTAP1_ERR_OTHER;
	}
	if (rk) {
		fido2_cred *c = &a->cred;
		fido2_memset(c, 0, sizeof *c);
		fido2_memcpy(c->id, id, sizeof id);
		fido2_memcpy(c->rp_id_hash, rp_id_hash, 32);
		fido2_memcpy(c->user_id, uid.data, uid.val);
		c->user_id_len = (uint8_t)uid.val;
		if (fido2_cbor_map_text(&user, "name", &v)) {
			c->user_name_len = copy_name(c->user_name, &v);
		}
		if (fido2_cbor_map_text(&user, "displayName", &v)) {
			c->display_name_len = copy_name(c->display_name, &v);
		}
		c->logn = (uint8_t)logn;
		c->scheme = (uint8_t)scheme;
		c->epoch = a->st.epoch;
		c->created = counter;
		fido2_memcpy(c->sk, a->sk, sk_len(scheme, (unsigned)logn));
		r = a->store->cred_put(a->store_user, c);
		fido2_wipe(c->sk, sizeof c->sk);
		if (r == FIDO2_STORE_FULL) {
			return CTAP2_ERR_KEY_STORE_FULL;
		}
		if (r != 0) {
			return CTAP1_ERR_OTHER;
		}
	}
	cache_put(a, id, scheme, (unsigned)logn);

	/* authenticatorData with attested credential data. */
	ad_len = put_auth_header(a, rp_id_hash, FLAG_UP | FLAG_AT, counter);
	fido2_memcpy(a->tbs + ad_len, a->aaguid, 16);
	ad_len += 16;
	a->tbs[ad_len++] = 0;
	a->tbs[ad_len++] = FIDO2_CRED_ID_LEN;
	fido2_memcpy(a->tbs + ad_len, id, FIDO2_CRED_ID_LEN);
	ad_len += FIDO2_CRED_ID_LEN;
	fido2_cbor_enc_init(&ce, a->tbs + ad_len, sizeof a->tbs - ad_len - 32);
	fido2_cbor_put_map(&ce, 3);
	fido2_cbor_put_int(&ce, FIDO2_COSE_LABEL_KTY);
	fido2_cbor_put_int(&ce, FIDO2_COSE_KTY_AKP);
	fido2_cbor_put_int(&ce, FIDO2_COSE_LABEL_ALG);
	fido2_cbor_put_int(&ce, cred_alg(scheme, (unsigned)logn));
	fido2_cbor_put_int(&ce, FIDO2_COSE_LABEL_AKP_PUB);
	fido2_cbor_put_bytes(&ce, a->pk, FA_PUBKEY_SIZE(logn));
	if (ce.err) {
		return CTAP1_ERR_OTHER;
	}
	ad_len += ce.len;
	fido2_memcpy(a->tbs + ad_len, cdh.data, 32);
	r = sign_tbs(a, id, scheme, (unsigned)logn, NULL, ad_len + 32, sig,
		&sig_len);
	fido2_wipe(a->sk, sizeof a->sk);
	if (r != 0) {
		return CTAP1_ERR_OTHER;
	}

	/* { 1: "packed", 2: authData, 3: { "alg": alg, "sig": sig } } */
	fido2_cbor_put_map(out, 3);
	fido2_cbor_put_uint(out, 1);
	fido2_cbor_put_textz(out, "packed");
	fido2_cbor_put_uint(out, 2);
	fido2_cbor_put_bytes(out, a->tbs, ad_len);
	fido2_cbor_put_uint(out, 3);
	fido2_cbor_put_map(out, 2);
	fido2_cbor_put_textz(out, "alg");
	fido2_cbor_put_int(out, cred_alg(scheme, (unsigned)logn));
	fido2_cbor_put_textz(out, "sig");
	fido2_cbor_put_bytes(out, sig, sig_len);
	return out->err ? CTAP1_ERR_OTHER : CTAP2_OK;
}

/* ---------------------------------------------------------------- */
/* authenticatorGetAssertion / GetNextAssertion */

/* Finds the stored discoverable credential with this id into a->cred. */
static int
find_stored(fido2_auth *a, const uint8_t *id)
{
	int n = a->store->cred_count(a->store_user), i;
	for (i = 0; i < n; i++) {
		if (a->store->cred_get(a->store_user, i, &a->cred) == 0
			&& fido2_ct_equal(a->cred.id, id, FIDO2_CRED_ID_LEN)) {
			return 0;
		}
	}
	return -1;
}

/* Signs and encodes one assertion for the credential id (stored: the
   record is in a->cred and its user handle is returned). */
static int
emit_assertion(fido2_auth *a, const uint8_t *id, int stored,
	const uint8_t rp_id_hash[32], const uint8_t cdh[32], uint8_t flags,
	unsigned count, fido2_cbor_enc *out)
{
	uint8_t seed[32];
	uint8_t sig[FIDO2_SIG_MAX];
	size_t sig_len = sizeof sig, ad_len;
	unsigned logn, scheme;
	uint32_t counter;
	int r;

	if (unwrap_id(a, rp_id_hash, id, FIDO2_CRED_ID_LEN, seed, &scheme,
		&logn) != 0) {
		return CTAP2_ERR_NO_CREDENTIALS;
	}
	if (stored) {
		/* the record's key is of the scheme and degree its ID names
		   (the stores' decoders check it; a round-3 record written
		   before FN-DSA has a round-3 ID and signs round 3) */
		if (a->cred.scheme != scheme || a->cred.logn != logn) {
			fido2_wipe(seed, sizeof seed);
			return CTAP1_ERR_OTHER;
		}
		fido2_memcpy(a->sk, a->cred.sk, sk_len(scheme, logn));
	}
	if (next_counter(a, &counter) != 0) {
		fido2_wipe(seed, sizeof seed);
		return CTAP1_ERR_OTHER;
	}
	ad_len = put_auth_header(a, rp_id_hash, flags, counter);
	fido2_memcpy(a->tbs + ad_len, cdh, 32);
	/* a non-discoverable credential's key is derived from the seed
	   only when the expanded-key cache does not hold it */
	r = sign_tbs(a, id, scheme, logn, stored ? NULL : seed, ad_len + 32,
		sig, &sig_len);
	fido2_wipe(seed, sizeof seed);
	fido2_wipe(a->sk, sizeof a->sk);
	if (r != 0) {
		return CTAP1_ERR_OTHER;
	}
	fido2_cbor_put_map(out, 3 + (stored ? 1 : 0) + (count > 1 ? 1 : 0));
	fido2_cbor_put_uint(out, 1);
	fido2_cbor_put_map(out, 2);
	fido2_cbor_put_textz(out, "id");
	fido2_cbor_put_bytes(out, id, FIDO2_CRED_ID_LEN);
	fido2_cbor_put_textz(out, "type");
	fido2_cbor_put_textz(out, "public-key");
	fido2_cbor_put_uint(out, 2);
	fido2_cbor_put_bytes(out, a->tbs, ad_len);
	fido2_cbor_put_uint(out, 3);
	fido2_cbor_put_bytes(out, sig, sig_len);
	if (stored) {
		/* Without user verification only the user handle is returned. */
		fido2_cbor_put_uint(out, 4);
		fido2_cbor_put_map(out, 1);
		fido2_cbor_put_textz(out, "id");
		fido2_cbor_put_bytes(out, a->cred.user_id, a->cred.user_id_len);
	}
	if (count > 1) {
		fido2_cbor_put_uint(out, 5);
		fido2_cbor_put_uint(out, count);
	}
	return out->err ? CTAP1_ERR_OTHER : CTAP2_OK;
}

static int
get_assertion(fido2_auth *a, const fido2_cbor_item *req, fido2_cbor_enc *out)
{
	fido2_cbor_item rpid, cdh, v;
	int rk = -1, up = -1, uv = -1, r;
	uint8_t rp_id_hash[32], seed[32], flags = 0;
	const uint8_t *chosen = NULL;
	unsigned count = 0, logn, scheme;
	uint64_t i;

	if (!fido2_cbor_map_int(req, 1, &rpid) || !fido2_cbor_map_int(req, 2, &cdh)) {
		return CTAP2_ERR_MISSING_PARAMETER;
	}
	if (rpid.major != FIDO2_CBOR_TEXT || cdh.major != FIDO2_CBOR_BYTES) {
		return CTAP2_ERR_CBOR_UNEXPECTED_TYPE;
	}
	if (cdh.val != 32) {
		return CTAP1_ERR_INVALID_LENGTH;
	}
	r = rp_id_check(&rpid);
	if (r != CTAP2_OK) {
		return r;
	}
	if (fido2_cbor_map_int(req, 4, &v) && v.major != FIDO2_CBOR_MAP) {
		return CTAP2_ERR_CBOR_UNEXPECTED_TYPE;
	}
	if (fido2_cbor_map_int(req, 5, &v)) {
		r = parse_options(&v, &rk, &up, &uv);
		if (r != CTAP2_OK) {
			return r;
		}
	}
	r = check_pin_param(a, req, 6, rpid.data, rpid.val);
	if (r != CTAP2_OK) {
		return r;
	}
	if (rk != -1 || uv == 1) {
		return CTAP2_ERR_UNSUPPORTED_OPTION;
	}
	fido2_sha256(rpid.data, rpid.val, rp_id_hash);

	if (fido2_cbor_map_int(req, 3, &v)) {
		if (v.major != FIDO2_CBOR_ARRAY) {
			return CTAP2_ERR_CBOR_UNEXPECTED_TYPE;
		}
		for (i = 0; i < v.val; i++) {
			fido2_cbor_item d, did;
			int is_pk;
			fido2_cbor_array_at(&v, i, &d);
			r = parse_descriptor(&d, &did, &is_pk);
			if (r != CTAP2_OK) {
				return r;
			}
			if (chosen == NULL && is_pk && unwrap_id(a, rp_id_hash,
				did.data, did.val, seed, &scheme, &logn) == 0) {
				chosen = did.data;
			}
		}
		fido2_wipe(seed, sizeof seed);
		if (chosen != NULL) {
			count = 1;
			fido2_memcpy(a->gna_ids[0], chosen, FIDO2_CRED_ID_LEN);
		}
	} else {
		/* Discoverable credentials of this RP, newest first. */
		int n = a->store->cred_count(a->store_user), j;
		uint32_t created[FIDO2_MAX_ASSERT];
		for (j = 0; j < n; j++) {
			unsigned k;
			if (a->store->cred_get(a->store_user, j, &a->cred) != 0
				|| !fido2_ct_equal(a->cred.rp_id_hash, rp_id_hash, 32)
				|| a->cred.epoch != a->st.epoch) {
				continue;
			}
			/* Insertion into the list sorted by creation, newest
			   first; the oldest falls off when it is full. */
			k = count < FIDO2_MAX_ASSERT ? count++ : FIDO2_MAX_ASSERT;
			while (k > 0 && created[k - 1] < a->cred.created) {
				if (k < FIDO2_MAX_ASSERT) {
					created[k] = created[k - 1];
					fido2_memcpy(a->gna_ids[k], a->gna_ids[k - 1],
						FIDO2_CRED_ID_LEN);
				}
				k--;
			}
			if (k < FIDO2_MAX_ASSERT) {
				created[k] = a->cred.created;
				fido2_memcpy(a->gna_ids[k], a->cred.id,
					FIDO2_CRED_ID_LEN);
			}
		}
		fido2_wipe(a->cred.sk, sizeof a->cred.sk);
	}
	/* No credential: answered without asking for user presence (a
	   prompt for an operation that cannot succeed would mislead). */
	if (count == 0) {
		return CTAP2_ERR_NO_CREDENTIALS;
	}
	if (up != 0) {
		r = ask_up(a, "authenticate", rpid.data, rpid.val);
		if (r != CTAP2_OK) {
			return r;
		}
		flags |= FLAG_UP;
	}
	if (chosen == NULL) {
		if (find_stored(a, a->gna_ids[0]) != 0) {
			return CTAP2_ERR_NO_CREDENTIALS;
		}
		r = emit_assertion(a, a->gna_ids[0], 1, rp_id_hash, cdh.data,
			flags, count, out);
	} else {
		/* An allow-listed credential that is also discoverable is
		   signed with its stored key (no keygen). */
		int stored = find_stored(a, a->gna_ids[0]) == 0;
		r = emit_assertion(a, a->gna_ids[0], stored, rp_id_hash, cdh.data,
			flags, 1, out);
	}
	fido2_wipe(a->cred.sk, sizeof a->cred.sk);
	if (r == CTAP2_OK && chosen == NULL && count > 1) {
		a->gna_active = 1;
		a->gna_start_ms = a->plat->now_ms(a->user);
		fido2_memcpy(a->gna_cdh, cdh.data, 32);
		fido2_memcpy(a->gna_rp_id_hash, rp_id_hash, 32);
		a->gna_flags = flags;
		a->gna_count = count;
		a->gna_next = 1;
	}
	return r;
}

static int
get_next_assertion(fido2_auth *a, fido2_cbor_enc *out)
{
	int r;
	if (!a->gna_active || a->gna_next >= a->gna_count
		|| (uint32_t)(a->plat->now_ms(a->user) - a->gna_start_ms)
			> FIDO2_GNA_TIMEOUT_MS) {
		a->gna_active = 0;
		return CTAP2_ERR_NOT_ALLOWED;
	}
	if (find_stored(a, a->gna_ids[a->gna_next]) != 0) {
		a->gna_active = 0;
		return CTAP2_ERR_NO_CREDENTIALS;
	}
	r = emit_assertion(a, a->gna_ids[a->gna_next], 1, a->gna_rp_id_hash,
		a->gna_cdh, a->gna_flags, 1, out);
	fido2_wipe(a->cred.sk, sizeof a->cred.sk);
	a->gna_next++;
	a->gna_start_ms = a->plat->now_ms(a->user);
	return r;
}

/* ---------------------------------------------------------------- */
/* authenticatorGetInfo, Reset, Selection */

static int
get_info(fido2_auth *a, fido2_cbor_enc *out)
{
	int i;
	fido2_cbor_put_map(out, 9);
	fido2_cbor_put_uint(out, 0x01);       /* versions */
	fido2_cbor_put_array(out, 2);
	fido2_cbor_put_textz(out, "FIDO_2_0");
	fido2_cbor_put_textz(out, "FIDO_2_1");
	fido2_cbor_put_uint(out, 0x03);       /* aaguid */
	fido2_cbor_put_bytes(out, a->aaguid, 16);
	fido2_cbor_put_uint(out, 0x04);       /* options */
	fido2_cbor_put_map(out, 3);
	fido2_cbor_put_textz(out, "rk");
	fido2_cbor_put_bool(out, 1);
	fido2_cbor_put_textz(out, "up");
	fido2_cbor_put_bool(out, 1);
	fido2_cbor_put_textz(out, "plat");
	fido2_cbor_put_bool(out, 0);
	fido2_cbor_put_uint(out, 0x05);       /* maxMsgSize */
	fido2_cbor_put_uint(out, 7609);
	fido2_cbor_put_uint(out, 0x07);       /* maxCredentialCountInList */
	fido2_cbor_put_uint(out, FIDO2_ALLOW_MAX);
	fido2_cbor_put_uint(out, 0x08);       /* maxCredentialIdLength */
	fido2_cbor_put_uint(out, FIDO2_CRED_ID_LEN);
	fido2_cbor_put_uint(out, 0x09);       /* transports */
	fido2_cbor_put_array(out, 1);
	fido2_cbor_put_textz(out, "usb");
	fido2_cbor_put_uint(out, 0x0a);       /* algorithms */
	fido2_cbor_put_array(out, 4);
	for (i = 0; i < 4; i++) {
		fido2_cbor_put_map(out, 2);
		fido2_cbor_put_textz(out, "alg");
		fido2_cbor_put_int(out, ALGS[i].alg);
		fido2_cbor_put_textz(out, "type");
		fido2_cbor_put_textz(out, "public-key");
	}
	fido2_cbor_put_uint(out, 0x0e);       /* firmwareVersion */
	fido2_cbor_put_uint(out, 1);
	return out->err ? CTAP1_ERR_OTHER : CTAP2_OK;
}

static int
reset(fido2_auth *a)
{
	fido2_dev_state ns;
	int r = ask_up(a, "reset", NULL, 0);
	if (r != CTAP2_OK) {
		return r;
	}
	/* The new secret and epoch are the commit point: once written, every
	   old credential ID fails to unwrap and every stored record is stale,
	   and the state says so (FIDO2_STATE_RESET_PENDING) until they are
	   wiped: a power cut in between makes the next start finish the
	   wipe. The
	   counter keeps going up. The expanded keys go first: a power cut
	   after this leaves an empty cache, never an expanded key of a
	   credential that Reset wiped. */
	ek_clear(a);
	ns = a->st;
	if (a->plat->rng(a->user, ns.master, 32) != 0) {
		return CTAP1_ERR_OTHER;
	}
	ns.epoch = a->st.epoch + 1;
	ns.counter_reserved = a->counter;
	ns.flags = a->st.flags | FIDO2_STATE_RESET_PENDING;
	if (a->store->save_state(a->store_user, &ns) != 0) {
		return CTAP1_ERR_OTHER;
	}
	a->st = ns;
	fido2_wipe(&ns, sizeof ns);
	derive_keys(a);
	cache_clear(a);
	if (a->ek_slots > 0) {
		/* the cache (empty) now belongs to the new epoch and secret;
		   a power cut before these stores makes the next boot format
		   it */
		ek_set_owner(a);
		ek_fence(a);
	}
	return finish_reset(a) == 0 ? CTAP2_OK : CTAP1_ERR_OTHER;
}

size_t
fido2_ctap2_handle(fido2_auth *a, const uint8_t *req, size_t req_len,
	uint8_t *resp, size_t resp_cap)
{
	fido2_cbor_enc out;
	fido2_cbor_item params;
	int st, has_params = 0, r;
	uint8_t cmd;

	if (resp_cap < 1) {
		return 0;
	}
	if (req_len < 1) {
		resp[0] = CTAP1_ERR_INVALID_LENGTH;
		return 1;
	}
	cmd = req[0];
	if (cmd != CTAP2_CMD_GET_NEXT_ASSERTION) {
		a->gna_active = 0;
	}
	if (req_len > 1) {
		r = fido2_cbor_check(req + 1, req_len - 1);
		if (r != FIDO2_CBOR_OK) {
			resp[0] = CTAP2_ERR_INVALID_CBOR;
			return 1;
		}
		fido2_cbor_item_at(req + 1, req_len - 1, &params);
		has_params = 1;
	}
	fido2_cbor_enc_init(&out, resp + 1, resp_cap - 1);
	switch (cmd) {
	case CTAP2_CMD_MAKE_CREDENTIAL:
	case CTAP2_CMD_GET_ASSERTION:
		if (!has_params) {
			st = CTAP2_ERR_MISSING_PARAMETER;
		} else if (params.major != FIDO2_CBOR_MAP) {
			st = CTAP2_ERR_CBOR_UNEXPECTED_TYPE;
		} else if (cmd == CTAP2_CMD_MAKE_CREDENTIAL) {
			st = make_credential(a, &params, &out);
		} else {
			st = get_assertion(a, &params, &out);
		}
		break;
	case CTAP2_CMD_GET_INFO:
	case CTAP2_CMD_RESET:
	case CTAP2_CMD_GET_NEXT_ASSERTION:
	case CTAP2_CMD_SELECTION:
		if (has_params) {
			st = CTAP1_ERR_INVALID_LENGTH;
		} else if (cmd == CTAP2_CMD_GET_INFO) {
			st = get_info(a, &out);
		} else if (cmd == CTAP2_CMD_RESET) {
			st = reset(a);
		} else if (cmd == CTAP2_CMD_GET_NEXT_ASSERTION) {
			st = get_next_assertion(a, &out);
		} else {
			st = ask_up(a, "select", NULL, 0);
		}
		break;
	default:
		st = CTAP1_ERR_INVALID_COMMAND;
		break;
	}
	fido2_wipe(a->sk, sizeof a->sk);
	if (st != CTAP2_OK) {
		resp[0] = (uint8_t)st;
		return 1;
	}
	resp[0] = CTAP2_OK;
	return 1 + out.len;
}

/* ------------------------------------------------------------------ */
/* Credential serialization (layout in fido2_ctap2.h). */

static void
ser_put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16); p[3] = (uint8_t)(v >> 24);
}

static uint32_t
ser_get32(const uint8_t *p)
{
	return (uint32_t)p[0] | ((uint32_t)p[1] << 8)
		| ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

void
fido2_cred_serialize(const fido2_cred *c, uint8_t *p)
{
	fido2_memcpy(p, c->id, FIDO2_CRED_ID_LEN); p += FIDO2_CRED_ID_LEN;
	fido2_memcpy(p, c->rp_id_hash, 32); p += 32;
	fido2_memcpy(p, c->user_id, FIDO2_USER_ID_MAX); p += FIDO2_USER_ID_MAX;
	fido2_memcpy(p, c->user_name, FIDO2_NAME_MAX); p += FIDO2_NAME_MAX;
	fido2_memcpy(p, c->display_name, FIDO2_NAME_MAX); p += FIDO2_NAME_MAX;
	p[0] = c->user_id_len; p[1] = c->user_name_len;
	p[2] = c->display_name_len; p[3] = c->logn; p += 4;
	ser_put32(p, c->epoch); p += 4;
	ser_put32(p, c->created); p += 4;
	p[0] = c->scheme; p[1] = 0; p[2] = 0; p[3] = 0; p += 4;
	fido2_memcpy(p, c->sk, FIDO2_SK_MAX);
}

int
fido2_cred_deserialize(fido2_cred *c, const uint8_t *p, size_t len)
{
	int bad = 0;
	size_t i, n;
	if (len != FIDO2_CRED_SER_LEN && len != FIDO2_CRED_SER_LEN_V1) {
		return -1;
	}
	fido2_memcpy(c->id, p, FIDO2_CRED_ID_LEN); p += FIDO2_CRED_ID_LEN;
	fido2_memcpy(c->rp_id_hash, p, 32); p += 32;
	fido2_memcpy(c->user_id, p, FIDO2_USER_ID_MAX); p += FIDO2_USER_ID_MAX;
	fido2_memcpy(c->user_name, p, FIDO2_NAME_MAX); p += FIDO2_NAME_MAX;
	fido2_memcpy(c->display_name, p, FIDO2_NAME_MAX); p += FIDO2_NAME_MAX;
	c->user_id_len = p[0]; c->user_name_len = p[1];
	c->display_name_len = p[2]; c->logn = p[3]; p += 4;
	c->epoch = ser_get32(p); p += 4;
	c->created = ser_get32(p); p += 4;
	fido2_memset(c->sk, 0, FIDO2_SK_MAX);
	if (len == FIDO2_CRED_SER_LEN_V1) {
		/* before FN-DSA: round 3, the only scheme then */
		c->scheme = FIDO2_SCHEME_FALCON_R3;
		fido2_memcpy(c->sk, p, FA_PRIVKEY_SIZE(10));
	} else {
		c->scheme = p[0];
		bad = (p[1] | p[2] | p[3]) != 0;
		p += 4;
		fido2_memcpy(c->sk, p, FIDO2_SK_MAX);
	}
	if (c->user_id_len > FIDO2_USER_ID_MAX
		|| c->user_name_len > FIDO2_NAME_MAX
		|| c->display_name_len > FIDO2_NAME_MAX
		|| (c->logn != 9 && c->logn != 10)
		|| (c->scheme != FIDO2_SCHEME_FALCON_R3
			&& c->scheme != FIDO2_SCHEME_FNDSA)
		|| c->id[0] != c->scheme || c->id[1] != c->logn || bad) {
		return -1;
	}
	/* version 2: nothing after the key of its scheme and degree */
	n = len == FIDO2_CRED_SER_LEN ? sk_len(c->scheme, c->logn)
		: FIDO2_SK_MAX;
	for (i = n; i < FIDO2_SK_MAX; i++) {
		bad |= c->sk[i];
	}
	return bad ? -1 : 0;
}
