/*
 * fuzz_api_verify.c -- fa_verify alone, on arbitrary public keys and
 * signatures of every degree and on patched genuine signatures (the
 * genuine ones are signed once per process: an input costs one
 * verification).
 *
 * Input (fuzz_api_common.h): byte 0 % 5 selects
 *  1, 3     a genuine signature of "fuzz" (logn, key, format from the
 *           patch header), then (offset, xor) patches to it; format 0
 *           (any) or the signature's own format when verifying;
 *  0, 2, 4  raw [u16 pk_len][pk][u16 sig_len][sig][format][msg].
 *
 * Properties (a failure aborts):
 *  - fa_verify returns a documented code and returns (-timeout: hangs);
 *  - an unpatched genuine signature verifies, in format 0 and its own;
 *  - a patched signature that verifies is byte-identical to the genuine
 *    one at logn >= 5 (no malleability; at logn 1..4 short vectors are
 *    dense enough that a change can verify by chance);
 *  - the genuine signature one byte shorter is refused (except the
 *    padded format, whose last byte may be zero padding);
 *  - a genuine signature under another genuine key of the same degree is
 *    refused at logn >= 5.
 */
#include "fuzz_api_common.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t pk[FA_PUBKEY_SIZE(10)], pk2[FA_PUBKEY_SIZE(10)];
	static uint8_t sk[FA_PRIVKEY_SIZE(10)];
	static uint8_t sig[FA_SIG_MAXSIZE(10)], sig0[FA_SIG_MAXSIZE(10)];
	unsigned mode;
	int r;

	if (size < 2) {
		return 0;
	}
	mode = data[0] % 5u;
	data ++;
	size --;
	if (mode == 1 || mode == 3) {
		fuzz_patch_hdr h;
		size_t sl, pl;
		int changed, fmt;

		if (!fuzz_read_patch_hdr(&h, &data, &size)) {
			return 0;
		}
		FUZZ_ASSERT(genuine_key(sk, pk, h.logn, h.idx) == FA_OK);
		pl = FA_PUBKEY_SIZE(h.logn);
		sl = genuine_sig(sig0, h.logn, h.idx, h.format);
		memcpy(sig, sig0, sl);
		changed = fuzz_apply_patches(sig, sl, &h, &data, &size);
		fmt = (size > 0 && (data[0] & 1)) ? h.format : 0;
		r = fa_verify(NULL, sig, sl, fmt, pk, pl, "fuzz", 4, tmp_buf,
			sizeof tmp_buf);
		FUZZ_ASSERT(known_code(r));
		if (!changed) {
			FUZZ_ASSERT(r == FA_OK);
		} else if (r == FA_OK && h.logn >= 5) {
			FUZZ_ASSERT(memcmp(sig, sig0, sl) == 0);
		}
		if (sl > 41 && h.format != FA_SIG_PADDED) {
			FUZZ_ASSERT(fa_verify(NULL, sig0, sl - 1, 0, pk, pl,
				"fuzz", 4, tmp_buf, sizeof tmp_buf) != FA_OK);
		}
		if (h.logn >= 5) {
			FUZZ_ASSERT(genuine_key(sk, pk2, h.logn, h.idx + 1)
				== FA_OK);
			FUZZ_ASSERT(fa_verify(NULL, sig0, sl, 0, pk2, pl,
				"fuzz", 4, tmp_buf, sizeof tmp_buf)
				== FA_ERR_BADSIG);
		}
	} else {
		fuzz_raw_pair rp;

		fuzz_read_raw_pair(&rp, data, size);
		r = fa_verify(NULL, rp.sig, rp.sig_len, rp.format, rp.pk,
			rp.pk_len, rp.msg, rp.msg_len, tmp_buf, sizeof tmp_buf);
		FUZZ_ASSERT(known_code(r));
		if (rp.format > 3) {
			FUZZ_ASSERT(r != FA_OK);
		}
	}
	return 0;
}
