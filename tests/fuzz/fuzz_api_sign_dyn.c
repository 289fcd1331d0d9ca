/*
 * fuzz_api_sign_dyn.c -- fa_sign_dyn / fa_sign_dyn_ex on arbitrary and
 * patched genuine private keys of every degree, in every format (valid
 * or not), with the key's own public key as the judge.
 *
 * Input (fuzz_api_common.h, fuzz_read_key): byte 0 % 5 selects
 *  1, 3     a genuine key with (offset, xor) patches (format 1..3 from
 *           the patch header), then the message;
 *  0, 2, 4  raw [u16 sk_len][sk][format byte (% 5: 0 and 4 invalid)]
 *           [message].
 *
 * Properties (a failure aborts):
 *  - every call returns (libFuzzer -timeout: hangs) with a documented
 *    code; an invalid format is refused;
 *  - sign_dyn refuses exactly the keys fa_make_public refuses, with the
 *    same code: a key that decodes signs (the attempt bound
 *    FA_SIGN_MAX_ATTEMPTS is never reached by a key the checks accept);
 *  - every produced signature verifies under the public key that
 *    fa_make_public computes from the same private key (fa_verify in
 *    format 0 and its own format), has the format's length, and the
 *    explicit-nonce variant (fa_sign_dyn_ex) is deterministic: the same
 *    nonce and sampler seed give the same bytes.
 */
#include "fuzz_api_common.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t sk[FA_PRIVKEY_SIZE(10)], pk[FA_PUBKEY_SIZE(10)];
	static uint8_t sig[FA_SIG_MAXSIZE(10)], sig2[FA_SIG_MAXSIZE(10)];
	const uint8_t *msg;
	fa_shake256_ctx rng;
	size_t sk_len, msg_len, sl, sl2, pl;
	unsigned mode;
	int format, r, rp, logn;

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
	fa_shake256_init_prng_from_seed(&rng, msg, msg_len < 8 ? msg_len : 8);
	sl = sizeof sig;
	r = fa_sign_dyn(NULL, &rng, sig, &sl, format, sk, sk_len, msg,
		msg_len, tmp_buf, sizeof tmp_buf);
	FUZZ_ASSERT(known_code(r));
	if (format < FA_SIG_COMPRESSED || format > FA_SIG_CT) {
		FUZZ_ASSERT(r != FA_OK);
		return 0;
	}
	if (rp != FA_OK) {
		FUZZ_ASSERT(r == rp);
		return 0;
	}
	FUZZ_ASSERT(r == FA_OK);
	logn = fa_get_logn(sk, sk_len);
	pl = FA_PUBKEY_SIZE(logn);
	FUZZ_ASSERT(fa_get_logn(sig, sl) == logn);
	if (format == FA_SIG_PADDED) {
		FUZZ_ASSERT(sl == FA_SIG_PADDED_SIZE(logn));
	} else if (format == FA_SIG_CT) {
		FUZZ_ASSERT(sl == FA_SIG_CT_SIZE(logn));
	} else {
		FUZZ_ASSERT(sl <= FA_SIG_COMPRESSED_MAXSIZE(logn));
	}
	FUZZ_ASSERT(fa_verify(NULL, sig, sl, 0, pk, pl, msg, msg_len,
		tmp_buf, sizeof tmp_buf) == FA_OK);
	FUZZ_ASSERT(fa_verify(NULL, sig, sl, format, pk, pl, msg, msg_len,
		tmp_buf, sizeof tmp_buf) == FA_OK);
	/* explicit nonce: deterministic (every other input: cost) */
	if (msg_len & 1) {
		fa_shake256_ctx s1, s2;

		fa_shake256_init_prng_from_seed(&s1, default_seed, 48);
		fa_shake256_init_prng_from_seed(&s2, default_seed, 48);
		sl = sizeof sig;
		sl2 = sizeof sig2;
		FUZZ_ASSERT(fa_sign_dyn_ex(NULL, default_seed, &s1, sig, &sl,
			format, sk, sk_len, msg, msg_len, tmp_buf,
			sizeof tmp_buf) == FA_OK);
		FUZZ_ASSERT(fa_sign_dyn_ex(NULL, default_seed, &s2, sig2, &sl2,
			format, sk, sk_len, msg, msg_len, tmp_buf,
			sizeof tmp_buf) == FA_OK);
		FUZZ_ASSERT(sl == sl2 && memcmp(sig, sig2, sl) == 0);
		FUZZ_ASSERT(memcmp(sig + 1, default_seed, 40) == 0);
		FUZZ_ASSERT(fa_verify(NULL, sig, sl, format, pk, pl, msg,
			msg_len, tmp_buf, sizeof tmp_buf) == FA_OK);
	}
	return 0;
}
