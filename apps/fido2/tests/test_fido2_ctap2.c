/*
 * CTAP2 commands against an in-memory store: GetInfo; MakeCredential with
 * FN-DSA-512 and -1024 and with round-3 Falcon under its private-use
 * identifiers (packed self attestation verified: FN-DSA signatures with
 * fa_fndsa_verify, pure, empty context, and refused by round 3's
 * fa_verify; round-3 signatures with fa_verify and refused by FN-DSA's;
 * COSE key layout); every assertion signature verified the same way;
 * test_fndsa_exact: an FN-DSA credential's key is fa_fndsa_keygen_seed's
 * from the seed its ID wraps and its signatures are fa_fndsa_sign_seed's
 * from the 40 bytes the platform RNG gave (byte for byte), not with a
 * context; the credential ID's scheme byte authenticated; GetAssertion
 * with an allow list and discoverable; GetNextAssertion; counter
 * monotonicity (also across a simulated restart that loses the RAM
 * counter); excludeList; wrong rpId; user presence denied/cancelled;
 * Reset; malformed requests mapped to CTAP error codes; the expanded-key
 * cache in RAM (test_ek_cache) and in persistent memory
 * (test_ek_persistent, test_ek_power_cuts), with keys of both schemes.
 */
#include "fido2_test_util.h"
#include "fido2_cbor.h"
#include "fido2_cose.h"
#include "fido2_sha256.h"
#include "fido2_aead.h"

static mem_store MS;
static test_plat TP;
static fido2_auth A;
static uint8_t TMP[FIDO2_TMP_SIZE];
static uint8_t REQ[8192], RESP[8192];

static void boot(void)
{
	CHECK(fido2_auth_init(&A, &mem_store_ops, &MS, &test_platform, &TP,
		fa_backend_default(), TMP, sizeof TMP) == 0, "auth init");
}

static size_t call(const uint8_t *req, size_t n)
{
	return fido2_ctap2_handle(&A, req, n, RESP, sizeof RESP);
}

/* makeCredential request. */
static size_t mc_req(const char *rp, const char *user, const int64_t *algs, int nalg,
	int rk, const uint8_t *excl, int uv)
{
	fido2_cbor_enc e;
	uint8_t cdh[32];
	int i, n = 4 + (excl ? 1 : 0) + 1;
	memset(cdh, 0x11, 32);
	REQ[0] = CTAP2_CMD_MAKE_CREDENTIAL;
	fido2_cbor_enc_init(&e, REQ + 1, sizeof REQ - 1);
	fido2_cbor_put_map(&e, (uint64_t)n);
	fido2_cbor_put_uint(&e, 1); fido2_cbor_put_bytes(&e, cdh, 32);
	fido2_cbor_put_uint(&e, 2); fido2_cbor_put_map(&e, 1);
	fido2_cbor_put_textz(&e, "id"); fido2_cbor_put_textz(&e, rp);
	fido2_cbor_put_uint(&e, 3); fido2_cbor_put_map(&e, 2);
	fido2_cbor_put_textz(&e, "id"); fido2_cbor_put_bytes(&e, user, strlen(user));
	fido2_cbor_put_textz(&e, "name"); fido2_cbor_put_textz(&e, user);
	fido2_cbor_put_uint(&e, 4); fido2_cbor_put_array(&e, (uint64_t)nalg);
	for (i = 0; i < nalg; i++) {
		fido2_cbor_put_map(&e, 2);
		fido2_cbor_put_textz(&e, "alg"); fido2_cbor_put_int(&e, algs[i]);
		fido2_cbor_put_textz(&e, "type"); fido2_cbor_put_textz(&e, "public-key");
	}
	if (excl) {
		fido2_cbor_put_uint(&e, 5); fido2_cbor_put_array(&e, 1);
		fido2_cbor_put_map(&e, 2);
		fido2_cbor_put_textz(&e, "id"); fido2_cbor_put_bytes(&e, excl, FIDO2_CRED_ID_LEN);
		fido2_cbor_put_textz(&e, "type"); fido2_cbor_put_textz(&e, "public-key");
	}
	fido2_cbor_put_uint(&e, 7); fido2_cbor_put_map(&e, uv ? 2 : 1);
	fido2_cbor_put_textz(&e, "rk"); fido2_cbor_put_bool(&e, rk);
	if (uv) { fido2_cbor_put_textz(&e, "uv"); fido2_cbor_put_bool(&e, 1); }
	return 1 + e.len;
}

static size_t ga_req(const char *rp, const uint8_t cdh[32], const uint8_t *allow, int up)
{
	fido2_cbor_enc e;
	REQ[0] = CTAP2_CMD_GET_ASSERTION;
	fido2_cbor_enc_init(&e, REQ + 1, sizeof REQ - 1);
	fido2_cbor_put_map(&e, 2 + (allow ? 1 : 0) + (up ? 0 : 1));
	fido2_cbor_put_uint(&e, 1); fido2_cbor_put_textz(&e, rp);
	fido2_cbor_put_uint(&e, 2); fido2_cbor_put_bytes(&e, cdh, 32);
	if (allow) {
		fido2_cbor_put_uint(&e, 3); fido2_cbor_put_array(&e, 1);
		fido2_cbor_put_map(&e, 2);
		fido2_cbor_put_textz(&e, "id"); fido2_cbor_put_bytes(&e, allow, FIDO2_CRED_ID_LEN);
		fido2_cbor_put_textz(&e, "type"); fido2_cbor_put_textz(&e, "public-key");
	}
	if (!up) {
		fido2_cbor_put_uint(&e, 5); fido2_cbor_put_map(&e, 1);
		fido2_cbor_put_textz(&e, "up"); fido2_cbor_put_bool(&e, 0);
	}
	return 1 + e.len;
}

typedef struct {
	uint8_t id[FIDO2_CRED_ID_LEN];
	uint8_t pk[FA_PUBKEY_SIZE(10)];
	size_t pk_len;
	uint32_t counter;
	unsigned scheme, logn;
} made;

/* Scheme and degree of one of our COSE algorithms (0: not ours). */
static unsigned alg_scheme(int64_t alg, unsigned *logn)
{
	*logn = alg == FIDO2_COSE_ALG_FNDSA512 || alg == FIDO2_COSE_ALG_FALCON512_R3 ? 9 : 10;
	if (alg == FIDO2_COSE_ALG_FNDSA512 || alg == FIDO2_COSE_ALG_FNDSA1024) {
		return FIDO2_SCHEME_FNDSA;
	}
	if (alg == FIDO2_COSE_ALG_FALCON512_R3 || alg == FIDO2_COSE_ALG_FALCON1024_R3) {
		return FIDO2_SCHEME_FALCON_R3;
	}
	return 0;
}

/* 1 if sig is a signature of m's scheme by m's key over msg, and not one
   of the other scheme: FN-DSA: FA_FNDSA_SIG_SIZE bytes, header 0x30+logn,
   fa_fndsa_verify (pure, empty context) accepts, fa_verify (round 3)
   does not; round 3: compressed (header 0x30+logn), fa_verify accepts,
   fa_fndsa_verify does not. */
static int sig_ok(const made *m, const uint8_t *sig, size_t sig_len,
	const uint8_t *msg, size_t msg_len)
{
	static uint8_t tmp[FA_TMPSIZE_FNDSA_VERIFY(10) + FA_TMPSIZE_VERIFY(10)];
	int r3, fn;
	if (sig_len < 1 || sig[0] != 0x30 + m->logn) return 0;
	r3 = fa_verify(NULL, sig, sig_len, FA_SIG_COMPRESSED, m->pk, m->pk_len,
		msg, msg_len, tmp, sizeof tmp);
	fn = fa_fndsa_verify(NULL, sig, sig_len, m->pk, m->pk_len, NULL, 0,
		FA_FNDSA_PH_NONE, msg, msg_len, tmp, sizeof tmp);
	if (m->scheme == FIDO2_SCHEME_FNDSA) {
		return sig_len == FA_FNDSA_SIG_SIZE(m->logn) && fn == FA_OK && r3 != FA_OK;
	}
	return r3 == FA_OK && fn != FA_OK;
}

/* Parses and checks a makeCredential response; verifies the attestation. */
static int check_mc(size_t n, int64_t alg, made *m)
{
	fido2_cbor_item top, fmt, ad, st, a, sig, cose, v;
	uint8_t tbs[4096], rph[32];
	size_t ad_len, off;
	int64_t x;
	m->scheme = alg_scheme(alg, &m->logn);
	if (n < 2 || RESP[0] != 0 || fido2_cbor_check(RESP + 1, n - 1) != 0) return 0;
	fido2_cbor_item_at(RESP + 1, n - 1, &top);
	if (!fido2_cbor_map_int(&top, 1, &fmt) || !fido2_cbor_text_eq(&fmt, "packed")) return 0;
	if (!fido2_cbor_map_int(&top, 2, &ad) || !fido2_cbor_map_int(&top, 3, &st)) return 0;
	if (!fido2_cbor_map_text(&st, "alg", &a) || fido2_cbor_get_int(&a, &x) || x != alg) return 0;
	if (!fido2_cbor_map_text(&st, "sig", &sig) || fido2_cbor_map_text(&st, "x5c", &v)) return 0;
	ad_len = (size_t)ad.val;
	memcpy(tbs, ad.data, ad_len);
	fido2_sha256("example.com", 11, rph);
	if (memcmp(tbs, rph, 32) != 0 || tbs[32] != 0x41) return 0;   /* UP | AT */
	m->counter = ((uint32_t)tbs[33] << 24) | ((uint32_t)tbs[34] << 16)
		| ((uint32_t)tbs[35] << 8) | tbs[36];
	if (memcmp(tbs + 37, A.aaguid, 16) != 0 || tbs[53] != 0 || tbs[54] != FIDO2_CRED_ID_LEN) return 0;
	memcpy(m->id, tbs + 55, FIDO2_CRED_ID_LEN);
	off = 55 + FIDO2_CRED_ID_LEN;
	if (fido2_cbor_check(tbs + off, ad_len - off) != 0) return 0;
	fido2_cbor_item_at(tbs + off, ad_len - off, &cose);
	if (cose.val != 3) return 0;
	if (!fido2_cbor_map_int(&cose, 1, &v) || fido2_cbor_get_int(&v, &x) || x != FIDO2_COSE_KTY_AKP) return 0;
	if (!fido2_cbor_map_int(&cose, 3, &v) || fido2_cbor_get_int(&v, &x) || x != alg) return 0;
	if (!fido2_cbor_map_int(&cose, -1, &v) || v.major != FIDO2_CBOR_BYTES) return 0;
	m->pk_len = (size_t)v.val;
	memcpy(m->pk, v.data, m->pk_len);
	if (m->pk_len != FA_PUBKEY_SIZE(m->logn) || m->pk[0] != m->logn
		|| m->id[0] != m->scheme || m->id[1] != m->logn) return 0;
	memset(tbs + ad_len, 0x11, 32);  /* clientDataHash */
	if (!sig_ok(m, sig.data, sig.val, tbs, ad_len + 32)) return 0;
	/* The same signature over a modified message fails. */
	tbs[ad_len] ^= 1;
	return !sig_ok(m, sig.data, sig.val, tbs, ad_len + 32);
}

/* Checks a getAssertion response signed by pk; returns its counter or 0. */
static uint32_t check_ga(size_t n, const made *m, const uint8_t cdh[32], uint8_t flags,
	fido2_cbor_item *user, uint64_t *ncred)
{
	fido2_cbor_item top, cred, id, ad, sig, v;
	uint8_t tbs[128];
	if (n < 2 || RESP[0] != 0 || fido2_cbor_check(RESP + 1, n - 1) != 0) return 0;
	fido2_cbor_item_at(RESP + 1, n - 1, &top);
	if (!fido2_cbor_map_int(&top, 1, &cred) || !fido2_cbor_map_text(&cred, "id", &id)
		|| id.val != FIDO2_CRED_ID_LEN || memcmp(id.data, m->id, FIDO2_CRED_ID_LEN)) return 0;
	if (!fido2_cbor_map_int(&top, 2, &ad) || ad.val != 37 || ad.data[32] != flags) return 0;
	if (!fido2_cbor_map_int(&top, 3, &sig)) return 0;
	memcpy(tbs, ad.data, 37);
	memcpy(tbs + 37, cdh, 32);
	if (!sig_ok(m, sig.data, sig.val, tbs, 69)) return 0;
	tbs[68] ^= 1;
	if (sig_ok(m, sig.data, sig.val, tbs, 69)) return 0;
	tbs[68] ^= 1;
	if (user && !fido2_cbor_map_int(&top, 4, user)) return 0;
	if (ncred) *ncred = fido2_cbor_map_int(&top, 5, &v) ? v.val : 1;
	return ((uint32_t)tbs[33] << 24) | ((uint32_t)tbs[34] << 16) | ((uint32_t)tbs[35] << 8) | tbs[36];
}

static void test_get_info(void)
{
	fido2_cbor_item top, v, w;
	size_t n;
	REQ[0] = CTAP2_CMD_GET_INFO;
	n = call(REQ, 1);
	CHECK(RESP[0] == 0 && fido2_cbor_check(RESP + 1, n - 1) == 0, "getInfo canonical");
	fido2_cbor_item_at(RESP + 1, n - 1, &top);
	CHECK(fido2_cbor_map_int(&top, 10, &v) && v.val == 4, "four algorithms listed");
	{
		static const int64_t want[4] = { FIDO2_COSE_ALG_FNDSA512,
			FIDO2_COSE_ALG_FNDSA1024, FIDO2_COSE_ALG_FALCON512_R3,
			FIDO2_COSE_ALG_FALCON1024_R3 };
		fido2_cbor_item x;
		int64_t al;
		uint64_t i;
		for (i = 0; i < 4 && i < v.val; i++) {
			CHECK(fido2_cbor_array_at(&v, i, &w) && fido2_cbor_map_text(&w, "alg", &x)
				&& fido2_cbor_get_int(&x, &al) == 0 && al == want[i],
				"algorithm %u: %lld", (unsigned)i, (long long)want[i]);
		}
	}
	CHECK(fido2_cbor_map_int(&top, 5, &v) && v.val == 7609, "maxMsgSize");
	REQ[1] = 0xa0;
	CHECK(call(REQ, 2) == 1 && RESP[0] == CTAP1_ERR_INVALID_LENGTH, "getInfo with parameters");
}

/* A non-discoverable credential's key is regenerated from its seed on
   every cold assertion, possibly by another backend (FALCON_ACCEL_BACKEND,
   or the firmware build): every available backend must derive the same
   key pair from the same seed, in both schemes. */
static void test_keygen_same_on_every_backend(void)
{
	static uint8_t sk0[FA_FNDSA_PRIVKEY_SIZE(9)], pk0[FA_PUBKEY_SIZE(9)];
	static uint8_t sk1[FA_FNDSA_PRIVKEY_SIZE(9)], pk1[FA_PUBKEY_SIZE(9)];
	uint8_t seed[32];
	size_t i;
	int n, fn;
	memset(seed, 0x42, sizeof seed);
	for (fn = 0; fn < 2; fn++) {
		size_t skl = fn ? FA_FNDSA_PRIVKEY_SIZE(9) : FA_PRIVKEY_SIZE(9);
		n = 0;
		for (i = 0; i < fa_backend_count(); i++) {
			const fa_backend *be = fa_backend_at(i);
			fa_shake256_ctx rng;
			int r;
			/* rtl is the co-simulated accelerator: bit-exact with
			   portable (tests/test_backend_rtl.c), far too slow for a
			   keygen here. */
			if (!fa_backend_available(be) || !strcmp(fa_backend_name(be), "rtl")) continue;
			if (fn) {
				r = fa_fndsa_keygen_seed(be, seed, 9, n ? sk1 : sk0, skl,
					n ? pk1 : pk0, sizeof pk0, TMP, sizeof TMP);
			} else {
				fa_shake256_init_prng_from_seed(&rng, seed, 32);
				r = fa_keygen(be, &rng, 9, n ? sk1 : sk0, skl, n ? pk1 : pk0,
					sizeof pk0, TMP, sizeof TMP);
			}
			if (r != FA_OK) {
				CHECK(0, "%s keygen on %s", fn ? "FN-DSA" : "round-3",
					fa_backend_name(be));
				continue;
			}
			if (n) {
				CHECK(!memcmp(sk0, sk1, skl) && !memcmp(pk0, pk1, sizeof pk0),
					"backend %s derives another %s key from the same seed",
					fa_backend_name(be), fn ? "FN-DSA" : "round-3");
			}
			n++;
		}
		CHECK(n >= 1, "no backend available");
		printf("%s keygen from a seed: %d backend(s) agree\n",
			fn ? "FN-DSA" : "round-3", n);
	}
}

/* The expanded-key cache (fido2_auth_set_ek_cache): authenticator B has
   it, A has not; both start from the same state and platform stream, get
   the same requests and must answer the same bytes (fa_fndsa_sign_tree on
   a cached slot = fa_fndsa_sign_seed from the same 40-byte seed; for
   round 3 fa_sign_tree = fa_sign_dyn from the same PRNG state). Checked on
   the way: hits, misses and LRU eviction (2 slots, 3 FN-DSA keys, both
   degrees, then round-3 keys beside them) by the count of expansions, the
   change callback before every change, a slot whose bytes were damaged
   refused by the library and the signature still right (from the private
   key), Reset zeroising the buffer. */
#define FN FIDO2_SCHEME_FNDSA
#define R3 FIDO2_SCHEME_FALCON_R3
static fido2_auth B;
static mem_store MSB;
static test_plat TPB;
static uint8_t TMPB[FIDO2_TMP_SIZE];
static uint8_t EK[FIDO2_EK_CACHE_SIZE(FIDO2_EK_SLOTS)] __attribute__((aligned(8)));
static uint8_t RESPB[8192];
static unsigned ek_changes;

static void ek_changed_cb(void *u)
{
	CHECK(u == &TPB, "change callback gets the platform's user pointer");
	ek_changes++;
}

static int same_on_both(size_t n, const char *what)
{
	size_t na = fido2_ctap2_handle(&A, REQ, n, RESP, sizeof RESP);
	size_t nb = fido2_ctap2_handle(&B, REQ, n, RESPB, sizeof RESPB);
	CHECK(na == nb && memcmp(RESP, RESPB, na) == 0,
		"%s: the same answer with and without the cache", what);
	return na >= 1 && RESP[0] == 0;
}

static int ek_slot_of(unsigned scheme, unsigned logn)
{
	unsigned i;
	int s = -1;
	for (i = 0; i < FIDO2_EK_SLOTS; i++) {
		if (fido2_auth_ek_slot_logn(&B, i) == logn
			&& fido2_auth_ek_slot_scheme(&B, i) == scheme) {
			s = (int)i;
		}
	}
	return s;
}

/* 1 if buf holds a formatted header for n slots and the device state st
   (epoch, fingerprint of the secret recomputed here), and zeros from the
   first metadata record to the end. */
static int ek_empty(const uint8_t *buf, unsigned n, const fido2_dev_state *st)
{
	static const char tag[] = "falcon-accel fido2 ek cache";
	uint8_t m[sizeof tag - 1 + 32], fp[32];
	uint32_t h[8];
	size_t i, nz = 0;
	memcpy(m, tag, sizeof tag - 1);
	memcpy(m + sizeof tag - 1, st->master, 32);
	fido2_sha256(m, sizeof m, fp);
	memcpy(h, buf, sizeof h);
	for (i = FIDO2_EK_META_OFF(0); i < FIDO2_EK_CACHE_SIZE(n); i++) nz += buf[i] != 0;
	return nz == 0 && h[0] == FIDO2_EK_MAGIC && h[1] == FIDO2_EK_VERSION && h[2] == n
		&& h[3] == FIDO2_EK_SLOT_SIZE && h[4] == FIDO2_EK_META_SIZE
		&& h[5] == st->epoch && !memcmp(buf + 24, fp, 8);
}

static void test_ek_cache(void)
{
	static const int64_t a512[] = { FIDO2_COSE_ALG_FNDSA512 };
	static const int64_t a1024[] = { FIDO2_COSE_ALG_FNDSA1024 };
	static const int64_t r512[] = { FIDO2_COSE_ALG_FALCON512_R3 };
	static const int64_t r1024[] = { FIDO2_COSE_ALG_FALCON1024_R3 };
	uint8_t cdh[32];
	unsigned ch;
	int s;

	memset(&MS, 0, sizeof MS);
	memset(&MSB, 0, sizeof MSB);
	test_plat_init(&TP, "ek cache");
	test_plat_init(&TPB, "ek cache");
	boot();
	CHECK(fido2_auth_init(&B, &mem_store_ops, &MSB, &test_platform, &TPB,
		fa_backend_default(), TMPB, sizeof TMPB) == 0, "auth init B");
	memset(EK, 0xa5, sizeof EK);
	fido2_auth_set_ek_cache(&B, EK, sizeof EK - 1, ek_changed_cb);
	CHECK(B.ek_slots == FIDO2_EK_SLOTS - 1, "one byte short: one slot less");
	fido2_auth_set_ek_cache(&B, EK, FIDO2_EK_CACHE_SIZE(1) - 1, ek_changed_cb);
	CHECK(B.ek_slots == 0 && B.ek_buf == NULL, "too small: no cache");
	fido2_auth_set_ek_cache(&B, EK, sizeof EK, ek_changed_cb);
	CHECK(B.ek_slots == FIDO2_EK_SLOTS, "two slots");
	CHECK(ek_empty(EK, FIDO2_EK_SLOTS, &B.st),
		"buffer formatted (header, zeros) when the cache is set");
	memset(EK, 0xa5, sizeof EK);
	memcpy(EK, "FAEC", 4);
	fido2_auth_set_ek_cache(&B, EK, sizeof EK, ek_changed_cb);
	CHECK(ek_empty(EK, FIDO2_EK_SLOTS, &B.st) && !B.ek_adopted,
		"RAM mode formats whatever the buffer held");
	memset(cdh, 0x3c, 32);

	CHECK(same_on_both(mc_req("a.example", "alice", a512, 1, 1, NULL, 0),
		"makeCredential alice 512"), "alice made");
	CHECK(B.ek_expansions == 1, "attestation expanded alice's key");
	ch = ek_changes;
	CHECK(ch >= 1, "change callback before the expansion");
	CHECK(same_on_both(ga_req("a.example", cdh, NULL, 1), "getAssertion alice"),
		"alice asserts");
	CHECK(same_on_both(ga_req("a.example", cdh, NULL, 1), "getAssertion alice again"),
		"alice asserts again");
	CHECK(B.ek_expansions == 1 && ek_changes == ch, "warm: no expansion, no change");
	CHECK(same_on_both(mc_req("b.example", "bob", a1024, 1, 1, NULL, 0),
		"makeCredential bob 1024"), "bob made");
	CHECK(B.ek_expansions == 2 && ek_slot_of(FN, 10) >= 0 && ek_slot_of(FN, 9) >= 0,
		"bob in the second slot, alice kept");
	CHECK(same_on_both(ga_req("a.example", cdh, NULL, 1), "alice after bob"), "alice");
	CHECK(B.ek_expansions == 2, "alice still cached");
	CHECK(same_on_both(mc_req("c.example", "carol", a512, 1, 1, NULL, 0),
		"makeCredential carol 512"), "carol made");
	CHECK(B.ek_expansions == 3 && ek_slot_of(FN, 10) < 0, "carol evicted bob (LRU)");
	CHECK(same_on_both(ga_req("b.example", cdh, NULL, 1), "bob again (cold)"), "bob");
	CHECK(B.ek_expansions == 4 && ek_slot_of(FN, 10) >= 0, "bob re-expanded");
	CHECK(same_on_both(ga_req("c.example", cdh, NULL, 1), "carol (warm)"), "carol");
	CHECK(B.ek_expansions == 4, "carol was kept, alice evicted");

	/* Damage carol's slot: fa_sign_tree refuses it, fa_sign_dyn signs,
	   the slot is dropped and the next assertion expands again. */
	s = ek_slot_of(FN, 9);
	CHECK(s >= 0, "carol's slot");
	EK[FIDO2_EK_SLOT_OFF(FIDO2_EK_SLOTS, s) + 4000] ^= 0x10;
	CHECK(same_on_both(ga_req("c.example", cdh, NULL, 1), "carol, damaged slot"),
		"carol signs through the fallback");
	CHECK(ek_slot_of(FN, 9) < 0 && B.ek_expansions == 4, "damaged slot dropped");
	CHECK(same_on_both(ga_req("c.example", cdh, NULL, 1), "carol re-expanded"),
		"carol");
	CHECK(B.ek_expansions == 5, "carol expanded again");

	/* Round-3 credentials beside FN-DSA ones: dave (round-3 512) takes
	   bob's slot (the least recently used), asserts warm; a damaged slot
	   falls back to fa_sign_dyn; erin (round-3 1024, non-discoverable)
	   then evicts carol, and carol (FN-DSA) evicts dave. */
	CHECK(same_on_both(mc_req("d.example", "dave", r512, 1, 1, NULL, 0),
		"makeCredential dave round-3 512"), "dave made");
	CHECK(B.ek_expansions == 6 && ek_slot_of(R3, 9) >= 0 && ek_slot_of(FN, 9) >= 0
		&& ek_slot_of(FN, 10) < 0, "dave (round 3) beside carol (FN-DSA)");
	CHECK(same_on_both(ga_req("d.example", cdh, NULL, 1), "dave (warm)"), "dave");
	CHECK(B.ek_expansions == 6, "dave warm");
	s = ek_slot_of(R3, 9);
	EK[FIDO2_EK_SLOT_OFF(FIDO2_EK_SLOTS, s) + 4000] ^= 0x10;
	CHECK(same_on_both(ga_req("d.example", cdh, NULL, 1), "dave, damaged slot"),
		"dave signs through the fallback");
	CHECK(ek_slot_of(R3, 9) < 0 && B.ek_expansions == 6, "dave's damaged slot dropped");
	CHECK(same_on_both(mc_req("e.example", "erin", r1024, 1, 0, NULL, 0),
		"makeCredential erin round-3 1024"), "erin made");
	CHECK(ek_slot_of(R3, 10) >= 0 && ek_slot_of(FN, 9) >= 0 && B.ek_expansions == 7,
		"erin in the free slot");
	CHECK(same_on_both(ga_req("d.example", cdh, NULL, 1), "dave re-expanded"), "dave");
	CHECK(ek_slot_of(R3, 9) >= 0 && ek_slot_of(FN, 9) < 0 && B.ek_expansions == 8,
		"dave evicted carol");
	CHECK(same_on_both(ga_req("c.example", cdh, NULL, 1), "carol after dave"), "carol");
	CHECK(ek_slot_of(FN, 9) >= 0 && ek_slot_of(R3, 10) < 0 && B.ek_expansions == 9,
		"carol evicted erin");

	/* Reset zeroises every slot. */
	ch = ek_changes;
	REQ[0] = CTAP2_CMD_RESET;
	CHECK(same_on_both(1, "reset"), "reset");
	CHECK(ek_empty(EK, FIDO2_EK_SLOTS, &B.st) && B.st.epoch == A.st.epoch
		&& ek_slot_of(FN, 9) < 0 && ek_slot_of(FN, 10) < 0 && ek_slot_of(R3, 9) < 0
		&& ek_changes > ch, "reset zeroised the cache (header: the new epoch)");
}

/* The persistent expanded-key cache (fido2_auth_set_ek_cache_persistent):
   authenticator P on the store MSP and the buffer PEK, both kept across
   "power-ups" (fido2_auth_init again on the same store and buffer, RAM
   state lost). Adopted after re-init (no expansion for the keys it
   holds, both kinds of credential), the LRU clock continuing across
   re-inits, a damaged header or metadata formatting it, a slot marked
   unused never used (its bytes zeroised at adoption), the states a power
   cut can leave during an expansion (used = 0 with half-written bytes)
   re-expanded, Reset wiping it; every signature verified. */
static fido2_auth P;
static mem_store MSP;
static test_plat TPP;
static uint8_t PEK[FIDO2_EK_CACHE_SIZE(FIDO2_EK_SLOTS)] __attribute__((aligned(8)));
static uint8_t PSNAP[sizeof PEK] __attribute__((aligned(8)));

static void pboot(void)
{
	CHECK(fido2_auth_init(&P, &mem_store_ops, &MSP, &test_platform, &TPP,
		fa_backend_default(), TMPB, sizeof TMPB) == 0, "auth init P");
	fido2_auth_set_ek_cache_persistent(&P, PEK, sizeof PEK, NULL);
	CHECK(P.ek_slots == FIDO2_EK_SLOTS, "P: two slots");
}

static size_t pcall(size_t n)
{
	return fido2_ctap2_handle(&P, REQ, n, RESP, sizeof RESP);
}

/* Slot of P in use for credential m (by its ID, as the core finds it). */
static int pslot_of(const made *m)
{
	uint32_t meta[4];
	unsigned i;
	for (i = 0; i < FIDO2_EK_SLOTS; i++) {
		memcpy(meta, PEK + FIDO2_EK_META_OFF(i), sizeof meta);
		if (meta[0] == 1 && meta[1] == m->logn && meta[3] == m->scheme
			&& !memcmp(PEK + FIDO2_EK_META_OFF(i) + 16,
			m->id, FIDO2_CRED_ID_LEN)) {
			return (int)i;
		}
	}
	return -1;
}

/* An assertion of m by P: verified, counter increasing; returns the
   number of expansions it made. */
static uint32_t passert(made *m, const char *what)
{
	uint8_t cdh[32];
	uint32_t e0 = P.ek_expansions, c;
	memset(cdh, (int)(0x40 + (m->counter & 0x3f)), 32);
	c = check_ga(pcall(ga_req("example.com", cdh, m->id, 1)), m, cdh, 0x01, NULL, NULL);
	CHECK(c > m->counter, "%s: assertion verifies, counter %u > %u", what, c, m->counter);
	m->counter = c;
	return P.ek_expansions - e0;
}

static void put32(uint8_t *buf, size_t off, uint32_t v) { memcpy(buf + off, &v, 4); }

static void test_ek_persistent(void)
{
	static const int64_t a512[] = { FIDO2_COSE_ALG_FNDSA512 };
	static made alice, bob, carol;
	static const struct { size_t off; uint32_t v; const char *what; } bad[] = {
		{ 0, 0x43454147u, "magic" },
		{ 4, 1, "version 1 (before FN-DSA)" },
		{ 8, 3, "slot count" },
		{ 12, FIDO2_EK_SLOT_SIZE - 8, "slot size" },
		{ 12, FA_EXPANDED_KEY_SIZE(10), "slot size of version 1" },
		{ 16, FIDO2_EK_META_SIZE + 8, "metadata size" },
		{ 20, 77, "epoch" },
		{ 24, 0, "secret fingerprint, low word" },
		{ 28, 1, "secret fingerprint, high word" },
		{ FIDO2_EK_META_OFF(0), 2, "used = 2" },
		{ FIDO2_EK_META_OFF(1), 0xffffffffu, "used = ~0 (erased)" },
		{ FIDO2_EK_META_OFF(0) + 4, 11, "logn 11" },
		{ FIDO2_EK_META_OFF(1) + 4, 8, "logn 8" },
		{ FIDO2_EK_META_OFF(1) + 12, 3, "scheme 3" },
		{ FIDO2_EK_META_OFF(0) + 12, 0, "scheme 0 in a used slot" },
	};
	size_t i, k;
	int s;

	memset(&MSP, 0, sizeof MSP);
	test_plat_init(&TPP, "ek persistent");
	memset(PEK, 0xff, sizeof PEK);          /* erased memory */
	pboot();
	CHECK(!P.ek_adopted && ek_empty(PEK, FIDO2_EK_SLOTS, &P.st),
		"erased buffer formatted");

	/* alice discoverable, bob non-discoverable (key from the ID) */
	CHECK(check_mc(pcall(mc_req("example.com", "alice", a512, 1, 1, NULL, 0)),
		FIDO2_COSE_ALG_FNDSA512, &alice), "alice made");
	CHECK(check_mc(pcall(mc_req("example.com", "bob", a512, 1, 0, NULL, 0)),
		FIDO2_COSE_ALG_FNDSA512, &bob), "bob made");
	CHECK(P.ek_expansions == 2 && MSP.n == 1, "both expanded, alice stored");
	CHECK(fido2_auth_ek_slot_logn(&P, 0) == 9 && fido2_auth_ek_slot_logn(&P, 1) == 9
		&& pslot_of(&alice) == 0 && pslot_of(&bob) == 1, "two slots in use, by ID");
	for (i = 0, k = 0; i < sizeof PEK; i++) {
		k += i + FA_FNDSA_PRIVKEY_SIZE(9) <= sizeof PEK
			&& !memcmp(PEK + i, MSP.creds[0].sk, FA_FNDSA_PRIVKEY_SIZE(9));
	}
	CHECK(k == 0, "no encoded private key in the cache buffer");

	/* power-up: adopted, both kinds sign without an expansion */
	pboot();
	CHECK(P.ek_adopted, "adopted after re-init");
	CHECK(passert(&alice, "alice after power-up") == 0, "discoverable: no expansion");
	CHECK(passert(&bob, "bob after power-up") == 0, "non-discoverable: no expansion");

	/* LRU across a re-init: alice used last; carol evicts bob */
	pboot();
	CHECK(P.ek_adopted && passert(&alice, "alice again") == 0, "alice warm");
	pboot();
	CHECK(check_mc(pcall(mc_req("example.com", "carol", a512, 1, 1, NULL, 0)),
		FIDO2_COSE_ALG_FNDSA512, &carol), "carol made");
	CHECK(P.ek_expansions == 1 && pslot_of(&bob) < 0 && pslot_of(&alice) >= 0,
		"carol evicted bob, the least recently used across re-inits");
	pboot();
	CHECK(passert(&alice, "alice") == 0 && passert(&carol, "carol") == 0,
		"alice and carol cached");
	CHECK(passert(&bob, "bob evicted") == 1, "bob expanded again (evicted: slow path)");
	CHECK(pslot_of(&alice) < 0 && pslot_of(&carol) >= 0 && pslot_of(&bob) >= 0,
		"bob took alice's slot");
	memcpy(PSNAP, PEK, sizeof PEK);        /* carol and bob cached */

	/* a damaged header or metadata: formatted, nothing adopted */
	for (k = 0; k < sizeof bad / sizeof bad[0]; k++) {
		memcpy(PEK, PSNAP, sizeof PEK);
		put32(PEK, bad[k].off, bad[k].v);
		pboot();
		CHECK(!P.ek_adopted && ek_empty(PEK, FIDO2_EK_SLOTS, &P.st),
			"%s: formatted", bad[k].what);
	}
	CHECK(passert(&carol, "carol after a format") == 1, "formatted: carol expanded");

	/* a cache of another device secret (a device state created anew, the
	   same epoch) is not adopted */
	memcpy(PEK, PSNAP, sizeof PEK);
	MSP.st.master[5] ^= 1;
	pboot();
	CHECK(!P.ek_adopted && ek_empty(PEK, FIDO2_EK_SLOTS, &P.st),
		"another device secret: formatted");
	MSP.st.master[5] ^= 1;

	/* a slot marked unused is never used (and zeroised at adoption) */
	memcpy(PEK, PSNAP, sizeof PEK);
	s = pslot_of(&carol);
	CHECK(s >= 0, "carol's slot in the snapshot");
	put32(PEK, FIDO2_EK_META_OFF(s), 0);
	pboot();
	CHECK(P.ek_adopted && pslot_of(&carol) < 0, "adopted without carol");
	for (i = 0, k = 0; i < FIDO2_EK_SLOT_SIZE; i++) k += PEK[FIDO2_EK_SLOT_OFF(FIDO2_EK_SLOTS, s) + i] != 0;
	CHECK(k == 0, "the unused slot's bytes zeroised at adoption");
	CHECK(passert(&bob, "bob") == 0 && passert(&carol, "carol unused") == 1,
		"bob adopted, carol expanded again");

	/* torn expansion: used = 0, the key copy done, the expanded key half
	   written (the rest garbage), as a power cut leaves it */
	memcpy(PEK, PSNAP, sizeof PEK);
	s = pslot_of(&bob);
	put32(PEK, FIDO2_EK_META_OFF(s), 0);
	memset(PEK + FIDO2_EK_SLOT_OFF(FIDO2_EK_SLOTS, s) + FIDO2_EK_SLOT_SIZE / 2, 0x5a,
		FIDO2_EK_SLOT_SIZE / 2);
	pboot();
	CHECK(P.ek_adopted && passert(&bob, "bob torn") == 1, "torn slot: bob re-expanded");
	CHECK(pslot_of(&bob) >= 0 && !memcmp(PEK + FIDO2_EK_SLOT_OFF(FIDO2_EK_SLOTS,
		pslot_of(&bob)), PSNAP + FIDO2_EK_SLOT_OFF(FIDO2_EK_SLOTS, s),
		FA_FNDSA_EXPANDED_KEY_SIZE(9)), "re-expanded bytes equal the complete expansion");
	/* torn ID copy: used = 0, the expanded key complete, the ID in the
	   metadata half written */
	memcpy(PEK, PSNAP, sizeof PEK);
	put32(PEK, FIDO2_EK_META_OFF(s), 0);
	memset(PEK + FIDO2_EK_META_OFF(s) + 16 + 31, 0, FIDO2_CRED_ID_LEN - 31);
	pboot();
	CHECK(P.ek_adopted && passert(&bob, "bob, torn copy") == 1, "torn copy: re-expanded");
	/* a used slot whose bytes rotted: fa_sign_tree refuses it, the
	   signature comes from fa_sign_dyn, the slot is dropped */
	memcpy(PEK, PSNAP, sizeof PEK);
	PEK[FIDO2_EK_SLOT_OFF(FIDO2_EK_SLOTS, s) + 5000] ^= 0x01;
	pboot();
	CHECK(P.ek_adopted && passert(&bob, "bob, rotted slot") == 0 && pslot_of(&bob) < 0,
		"rotted slot refused, signed anyway, dropped");

	/* Reset wipes the cache; the next power-up adopts the empty cache of
	   the new epoch */
	memcpy(PEK, PSNAP, sizeof PEK);
	pboot();
	REQ[0] = CTAP2_CMD_RESET;
	CHECK(pcall(1) == 1 && RESP[0] == 0, "reset");
	CHECK(ek_empty(PEK, FIDO2_EK_SLOTS, &P.st), "reset zeroised every slot");
	pboot();
	CHECK(P.ek_adopted && ek_empty(PEK, FIDO2_EK_SLOTS, &P.st),
		"empty cache of the new epoch adopted");
	/* the state of a power cut inside Reset after the new epoch was
	   committed, before the header followed: formatted at power-up */
	memcpy(PEK, PSNAP, sizeof PEK);
	pboot();
	CHECK(!P.ek_adopted && ek_empty(PEK, FIDO2_EK_SLOTS, &P.st),
		"a cache of the old epoch is formatted, not adopted");
}

/* Power cuts in the persistent cache's write sequence: a workload
   (makeCredential, getAssertion with hits, misses and evictions, both
   kinds of credential, Reset) runs with a persist hook that snapshots the
   cache and the store at every ordering point; a cut between points k and
   k+1 leaves the stores before k done and any subset of those up to k+1,
   modelled as snapshot k with a random subset (and a prefix) of the bytes
   that differ in snapshot k+1. Every such state must boot (adopted or
   formatted) with no slot marked used whose bytes are not a complete
   expansion of the key its ID names: the slot's scheme is the
   credential's, fa_fndsa_sign_tree (FN-DSA) or fa_sign_tree (round 3)
   accepts the slot and the signature verifies under that credential's
   public key, created in the device epoch the state boots with. The
   workload has credentials of both schemes. */
#define CUT_MAX 64
static uint8_t CUT_EK[CUT_MAX][sizeof PEK] __attribute__((aligned(8)));
static mem_store CUT_MS[CUT_MAX];
static unsigned ncut;

static void cut_snap(void *u)
{
	(void)u;
	if (ncut < CUT_MAX) {
		memcpy(CUT_EK[ncut], PEK, sizeof PEK);
		CUT_MS[ncut] = MSP;
	}
	ncut++;
}

static void test_ek_power_cuts(void)
{
	/* both schemes in the workload */
	static const int64_t alg[4] = { FIDO2_COSE_ALG_FNDSA512, FIDO2_COSE_ALG_FALCON512_R3,
		FIDO2_COSE_ALG_FNDSA512, FIDO2_COSE_ALG_FALCON512_R3 };
	static made m[4];
	static uint32_t m_epoch[4];
	static const char *const names[4] = { "ann", "ben", "cy", "dee" };
	static const int rk[4] = { 1, 0, 1, 1 };
	static uint8_t sig[FIDO2_SIG_MAX], vtmp[FA_TMPSIZE_VERIFY(9)];
	uint8_t ss[40];
	fa_shake256_ctx rng;
	uint32_t x = 12345;
	unsigned k, v, i, j, checked = 0, adopted = 0;

	memset(&MSP, 0, sizeof MSP);
	test_plat_init(&TPP, "ek power cuts");
	memset(PEK, 0xff, sizeof PEK);
	CHECK(fido2_auth_init(&P, &mem_store_ops, &MSP, &test_platform, &TPP,
		fa_backend_default(), TMPB, sizeof TMPB) == 0, "auth init P");
	ncut = 0;
	P.ek_persist = cut_snap;
	fido2_auth_set_ek_cache_persistent(&P, PEK, sizeof PEK, NULL);
	for (i = 0; i < 3; i++) {
		CHECK(check_mc(pcall(mc_req("example.com", names[i], &alg[i], 1, rk[i], NULL, 0)),
			alg[i], &m[i]), "%s made", names[i]);
		m_epoch[i] = P.st.epoch;
		if (i == 1) {
			passert(&m[0], "ann");
		}
	}
	passert(&m[1], "ben evicted");          /* evicts ann */
	passert(&m[0], "ann evicted");          /* evicts cy */
	REQ[0] = CTAP2_CMD_RESET;
	CHECK(pcall(1) == 1 && RESP[0] == 0, "reset");
	CHECK(check_mc(pcall(mc_req("example.com", names[3], &alg[3], 1, rk[3], NULL, 0)),
		alg[3], &m[3]), "dee made");
	m_epoch[3] = P.st.epoch;
	CHECK(ncut >= 20 && ncut <= CUT_MAX, "%u ordering points recorded", ncut);
	if (ncut > CUT_MAX) ncut = CUT_MAX;

	fa_shake256_init_prng_from_seed(&rng, "cuts", 4);
	for (k = 0; k < ncut; k++) {
		for (v = 0; v < 3; v++) {
			/* v = 0: the snapshot itself; 1: random bytes of the next
			   one; 2: a prefix of the next one's changes */
			size_t lim;
			if (v > 0 && k + 1 >= ncut) break;
			memcpy(PEK, CUT_EK[k], sizeof PEK);
			x = x * 1103515245u + 12345u;
			lim = (size_t)(x >> 8) % sizeof PEK;
			for (i = 0; v > 0 && i < sizeof PEK; i++) {
				if (v == 1) {
					x = x * 1103515245u + 12345u;
					if ((x >> 16) & 1) PEK[i] = CUT_EK[k + 1][i];
				} else if (i < lim) {
					PEK[i] = CUT_EK[k + 1][i];
				}
			}
			MSP = CUT_MS[k];
			CHECK(fido2_auth_init(&P, &mem_store_ops, &MSP, &test_platform, &TPP,
				fa_backend_default(), TMPB, sizeof TMPB) == 0, "cut %u: init", k);
			fido2_auth_set_ek_cache_persistent(&P, PEK, sizeof PEK, NULL);
			adopted += (unsigned)P.ek_adopted;
			for (i = 0; i < FIDO2_EK_SLOTS; i++) {
				const uint8_t *id = PEK + FIDO2_EK_META_OFF(i) + 16;
				size_t sl = sizeof sig;
				if (fido2_auth_ek_slot_logn(&P, i) == 0) continue;
				for (j = 0; j < 4 && memcmp(m[j].id, id, FIDO2_CRED_ID_LEN); j++) {}
				CHECK(j < 4 && m_epoch[j] == P.st.epoch,
					"cut %u.%u: slot %u used for a credential of this epoch", k, v, i);
				if (j >= 4) continue;
				CHECK(fido2_auth_ek_slot_scheme(&P, i) == m[j].scheme,
					"cut %u.%u: slot %u of %s's scheme", k, v, i, names[j]);
				if (m[j].scheme == FIDO2_SCHEME_FNDSA) {
					fa_shake256_extract(&rng, ss, sizeof ss);
					CHECK(fa_fndsa_sign_tree(NULL, NULL, ss, sig,
						FA_FNDSA_SIG_SIZE(9), PEK + FIDO2_EK_SLOT_OFF(FIDO2_EK_SLOTS, i),
						NULL, 0, FA_FNDSA_PH_NONE, "cut", 3, TMPB, sizeof TMPB) == FA_OK
						&& fa_fndsa_verify(NULL, sig, FA_FNDSA_SIG_SIZE(9), m[j].pk,
							m[j].pk_len, NULL, 0, FA_FNDSA_PH_NONE, "cut", 3,
							vtmp, sizeof vtmp) == FA_OK,
						"cut %u.%u: slot %u (%s) is a complete expansion", k, v, i,
						names[j]);
				} else {
					CHECK(fa_sign_tree(NULL, &rng, sig, &sl, FA_SIG_COMPRESSED,
						PEK + FIDO2_EK_SLOT_OFF(FIDO2_EK_SLOTS, i), "cut", 3,
						TMPB, sizeof TMPB) == FA_OK
						&& fa_verify(NULL, sig, sl, FA_SIG_COMPRESSED, m[j].pk,
							m[j].pk_len, "cut", 3, vtmp, sizeof vtmp) == FA_OK,
						"cut %u.%u: slot %u (%s) is a complete expansion", k, v, i,
						names[j]);
				}
				checked++;
			}
		}
	}
	CHECK(checked > ncut && adopted > ncut, "cuts: %u used slots checked, %u states adopted",
		checked, adopted);
	printf("ek power cuts: %u ordering points, %u used slots checked, %u states adopted\n",
		ncut, checked, adopted);
}

/* The seed a credential ID wraps (the authenticator's wrap key, the rpId
   hash and the ID's header bytes as associated data): 0 or -1. */
static int open_id(const fido2_auth *a, const char *rp, const uint8_t *id,
	uint8_t seed[32])
{
	uint8_t aad[34];
	fido2_sha256(rp, strlen(rp), aad);
	aad[32] = id[0];
	aad[33] = id[1];
	memcpy(seed, id + 14, 32);
	return fido2_aead_open(a->wrap_key, id + 2, aad, 34, seed, 32, id + 46);
}

/* FN-DSA exactly: the credential's key pair is fa_fndsa_keygen_seed's from
   the 32-byte seed its ID wraps (the COSE key's pub is its public key,
   the stored record its private key), and a signature is
   fa_fndsa_sign_seed's, pure with an empty context, over authenticatorData
   || clientDataHash, from the 40 bytes the platform's RNG gave for it
   (the test platform is a SHAKE256 stream: a copy of it taken before the
   request yields them) -- byte for byte, attestation and assertions, with
   and without the expanded-key cache; with a context or pre-hashed the
   bytes differ. A round-3 credential: fa_keygen from the SHAKE256 PRNG
   of the seed, fa_sign_dyn from the PRNG of the next 48 bytes. Then the
   scheme byte of an ID is authenticated both ways, and a stored record
   whose scheme disagrees with its ID is refused. */
static void test_exact(void)
{
	static const int64_t algs[4] = { FIDO2_COSE_ALG_FNDSA512, FIDO2_COSE_ALG_FNDSA1024,
		FIDO2_COSE_ALG_FALCON512_R3, FIDO2_COSE_ALG_FALCON1024_R3 };
	static uint8_t sk[FA_FNDSA_PRIVKEY_SIZE(10)], pk[FA_PUBKEY_SIZE(10)];
	static uint8_t sig[FIDO2_SIG_MAX];
	static made m[4];
	static uint8_t ekbuf[FIDO2_EK_CACHE_SIZE(FIDO2_EK_SLOTS)] __attribute__((aligned(8)));
	uint8_t seed[32], ss[48], cdh[32], tbs[80];
	fido2_cbor_item top, ad, sg;
	fa_shake256_ctx before, rng;
	unsigned k, round;
	size_t n, sl;
	int r;

	memset(&MS, 0, sizeof MS);
	test_plat_init(&TP, "exact");
	boot();
	for (round = 0; round < 2; round++) {
	for (k = 0; k < 4; k++) {
		unsigned logn, sch = alg_scheme(algs[k], &logn);
		size_t skl = sch == FIDO2_SCHEME_FNDSA ? FA_FNDSA_PRIVKEY_SIZE(logn)
			: FA_PRIVKEY_SIZE(logn);
		char user[8];
		if (round == 1 && k == 0) {
			/* the second round with the expanded-key cache */
			fido2_auth_set_ek_cache(&A, ekbuf, sizeof ekbuf, NULL);
		}
		snprintf(user, sizeof user, "u%u%u", round, k);
		n = call(REQ, mc_req("example.com", user, &algs[k], 1, 1, NULL, 0));
		CHECK(check_mc(n, algs[k], &m[k]) && m[k].scheme == sch,
			"exact %u: alg %lld made", k, (long long)algs[k]);
		CHECK(open_id(&A, "example.com", m[k].id, seed) == 0,
			"exact %u: the ID opens", k);
		if (sch == FIDO2_SCHEME_FNDSA) {
			r = fa_fndsa_keygen_seed(NULL, seed, logn, sk, skl, pk, sizeof pk,
				TMPB, sizeof TMPB);
		} else {
			fa_shake256_init_prng_from_seed(&rng, seed, 32);
			r = fa_keygen(NULL, &rng, logn, sk, skl, pk, sizeof pk, TMPB, sizeof TMPB);
		}
		CHECK(r == FA_OK && !memcmp(pk, m[k].pk, m[k].pk_len),
			"exact %u: the COSE key is the seeded key generation's public key", k);
		CHECK(MS.n >= 1 && !memcmp(MS.creds[MS.n - 1].id, m[k].id, FIDO2_CRED_ID_LEN)
			&& !memcmp(MS.creds[MS.n - 1].sk, sk, skl)
			&& MS.creds[MS.n - 1].scheme == sch && MS.creds[MS.n - 1].logn == logn,
			"exact %u: the stored record holds that private key and scheme", k);

		/* an assertion, re-signed here from the same RNG bytes */
		memset(cdh, (int)(0x20 + k), 32);
		before = TP.rng;
		n = call(REQ, ga_req("example.com", cdh, m[k].id, 1));
		CHECK(check_ga(n, &m[k], cdh, 0x01, NULL, NULL) > 0,
			"exact %u: assertion verifies", k);
		fido2_cbor_item_at(RESP + 1, n - 1, &top);
		if (!fido2_cbor_map_int(&top, 2, &ad) || !fido2_cbor_map_int(&top, 3, &sg)
			|| ad.val != 37) {
			CHECK(0, "exact %u: assertion parsed", k);
			continue;
		}
		memcpy(tbs, ad.data, 37);
		memcpy(tbs + 37, cdh, 32);
		sl = sizeof sig;
		if (sch == FIDO2_SCHEME_FNDSA) {
			uint8_t h[32];
			fa_shake256_extract(&before, ss, 40);
			r = fa_fndsa_sign_seed(NULL, ss, sig, FA_FNDSA_SIG_SIZE(logn), sk, skl,
				NULL, 0, FA_FNDSA_PH_NONE, tbs, 69, TMPB, sizeof TMPB);
			sl = FA_FNDSA_SIG_SIZE(logn);
			CHECK(r == FA_OK && sg.val == sl && !memcmp(sig, sg.data, sl),
				"exact %u: the signature is fa_fndsa_sign_seed's (pure, empty"
				" context) from the RNG's 40 bytes", k);
			r = fa_fndsa_sign_seed(NULL, ss, sig, sl, sk, skl, "x", 1,
				FA_FNDSA_PH_NONE, tbs, 69, TMPB, sizeof TMPB);
			CHECK(r == FA_OK && memcmp(sig, sg.data, sl) != 0,
				"exact %u: not the one with a context", k);
			fa_sha256(h, tbs, 69);
			r = fa_fndsa_sign_seed(NULL, ss, sig, sl, sk, skl, NULL, 0,
				FA_FNDSA_PH_SHA256, h, 32, TMPB, sizeof TMPB);
			CHECK(r == FA_OK && memcmp(sig, sg.data, sl) != 0,
				"exact %u: not the pre-hashed one", k);
		} else {
			fa_shake256_extract(&before, ss, 48);
			fa_shake256_init_prng_from_seed(&rng, ss, 48);
			r = fa_sign_dyn(NULL, &rng, sig, &sl, FA_SIG_COMPRESSED, sk, skl,
				tbs, 69, TMPB, sizeof TMPB);
			CHECK(r == FA_OK && sg.val == sl && !memcmp(sig, sg.data, sl),
				"exact %u: the signature is fa_sign_dyn's from the RNG's 48 bytes", k);
		}
	}
	}

	/* the scheme byte is authenticated: an FN-DSA ID with 0x01, a round-3
	   ID with 0x02, do not open */
	for (k = 0; k < 4; k += 2) {
		made t = m[k];
		t.id[0] ^= 3;    /* 1 <-> 2 */
		memset(cdh, 0x77, 32);
		n = call(REQ, ga_req("example.com", cdh, t.id, 1));
		CHECK(n == 1 && RESP[0] == CTAP2_ERR_NO_CREDENTIALS,
			"exact %u: the ID with the other scheme byte does not open", k);
	}
	/* a stored record of another scheme than its ID: refused, not signed */
	MS.creds[MS.n - 1].scheme = FIDO2_SCHEME_FNDSA;    /* m[3] is round 3 */
	n = call(REQ, ga_req("example.com", cdh, m[3].id, 1));
	CHECK(n == 1 && RESP[0] == CTAP1_ERR_OTHER, "record/ID scheme mismatch refused");
	MS.creds[MS.n - 1].scheme = FIDO2_SCHEME_FALCON_R3;
	CHECK(check_ga(call(REQ, ga_req("example.com", cdh, m[3].id, 1)), &m[3], cdh,
		0x01, NULL, NULL) > 0, "and signs again once it agrees");
	memset(&MS, 0, sizeof MS);
}

/* rpId validation: makeCredential and getAssertion with an rpId of the
   given bytes answer CTAP1_ERR_INVALID_PARAMETER before any user presence,
   key or store access (ask counts the presence requests). */
static size_t rp_req(uint8_t cmd, const char *rp, size_t rp_len)
{
	fido2_cbor_enc e;
	uint8_t cdh[32];
	static const int64_t alg = FIDO2_COSE_ALG_FNDSA512;
	memset(cdh, 0x22, 32);
	REQ[0] = cmd;
	fido2_cbor_enc_init(&e, REQ + 1, sizeof REQ - 1);
	if (cmd == CTAP2_CMD_GET_ASSERTION) {
		fido2_cbor_put_map(&e, 2);
		fido2_cbor_put_uint(&e, 1); fido2_cbor_put_text(&e, rp, rp_len);
		fido2_cbor_put_uint(&e, 2); fido2_cbor_put_bytes(&e, cdh, 32);
		return 1 + e.len;
	}
	fido2_cbor_put_map(&e, 4);
	fido2_cbor_put_uint(&e, 1); fido2_cbor_put_bytes(&e, cdh, 32);
	fido2_cbor_put_uint(&e, 2); fido2_cbor_put_map(&e, 1);
	fido2_cbor_put_textz(&e, "id"); fido2_cbor_put_text(&e, rp, rp_len);
	fido2_cbor_put_uint(&e, 3); fido2_cbor_put_map(&e, 1);
	fido2_cbor_put_textz(&e, "id"); fido2_cbor_put_bytes(&e, "u", 1);
	fido2_cbor_put_uint(&e, 4); fido2_cbor_put_array(&e, 1);
	fido2_cbor_put_map(&e, 2);
	fido2_cbor_put_textz(&e, "alg"); fido2_cbor_put_int(&e, alg);
	fido2_cbor_put_textz(&e, "type"); fido2_cbor_put_textz(&e, "public-key");
	return 1 + e.len;
}

static void test_rp_ids(void)
{
	static char longid[5001];
	static const struct { const char *s; size_t n; } bad[] = {
		{ "", 0 }, { "a\0b.example", 11 }, { "Example.com", 11 },
		{ "a..b", 4 }, { ".a.b", 4 }, { "a.b.", 4 }, { "-a.example", 10 },
		{ "a-.example", 10 }, { "a b.example", 11 }, { "a_b.example", 11 },
		{ "127.0.0.1", 9 }, { "ex\xc3\xa9.example", 12 }, { "a\nb", 3 },
	};
	static const char *good[] = { "localhost", "example.com", "xn--bcher-kva.example",
		"a-b.c0m", "r0-1.example" };
	char label[70];
	size_t i, n;
	int c;

	memset(longid, 'a', sizeof longid);
	for (c = 0; c < 2; c++) {
		uint8_t cmd = c ? CTAP2_CMD_GET_ASSERTION : CTAP2_CMD_MAKE_CREDENTIAL;
		uint32_t counter = A.counter;
		int before = MS.n;
		for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
			n = call(REQ, rp_req(cmd, bad[i].s, bad[i].n));
			CHECK(n == 1 && RESP[0] == CTAP1_ERR_INVALID_PARAMETER,
				"cmd %u: rpId %zu refused (0x%02x)", cmd, i, RESP[0]);
		}
		n = call(REQ, rp_req(cmd, longid, 5000));
		CHECK(n == 1 && RESP[0] == CTAP1_ERR_INVALID_PARAMETER, "cmd %u: 5,000-byte rpId", cmd);
		n = call(REQ, rp_req(cmd, longid, 254));
		CHECK(n == 1 && RESP[0] == CTAP1_ERR_INVALID_PARAMETER, "cmd %u: 254-byte rpId", cmd);
		memset(label, 'b', sizeof label);
		label[64] = '.'; label[65] = 'c'; label[66] = 'o';
		n = call(REQ, rp_req(cmd, label, 67));
		CHECK(n == 1 && RESP[0] == CTAP1_ERR_INVALID_PARAMETER, "cmd %u: 64-byte label", cmd);
		CHECK(A.counter == counter && MS.n == before, "cmd %u: nothing signed or stored", cmd);
		for (i = 0; i < sizeof good / sizeof good[0]; i++) {
			n = call(REQ, rp_req(cmd, good[i], strlen(good[i])));
			CHECK(RESP[0] != CTAP1_ERR_INVALID_PARAMETER, "cmd %u: %s accepted (0x%02x)",
				cmd, good[i], RESP[0]);
		}
		/* 253 bytes in labels of 63: the longest accepted. */
		memset(longid, 'a', 253);
		longid[63] = longid[127] = longid[191] = '.';
		n = call(REQ, rp_req(cmd, longid, 253));
		CHECK(RESP[0] != CTAP1_ERR_INVALID_PARAMETER, "cmd %u: 253-byte rpId accepted", cmd);
		memset(longid, 'a', sizeof longid);
	}
}

int main(void)
{
	static const int64_t a512[] = { FIDO2_COSE_ALG_FNDSA512 };
	static const int64_t a1024[] = { -7, FIDO2_COSE_ALG_FNDSA1024 };
	static const int64_t es256[] = { -7 };
	made m1, m2, m3, m4;
	uint8_t cdh[32];
	uint32_t c, c_prev;
	uint64_t ncred;
	fido2_cbor_item user;
	size_t n;

	test_keygen_same_on_every_backend();
	test_ek_cache();
	test_ek_persistent();
	test_ek_power_cuts();
	test_exact();
	test_plat_init(&TP, "ctap2 test");
	boot();
	test_get_info();
	test_rp_ids();
	memset(cdh, 0x5a, 32);

	/* Non-discoverable FN-DSA-512. */
	n = call(REQ, mc_req("example.com", "alice", a512, 1, 0, NULL, 0));
	CHECK(check_mc(n, FIDO2_COSE_ALG_FNDSA512, &m1) && m1.pk_len == 897,
		"makeCredential FN-DSA-512 + packed self attestation");
	CHECK(MS.n == 0, "non-discoverable not stored");
	c_prev = m1.counter;
	c = check_ga(call(REQ, ga_req("example.com", cdh, m1.id, 1)), &m1, cdh, 0x01, NULL, NULL);
	CHECK(c > c_prev, "getAssertion (allow list) verifies, counter %u > %u", c, c_prev);
	c_prev = c;
	/* Cold path: the key is re-derived from the wrapped seed. */
	memset(A.cache, 0, sizeof A.cache);
	c = check_ga(call(REQ, ga_req("example.com", cdh, m1.id, 0)), &m1, cdh, 0x00, NULL, NULL);
	CHECK(c > c_prev, "up=false assertion from the re-derived key");
	c_prev = c;
	/* Wrong rpId: the ID does not unwrap. */
	n = call(REQ, ga_req("example.org", cdh, m1.id, 1));
	CHECK(n == 1 && RESP[0] == CTAP2_ERR_NO_CREDENTIALS, "wrong rpId");
	/* A tampered credential ID does not unwrap either. */
	m2 = m1;
	m2.id[20] ^= 4;
	n = call(REQ, ga_req("example.com", cdh, m2.id, 1));
	CHECK(n == 1 && RESP[0] == CTAP2_ERR_NO_CREDENTIALS, "tampered credential ID");

	/* FN-DSA-1024 chosen from [ES256, FN-DSA-1024]. */
	n = call(REQ, mc_req("example.com", "bob", a1024, 2, 1, NULL, 0));
	CHECK(check_mc(n, FIDO2_COSE_ALG_FNDSA1024, &m2) && m2.pk_len == 1793,
		"makeCredential FN-DSA-1024 discoverable");
	CHECK(MS.n == 1, "discoverable stored");
	n = call(REQ, mc_req("example.com", "bob", es256, 1, 0, NULL, 0));
	CHECK(n == 1 && RESP[0] == CTAP2_ERR_UNSUPPORTED_ALGORITHM, "ES256 only");
	/* the relying party's order: round-3 Falcon-1024 (private use) first */
	{
		static const int64_t r3first[] = { -7, FIDO2_COSE_ALG_FALCON1024_R3,
			FIDO2_COSE_ALG_FNDSA512 };
		made mr;
		n = call(REQ, mc_req("example.com", "ray", r3first, 3, 0, NULL, 0));
		CHECK(check_mc(n, FIDO2_COSE_ALG_FALCON1024_R3, &mr)
			&& mr.scheme == FIDO2_SCHEME_FALCON_R3 && mr.logn == 10,
			"round-3 Falcon-1024 chosen in the RP's order");
		c = check_ga(call(REQ, ga_req("example.com", cdh, mr.id, 1)), &mr, cdh, 0x01,
			NULL, NULL);
		CHECK(c > mr.counter, "round-3 assertion verifies (fa_verify, not FN-DSA)");
	}
	n = call(REQ, mc_req("example.com", "x", a512, 1, 0, NULL, 1));
	CHECK(n == 1 && RESP[0] == CTAP2_ERR_UNSUPPORTED_OPTION, "uv=true");

	/* Discoverable: two accounts, newest first, then GetNextAssertion. */
	n = call(REQ, mc_req("example.com", "carol", a512, 1, 1, NULL, 0));
	CHECK(check_mc(n, FIDO2_COSE_ALG_FNDSA512, &m3), "carol");
	c = check_ga(call(REQ, ga_req("example.com", cdh, NULL, 1)), &m3, cdh, 0x01, &user, &ncred);
	CHECK(c > m3.counter && ncred == 2, "discoverable: carol first of 2");
	REQ[0] = CTAP2_CMD_GET_NEXT_ASSERTION;
	n = call(REQ, 1);
	c_prev = c;
	c = check_ga(n, &m2, cdh, 0x01, &user, NULL);
	CHECK(c > c_prev, "GetNextAssertion: bob");
	{
		fido2_cbor_item uid;
		CHECK(fido2_cbor_map_text(&user, "id", &uid) && uid.val == 3
			&& !memcmp(uid.data, "bob", 3), "user handle returned");
	}
	n = call(REQ, 1);
	CHECK(n == 1 && RESP[0] == CTAP2_ERR_NOT_ALLOWED, "no third assertion");
	/* GNA after another command or after 30 s is refused. */
	call(REQ, ga_req("example.com", cdh, NULL, 1));
	TP.now += FIDO2_GNA_TIMEOUT_MS + 1;
	REQ[0] = CTAP2_CMD_GET_NEXT_ASSERTION;
	CHECK(call(REQ, 1) == 1 && RESP[0] == CTAP2_ERR_NOT_ALLOWED, "GNA timeout");
	/* Same account again replaces the record. */
	n = call(REQ, mc_req("example.com", "carol", a512, 1, 1, NULL, 0));
	CHECK(check_mc(n, FIDO2_COSE_ALG_FNDSA512, &m4) && MS.n == 2, "carol replaced");

	/* excludeList. */
	TP.up_calls = 0;
	n = call(REQ, mc_req("example.com", "alice", a512, 1, 0, m1.id, 0));
	CHECK(n == 1 && RESP[0] == CTAP2_ERR_CREDENTIAL_EXCLUDED && TP.up_calls == 1,
		"excluded after user presence");
	n = call(REQ, mc_req("other.example", "alice", a512, 1, 0, m1.id, 0));
	CHECK(n > 1 && RESP[0] == 0, "exclude list of another RP does not apply");

	/* User presence denied / cancelled. */
	TP.up_answer = FIDO2_UP_DENIED;
	n = call(REQ, ga_req("example.com", cdh, m1.id, 1));
	CHECK(n == 1 && RESP[0] == CTAP2_ERR_OPERATION_DENIED, "UP denied");
	TP.up_answer = FIDO2_UP_CANCEL;
	n = call(REQ, mc_req("example.com", "zed", a512, 1, 1, NULL, 0));
	CHECK(n == 1 && RESP[0] == CTAP2_ERR_KEEPALIVE_CANCEL && MS.n == 2, "UP cancelled");
	TP.up_answer = FIDO2_UP_APPROVED;

	/* Restart: RAM state lost, counter continues above what was used. */
	c_prev = check_ga(call(REQ, ga_req("example.com", cdh, m1.id, 1)), &m1, cdh, 1, NULL, NULL);
	boot();
	c = check_ga(call(REQ, ga_req("example.com", cdh, m1.id, 1)), &m1, cdh, 1, NULL, NULL);
	CHECK(c > c_prev, "counter after restart %u > %u", c, c_prev);
	/* A failing store: no signature with an unreserved counter. */
	MS.fail_writes = 1;
	A.counter = A.st.counter_reserved;
	n = call(REQ, ga_req("example.com", cdh, m1.id, 1));
	CHECK(n == 1 && RESP[0] == CTAP1_ERR_OTHER, "store failure reported");
	MS.fail_writes = 0;

	/* Malformed requests. */
	{
		static const struct { const char *hex; uint8_t want; const char *what; } bad[] = {
			{ "01", CTAP2_ERR_MISSING_PARAMETER, "makeCredential without parameters" },
			{ "0180", CTAP2_ERR_CBOR_UNEXPECTED_TYPE, "parameters not a map" },
			{ "01a0", CTAP2_ERR_MISSING_PARAMETER, "empty map" },
			{ "01a1", CTAP2_ERR_INVALID_CBOR, "truncated map" },
			{ "02a2020101", CTAP2_ERR_INVALID_CBOR, "unsorted keys" },
			{ "02a20161610201", CTAP2_ERR_CBOR_UNEXPECTED_TYPE, "clientDataHash not bytes" },
			{ "02a20161610241aa", CTAP1_ERR_INVALID_LENGTH, "short clientDataHash" },
			{ "02a2011861", CTAP2_ERR_INVALID_CBOR, "non-canonical 97" },
			{ "02a10161ff", CTAP2_ERR_INVALID_CBOR, "bad UTF-8" },
			{ "04f4", CTAP1_ERR_INVALID_LENGTH, "getInfo with a parameter" },
			{ "4200", CTAP1_ERR_INVALID_COMMAND, "unknown command" },
			{ "07ff", CTAP2_ERR_INVALID_CBOR, "break" },
		};
		size_t i;
		uint8_t b[64];
		for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
			size_t k = unhex(b, bad[i].hex);
			n = call(b, k);
			CHECK(n == 1 && RESP[0] == bad[i].want, "%s: got 0x%02x want 0x%02x",
				bad[i].what, RESP[0], bad[i].want);
		}
		CHECK(call(b, 0) == 1 && RESP[0] == CTAP1_ERR_INVALID_LENGTH, "empty request");
	}

	/* Reset: every credential gone, counter still increasing. */
	REQ[0] = CTAP2_CMD_RESET;
	CHECK(call(REQ, 1) == 1 && RESP[0] == 0 && MS.n == 0, "reset");
	n = call(REQ, ga_req("example.com", cdh, m1.id, 1));
	CHECK(n == 1 && RESP[0] == CTAP2_ERR_NO_CREDENTIALS, "old non-discoverable ID invalid");
	n = call(REQ, ga_req("example.com", cdh, NULL, 1));
	CHECK(n == 1 && RESP[0] == CTAP2_ERR_NO_CREDENTIALS, "no discoverable left");
	n = call(REQ, mc_req("example.com", "alice", a512, 1, 0, NULL, 0));
	CHECK(check_mc(n, FIDO2_COSE_ALG_FNDSA512, &m1) && m1.counter > c, "counter after reset");
	REQ[0] = CTAP2_CMD_SELECTION;
	CHECK(call(REQ, 1) == 1 && RESP[0] == 0, "selection");
	return T_DONE();
}
