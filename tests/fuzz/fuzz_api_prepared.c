/*
 * fuzz_api_prepared.c -- fa_pubkey_prepare and fa_verify_prepared on
 * arbitrary and patched genuine public keys and signatures, against
 * fa_verify on the same bytes.
 *
 * Input (fuzz_api_common.h): byte 0 % 5 selects
 *  1        a genuine public key with (offset, xor) patches, then the
 *           key's genuine signature of "fuzz" (patch header's format);
 *  3        a genuine key, its genuine signature with patches;
 *  0, 2, 4  raw [u16 pk_len][pk][u16 sig_len][sig][format][msg].
 *
 * Properties: documented codes only; fa_pubkey_prepare refuses exactly
 * the keys fa_verify refuses, with the same code; fa_verify_prepared and
 * fa_verify give the same code on every input; a prepared key is
 * reusable: preparing the same bytes twice gives the same structure; an
 * unpatched genuine pair verifies.
 */
#include "fuzz_api_common.h"

static void check_pair(const uint8_t *sig, size_t sl, int format,
	const uint8_t *pk, size_t pl, const uint8_t *msg, size_t msg_len)
{
	static fa_prepared_pubkey pp, pp2;
	int r, rp, rr;

	r = fa_verify(NULL, sig, sl, format, pk, pl, msg, msg_len, tmp_buf,
		sizeof tmp_buf);
	FUZZ_ASSERT(known_code(r));
	memset(&pp, 0xA5, sizeof pp);
	rp = fa_pubkey_prepare(NULL, &pp, pk, pl);
	FUZZ_ASSERT(rp == FA_OK || is_decode_error(rp));
	if (rp != FA_OK) {
		FUZZ_ASSERT(r == rp);
		return;
	}
	memset(&pp2, 0x5A, sizeof pp2);
	FUZZ_ASSERT(fa_pubkey_prepare(NULL, &pp2, pk, pl) == FA_OK);
	FUZZ_ASSERT(pp.logn == pp2.logn && pp.logn >= 1 && pp.logn <= 10);
	FUZZ_ASSERT(memcmp(pp.h_ntt, pp2.h_ntt,
		(sizeof pp.h_ntt[0]) << pp.logn) == 0);
	rr = fa_verify_prepared(NULL, sig, sl, format, &pp, msg, msg_len,
		tmp_buf, sizeof tmp_buf);
	FUZZ_ASSERT(rr == r);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t pk[FA_PUBKEY_SIZE(10)], sk[FA_PRIVKEY_SIZE(10)];
	static uint8_t sig[FA_SIG_MAXSIZE(10)];
	unsigned mode;

	if (size < 2) {
		return 0;
	}
	mode = data[0] % 5u;
	data ++;
	size --;
	if (mode == 1 || mode == 3) {
		fuzz_patch_hdr h;
		size_t sl, pl;
		int changed;

		if (!fuzz_read_patch_hdr(&h, &data, &size)) {
			return 0;
		}
		FUZZ_ASSERT(genuine_key(sk, pk, h.logn, h.idx) == FA_OK);
		pl = FA_PUBKEY_SIZE(h.logn);
		sl = genuine_sig(sig, h.logn, h.idx, h.format);
		changed = mode == 1
			? fuzz_apply_patches(pk, pl, &h, &data, &size)
			: fuzz_apply_patches(sig, sl, &h, &data, &size);
		check_pair(sig, sl, 0, pk, pl, (const uint8_t *)"fuzz", 4);
		if (!changed) {
			FUZZ_ASSERT(fa_verify(NULL, sig, sl, h.format, pk, pl,
				"fuzz", 4, tmp_buf, sizeof tmp_buf) == FA_OK);
		}
	} else {
		fuzz_raw_pair rp;

		fuzz_read_raw_pair(&rp, data, size);
		check_pair(rp.sig, rp.sig_len, rp.format, rp.pk, rp.pk_len,
			rp.msg, rp.msg_len);
	}
	return 0;
}
