/*
 * test_sign.c -- end-to-end tests of the public API for every logn 1..10:
 * keygen from a seed is deterministic, pubkey-from-privkey agrees with
 * keygen, sign_dyn and sign_tree give identical signatures for the same
 * randomness, every format round-trips and verifies (also with a prepared
 * key), and tampered messages, signatures and keys are rejected. Then many
 * sign/verify round trips at 512 and 1024 (FA_ROUNDTRIPS_512 /
 * FA_ROUNDTRIPS_1024 in the environment scale the counts; defaults keep
 * the test short, CI's stress step raises them).
 */
#include "test_util.h"
#include "falcon_accel.h"

static uint8_t *tmp;
static size_t tmp_len;

static const int formats[3] = { FA_SIG_COMPRESSED, FA_SIG_PADDED, FA_SIG_CT };

static void keypair(unsigned logn, const char *label, uint8_t *sk, uint8_t *pk)
{
	fa_shake256_ctx rng;
	int r;

	fa_shake256_init_prng_from_seed(&rng, label, strlen(label));
	r = fa_keygen(NULL, &rng, logn, sk, FA_PRIVKEY_SIZE(logn),
		pk, FA_PUBKEY_SIZE(logn), tmp, tmp_len);
	CHECK(r == FA_OK, "keygen logn=%u r=%d", logn, r);
}

static void test_degree(unsigned logn)
{
	static uint8_t sk[2305], sk2[2305], pk[1793], pk2[1793];
	static uint8_t sig[2000], sig2[2000];
	static uint64_t ek_store[(FA_EXPANDED_KEY_SIZE(10) + 7) / 8];
	uint8_t *ek = (uint8_t *)ek_store;
	const char msg[] = "falcon-accel test message";
	fa_prepared_pubkey pp;
	int f, r;

	keypair(logn, "seed-A", sk, pk);
	keypair(logn, "seed-A", sk2, pk2);
	CHECK(memcmp(sk, sk2, FA_PRIVKEY_SIZE(logn)) == 0
		&& memcmp(pk, pk2, FA_PUBKEY_SIZE(logn)) == 0,
		"deterministic keygen logn=%u", logn);
	CHECK(sk[0] == 0x50 + logn && pk[0] == logn, "headers logn=%u", logn);
	CHECK(fa_get_logn(sk, FA_PRIVKEY_SIZE(logn)) == (int)logn, "get_logn");

	memset(pk2, 0, sizeof pk2);
	r = fa_make_public(pk2, sizeof pk2, sk, FA_PRIVKEY_SIZE(logn), tmp, tmp_len);
	CHECK(r == FA_OK && memcmp(pk, pk2, FA_PUBKEY_SIZE(logn)) == 0,
		"make_public logn=%u r=%d", logn, r);

	r = fa_expand_privkey(NULL, ek, FA_EXPANDED_KEY_SIZE(logn), sk,
		FA_PRIVKEY_SIZE(logn), tmp, tmp_len);
	CHECK(r == FA_OK, "expand logn=%u r=%d", logn, r);
	r = fa_pubkey_prepare(NULL, &pp, pk, FA_PUBKEY_SIZE(logn));
	CHECK(r == FA_OK, "prepare logn=%u", logn);

	for (f = 0; f < 3; f ++) {
		fa_shake256_ctx r1, r2;
		size_t l1 = sizeof sig, l2 = sizeof sig2, u;

		fa_shake256_init_prng_from_seed(&r1, "sign", 4);
		fa_shake256_init_prng_from_seed(&r2, "sign", 4);
		r = fa_sign_dyn(NULL, &r1, sig, &l1, formats[f], sk,
			FA_PRIVKEY_SIZE(logn), msg, sizeof msg, tmp, tmp_len);
		CHECK(r == FA_OK, "sign_dyn logn=%u fmt=%d r=%d", logn, formats[f], r);
		r = fa_sign_tree(NULL, &r2, sig2, &l2, formats[f], ek, msg,
			sizeof msg, tmp, tmp_len);
		CHECK(r == FA_OK, "sign_tree logn=%u fmt=%d r=%d", logn, formats[f], r);
		CHECK(l1 == l2 && memcmp(sig, sig2, l1) == 0,
			"dyn == tree logn=%u fmt=%d", logn, formats[f]);
		if (formats[f] == FA_SIG_PADDED) {
			CHECK(l1 == FA_SIG_PADDED_SIZE(logn), "padded size");
		}
		if (formats[f] == FA_SIG_CT) {
			CHECK(l1 == FA_SIG_CT_SIZE(logn), "ct size");
		}
		CHECK(l1 <= FA_SIG_MAXSIZE(logn), "max size");

		r = fa_verify(NULL, sig, l1, formats[f], pk, FA_PUBKEY_SIZE(logn),
			msg, sizeof msg, tmp, tmp_len);
		CHECK(r == FA_OK, "verify logn=%u fmt=%d r=%d", logn, formats[f], r);
		r = fa_verify(NULL, sig, l1, 0, pk, FA_PUBKEY_SIZE(logn),
			msg, sizeof msg, tmp, tmp_len);
		CHECK(r == FA_OK, "verify any-format logn=%u fmt=%d r=%d", logn, formats[f], r);
		r = fa_verify_prepared(NULL, sig, l1, formats[f], &pp, msg,
			sizeof msg, tmp, tmp_len);
		CHECK(r == FA_OK, "verify_prepared logn=%u", logn);

		/* tampered message */
		r = fa_verify(NULL, sig, l1, formats[f], pk, FA_PUBKEY_SIZE(logn),
			msg, sizeof msg - 1, tmp, tmp_len);
		CHECK(r == FA_ERR_BADSIG, "short msg rejected logn=%u r=%d", logn, r);
		/* tampered nonce: different hashed point */
		sig[5] ^= 0x01;
		r = fa_verify(NULL, sig, l1, formats[f], pk, FA_PUBKEY_SIZE(logn),
			msg, sizeof msg, tmp, tmp_len);
		CHECK(r == FA_ERR_BADSIG, "nonce flip rejected logn=%u r=%d", logn, r);
		sig[5] ^= 0x01;
		/* tampered s2: flip bits across the body; must never verify */
		for (u = 41; u < l1; u += 7) {
			sig[u] ^= 0x10;
			r = fa_verify(NULL, sig, l1, formats[f], pk,
				FA_PUBKEY_SIZE(logn), msg, sizeof msg, tmp, tmp_len);
			CHECK(r != FA_OK, "s2 flip at %zu logn=%u", u, logn);
			sig[u] ^= 0x10;
		}
		/* wrong format requested */
		r = fa_verify(NULL, sig, l1,
			formats[f] == FA_SIG_CT ? FA_SIG_COMPRESSED : FA_SIG_CT,
			pk, FA_PUBKEY_SIZE(logn), msg, sizeof msg, tmp, tmp_len);
		CHECK(r == FA_ERR_HEADER, "format mismatch logn=%u r=%d", logn, r);
		/* truncated */
		r = fa_verify(NULL, sig, l1 - 1, formats[f], pk,
			FA_PUBKEY_SIZE(logn), msg, sizeof msg, tmp, tmp_len);
		CHECK(r != FA_OK, "truncated logn=%u", logn);
		/* other key */
		keypair(logn, "seed-B", sk2, pk2);
		r = fa_verify(NULL, sig, l1, formats[f], pk2, FA_PUBKEY_SIZE(logn),
			msg, sizeof msg, tmp, tmp_len);
		CHECK(r == FA_ERR_BADSIG, "other key rejected logn=%u r=%d", logn, r);
	}

	/* malformed keys */
	memcpy(sk2, sk, FA_PRIVKEY_SIZE(logn));
	sk2[0] = 0x30 + logn;
	{
		size_t l = sizeof sig;
		fa_shake256_ctx rr;

		fa_shake256_init_prng_from_seed(&rr, "x", 1);
		r = fa_sign_dyn(NULL, &rr, sig, &l, FA_SIG_COMPRESSED, sk2,
			FA_PRIVKEY_SIZE(logn), msg, sizeof msg, tmp, tmp_len);
		CHECK(r == FA_ERR_HEADER, "bad sk header r=%d", r);
		r = fa_sign_dyn(NULL, &rr, sig, &l, FA_SIG_COMPRESSED, sk,
			FA_PRIVKEY_SIZE(logn) - 1, msg, sizeof msg, tmp, tmp_len);
		CHECK(r == FA_ERR_LENGTH, "bad sk length r=%d", r);
		l = 10;
		r = fa_sign_dyn(NULL, &rr, sig, &l, FA_SIG_CT, sk,
			FA_PRIVKEY_SIZE(logn), msg, sizeof msg, tmp, tmp_len);
		CHECK(r == FA_ERR_SIZE, "small sig buffer r=%d", r);
		l = sizeof sig;
		r = fa_sign_dyn(NULL, &rr, sig, &l, 7, sk,
			FA_PRIVKEY_SIZE(logn), msg, sizeof msg, tmp, tmp_len);
		CHECK(r == FA_ERR_BADARG, "bad format r=%d", r);
	}
	r = fa_verify(NULL, sig, 100, 0, pk, FA_PUBKEY_SIZE(logn) + 1, msg,
		sizeof msg, tmp, tmp_len);
	CHECK(r == FA_ERR_LENGTH, "bad pk length r=%d", r);
	pk2[0] = 0x0F;
	r = fa_verify(NULL, sig, 100, 0, pk2, FA_PUBKEY_SIZE(logn), msg,
		sizeof msg, tmp, tmp_len);
	CHECK(r == FA_ERR_HEADER, "bad pk header r=%d", r);
}

static void roundtrips(unsigned logn, long count)
{
	static uint8_t sk[2305], pk[1793], sig[2000];
	uint8_t msg[64];
	fa_prepared_pubkey pp;
	fa_shake256_ctx rng;
	long i, bad = 0;

	keypair(logn, "roundtrip", sk, pk);
	fa_pubkey_prepare(NULL, &pp, pk, FA_PUBKEY_SIZE(logn));
	fa_shake256_init_prng_from_seed(&rng, "roundtrip-rng", 13);
	for (i = 0; i < count; i ++) {
		size_t l = sizeof sig;
		int fmt = formats[i % 3];

		fa_shake256_extract(&rng, msg, sizeof msg);
		if (fa_sign_dyn(NULL, &rng, sig, &l, fmt, sk, FA_PRIVKEY_SIZE(logn),
			msg, (size_t)(i % 64), tmp, tmp_len) != FA_OK
			|| fa_verify_prepared(NULL, sig, l, fmt, &pp, msg,
			(size_t)(i % 64), tmp, tmp_len) != FA_OK)
		{
			bad ++;
		}
	}
	CHECK(bad == 0, "%ld/%ld round trips failed at logn=%u", bad, count, logn);
	printf("round trips logn=%u: %ld\n", logn, count);
}

static long env_count(const char *name, long def)
{
	const char *s = getenv(name);

	return s != NULL ? atol(s) : def;
}

int main(void)
{
	unsigned logn;

	tmp_len = FA_TMPSIZE_KEYGEN(10) + FA_TMPSIZE_SIGN_DYN(10);
	tmp = malloc(tmp_len);
	for (logn = 1; logn <= 10; logn ++) {
		test_degree(logn);
	}
	roundtrips(9, env_count("FA_ROUNDTRIPS_512", 300));
	roundtrips(10, env_count("FA_ROUNDTRIPS_1024", 100));
	free(tmp);
	return tu_finish("test_sign");
}
