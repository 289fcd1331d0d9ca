/*
 * SHA-256 against FIPS 180-4 examples, HMAC-SHA-256 against RFC 4231,
 * ChaCha20, Poly1305 and the AEAD against RFC 8439 (2.3.2, 2.5.2, 2.8.2),
 * plus tamper checks on the AEAD and incremental-hashing splits.
 */
#include "fido2_test_util.h"
#include "fido2_sha256.h"
#include "fido2_aead.h"

static void
test_sha256(void)
{
	static const struct { const char *msg, *hex; } v[] = {
		{ "abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" },
		{ "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
		  "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1" },
		{ "", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" },
	};
	uint8_t out[32], want[32];
	size_t i;
	for (i = 0; i < sizeof v / sizeof v[0]; i++) {
		fido2_sha256(v[i].msg, strlen(v[i].msg), out);
		unhex(want, v[i].hex);
		CHECK(memcmp(out, want, 32) == 0, "SHA-256 vector %zu", i);
	}
	/* One million 'a' (FIPS 180-4 example), fed in uneven pieces. */
	{
		static uint8_t a[1000];
		fido2_sha256_ctx sc;
		size_t done = 0, step = 1;
		memset(a, 'a', sizeof a);
		fido2_sha256_init(&sc);
		while (done < 1000000) {
			size_t n = step % 997 + 1;
			if (n > 1000000 - done) n = 1000000 - done;
			fido2_sha256_update(&sc, a, n);
			done += n;
			step = step * 31 + 7;
		}
		fido2_sha256_final(&sc, out);
		unhex(want, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
		CHECK(memcmp(out, want, 32) == 0, "SHA-256 million a");
	}
	/* Every split of a 130-byte message gives the one-shot digest. */
	{
		uint8_t m[130], one[32];
		size_t s;
		for (s = 0; s < sizeof m; s++) m[s] = (uint8_t)(s * 7 + 1);
		fido2_sha256(m, sizeof m, one);
		for (s = 0; s <= sizeof m; s++) {
			fido2_sha256_ctx sc;
			fido2_sha256_init(&sc);
			fido2_sha256_update(&sc, m, s);
			fido2_sha256_update(&sc, m + s, sizeof m - s);
			fido2_sha256_final(&sc, out);
			CHECK(memcmp(out, one, 32) == 0, "split %zu", s);
		}
	}
}

static void
test_hmac(void)
{
	uint8_t key[131], out[32], want[32];
	memset(key, 0x0b, 20);
	fido2_hmac_sha256(key, 20, "Hi There", 8, out);
	unhex(want, "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7");
	CHECK(memcmp(out, want, 32) == 0, "RFC 4231 case 1");
	fido2_hmac_sha256("Jefe", 4, "what do ya want for nothing?", 28, out);
	unhex(want, "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
	CHECK(memcmp(out, want, 32) == 0, "RFC 4231 case 2");
	memset(key, 0xaa, 131);
	fido2_hmac_sha256(key, 131, "Test Using Larger Than Block-Size Key - Hash Key First",
		54, out);
	unhex(want, "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54");
	CHECK(memcmp(out, want, 32) == 0, "RFC 4231 case 6 (long key)");
}

static void
test_chacha_poly(void)
{
	uint8_t key[32], nonce[12], out[64], want[128], tag[16];
	size_t i;
	/* RFC 8439 2.3.2: block function. */
	for (i = 0; i < 32; i++) key[i] = (uint8_t)i;
	unhex(nonce, "000000090000004a00000000");
	fido2_chacha20_block(key, 1, nonce, out);
	unhex(want, "10f1e7e4d13b5915500fdd1fa32071c4c7d1f4c733c068030422aa9ac3d46c4e"
		"d2826446079faa0914c2d705d98b02a2b5129cd1de164eb9cbd083e8a2503c4e");
	CHECK(memcmp(out, want, 64) == 0, "ChaCha20 block (RFC 8439 2.3.2)");
	/* RFC 8439 2.5.2: Poly1305. */
	unhex(key, "85d6be7857556d337f4452fe42d506a80103808afb0db2fd4abff6af4149f51b");
	fido2_poly1305(key, (const uint8_t *)"Cryptographic Forum Research Group", 34, tag);
	unhex(want, "a8061dc1305136c6c22b8baf0c0127a9");
	CHECK(memcmp(tag, want, 16) == 0, "Poly1305 (RFC 8439 2.5.2)");
	/* Poly1305 edge: all-ones key part and message (limb carries). */
	{
		uint8_t k2[32], m2[64];
		memset(k2, 0xff, 32);
		memset(m2, 0xff, 64);
		fido2_poly1305(k2, m2, 64, tag);
		/* Value from an independent implementation (Python cryptography). */
		unhex(want, "900fe32bc15fa8d7bca8efe4c7e37eb1");
		CHECK(memcmp(tag, want, 16) == 0, "Poly1305 all-ones");
	}
}

static void
test_aead(void)
{
	static const char pt[] = "Ladies and Gentlemen of the class of '99: If I could"
		" offer you only one tip for the future, sunscreen would be it.";
	uint8_t key[32], nonce[12], aad[12], buf[114], want[130], tag[16];
	size_t i, n = strlen(pt);
	for (i = 0; i < 32; i++) key[i] = (uint8_t)(0x80 + i);
	unhex(nonce, "070000004041424344454647");
	unhex(aad, "50515253c0c1c2c3c4c5c6c7");
	memcpy(buf, pt, n);
	fido2_aead_seal(key, nonce, aad, 12, buf, n, tag);
	unhex(want, "d31a8d34648e60db7b86afbc53ef7ec2a4aded51296e08fea9e2b5a736ee62d6"
		"3dbea45e8ca9671282fafb69da92728b1a71de0a9e060b2905d6a5b67ecd3b36"
		"92ddbd7f2d778b8c9803aee328091b58fab324e4fad675945585808b4831d7bc"
		"3ff4def08e4b7a9de576d26586cec64b6116"
		"1ae10b594f09e26a7e902ecbd0600691");
	CHECK(n == 114 && memcmp(buf, want, n) == 0, "AEAD ciphertext (RFC 8439 2.8.2)");
	CHECK(memcmp(tag, want + n, 16) == 0, "AEAD tag (RFC 8439 2.8.2)");
	CHECK(fido2_aead_open(key, nonce, aad, 12, buf, n, tag) == 0
		&& memcmp(buf, pt, n) == 0, "AEAD open round trip");
	/* Any flipped bit of ciphertext, tag, AAD or nonce is rejected. */
	fido2_aead_seal(key, nonce, aad, 12, buf, n, tag);
	for (i = 0; i < 8 * (n + 16 + 12 + 12); i += 13) {
		size_t byte = i / 8;
		uint8_t b2[114], t2[16], a2[12], n2[12];
		memcpy(b2, buf, n); memcpy(t2, tag, 16); memcpy(a2, aad, 12); memcpy(n2, nonce, 12);
		if (byte < n) b2[byte] ^= (uint8_t)(1u << (i % 8));
		else if (byte < n + 16) t2[byte - n] ^= (uint8_t)(1u << (i % 8));
		else if (byte < n + 28) a2[byte - n - 16] ^= (uint8_t)(1u << (i % 8));
		else n2[byte - n - 28] ^= (uint8_t)(1u << (i % 8));
		CHECK(fido2_aead_open(key, n2, a2, 12, b2, n, t2) == -1, "tamper bit %zu", i);
	}
}

int
main(void)
{
	test_sha256();
	test_hmac();
	test_chacha_poly();
	test_aead();
	return T_DONE();
}
