/*
 * fuzz_api_make_public.c -- fa_make_public alone on arbitrary private
 * keys of every degree and on patched genuine keys (key decoding, the
 * NTRU-equation and norm checks of src/privkey_check.c, the public key).
 *
 * Input (fuzz_api_common.h, fuzz_read_key): byte 0 % 5 selects
 *  1, 3     a genuine key with (offset, xor) patches;
 *  0, 2, 4  raw [u16 sk_len][sk][...].
 *
 * Properties: a documented code, and for a refused key a decoding code
 * (never FA_ERR_INTERNAL); an unpatched genuine key gives exactly its
 * keygen public key; every public key produced decodes
 * (fa_pubkey_prepare), has the key's degree, and a second call gives the
 * same bytes; for a key that decodes, a public-key buffer one byte
 * short gives FA_ERR_SIZE.
 */
#include "fuzz_api_common.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t sk[FA_PRIVKEY_SIZE(10)], sk0[FA_PRIVKEY_SIZE(10)];
	static uint8_t pk[FA_PUBKEY_SIZE(10)], pk2[FA_PUBKEY_SIZE(10)];
	static uint8_t pk0[FA_PUBKEY_SIZE(10)];
	fa_prepared_pubkey pp;
	const uint8_t *msg;
	size_t sk_len, msg_len;
	unsigned mode;
	int format, r, logn, genuine = 0;

	if (size < 2) {
		return 0;
	}
	mode = data[0] % 5u;
	if (!fuzz_read_key(sk, &sk_len, &format, &msg, &msg_len, mode,
		data + 1, size - 1))
	{
		return 0;
	}
	logn = fa_get_logn(sk, sk_len);
	if (logn >= 1 && logn <= 10 && sk_len == FA_PRIVKEY_SIZE(logn)
		&& (sk[0] & 0xF0) == 0x50)
	{
		/* is it (still) one of the pool's keys? */
		unsigned idx = (mode == 1 || mode == 3) ? data[2] : 0;

		FUZZ_ASSERT(genuine_key(sk0, pk0, (unsigned)logn, idx)
			== FA_OK);
		genuine = memcmp(sk, sk0, sk_len) == 0;
	}
	r = fa_make_public(pk, sizeof pk, sk, sk_len, tmp_buf, sizeof tmp_buf);
	FUZZ_ASSERT(r == FA_OK || is_decode_error(r));
	if (genuine) {
		FUZZ_ASSERT(r == FA_OK);
		FUZZ_ASSERT(memcmp(pk, pk0, FA_PUBKEY_SIZE(logn)) == 0);
	}
	if (r != FA_OK) {
		return 0;
	}
	FUZZ_ASSERT(fa_get_logn(pk, FA_PUBKEY_SIZE(logn)) == logn);
	FUZZ_ASSERT(fa_pubkey_prepare(NULL, &pp, pk, FA_PUBKEY_SIZE(logn))
		== FA_OK);
	FUZZ_ASSERT(pp.logn == (uint32_t)logn);
	if (msg_len & 1) {
		FUZZ_ASSERT(fa_make_public(pk2, sizeof pk2, sk, sk_len,
			tmp_buf, sizeof tmp_buf) == FA_OK);
		FUZZ_ASSERT(memcmp(pk, pk2, FA_PUBKEY_SIZE(logn)) == 0);
	} else {
		FUZZ_ASSERT(fa_make_public(pk2, FA_PUBKEY_SIZE(logn) - 1, sk,
			sk_len, tmp_buf, sizeof tmp_buf) == FA_ERR_SIZE);
	}
	(void)format;
	return 0;
}
