/*
 * test_fndsa.c -- FN-DSA (fn-dsa 0.4.0, falcon_accel.h "FN-DSA") against
 * the vectors made by the fn-dsa crate itself (tests/fndsa/vectors.txt,
 * tests/fndsa/README.md): keys from the 32-byte seed equal, signatures
 * from the 40-byte seed equal in every mode (pure, with context,
 * pre-hash SHA-256 / SHA-512, external mu) at 512 and 1024, with the
 * portable and the default backend; verification accepts, and rejects a
 * tampered signature, context or message. Then the crate's own embedded
 * known-answer hashes (fn-dsa 0.4.0 src/lib.rs, test_kat), the SHA-2 /
 * SHA3-256 known answers, round-3 objects refused with FA_ERR_SCHEME, and
 * the argument checks.
 */

#include "falcon_accel.h"
#include "test_util.h"

#define VEC_FILE "tests/fndsa/vectors.txt"

static uint8_t tmp[(136u << 10) + 64 + 4096] __attribute__((aligned(8)));

static int hexval(int c)
{
	if (c >= '0' && c <= '9') {
		return c - '0';
	}
	if (c >= 'a' && c <= 'f') {
		return c - 'a' + 10;
	}
	return -1;
}

/* Hex field (or "-" for empty) to bytes; returns the length, -1 on error. */
static long unhex(uint8_t *d, size_t max, const char *s)
{
	size_t n = 0;

	if (strcmp(s, "-") == 0) {
		return 0;
	}
	while (s[0] != 0) {
		int a = hexval(s[0]), b = hexval(s[1]);

		if (a < 0 || b < 0 || n >= max) {
			return -1;
		}
		d[n ++] = (uint8_t)(a * 16 + b);
		s += 2;
	}
	return (long)n;
}

static const char *mode_name[] = { "pure", "ctx", "sha256", "sha512", "extmu" };

static int ph_of(int mode)
{
	return mode == 2 ? FA_FNDSA_PH_SHA256
		: mode == 3 ? FA_FNDSA_PH_SHA512 : FA_FNDSA_PH_NONE;
}

static unsigned nrec[11][5], nkeys[11], keq[11], keq_prev[11], ntree[11];
static uint64_t ek_buf[FA_FNDSA_EXPANDED_KEY_SIZE(10) / 8];

/*
 * Key generation: the keys of fn-dsa for the same seed, every one (the
 * solver decides and solves as fn-dsa's: src/fndsa_ntru.c): the 10 of
 * each degree in the vector file, the crate's 10 embedded KAT keys at
 * every degree 2..10, and the keys of tests/fndsa/scan.txt (the first
 * SCAN_DEFAULT of each degree; all 2,900 with --scan-all).
 */
#define KEYGEN_EQUAL_512   10
#define KEYGEN_EQUAL_1024  10
#define KAT_EQUAL_512      10
#define KAT_EQUAL_1024     10
#define SCAN_FILE          "tests/fndsa/scan.txt"

static void check_record(unsigned logn, int mode, const uint8_t *kseed,
	const uint8_t *sseed, const uint8_t *ctx, size_t ctx_len,
	const uint8_t *msg, size_t msg_len, const uint8_t *pk,
	const uint8_t *sk, const uint8_t *sig, int new_key)
{
	static uint8_t sk2[FA_FNDSA_PRIVKEY_SIZE(10)];
	static uint8_t pk2[FA_FNDSA_PUBKEY_SIZE(10)];
	static uint8_t sig2[FA_FNDSA_SIG_SIZE(10)];
	static uint8_t msg2[300];
	size_t sk_len = FA_FNDSA_PRIVKEY_SIZE(logn);
	size_t pk_len = FA_FNDSA_PUBKEY_SIZE(logn);
	size_t sig_len = FA_FNDSA_SIG_SIZE(logn);
	const fa_backend *bes[2];
	uint8_t hv[64], mu[64];
	const uint8_t *m = msg;
	size_t ml = msg_len, b;
	int ph = ph_of(mode), r;

	bes[0] = fa_backend_find("portable");
	bes[1] = fa_backend_default();
	if (ph != FA_FNDSA_PH_NONE) {
		CHECK(fa_fndsa_prehash(hv, ph, msg, msg_len) == FA_OK, "prehash");
		m = hv;
		ml = (size_t)fa_fndsa_ph_size(ph);
	}
	for (b = 0; b < 2; b ++) {
		if (new_key) {
			r = fa_fndsa_keygen_seed(bes[b], kseed, logn, sk2,
				sizeof sk2, pk2, sizeof pk2, tmp, sizeof tmp);
			CHECK(r == FA_OK, "logn %u keygen from seed (%s): "
				"r=%d", logn, fa_backend_name(bes[b]), r);
			/* counted: KEYGEN_EQUAL below */
			if (b == 0) {
				keq[logn] += memcmp(sk2, sk, sk_len) == 0
					&& memcmp(pk2, pk, pk_len) == 0;
			} else {
				CHECK((memcmp(sk2, sk, sk_len) == 0)
					== (keq[logn] > keq_prev[logn]),
					"keygen: backends disagree");
				keq_prev[logn] = keq[logn];
			}
			r = fa_fndsa_make_public(pk2, sizeof pk2, sk, sk_len, tmp,
				sizeof tmp);
			CHECK(r == FA_OK && memcmp(pk2, pk, pk_len) == 0,
				"make_public r=%d", r);
		}
		memset(sig2, 0xA5, sizeof sig2);
		if (mode == 4) {
			r = fa_fndsa_compute_mu(mu, pk, pk_len, ctx, ctx_len,
				FA_FNDSA_PH_NONE, msg, msg_len);
			CHECK(r == FA_OK, "compute_mu r=%d", r);
			r = fa_fndsa_sign_mu(bes[b], NULL, sseed, sig2, sig_len,
				sk, sk_len, mu, tmp, sizeof tmp);
		} else {
			r = fa_fndsa_sign_seed(bes[b], sseed, sig2, sig_len, sk,
				sk_len, ctx, ctx_len, ph, m, ml, tmp, sizeof tmp);
		}
		CHECK(r == FA_OK && memcmp(sig2, sig, sig_len) == 0,
			"logn %u %s signature from seed (%s): r=%d", logn,
			mode_name[mode], fa_backend_name(bes[b]), r);

		/* the same signature from the expanded key */
		r = fa_fndsa_expand_privkey(bes[b], ek_buf, sizeof ek_buf, sk,
			sk_len, tmp, sizeof tmp);
		CHECK(r == FA_OK, "expand r=%d", r);
		memset(sig2, 0xA5, sizeof sig2);
		if (mode == 4) {
			r = fa_fndsa_sign_tree_mu(bes[b], NULL, sseed, sig2,
				sig_len, ek_buf, mu, tmp, sizeof tmp);
		} else {
			r = fa_fndsa_sign_tree(bes[b], NULL, sseed, sig2, sig_len,
				ek_buf, ctx, ctx_len, ph, m, ml, tmp, sizeof tmp);
		}
		CHECK(r == FA_OK && memcmp(sig2, sig, sig_len) == 0,
			"logn %u %s signature from the expanded key (%s): r=%d",
			logn, mode_name[mode], fa_backend_name(bes[b]), r);
		ntree[logn] += (unsigned)(r == FA_OK
			&& memcmp(sig2, sig, sig_len) == 0);
	}

	/* verification: the stored signature, then tampered inputs */
	r = fa_fndsa_verify(NULL, sig, sig_len, pk, pk_len, ctx, ctx_len, ph,
		m, ml, tmp, sizeof tmp);
	CHECK(r == FA_OK, "logn %u %s verify r=%d", logn, mode_name[mode], r);
	if (mode == 4) {
		CHECK(fa_fndsa_verify_mu(NULL, sig, sig_len, pk, pk_len, mu, tmp,
			sizeof tmp) == FA_OK, "verify_mu");
		mu[5] ^= 1;
		CHECK(fa_fndsa_verify_mu(NULL, sig, sig_len, pk, pk_len, mu, tmp,
			sizeof tmp) == FA_ERR_BADSIG, "verify_mu tampered mu");
	}
	memcpy(sig2, sig, sig_len);
	sig2[1 + 20] ^= 0x10;                          /* nonce */
	r = fa_fndsa_verify(NULL, sig2, sig_len, pk, pk_len, ctx, ctx_len, ph,
		m, ml, tmp, sizeof tmp);
	CHECK(r == FA_ERR_BADSIG, "tampered nonce r=%d", r);
	memcpy(sig2, sig, sig_len);
	sig2[41] ^= 0x02;                               /* s2[0] */
	r = fa_fndsa_verify(NULL, sig2, sig_len, pk, pk_len, ctx, ctx_len, ph,
		m, ml, tmp, sizeof tmp);
	CHECK(r != FA_OK, "tampered s2 r=%d", r);
	if (ctx_len > 0) {
		memcpy(msg2, ctx, ctx_len);
		msg2[ctx_len - 1] ^= 0x80;
		r = fa_fndsa_verify(NULL, sig, sig_len, pk, pk_len, msg2,
			ctx_len, ph, m, ml, tmp, sizeof tmp);
		CHECK(r == FA_ERR_BADSIG, "tampered ctx r=%d", r);
	} else {
		r = fa_fndsa_verify(NULL, sig, sig_len, pk, pk_len, "x", 1, ph,
			m, ml, tmp, sizeof tmp);
		CHECK(r == FA_ERR_BADSIG, "added ctx r=%d", r);
	}
	if (ml > 0) {
		memcpy(msg2, m, ml);
		msg2[0] ^= 1;
		r = fa_fndsa_verify(NULL, sig, sig_len, pk, pk_len, ctx,
			ctx_len, ph, msg2, ml, tmp, sizeof tmp);
		CHECK(r == FA_ERR_BADSIG, "tampered message r=%d", r);
	} else {
		r = fa_fndsa_verify(NULL, sig, sig_len, pk, pk_len, ctx,
			ctx_len, ph, "m", 1, tmp, sizeof tmp);
		CHECK(r == FA_ERR_BADSIG, "added message r=%d", r);
	}
	if (ph == FA_FNDSA_PH_NONE && mode != 4) {
		/* the same bytes as a SHA-256 hash are another message */
		if (ml == 32) {
			r = fa_fndsa_verify(NULL, sig, sig_len, pk, pk_len, ctx,
				ctx_len, FA_FNDSA_PH_SHA256, m, ml, tmp,
				sizeof tmp);
			CHECK(r == FA_ERR_BADSIG, "pure vs pre-hash r=%d", r);
		}
	}
	nrec[logn][mode] ++;
	nkeys[logn] += (unsigned)new_key;
}

static void test_vectors(void)
{
	static char line[40000];
	static uint8_t kseed[32], sseed[40], ctx[300], msg[300];
	static uint8_t pk[FA_FNDSA_PUBKEY_SIZE(10)], sk[FA_FNDSA_PRIVKEY_SIZE(10)];
	static uint8_t sig[FA_FNDSA_SIG_SIZE(10)];
	FILE *fp = fopen(VEC_FILE, "r");
	unsigned total = 0;

	if (fp == NULL) {
		CHECK(0, "cannot open %s (ctest runs from the repository root)",
			VEC_FILE);
		return;
	}
	while (fgets(line, sizeof line, fp) != NULL) {
		char *f[9], *p = line, *save = NULL;
		long ctx_len, msg_len;
		unsigned logn;
		int i, mode = -1, new_key;

		if (line[0] == '#' || line[0] == '\n') {
			continue;
		}
		for (i = 0; i < 9; i ++) {
			f[i] = strtok_r(i == 0 ? p : NULL, " \n", &save);
			if (f[i] == NULL) {
				break;
			}
		}
		if (i < 9) {
			CHECK(0, "malformed record");
			continue;
		}
		logn = (unsigned)atoi(f[0]);
		for (i = 0; i < 5; i ++) {
			if (strcmp(f[1], mode_name[i]) == 0) {
				mode = i;
			}
		}
		new_key = strcmp(f[2], "=") != 0;
		if (mode < 0 || (logn != 9 && logn != 10)
			|| unhex(sseed, 40, f[3]) != 40
			|| (new_key && (unhex(kseed, 32, f[2]) != 32
			|| unhex(pk, sizeof pk, f[6])
				!= (long)FA_FNDSA_PUBKEY_SIZE(logn)
			|| unhex(sk, sizeof sk, f[7])
				!= (long)FA_FNDSA_PRIVKEY_SIZE(logn)))
			|| unhex(sig, sizeof sig, f[8])
				!= (long)FA_FNDSA_SIG_SIZE(logn))
		{
			CHECK(0, "malformed record fields");
			continue;
		}
		ctx_len = unhex(ctx, sizeof ctx, f[4]);
		msg_len = unhex(msg, sizeof msg, f[5]);
		if (ctx_len < 0 || msg_len < 0) {
			CHECK(0, "malformed ctx/msg");
			continue;
		}
		check_record(logn, mode, kseed, sseed, ctx, (size_t)ctx_len, msg,
			(size_t)msg_len, pk, sk, sig, new_key);
		total ++;
	}
	fclose(fp);
	CHECK(total == 100, "%u records (100 expected)", total);
	CHECK(keq[9] == KEYGEN_EQUAL_512 && keq[10] == KEYGEN_EQUAL_1024,
		"keys from seed equal to fn-dsa's: 512 %u/10 (pinned %u), "
		"1024 %u/10 (pinned %u)", keq[9], KEYGEN_EQUAL_512, keq[10],
		KEYGEN_EQUAL_1024);
	CHECK(ntree[9] == 100 && ntree[10] == 100,
		"expanded-key signatures equal: %u, %u", ntree[9], ntree[10]);
	printf("keys from seed equal to fn-dsa's: 512: %u/10, 1024: %u/10; "
		"every signature from its stored key and seed equal, and from "
		"the expanded key (%u, %u with two backends)\n", keq[9],
		keq[10], ntree[9], ntree[10]);
	printf("vectors: %u records; keys 512: %u, 1024: %u; per mode at 512 "
		"(1024): pure %u (%u), ctx %u (%u), sha256 %u (%u), sha512 %u "
		"(%u), extmu %u (%u)\n", total, nkeys[9], nkeys[10],
		nrec[9][0], nrec[10][0], nrec[9][1], nrec[10][1], nrec[9][2],
		nrec[10][2], nrec[9][3], nrec[10][3], nrec[9][4], nrec[10][4]);
}

/* fn-dsa 0.4.0, src/lib.rs, test_kat: SHA3-256(sk || vk || sig) for
   logn 2..10, j = 0..9 (seeds from SHAKE256(logn || j as 4 bytes LE):
   32 bytes of keygen seed, then 40 of signing seed; context "domain";
   message "message", raw for even j, SHA3-256 pre-hashed for odd j). */
static const char *const KAT[9][10] = {
	{ "d4bb8ac8fa02ca916ace37586269218ded12afcfbacc290a142274661ef9e784",
	  "3565c014785b035c2442a93a06c5e9105b895b34ba92d7958a5683d0d9ce29f5",
	  "a7a38eaef6b8f43aa39913bac0d8c762c461d61cba2e81f06a1be0f6e2d537e0",
	  "53f44db3f24a3ecf59124fbc2bbaf8bc08160e648fb30b0eb8c5f402f8cac536",
	  "e63e7f053f6a072f5207b3996e8bdd12def03813d9b217d22a9cd96726f104a0",
	  "e53cc18f683951db780d1e68a519d955d9015ff4d94ce42ec8a8d980511aa373",
	  "ae6dfaab6db4ad836bc42cfe58344d3e3d0f9d4968f1d243ba38183ca1409730",
	  "64a376800ae2bf5090ec1e50b9bc1cb5e2ffdca84a4304d5757794a76324c108",
	  "71b39bb48de89f402d5c048cd2f38bdd27bb7720111f6ae88897f6af84f8fdcb",
	  "490fb34bfd84adaa504c23dfeb9a621c7b4daab147856c877fae3ad7ba2b3d1f" },
	{ "b8ab12d83bd3e559bb1df1c256fa0a77722c3cf7326efbf6dcd0b92ceeed5e16",
	  "af5f98191865ddde1bd8f13a065e5b4595bbb721253d10970b240eaa040a0943",
	  "a5c08cbd9d776e330e63e91c8e2948b8a411a3f53e86b52a76e67b3ffcf48f55",
	  "46d348a1ed975891db62de10ccf48f968f19ff28fb23c4b43a94abec90ca2147",
	  "f11171b1598f5c387faba115823b1d78b24147e21d1e7acd0f63d8de784d46e8",
	  "e35f94986445b13da057236c2f51d45d76c2477c8957c34b52f7863cbdf2f45a",
	  "efebe6c9dc58d702a0a3e9773461ea6f95888fd2e569b1fbf4a6937e99d7e542",
	  "5747a79febfdc0402a1f3c4d11f437bcdd284c210d370e55fc5878a65b671189",
	  "f4d5a288dc21973dd0929a91cecc392dd385a702acf1e635100a3130cf437997",
	  "f93ec3e9e8edc3ad1ced06f2b83741b2afc77248049b617e0e14a5171669dea7" },
	{ "137514e7bb1f150426d66f3dd64b26d26272f225d4926e185b7a2dbe9d421460",
	  "0dd3bdf334a1379381d9123d9c3c05b5280759c65c99ed81a46df2b0af1320af",
	  "c5ffeba6ea3b630701a32a9a6e3e736dcd32ce8394edf855bb81a433daa3f188",
	  "3e911daa7655073d9987221f7eeb45c3336bd8aad2909de431c9a5cbd2dc33e6",
	  "4fff7e334de3dc4c442aa6953713cbc2a8bd4f1c67eb3ee02a06789a88d2e790",
	  "04c12dcd4fcc512097bec078464b1370aba0fa7cd0ab11352ec4e76c64f9cada",
	  "b5f62f1d82c76055fc7cd846a54d7f39bb2c0f74ee55e1c2d98b82ee10d076fa",
	  "44953161d2d0b6227d3f55730d1034a138c58e8800541fc30346e3c7627eb696",
	  "d8d23052ac3f14133b5fa886da8aede2dfe5ce8aca270e65b23688889ea1b821",
	  "456772f7f182f3b241a17f4b2482efac038955d76dabceb49562fa6e62ad5d95" },
	{ "49151dcac636c59c55930e91a11292426718147fcaf896228bfb690c662d78e2",
	  "34dcc0e9699691dff61a72881f04484b333954e3c8de319ce890c47456559f48",
	  "73184939665019b4fdfb2de0af502ad3ef4b1f13472d7aa1c739064b074debbf",
	  "264f5aa8556e0ae4b11027565e44ac47a52788cd80ed030e1b0e9f758eafd84a",
	  "3f5bac7c84a1351c060bb4ee49b957e2a936c9314a75d2f9c06051dea294f407",
	  "8b5d3a6f387e1187a500ab55648eb07a7e495a0ae97e7d031a667eca36c11e87",
	  "bd6a11ed412ce3c1f7b41763c20cc1f9335b2a5a58be4ea3ecc8943fd698d2a9",
	  "3f75f78c35123a4ea85afaa4c4035ee7c56b0ace01cc1c647c84df007dc38aee",
	  "8e5e0653c3f087c0c1a608edf03962230efb963d0e00254ce29950905ebb2e50",
	  "8938c6f1d88d63f4726363aeb82d91ecaeb058c1c9f8697166d97b2d33fcd78d" },
	{ "bbfc086cc6efe456483d80ed130fa3cf468ca927f2f98e0275976fb978034c53",
	  "963e9ea43d0733cf4e735d6b85baa32d5a5071442053adf3cf711ee76f8fc0a2",
	  "f03c8f8bd2fbbf434c7adb880befdf87aad135bcf933ff3fef1f72ee7518c120",
	  "e8d5ccc73b73c2bd78748fcdccdb8bae5fcbd9872b343a41c45b1af04a56487c",
	  "674bf0c4e6c0ab53019d0d27564dc25c8c515e1e1306c5512cc4bbf922aa5f6a",
	  "22f274014a72d463ed078b729819ac2f4dc5163271731526ea1fca836afb418a",
	  "5ae920ac2ca2ced3f0da1292e1a645f5c6a4a78258c207a83b39668ae1556b25",
	  "ba169240a38b209cd482137269f0c33cca98e3bd181c576e1523bd5b3306207e",
	  "f5ad4fc07a56f20232bd3d51f6c386f93f152fde088e3d545c24da012b893e42",
	  "3dcdc145e4c8466e80f19f06bd59ff5d4dc0ad299b6b0d1ee7b78688c41367c7" },
	{ "2e590e99833785ee67b7fa004c3b4525f1f77a89d938f9ed38f2b718c331bda8",
	  "134537a6a183db2eb232fe2b8f6accf474d34759dfe86bb2ffec669a77dd7a14",
	  "471e4f121374d2c25c714865a3960bee910dcb50e3e8645c1f54f4c3e22fb186",
	  "48153c04b97c4a3507602db294d8abbebeed34fa87ce7eabcadfc441d69288ad",
	  "4f9c6703595b5f77ff6048e270cf4c4ae73a82e65f227edba91f7e84022eb5c0",
	  "c8ffe0bce23744ed41933402dc5b9e6416086b129924b171af0d47b2aeb5a5b9",
	  "bd7c4187b36bd31ec677e4db4feff6d60511aee7d9716b78e3159aa322168a70",
	  "a5b70aa436c3cdff9d1c69a0a9825c505be0775ead0b45608b368df9b4c429af",
	  "fc6c1c552ecc836b11f7beb2cb5613254d13de4c0930e234002a3b6418717077",
	  "76c61e7f16492c22832057af120a39437deb748c199da5c2404bb4a363c76e1f" },
	{ "7c186bbfd1376de1d14e5c9c44fd41183b6cf7d6988e904d14bb977c31519302",
	  "5fd57dd9530835813e59a3cce2879554be6df4067717426a4dd7efec4c8c731e",
	  "62c592885e4c385766b797e47198a08aa29878d602deeecb143cfb9e3065de8c",
	  "2d1a8b654a6100b6e7e238d709f4a95088a2c4b315545ff4ddcb38905f7dbf88",
	  "2798f70186b541ea96c3c2adeee96c3266dcc324038bed22c3156931335beca0",
	  "06aa91f4ff9a4bd75e7fb87b9a4f766bd3391b34e813ab46bfaa3b108292bdaf",
	  "29f0421ae8739fb73c832cb17baef2aea39ac12216028daf9334c08e7f6a23fd",
	  "486efe575fc0bafeac5b048da3b12280de402a66d304d2118ee2039fe206519a",
	  "954ad7d6cc89cb7066358ea82f14ab944d62212fbb63f53bdc0ac2b8ff57cbc3",
	  "c4141cebcb947e3dd702be708ce41eb20d2127719f404d476bc0945a6c5a79dd" },
	{ "71009cd3bc68f5061608ab541e9ae27ba0263c42fad97c112825075176d539d0",
	  "70d8e2492da097f5407459eb9e3d58697855984e305032973a49709d208ddf1d",
	  "91807eec4fc11be204e0bb48d6cc5968dd4dd4e1e886370ddb0c95458d9b68f0",
	  "ded7d5c6392f0e16926a8e535b3bdb8b0fb4dc6dfd108ce8229c8ce6a378e965",
	  "7c6a265c4b6732dccbb2fcc872be4546709285f8ed13902d7adfef2fb006d513",
	  "c4afc6d00b2560fe567a1fab088d8b5e35774d4154a638fc5e4a10cc587aa798",
	  "e3a0d6f8aba1c5658e053234fa0526f0d6c05f33fece73965871376a1f9039fc",
	  "56d822207747b7c8bd47914482d63609e303bfa380b795b9f0f74cc0728ed040",
	  "4021a79b26e2b5ad8603b1ec203a0de7177bbb2c4f7e046be5438842dcef30ad",
	  "2ecca13d10dc658e0915bc42a8687d2aa7605c8670a2ca5c67e480487eaa0281" },
	{ "51bec3b8ca2565a94b2f1ad7bdc5f3844170495f235b8ea87fdae7e6d3b9dcb6",
	  "abed632dec978f230f17e1c9059e36a7f0edfbaac2969ee75100421ea3346446",
	  "83868908f2f89ee85a4e869b3d040de1f040e0dfa2e8cdabff00f0a2a2e8c120",
	  "66f11c38b7f787bd66cd00ec62f3f2af622b81274a4dbe9462025b8d757710e1",
	  "65602b1692abe97e845e41589d21927732f71c36ef1c888d155a15708b7b60e4",
	  "95539caec65ac9a9ce23175168af914b905165b8f72c4d700f61b0b746683b11",
	  "3a9632ee72a09704519eadea4b3688289c644f17105d29997d3555d21a428c7b",
	  "b32a4019b5e5f802d4b61c751b99c58ffdee5adbf8cb97dc59c480756aa0a4f7",
	  "439a026581a9472bf11b9f62389a066291b9a4ca789877ee2a44c9c6b5ca9852",
	  "37b7f34cd910edc8b53b5302af4e2ff60192a396fe6c44fe8140a0ce0be04888" },
};

static void test_crate_kat(void)
{
	static uint8_t buf[FA_FNDSA_PRIVKEY_SIZE(10) + FA_FNDSA_PUBKEY_SIZE(10)
		+ FA_FNDSA_SIG_SIZE(10)], sg2[FA_FNDSA_SIG_SIZE(10)];
	unsigned logn, j, ok[11] = { 0 };

	for (logn = 2; logn <= 10; logn ++) {
		size_t skl = FA_FNDSA_PRIVKEY_SIZE(logn);
		size_t pkl = FA_FNDSA_PUBKEY_SIZE(logn);
		size_t sgl = FA_FNDSA_SIG_SIZE(logn);

		for (j = 0; j < 10; j ++) {
			uint8_t seed[5], ks[32], ss[40], hv[32], d[32], want[32];
			fa_shake256_ctx sc;
			int r, i;

			seed[0] = (uint8_t)logn;
			for (i = 0; i < 4; i ++) {
				seed[1 + i] = (uint8_t)(j >> (8 * i));
			}
			fa_shake256_init_prng_from_seed(&sc, seed, 5);
			fa_shake256_extract(&sc, ks, 32);
			fa_shake256_extract(&sc, ss, 40);
			r = fa_fndsa_keygen_seed(NULL, ks, logn, buf, skl,
				buf + skl, pkl, tmp, sizeof tmp);
			CHECK(r == FA_OK, "KAT keygen logn %u r=%d", logn, r);
			if ((j & 1) == 0) {
				r = fa_fndsa_sign_seed(NULL, ss, buf + skl + pkl,
					sgl, buf, skl, "domain", 6,
					FA_FNDSA_PH_NONE, "message", 7, tmp,
					sizeof tmp);
			} else {
				fa_sha3_256(hv, "message", 7);
				r = fa_fndsa_sign_seed(NULL, ss, buf + skl + pkl,
					sgl, buf, skl, "domain", 6,
					FA_FNDSA_PH_SHA3_256, hv, 32, tmp,
					sizeof tmp);
			}
			CHECK(r == FA_OK, "KAT sign logn %u r=%d", logn, r);
			/* the expanded key's signature is the same */
			r = fa_fndsa_expand_privkey(NULL, ek_buf, sizeof ek_buf,
				buf, skl, tmp, sizeof tmp);
			CHECK(r == FA_OK, "KAT expand logn %u r=%d", logn, r);
			if ((j & 1) == 0) {
				r = fa_fndsa_sign_tree(NULL, NULL, ss, sg2, sgl,
					ek_buf, "domain", 6, FA_FNDSA_PH_NONE,
					"message", 7, tmp, sizeof tmp);
			} else {
				r = fa_fndsa_sign_tree(NULL, NULL, ss, sg2, sgl,
					ek_buf, "domain", 6, FA_FNDSA_PH_SHA3_256,
					hv, 32, tmp, sizeof tmp);
			}
			CHECK(r == FA_OK && memcmp(sg2, buf + skl + pkl, sgl)
				== 0, "KAT sign_tree logn %u r=%d", logn, r);
			fa_sha3_256(d, buf, skl + pkl + sgl);
			unhex(want, 32, KAT[logn - 2][j]);
			if (memcmp(d, want, 32) == 0) {
				ok[logn] ++;
			}
		}
	}
	/* Each KAT hash covers the key and the signature. */
	CHECK(ok[9] == KAT_EQUAL_512 && ok[10] == KAT_EQUAL_1024,
		"fn-dsa KAT 512: %u/10, 1024: %u/10", ok[9], ok[10]);
	for (logn = 2; logn <= 8; logn ++) {
		CHECK(ok[logn] == 10, "fn-dsa KAT logn %u: %u/10", logn,
			ok[logn]);
	}
	printf("fn-dsa embedded KAT (SHA3-256 of sk||vk||sig) matched:");
	for (logn = 2; logn <= 10; logn ++) {
		printf(" logn %u: %u/10%s", logn, ok[logn], logn < 10 ? "," : "\n");
	}
}

static void test_hashes(void)
{
	static const struct {
		const char *msg, *sha256, *sha384, *sha512, *sha3;
	} V[] = {
		{ "abc",
		  "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
		  "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7",
		  "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f",
		  "3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532" },
		{ "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
		  "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
		  "3391fdddfc8dc7393707a65b1b4709397cf8b1d162af05abfe8f450de5f36bc6b0455a8520bc4e6f5fe95b1fe3c8452b",
		  "204a8fc6dda82f0a0ced7beb8e08a41657c16ef468b228a8279be331a703c33596fd15c13b1b07f9aa1d3bea57789ca031ad85c7a71dd70354ec631238ca3445",
		  "41c0dba2a9d6240849100376a8235e2c82e1b9998a999e21db32dd97496d3376" },
		{ "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
		  "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1",
		  "09330c33f71147e83d192fc782cd1b4753111b173b3b05d22fa08086e3b0f712fcc7c71a557e2db966c3e9fa91746039",
		  "8e959b75dae313da8cf4f72814fc143f8f7779c6eb9f7fa17299aeadb6889018501d289e4900f7e4331b99dec4b5433ac7d329eeb6dd26545e96e55b874be909",
		  "916f6061fe879741ca6469b43971dfdb28b1a32dc36cb3254e812be27aad1d18" },
	};
	static uint8_t big[1111];
	uint8_t d[64], w[64];
	size_t i;

	for (i = 0; i < sizeof V / sizeof V[0]; i ++) {
		size_t l = strlen(V[i].msg);

		fa_sha256(d, V[i].msg, l);
		unhex(w, 64, V[i].sha256);
		CHECK(memcmp(d, w, 32) == 0, "sha256 %zu", i);
		fa_sha384(d, V[i].msg, l);
		unhex(w, 64, V[i].sha384);
		CHECK(memcmp(d, w, 48) == 0, "sha384 %zu", i);
		fa_sha512(d, V[i].msg, l);
		unhex(w, 64, V[i].sha512);
		CHECK(memcmp(d, w, 64) == 0, "sha512 %zu", i);
		fa_sha3_256(d, V[i].msg, l);
		unhex(w, 64, V[i].sha3);
		CHECK(memcmp(d, w, 32) == 0, "sha3-256 %zu", i);
	}
	for (i = 0; i < sizeof big; i ++) {
		big[i] = (uint8_t)i;
	}
	fa_sha256(d, big, sizeof big);
	unhex(w, 64, "75dfadc9d8ed3a399268eb97631f06ecd134d66a7cf1e4ad61ffd162ce419769");
	CHECK(memcmp(d, w, 32) == 0, "sha256 1111 bytes");
	fa_sha512(d, big, sizeof big);
	unhex(w, 64, "673986b1ce59abf095dd5294acece0f25c7e7e2838965f9bdeaef00d15964d8a93383881fbfbaa815f856f14cf7a05a10c8d5f249adc025271c1641617b52be5");
	CHECK(memcmp(d, w, 64) == 0, "sha512 1111 bytes");
}

/* The exact NTRU equation check of private-key decoding: F negated
   (G = gF/f mod q is then negated too, within [-127, 127] as before,
   and fG - gF = -q = 0 mod q, with the stored hash of the public key
   still right) is refused by every backend, in signing and expansion. */
static void test_ntru_check(void)
{
	static uint8_t sk[FA_FNDSA_PRIVKEY_SIZE(10)];
	static uint8_t pk[FA_FNDSA_PUBKEY_SIZE(10)];
	static uint8_t sig[FA_FNDSA_SIG_SIZE(10)];
	static uint64_t ek[FA_FNDSA_EXPANDED_KEY_SIZE(10) / 8 + 1];
	uint8_t sseed[40] = { 9 };
	unsigned logn;
	size_t bi;

	for (logn = 2; logn <= 10; logn ++) {
		size_t n = (size_t)1 << logn;
		size_t off = 1 + 2 * ((n * FA_FG_BITS(logn)) >> 3), u;
		size_t skl = FA_FNDSA_PRIVKEY_SIZE(logn);
		uint8_t seed[32] = { 7, (uint8_t)logn };

		CHECK(fa_fndsa_keygen_seed(NULL, seed, logn, sk, skl, pk,
			FA_FNDSA_PUBKEY_SIZE(logn), tmp, sizeof tmp) == FA_OK,
			"ntru check: keygen");
		for (u = 0; u < n; u ++) {
			sk[off + u] = (uint8_t)(-(int8_t)sk[off + u]);
		}
		for (bi = 0; bi < fa_backend_count(); bi ++) {
			const fa_backend *be = fa_backend_at(bi);
			int r1, r2;

			if (!fa_backend_available(be)) {
				continue;
			}
			r1 = fa_fndsa_sign_seed(be, sseed, sig,
				FA_FNDSA_SIG_SIZE(logn), sk, skl, NULL, 0,
				FA_FNDSA_PH_NONE, "m", 1, tmp, sizeof tmp);
			r2 = fa_fndsa_expand_privkey(be, ek, sizeof ek, sk, skl,
				tmp, sizeof tmp);
			CHECK(r1 == FA_ERR_KEY && r2 == FA_ERR_KEY,
				"F negated, logn %u, %s: sign %d, expand %d",
				logn, fa_backend_name(be), r1, r2);
		}
	}
}

/* Round-3 objects given to FN-DSA functions; arguments. */
static void test_errors(void)
{
	static uint8_t sk3[FA_PRIVKEY_SIZE(9)], pk3[FA_PUBKEY_SIZE(9)];
	static uint8_t sig3[FA_SIG_CT_SIZE(9)];
	static uint8_t sk[FA_FNDSA_PRIVKEY_SIZE(9)], pk[FA_FNDSA_PUBKEY_SIZE(9)];
	static uint8_t sig[FA_FNDSA_SIG_SIZE(9)], ctx[256];
	uint8_t seed[32] = { 1, 2, 3 }, sseed[40] = { 4 }, hv[32] = { 0 };
	fa_shake256_ctx rng;
	size_t sl;
	int r;

	fa_shake256_init_prng_from_seed(&rng, "fndsa-errors", 12);
	CHECK(fa_keygen(NULL, &rng, 9, sk3, sizeof sk3, pk3, sizeof pk3, tmp,
		sizeof tmp) == FA_OK, "round-3 keygen");
	CHECK(fa_fndsa_keygen_seed(NULL, seed, 9, sk, sizeof sk, pk, sizeof pk,
		tmp, sizeof tmp) == FA_OK, "keygen");
	CHECK(fa_fndsa_sign_seed(NULL, sseed, sig, sizeof sig, sk, sizeof sk,
		NULL, 0, FA_FNDSA_PH_NONE, "m", 1, tmp, sizeof tmp) == FA_OK,
		"sign");

	r = fa_fndsa_sign_seed(NULL, sseed, sig, sizeof sig, sk3, sizeof sk3,
		NULL, 0, FA_FNDSA_PH_NONE, "m", 1, tmp, sizeof tmp);
	CHECK(r == FA_ERR_SCHEME, "round-3 sk to sign: %d", r);
	r = fa_fndsa_verify(NULL, sig, sizeof sig, pk3, sizeof pk3, NULL, 0,
		FA_FNDSA_PH_NONE, "m", 1, tmp, sizeof tmp);
	CHECK(r == FA_ERR_SCHEME, "round-3 pk to verify: %d", r);
	sl = FA_SIG_PADDED_SIZE(9);
	CHECK(fa_sign_dyn(NULL, &rng, sig3, &sl, FA_SIG_PADDED, sk3,
		sizeof sk3, "m", 1, tmp, sizeof tmp) == FA_OK, "round-3 sign");
	r = fa_fndsa_verify(NULL, sig3, sl, pk, sizeof pk, NULL, 0,
		FA_FNDSA_PH_NONE, "m", 1, tmp, sizeof tmp);
	CHECK(r == FA_ERR_SCHEME, "round-3 padded sig: %d", r);
	sl = sizeof sig3;
	CHECK(fa_sign_dyn(NULL, &rng, sig3, &sl, FA_SIG_CT, sk3, sizeof sk3,
		"m", 1, tmp, sizeof tmp) == FA_OK, "round-3 sign ct");
	r = fa_fndsa_verify(NULL, sig3, sl, pk, sizeof pk, NULL, 0,
		FA_FNDSA_PH_NONE, "m", 1, tmp, sizeof tmp);
	CHECK(r == FA_ERR_SCHEME, "round-3 ct sig: %d", r);
	/* and the other way round: round 3 refuses FN-DSA objects */
	r = fa_sign_dyn(NULL, &rng, sig3, &sl, FA_SIG_PADDED, sk, sizeof sk,
		"m", 1, tmp, sizeof tmp);
	CHECK(r == FA_ERR_LENGTH, "FN-DSA sk to round 3: %d", r);
	r = fa_verify(NULL, sig, sizeof sig, 0, pk, sizeof pk, "m", 1, tmp,
		sizeof tmp);
	CHECK(r != FA_OK, "FN-DSA sig to round 3: %d", r);

	r = fa_fndsa_sign_seed(NULL, sseed, sig, sizeof sig, sk, sizeof sk,
		ctx, 256, FA_FNDSA_PH_NONE, "m", 1, tmp, sizeof tmp);
	CHECK(r == FA_ERR_BADARG, "ctx of 256 bytes: %d", r);
	r = fa_fndsa_sign_seed(NULL, sseed, sig, sizeof sig, sk, sizeof sk,
		ctx, 255, FA_FNDSA_PH_SHA256, hv, 31, tmp, sizeof tmp);
	CHECK(r == FA_ERR_LENGTH, "hash of 31 bytes: %d", r);
	r = fa_fndsa_sign_seed(NULL, sseed, sig, sizeof sig, sk, sizeof sk,
		ctx, 255, 99, hv, 32, tmp, sizeof tmp);
	CHECK(r == FA_ERR_BADARG, "unknown ph: %d", r);
	r = fa_fndsa_sign_seed(NULL, sseed, sig, sizeof sig - 1, sk,
		sizeof sk, NULL, 0, FA_FNDSA_PH_NONE, "m", 1, tmp, sizeof tmp);
	CHECK(r == FA_ERR_SIZE, "short signature buffer: %d", r);
	r = fa_fndsa_sign_seed(NULL, sseed, sig, sizeof sig, sk, sizeof sk,
		NULL, 0, FA_FNDSA_PH_NONE, "m", 1, tmp,
		FA_TMPSIZE_FNDSA_SIGN(9) - 1);
	CHECK(r == FA_ERR_SIZE, "short tmp: %d", r);
	sk[sizeof sk - 1] ^= 1;     /* the stored hash of the public key */
	r = fa_fndsa_sign_seed(NULL, sseed, sig, sizeof sig, sk, sizeof sk,
		NULL, 0, FA_FNDSA_PH_NONE, "m", 1, tmp, sizeof tmp);
	CHECK(r == FA_ERR_KEY, "inconsistent sk: %d", r);
	CHECK(fa_fndsa_keygen_seed(NULL, seed, 1, sk, sizeof sk, pk,
		sizeof pk, tmp, sizeof tmp) == FA_ERR_BADARG, "logn 1");
	CHECK(strstr(fa_fndsa_strerror(FA_ERR_SCHEME), "round-3") != NULL,
		"strerror");
	/* key generation in a scratch buffer of exactly the stated size
	   (heap: the sanitizer build sees an overrun), one byte less
	   refused */
	{
		unsigned ln;

		for (ln = FA_FNDSA_LOGN_MIN; ln <= FA_FNDSA_LOGN_MAX; ln ++) {
			size_t tl = FA_TMPSIZE_FNDSA_KEYGEN(ln);
			uint8_t *t = malloc(tl + 1);

			CHECK(t != NULL, "malloc");
			if (t == NULL) {
				break;
			}
			CHECK(fa_fndsa_keygen_seed(NULL, seed, ln, tmp, sizeof tmp,
				NULL, 0, t, tl - 1) == FA_ERR_SIZE,
				"keygen logn %u, tmp one byte short", ln);
			CHECK(fa_fndsa_keygen_seed(NULL, seed, ln, tmp, sizeof tmp,
				NULL, 0, t + 1, tl) == FA_OK,
				"keygen logn %u, exact unaligned tmp", ln);
			free(t);
		}
	}
	/* expanded keys: errors */
	{
		static uint64_t ek3[FA_EXPANDED_KEY_SIZE(9) / 8 + 1];
		uint8_t *ekb = (uint8_t *)ek_buf;
		size_t el = FA_FNDSA_EXPANDED_KEY_SIZE(9);

		r = fa_fndsa_expand_privkey(NULL, ek_buf, el, sk, sizeof sk,
			tmp, sizeof tmp);
		CHECK(r == FA_ERR_KEY, "inconsistent sk to expand: %d", r);
		sk[sizeof sk - 1] ^= 1;   /* the key consistent again */
		CHECK(fa_expand_privkey(NULL, ek3, sizeof ek3, sk3, sizeof sk3,
			tmp, sizeof tmp) == FA_OK, "round-3 expand");
		r = fa_fndsa_sign_tree(NULL, NULL, sseed, sig, sizeof sig, ek3,
			NULL, 0, FA_FNDSA_PH_NONE, "m", 1, tmp, sizeof tmp);
		CHECK(r == FA_ERR_SCHEME, "round-3 ek to sign_tree: %d", r);
		r = fa_fndsa_expand_privkey(NULL, ek_buf, sizeof ek_buf, sk3,
			sizeof sk3, tmp, sizeof tmp);
		CHECK(r == FA_ERR_SCHEME, "round-3 sk to expand: %d", r);
		r = fa_fndsa_expand_privkey(NULL, ekb + 4, el, sk, sizeof sk,
			tmp, sizeof tmp);
		CHECK(r == FA_ERR_BADARG, "misaligned ek: %d", r);
		r = fa_fndsa_expand_privkey(NULL, ek_buf, el - 1, sk, sizeof sk,
			tmp, sizeof tmp);
		CHECK(r == FA_ERR_SIZE, "short ek: %d", r);
		r = fa_fndsa_expand_privkey(NULL, ek_buf, el, sk, sizeof sk,
			tmp, FA_TMPSIZE_FNDSA_SIGN(9) - 1);
		CHECK(r == FA_ERR_SIZE, "expand short tmp: %d", r);
		r = fa_fndsa_expand_privkey(NULL, ek_buf, el, sk, sizeof sk,
			tmp, sizeof tmp);
		CHECK(r == FA_OK, "expand: %d", r);
		r = fa_fndsa_sign_tree(NULL, NULL, sseed, sig, sizeof sig,
			ek_buf, NULL, 0, FA_FNDSA_PH_NONE, "m", 1, tmp,
			FA_TMPSIZE_FNDSA_SIGN_TREE(9) - 1);
		CHECK(r == FA_ERR_SIZE, "sign_tree short tmp: %d", r);
		r = fa_fndsa_sign_tree(NULL, NULL, sseed, sig, sizeof sig - 1,
			ek_buf, NULL, 0, FA_FNDSA_PH_NONE, "m", 1, tmp, sizeof tmp);
		CHECK(r == FA_ERR_SIZE, "sign_tree short sig: %d", r);
		r = fa_fndsa_sign_tree(NULL, NULL, NULL, sig, sizeof sig,
			ek_buf, NULL, 0, FA_FNDSA_PH_NONE, "m", 1, tmp, sizeof tmp);
		CHECK(r == FA_ERR_BADARG, "sign_tree without rng or seed: %d", r);
		r = fa_fndsa_sign_tree(NULL, NULL, sseed, sig, sizeof sig,
			ekb + 4, NULL, 0, FA_FNDSA_PH_NONE, "m", 1, tmp, sizeof tmp);
		CHECK(r == FA_ERR_BADARG, "sign_tree misaligned ek: %d", r);
		r = fa_fndsa_sign_tree(NULL, NULL, sseed, sig, sizeof sig,
			ek_buf, NULL, 0, FA_FNDSA_PH_NONE, "m", 1, tmp, sizeof tmp);
		CHECK(r == FA_OK && fa_fndsa_verify(NULL, sig, sizeof sig, pk,
			sizeof pk, NULL, 0, FA_FNDSA_PH_NONE, "m", 1, tmp,
			sizeof tmp) == FA_OK, "sign_tree round trip: %d", r);
		{
			/* exact, unaligned scratch (heap: the sanitizer build
			   sees an overrun) */
			size_t tl = FA_TMPSIZE_FNDSA_SIGN_TREE(9);
			uint8_t *t = malloc(tl + 1);

			CHECK(t != NULL, "malloc");
			if (t != NULL) {
				r = fa_fndsa_sign_tree(NULL, NULL, sseed, sig,
					sizeof sig, ek_buf, NULL, 0,
					FA_FNDSA_PH_NONE, "m", 1, t + 1, tl);
				CHECK(r == FA_OK, "sign_tree exact tmp: %d", r);
				free(t);
			}
		}
		ekb[el - 3] ^= 0x40;      /* a tree value */
		r = fa_fndsa_sign_tree(NULL, NULL, sseed, sig, sizeof sig,
			ek_buf, NULL, 0, FA_FNDSA_PH_NONE, "m", 1, tmp, sizeof tmp);
		CHECK(r == FA_ERR_KEY, "corrupted ek: %d", r);
		ekb[el - 3] ^= 0x40;
		ekb[2] = 'A';
		r = fa_fndsa_sign_tree(NULL, NULL, sseed, sig, sizeof sig,
			ek_buf, NULL, 0, FA_FNDSA_PH_NONE, "m", 1, tmp, sizeof tmp);
		CHECK(r == FA_ERR_KEY, "ek header: %d", r);
		ekb[2] = 'N';
		sl = sizeof sig3;
		r = fa_sign_tree(NULL, &rng, sig3, &sl, FA_SIG_COMPRESSED, ek_buf,
			"m", 1, tmp, sizeof tmp);
		CHECK(r == FA_ERR_KEY, "FN-DSA ek to round-3 sign_tree: %d", r);
	}
	/* an RNG-driven round trip */
	CHECK(fa_fndsa_keygen(NULL, &rng, 10, sk3, 0, NULL, 0, tmp,
		sizeof tmp) == FA_ERR_SIZE, "keygen sk too small");
	{
		static uint8_t sk10[FA_FNDSA_PRIVKEY_SIZE(10)];
		static uint8_t pk10[FA_FNDSA_PUBKEY_SIZE(10)];
		static uint8_t sig10[FA_FNDSA_SIG_SIZE(10)];

		CHECK(fa_fndsa_keygen(NULL, &rng, 10, sk10, sizeof sk10, pk10,
			sizeof pk10, tmp, sizeof tmp) == FA_OK, "keygen rng");
		CHECK(fa_fndsa_sign(NULL, &rng, sig10, sizeof sig10, sk10,
			sizeof sk10, "c", 1, FA_FNDSA_PH_NONE, "msg", 3, tmp,
			sizeof tmp) == FA_OK, "sign rng");
		CHECK(fa_fndsa_verify(NULL, sig10, sizeof sig10, pk10,
			sizeof pk10, "c", 1, FA_FNDSA_PH_NONE, "msg", 3, tmp,
			sizeof tmp) == FA_OK, "verify rng");
	}
}

/*
 * Keys from seed against tests/fndsa/scan.txt ("logn i digest": the
 * crate's key for the seed SHAKE256("falcon-accel fn-dsa vectors/scan"
 * || logn || i), 32-bit little-endian words, digest the first 8 bytes of
 * SHAKE256(sk || vk)). By default the first `lim` keys of each degree;
 * every key with lim = 0.
 */
static void test_scan(unsigned lim)
{
	static char line[200];
	static uint8_t sk[FA_FNDSA_PRIVKEY_SIZE(10)], pk[FA_FNDSA_PUBKEY_SIZE(10)];
	unsigned nk[11] = { 0 }, neq[11] = { 0 }, logn;
	FILE *fp = fopen(SCAN_FILE, "r");

	if (fp == NULL) {
		CHECK(0, "cannot open %s (ctest runs from the repository root)",
			SCAN_FILE);
		return;
	}
	while (fgets(line, sizeof line, fp) != NULL) {
		uint8_t seed[32], d[8], want[8], w[4];
		char hx[40];
		unsigned i, b;
		fa_shake256_ctx sc;
		int r;

		if (line[0] == '#') {
			continue;
		}
		if (sscanf(line, "%u %u %39s", &logn, &i, hx) != 3
			|| logn < 2 || logn > 10 || unhex(want, 8, hx) != 8)
		{
			CHECK(0, "malformed scan line: %s", line);
			continue;
		}
		if (lim != 0 && i >= lim) {
			continue;
		}
		fa_shake256_init(&sc);
		fa_shake256_inject(&sc, "falcon-accel fn-dsa vectors/scan", 32);
		for (b = 0; b < 2; b ++) {
			uint32_t v = b == 0 ? logn : i;

			w[0] = (uint8_t)v;
			w[1] = (uint8_t)(v >> 8);
			w[2] = (uint8_t)(v >> 16);
			w[3] = (uint8_t)(v >> 24);
			fa_shake256_inject(&sc, w, 4);
		}
		fa_shake256_flip(&sc);
		fa_shake256_extract(&sc, seed, 32);
		r = fa_fndsa_keygen_seed(NULL, seed, logn, sk,
			FA_FNDSA_PRIVKEY_SIZE(logn), pk, FA_FNDSA_PUBKEY_SIZE(logn),
			tmp, sizeof tmp);
		CHECK(r == FA_OK, "scan keygen logn %u key %u: %d", logn, i, r);
		fa_shake256_init(&sc);
		fa_shake256_inject(&sc, sk, FA_FNDSA_PRIVKEY_SIZE(logn));
		fa_shake256_inject(&sc, pk, FA_FNDSA_PUBKEY_SIZE(logn));
		fa_shake256_flip(&sc);
		fa_shake256_extract(&sc, d, 8);
		nk[logn] ++;
		if (memcmp(d, want, 8) == 0) {
			neq[logn] ++;
		} else {
			CHECK(0, "scan: logn %u key %u differs from fn-dsa's",
				logn, i);
		}
	}
	fclose(fp);
	printf("keys from seed equal to fn-dsa's (%s, %s):", SCAN_FILE,
		lim == 0 ? "all" : "first of each degree");
	for (logn = 2; logn <= 10; logn ++) {
		CHECK(nk[logn] > 0, "scan: no key at logn %u", logn);
		printf(" %u: %u/%u%s", logn, neq[logn], nk[logn],
			logn < 10 ? "," : "\n");
	}
}

/* --scan-all: every key of tests/fndsa/scan.txt (else the first
   SCAN_DEFAULT of each degree). */
#define SCAN_DEFAULT 100

int main(int argc, char **argv)
{
	int all = argc > 1 && strcmp(argv[1], "--scan-all") == 0;

	test_hashes();
	test_errors();
	test_ntru_check();
	test_vectors();
	test_crate_kat();
	test_scan(all ? 0 : SCAN_DEFAULT);
	return tu_finish("test_fndsa");
}
