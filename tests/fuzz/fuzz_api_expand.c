/*
 * fuzz_api_expand.c -- fa_expand_privkey on arbitrary and patched
 * genuine private keys, and the expanded-key check of fa_sign_tree on
 * buffers that are not, or no longer, expanded keys.
 *
 * Input (fuzz_api_common.h): byte 0 % 5 selects
 *  0, 1, 3  a key (fuzz_read_key: 0 raw, 1 and 3 patched genuine);
 *  2        a genuine key's expanded key with (offset, xor) patches
 *           (patch header; offsets over the whole buffer, header
 *           included), then fa_sign_tree;
 *  4        a raw expanded-key buffer (header and body from the input),
 *           then fa_sign_tree.
 *
 * Properties: documented codes only; fa_expand_privkey refuses exactly
 * the keys fa_make_public refuses, with the same code, and writes a
 * buffer that fa_sign_tree accepts (a produced signature verifies under
 * the key's public key: every 4th accepted key, for cost); a patched
 * expanded key is refused with FA_ERR_KEY unless the patches cancel out
 * (then it signs and the signature verifies); a raw buffer is refused with FA_ERR_KEY
 * (a raw buffer that happens to carry a matching checksum is outside
 * the API contract and is not signed).
 */
#include "fuzz_api_common.h"

static uint64_t ek0_store[(FA_EXPANDED_KEY_SIZE(10) + 7) / 8];

static void sign_ek_and_verify(const uint8_t *ek, const uint8_t *pk,
	unsigned logn)
{
	static uint8_t sig[FA_SIG_MAXSIZE(10)];
	fa_shake256_ctx rng;
	size_t sl = sizeof sig;

	fa_shake256_init_prng_from_seed(&rng, "ek", 2);
	FUZZ_ASSERT(fa_sign_tree(NULL, &rng, sig, &sl, FA_SIG_COMPRESSED, ek,
		"m", 1, tmp_buf, sizeof tmp_buf) == FA_OK);
	FUZZ_ASSERT(fa_verify(NULL, sig, sl, 0, pk, FA_PUBKEY_SIZE(logn), "m",
		1, tmp_buf, sizeof tmp_buf) == FA_OK);
}

/* ek holds a buffer; 1 if its header and checksum match (a genuine
   expanded key, or a buffer outside the contract). */
static int ek_intact(const uint8_t *ek)
{
	return fa_expanded_key_check(ek) >= 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t sk[FA_PRIVKEY_SIZE(10)], pk[FA_PUBKEY_SIZE(10)];
	static uint8_t sig[FA_SIG_MAXSIZE(10)];
	uint8_t *ek = (uint8_t *)ek_store;
	unsigned mode;

	if (size < 2) {
		return 0;
	}
	mode = data[0] % 5u;
	data ++;
	size --;
	if (mode == 2) {
		fuzz_patch_hdr h;
		fa_shake256_ctx rng;
		size_t sl = sizeof sig, el;
		int r;

		if (!fuzz_read_patch_hdr(&h, &data, &size)) {
			return 0;
		}
		FUZZ_ASSERT(genuine_key(sk, pk, h.logn, h.idx) == FA_OK);
		FUZZ_ASSERT(fa_expand_privkey(NULL, ek, sizeof ek_store, sk,
			FA_PRIVKEY_SIZE(h.logn), tmp_buf, sizeof tmp_buf)
			== FA_OK);
		el = FA_EXPANDED_KEY_SIZE(h.logn);
		memcpy(ek0_store, ek, el);
		fuzz_apply_patches(ek, el, &h, &data, &size);
		fa_shake256_init_prng_from_seed(&rng, "ek", 2);
		r = fa_sign_tree(NULL, &rng, sig, &sl, h.format, ek, "m", 1,
			tmp_buf, sizeof tmp_buf);
		if (memcmp(ek, ek0_store, el) == 0) {
			/* the patches cancelled out */
			FUZZ_ASSERT(r == FA_OK);
			FUZZ_ASSERT(fa_verify(NULL, sig, sl, h.format, pk,
				FA_PUBKEY_SIZE(h.logn), "m", 1, tmp_buf,
				sizeof tmp_buf) == FA_OK);
		} else if (ek_intact(ek)) {
			/* changed, yet the checksum matches (about 2^-32
			   per changed buffer): outside the contract */
			FUZZ_ASSERT(known_code(r));
		} else {
			FUZZ_ASSERT(r == FA_ERR_KEY);
		}
		return 0;
	}
	if (mode == 4) {
		fa_shake256_ctx rng;
		size_t cp = size < sizeof ek_store ? size : sizeof ek_store;
		size_t sl = sizeof sig;

		memset(ek_store, 0, sizeof ek_store);
		memcpy(ek, data, cp);
		if (ek_intact(ek)) {
			return 0;   /* outside the API contract */
		}
		fa_shake256_init_prng_from_seed(&rng, "ek", 2);
		FUZZ_ASSERT(fa_sign_tree(NULL, &rng, sig, &sl,
			FA_SIG_COMPRESSED, ek, "m", 1, tmp_buf,
			sizeof tmp_buf) == FA_ERR_KEY);
		return 0;
	}
	{
		const uint8_t *msg;
		size_t sk_len, msg_len;
		int format, r, rp, logn;

		if (!fuzz_read_key(sk, &sk_len, &format, &msg, &msg_len,
			mode, data, size))
		{
			return 0;
		}
		r = fa_expand_privkey(NULL, ek, sizeof ek_store, sk, sk_len,
			tmp_buf, sizeof tmp_buf);
		FUZZ_ASSERT(r == FA_OK || is_decode_error(r));
		rp = fa_make_public(pk, sizeof pk, sk, sk_len, tmp_buf,
			sizeof tmp_buf);
		FUZZ_ASSERT(rp == r);
		if (r != FA_OK) {
			return 0;
		}
		logn = fa_get_logn(sk, sk_len);
		FUZZ_ASSERT(ek[0] == 0x60 + logn && ek_intact(ek));
		if ((msg_len & 3) == 0) {
			sign_ek_and_verify(ek, pk, (unsigned)logn);
		}
		(void)format;
	}
	return 0;
}
