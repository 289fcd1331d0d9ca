/*
 * fuzz_api_sign_tree.c -- fa_expand_privkey then fa_sign_tree /
 * fa_sign_tree_ex on arbitrary and patched genuine private keys of every
 * degree, in every format, with the key's own public key as the judge.
 *
 * Input: as fuzz_api_sign_dyn.c.
 *
 * Properties (a failure aborts):
 *  - every call returns with a documented code; an invalid format is
 *    refused;
 *  - fa_expand_privkey refuses exactly the keys fa_make_public refuses
 *    (same code); an expanded key signs in every valid format;
 *  - every produced signature verifies under the public key that
 *    fa_make_public computes from the same private key, in format 0 and
 *    its own; fa_sign_tree_ex gives the bytes fa_sign_dyn_ex gives for
 *    the same nonce and sampler seed (every other input: cost).
 */
#include "fuzz_api_common.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t sk[FA_PRIVKEY_SIZE(10)], pk[FA_PUBKEY_SIZE(10)];
	static uint8_t sig[FA_SIG_MAXSIZE(10)], sig2[FA_SIG_MAXSIZE(10)];
	uint8_t *ek = (uint8_t *)ek_store;
	const uint8_t *msg;
	fa_shake256_ctx rng;
	size_t sk_len, msg_len, sl, sl2, pl;
	unsigned mode;
	int format, r, re, rp, logn;

	if (size < 2) {
		return 0;
	}
	mode = data[0] % 5u;
	if (!fuzz_read_key(sk, &sk_len, &format, &msg, &msg_len, mode,
		data + 1, size - 1))
	{
		return 0;
	}
	rp = fa_make_public(pk, sizeof pk, sk, sk_len, tmp_buf,
		sizeof tmp_buf);
	FUZZ_ASSERT(rp == FA_OK || is_decode_error(rp));
	re = fa_expand_privkey(NULL, ek, sizeof ek_store, sk, sk_len,
		tmp_buf, sizeof tmp_buf);
	FUZZ_ASSERT(re == rp);
	if (re != FA_OK) {
		return 0;
	}
	logn = fa_get_logn(sk, sk_len);
	pl = FA_PUBKEY_SIZE(logn);
	fa_shake256_init_prng_from_seed(&rng, msg, msg_len < 8 ? msg_len : 8);
	sl = sizeof sig;
	r = fa_sign_tree(NULL, &rng, sig, &sl, format, ek, msg, msg_len,
		tmp_buf, sizeof tmp_buf);
	FUZZ_ASSERT(known_code(r));
	if (format < FA_SIG_COMPRESSED || format > FA_SIG_CT) {
		FUZZ_ASSERT(r != FA_OK);
		return 0;
	}
	FUZZ_ASSERT(r == FA_OK);
	FUZZ_ASSERT(fa_verify(NULL, sig, sl, 0, pk, pl, msg, msg_len,
		tmp_buf, sizeof tmp_buf) == FA_OK);
	FUZZ_ASSERT(fa_verify(NULL, sig, sl, format, pk, pl, msg, msg_len,
		tmp_buf, sizeof tmp_buf) == FA_OK);
	if (msg_len & 1) {
		fa_shake256_ctx s1, s2;

		fa_shake256_init_prng_from_seed(&s1, default_seed, 48);
		fa_shake256_init_prng_from_seed(&s2, default_seed, 48);
		sl = sizeof sig;
		sl2 = sizeof sig2;
		FUZZ_ASSERT(fa_sign_tree_ex(NULL, default_seed, &s1, sig, &sl,
			format, ek, msg, msg_len, tmp_buf, sizeof tmp_buf)
			== FA_OK);
		FUZZ_ASSERT(fa_sign_dyn_ex(NULL, default_seed, &s2, sig2, &sl2,
			format, sk, sk_len, msg, msg_len, tmp_buf,
			sizeof tmp_buf) == FA_OK);
		FUZZ_ASSERT(sl == sl2 && memcmp(sig, sig2, sl) == 0);
		FUZZ_ASSERT(fa_verify(NULL, sig, sl, format, pk, pl, msg,
			msg_len, tmp_buf, sizeof tmp_buf) == FA_OK);
	}
	return 0;
}
