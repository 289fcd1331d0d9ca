/*
 * test_shake.c -- SHAKE256 and hash-to-point.
 *
 * Expected values were computed with Python's hashlib (independent of
 * this code):
 *
 *   import hashlib
 *   def pat(n): return bytes((i*7+3) & 0xFF for i in range(n))
 *   # SHAKE256(msg), first 300 bytes; msg = b"abc" for len 3, else pat(len)
 *   hashlib.shake_256(msg).digest(300).hex()
 *   # hash-to-point of data = b"\x01"*40 + b"test message":
 *   def htp(data, logn):
 *       s = hashlib.shake_256(data).digest(8 << logn); out = []; i = 0
 *       while len(out) < (1 << logn):
 *           w = (s[i] << 8) | s[i+1]; i += 2
 *           if w < 61445: out.append(w % 12289)
 *       return out
 *   # digest: SHAKE256 of the values as little-endian uint16, 16 bytes;
 *   # samples: 16-bit samples read (rejections included).
 */
#include "inner.h"
#include "test_util.h"

#include <time.h>

static void
pattern(uint8_t *buf, size_t len)
{
	size_t i;

	for (i = 0; i < len; i ++) {
		buf[i] = (uint8_t)(i * 7 + 3);
	}
}

static int
hexval(int c)
{
	if (c >= '0' && c <= '9') return c - '0';
	if (c >= 'a' && c <= 'f') return c - 'a' + 10;
	if (c >= 'A' && c <= 'F') return c - 'A' + 10;
	return -1;
}

static size_t
unhex(uint8_t *dst, size_t max, const char *hex)
{
	size_t n = 0;

	while (hex[0] && hex[1] && n < max) {
		dst[n ++] = (uint8_t)((hexval(hex[0]) << 4) | hexval(hex[1]));
		hex += 2;
	}
	return n;
}

static const struct {
	size_t len;
	const char *out300;
} shake_vectors[] = {
	{ 0,
	  "46b9dd2b0ba88d13233b3feb743eeb243fcd52ea62b81b82b50c27646ed5762f"
	  "d75dc4ddd8c0f200cb05019d67b592f6fc821c49479ab48640292eacb3b7c4be"
	  "141e96616fb13957692cc7edd0b45ae3dc07223c8e92937bef84bc0eab862853"
	  "349ec75546f58fb7c2775c38462c5010d846c185c15111e595522a6bcd16cf86"
	  "f3d122109e3b1fdd943b6aec468a2d621a7c06c6a957c62b54dafc3be87567d6"
	  "77231395f6147293b68ceab7a9e0c58d864e8efde4e1b9a46cbe854713672f5c"
	  "aaae314ed9083dab4b099f8e300f01b8650f1f4b1d8fcf3f3cb53fb8e9eb2ea2"
	  "03bdc970f50ae55428a91f7f53ac266b28419c3778a15fd248d339ede785fb7f"
	  "5a1aaa96d313eacc890936c173cdcd0fab882c45755feb3aed96d477ff96390b"
	  "f9a66d1368b208e21f7c10d0" },
	{ 1,
	  "db4252337900d8ab7f609d170135d459a6798945d5a574d4a9db7b623c754d07"
	  "8fb2239762994969a1f372801817bb304f5b549a6bb5cb7c69950c5f439caf19"
	  "2455668cbfe3f6cce5a3c45d15411243dd4174f8e697af999a0b40d0c0b91828"
	  "c53d08f286986544b961c7b9c86d789936b6e8a4a3a981cbf8e83442a9392f5b"
	  "6fc61c9a1c3247a3c8dda02514cd9471c6d1bdad7fe09eaaddc474190995d5f5"
	  "7b38b52fc5d31488c6cf13afa621d5010005b69d94406a54b4bf8fe57a73a882"
	  "c7591b1ddec112b70d134801793ff7a6090da48f20414140e12a31fe7577f939"
	  "8b63d50e345b0f6626f1393ce86da095e4976c02dd70200f669e799475a99fab"
	  "59f93988648dcafd7a8494f3c07a9d26a81df06ca33f687f8109f17c51bf1f72"
	  "317e5e5a36125031d5cb1c89" },
	{ 3,
	  "483366601360a8771c6863080cc4114d8db44530f8f1e1ee4f94ea37e78b5739"
	  "d5a15bef186a5386c75744c0527e1faa9f8726e462a12a4feb06bd8801e751e4"
	  "1385141204f329979fd3047a13c5657724ada64d2470157b3cdc288620944d78"
	  "dbcddbd912993f0913f164fb2ce95131a2d09a3e6d51cbfc622720d7a75c6334"
	  "e8a2d7ec71a7cc29cf0ea610eeff1a588290a53000faa79932becec0bd3cd0b3"
	  "3a7e5d397fed1ada9442b99903f4dcfd8559ed3950faf40fe6f3b5d710ed3b67"
	  "7513771af6bfe11934817e8762d9896ba579d88d84ba7aa3cdc7055f6796f195"
	  "bd9ae788f2f5bb96100d6bbaff7fbc6eea24d4449a2477d172a5507dcc931412"
	  "fc346b1bb39b878330e026b12ddf384af3334560ea1d363966caa7d8ddcbec7d"
	  "a52b42215c11d5f8ee57f341" },
	{ 135,
	  "0213fc98352f009fafdf8ee1ea36391485a85aa6f6c07a5cd81266d21eb17f9a"
	  "f3e3a6aa4a5e03793be3a4da4ba01c438b689164fc6bebb290eb372bfecd569d"
	  "2a69dc220bc2dae5d6cf9d3995091e4059d9e84618faa6b7de2d5e6f5d35313e"
	  "6843196ea42cf421268e4d129cfec24bd4d421b1b40473134ade8603b8bc69db"
	  "9d10b25e24c9de8adbc9e713237b937a4241e5f9ae17257febb0ee240d6977e8"
	  "0bbac531907b909928be689e8a7807e60a211d30c0c9526dcb7552f9a83f0f77"
	  "a92467ac3421636a42bdd39fc363ba46f5362bc630895c409cd069b03737a357"
	  "5e112959d791d8a5dcc01efcc95a50da577e7f84aa7e14067004b98e76b65c74"
	  "3689c0a88c8b64e5a777f86d3e40e6b5ed03cc6adddb407723fe1735a882794b"
	  "768e2ef8edfe43f458a3f5e3" },
	{ 136,
	  "c00f43811e5b4a38e14e3c06d8a5ce34115a19cd604ce5bac6c3823b76046d5c"
	  "6b149f173bef3089dbfe66774f9723bc344ecbaa7e9674df4ceb8558811423c5"
	  "913b6167176f8c2e18378ec5f62a4342aff67ea93d488ca27140a678ce2163ff"
	  "449e2fad54a00e0e2ab9c0d8a15379cdde8c9de63b699ea9bb935d384f92a76e"
	  "28b18d0b7dfea5e871497915347b2e44acb263e59b74dab7f5916be955ab1a91"
	  "f270386e35f596ca60879a96dfe95a79c873069a03031ee6094eb2326c85362c"
	  "bc553a257e1adb8244d06ecec6e253fb1ea11310d71faeb3d12521365f29a09e"
	  "0a95cff159c97684ba1e4231120cf6e5f36be98f7222235bcf3769755c963262"
	  "b75e0e1d36e951bde7e8834759ebcd9212ea54ec114da2bc080509880686ed9c"
	  "a88b6596d9f55e8f68ea843e" },
	{ 137,
	  "3c983983487bcbe74feba53b35bb1e05812379cb4116d9761f78d2ce3177866e"
	  "dc88e750bfaf43bd31ccd052078d97406fbfca21145c09c8d9bd1e81cd443e31"
	  "aa69827bf0f1d9fddf4b028252de8dbfae953870c3b10347251986b7b49b2406"
	  "d3e625526d331a8ac1b4d02976893c1fd0837dbc3327f2ecb90ddf5b4990faba"
	  "3d1c6fa76502b431aa5c71daf885783a279b9a1c88a753f15d06de7fd52e5c54"
	  "12daa844cba2d130e036120781dd3a09860fbc326626bf99234241536491813d"
	  "8ee261efbdb8773f71052c59746b7f4a90971f6344469646ce08f6e8062f6fa0"
	  "f32a489f6c107e5c4d0284bf9c45ace98c18e91a1adf5fa315c6714141bc06e5"
	  "391350e34d517390131f4b73d42971dcecd9ad9d91ce8343d584cb5d467ba489"
	  "4951308166705b20dc1adb48" },
	{ 271,
	  "bcb97927f18cf6a655d69f2eae4345f8899213b35283d8fc5bca40dca12fdc1c"
	  "c00f04a8fd4d28b0945e3351b3be2acd1253a60cb82178b40879f431bb9a6481"
	  "6daecf9038e06d43cf9f4e622aee40bc28afd7a29722037cdfa560fa09b660b4"
	  "c6019009e9683ce4636123b52cf09c8870aaedb97c06b4e6e8a044cfe533b5e8"
	  "6cd6708ae82e7b8b9e3ad1cb79c53f2fd584d6721cfd1360a332274338675ae4"
	  "4bc8e50d1bbe281b52538889ed5dca8d07b8ccd6ac2377377dae2dc52fb51349"
	  "7296f5fb14de8d5ce20774cfec0871ec6dcea9786499f259afe74237a4466a54"
	  "5566a06c047acfa8d49b1339e347e8f17032239b37078867e47d6f74c5cf9aed"
	  "2f8ebc2c1523987d2219a4074bd92cb3867424471ebc1fac675e39ff5efde23d"
	  "70fce6df769736a2cea94c29" },
	{ 272,
	  "fbb7df100461f5db3224c3b715603b5a52f92bd0f761d9361d4aa0613d47033b"
	  "c8d8f05b01b30fe0cb993f1d67031226e657bcd1ac47b91c40cbbe31818a1f0d"
	  "cf1e0b5ee66facb706eb1fe3082b5ee864b0d7df7e769809c168e2665bbf2947"
	  "df9e811d25b0d8ec1597882555179868825fc58a96b42974cb8320969c7e0795"
	  "33757fa3856dc412ed121e83382387fa34ce838ec0399511ed589f85f05c7387"
	  "b0c4a3592a53c80a959742640608f58714f194dd80ab8be22217e1c6db2a70ef"
	  "8cedd0884921a238f47e028cf055023bac6abdf60b400f6e01a2a17e53e3698e"
	  "826cf13263b065b40c7766ca6527491914a4cca80b8e44c7e0572156b0102034"
	  "98ecdbacb6fa725b3ad2203ff0ae4c55e0cd660b15d7b5a19d2436637e8c3d1d"
	  "5c205ed05cd5b4adf65f8ffa" },
	{ 1000,
	  "980bf59987a720e516297296f92a27bba960e48a40bd01a0415b2e5dee26313d"
	  "0a3f3ce47abe9e0f73cf74dc4fe68a5d51259bda988fa50fe68735dcda7edc52"
	  "28e6915c04011df0e7a7e63b0316b55f06e2abd2062ac11e91c228700a1ee471"
	  "7c9e4bbe162556e0303f26318c5df69f169856cfd3f8953c1ad3419a9bf51c73"
	  "a47d19868b347e3dea9ec6fb2d86f70e53f30cdf74d9bb0ba1aa090ef75fefff"
	  "02402db4e374c9a614ac0bd4f523b8a069a23701dd1e952680c9a3110dce8b9b"
	  "a259b818bb6c820a1a72b2401ef913fddeab3bf6d086cf2ff841250f4077ddba"
	  "c72ae4d6c66a652cbe7f84de81663d617e708fd31c078a099db5834e39a0fe48"
	  "46ba2b66977d02b7e7e5ba80e252aa4fb5dcd77e538a547e7d6304aa1d106294"
	  "27542f1dd4360cb178a3b9e0" },
};

static const struct {
	unsigned logn;
	unsigned samples;
	const char *digest;
	uint16_t first[8];
} htp_vectors[] = {
	{ 1, 2, "8132797fdae9b9243d3e9cd4d2e8364e",
	  { 7115, 10466, 0, 0, 0, 0, 0, 0 } },
	{ 2, 4, "f5f6c9ef608f1f02b44560a3877c4f2a",
	  { 7115, 10466, 7324, 3303, 0, 0, 0, 0 } },
	{ 3, 8, "2aef344e38731c943586023c69ccdb03",
	  { 7115, 10466, 7324, 3303, 5518, 10858, 9669, 801 } },
	{ 4, 16, "28fa5e8c9185843ddfc05bbe47d28005",
	  { 7115, 10466, 7324, 3303, 5518, 10858, 9669, 801 } },
	{ 5, 32, "94e06e028e345d7e1eb298fff83f6dfa",
	  { 7115, 10466, 7324, 3303, 5518, 10858, 9669, 801 } },
	{ 6, 67, "244e0c9264223dc18f6d19bd086c3861",
	  { 7115, 10466, 7324, 3303, 5518, 10858, 9669, 801 } },
	{ 7, 133, "20f7e0e48f229e70f8997825e9b3d580",
	  { 7115, 10466, 7324, 3303, 5518, 10858, 9669, 801 } },
	{ 8, 274, "c92bfff2aaabc67a78dcbf3b94d54b30",
	  { 7115, 10466, 7324, 3303, 5518, 10858, 9669, 801 } },
	{ 9, 544, "9fe736500c28fb40cc41247f2d7b0a68",
	  { 7115, 10466, 7324, 3303, 5518, 10858, 9669, 801 } },
	{ 10, 1091, "8d4508c4788527aead2baabd89c5ffa2",
	  { 7115, 10466, 7324, 3303, 5518, 10858, 9669, 801 } },
};

/* One-shot SHAKE256 of the vector inputs against hashlib. */
static void
test_vectors(void)
{
	size_t i;
	uint8_t in[1000], out[300], exp[300];

	for (i = 0; i < sizeof shake_vectors / sizeof shake_vectors[0]; i ++) {
		fa_shake256_ctx sc;
		size_t len = shake_vectors[i].len;

		if (len == 3) {
			memcpy(in, "abc", 3);
		} else {
			pattern(in, len);
		}
		CHECK(unhex(exp, sizeof exp, shake_vectors[i].out300) == 300,
			"bad vector %zu", i);
		fa_shake256_init(&sc);
		fa_shake256_inject(&sc, in, len);
		fa_shake256_flip(&sc);
		fa_shake256_extract(&sc, out, sizeof out);
		CHECK(memcmp(out, exp, sizeof out) == 0, "len %zu", len);

		/* init_prng_from_seed = init + inject + flip. */
		fa_shake256_init_prng_from_seed(&sc, in, len);
		fa_shake256_extract(&sc, out, sizeof out);
		CHECK(memcmp(out, exp, sizeof out) == 0, "seed len %zu", len);
	}
}

/* Random splits of inject and extract give the one-shot result. */
static void
test_splits(void)
{
	uint64_t rs = 0x5EED0001;
	size_t i;
	int trial;
	uint8_t in[1000], out[300], exp[300];

	for (i = 0; i < sizeof shake_vectors / sizeof shake_vectors[0]; i ++) {
		size_t len = shake_vectors[i].len;

		if (len == 3) {
			memcpy(in, "abc", 3);
		} else {
			pattern(in, len);
		}
		unhex(exp, sizeof exp, shake_vectors[i].out300);
		for (trial = 0; trial < 40; trial ++) {
			fa_shake256_ctx sc;
			size_t pos = 0;

			fa_shake256_init(&sc);
			while (pos < len) {
				size_t c = (size_t)(tu_rand64(&rs) % 150);

				if (c > len - pos) {
					c = len - pos;
				}
				fa_shake256_inject(&sc, in + pos, c);
				pos += c;
			}
			fa_shake256_inject(&sc, in, 0);
			fa_shake256_flip(&sc);
			pos = 0;
			while (pos < sizeof out) {
				size_t c = (size_t)(tu_rand64(&rs) % 150);

				if (c > sizeof out - pos) {
					c = sizeof out - pos;
				}
				fa_shake256_extract(&sc, out + pos, c);
				pos += c;
			}
			CHECK(memcmp(out, exp, sizeof out) == 0,
				"split len %zu trial %d", len, trial);
		}
	}
}

static void
test_system_seed(void)
{
	fa_shake256_ctx a, b;
	uint8_t oa[32], ob[32];

	CHECK(fa_shake256_init_prng_from_system(&a) == FA_OK, "getrandom");
	CHECK(fa_shake256_init_prng_from_system(&b) == FA_OK, "getrandom");
	CHECK(a.flipped == 1, "not flipped");
	fa_shake256_extract(&a, oa, sizeof oa);
	fa_shake256_extract(&b, ob, sizeof ob);
	CHECK(memcmp(oa, ob, sizeof oa) != 0, "two system seeds agree");
}

/*
 * The round constants (fa_keccak_rc, the one table both the portable and
 * the AVX2 permutations read) derived as FIPS 202 defines them
 * (Algorithm 5): rc(t) is bit 0 of x^t mod x^8+x^6+x^5+x^4+1 over GF(2),
 * and bit 2^j - 1 of RC[i] is rc(j + 7i), j = 0..6.
 */
static void
test_keccak_rc(void)
{
	unsigned i, j, t, ok = 1;

	for (i = 0; i < 24; i ++) {
		uint64_t v = 0;

		for (j = 0; j < 7; j ++) {
			unsigned r = 1;

			for (t = 0; t < (j + 7 * i) % 255; t ++) {
				r <<= 1;
				if (r & 0x100) {
					r ^= 0x171;
				}
			}
			v |= (uint64_t)(r & 1) << ((1u << j) - 1);
		}
		ok &= v == fa_keccak_rc[i];
	}
	CHECK(ok, "keccak round constants are FIPS 202's LFSR values");
}

/*
 * The two forms of the permutation (keccak_f1600.c) agree: on the zero
 * state (whose image has lane 0 = 0xF1258F7940E1DDE7, FIPS 202's
 * published intermediate values), on each of the 1600 single-bit states,
 * and on random states; fa_keccak_f1600 is one of them, the other is
 * the 32-bit form compiled for this host.
 */
static void
test_keccak_forms(void)
{
	uint64_t a[25], b[25], rng = 0x6b656363616bu;
	unsigned i, j;

	memset(a, 0, sizeof a);
	memset(b, 0, sizeof b);
	fa_keccak_f1600(a);
	fa_keccak_f1600_w32(b);
	CHECK(a[0] == 0xF1258F7940E1DDE7u, "keccak zero state lane 0");
	CHECK(memcmp(a, b, sizeof a) == 0, "keccak forms differ on zero");
	for (i = 0; i < 1600; i ++) {
		memset(a, 0, sizeof a);
		a[i >> 6] = (uint64_t)1 << (i & 63);
		memcpy(b, a, sizeof a);
		fa_keccak_f1600(a);
		fa_keccak_f1600_w32(b);
		if (memcmp(a, b, sizeof a) != 0) {
			CHECK(0, "keccak forms differ on a single-bit state");
			break;
		}
	}
	for (i = 0; i < 200; i ++) {
		for (j = 0; j < 25; j ++) {
			a[j] = tu_rand64(&rng);
		}
		memcpy(b, a, sizeof a);
		for (j = 0; j < 3; j ++) {
			fa_keccak_f1600(a);
			fa_keccak_f1600_w32(b);
		}
		if (memcmp(a, b, sizeof a) != 0) {
			CHECK(0, "keccak forms differ on a random state");
			break;
		}
	}
}

static void
htp_data(fa_shake256_ctx *sc)
{
	uint8_t data[52];

	memset(data, 1, 40);
	memcpy(data + 40, "test message", 12);
	fa_shake256_init_prng_from_seed(sc, data, sizeof data);
}

/* Hash-to-point against the Python model, and exact consumption. */
static void
test_htp_vectors(void)
{
	size_t i;

	for (i = 0; i < sizeof htp_vectors / sizeof htp_vectors[0]; i ++) {
		unsigned logn = htp_vectors[i].logn;
		size_t n = MKN(logn), u;
		uint16_t x[1024], y[1024];
		uint8_t le[2048], dig[16], exp[16], tmp[8 << 10];
		uint8_t stream[2 * 1091 + 2], next[2];
		fa_shake256_ctx sc, sd;

		htp_data(&sc);
		fa_hash_to_point_vartime(&sc, x, logn);
		for (u = 0; u < n; u ++) {
			le[2 * u] = (uint8_t)x[u];
			le[2 * u + 1] = (uint8_t)(x[u] >> 8);
		}
		fa_shake256_init_prng_from_seed(&sd, le, 2 * n);
		fa_shake256_extract(&sd, dig, sizeof dig);
		unhex(exp, sizeof exp, htp_vectors[i].digest);
		CHECK(memcmp(dig, exp, sizeof dig) == 0, "htp digest logn %u", logn);
		for (u = 0; u < n && u < 8; u ++) {
			CHECK(x[u] == htp_vectors[i].first[u], "htp logn %u [%zu]",
				logn, u);
		}

		/* vartime consumed exactly `samples` samples. */
		fa_shake256_extract(&sc, next, 2);
		htp_data(&sd);
		fa_shake256_extract(&sd, stream, 2 * htp_vectors[i].samples + 2);
		CHECK(memcmp(next, stream + 2 * htp_vectors[i].samples, 2) == 0,
			"htp consumption logn %u", logn);

		/* ct gives the same values. */
		htp_data(&sc);
		fa_hash_to_point_ct(&sc, y, logn, tmp);
		CHECK(memcmp(x, y, n * sizeof x[0]) == 0, "htp ct logn %u", logn);
	}
}

/*
 * Crafted SHAKE256 output: after the flip the first extraction permutes
 * the state; setting dptr = 0 instead makes the state bytes themselves
 * the next 136 output bytes. So the first 68 16-bit samples are chosen
 * (big-endian), the ones after come from the permuted (random) state.
 */
static void
craft_samples(fa_shake256_ctx *sc, const uint16_t *w, size_t ns,
	uint64_t seed)
{
	size_t i;

	fa_shake256_init_prng_from_seed(sc, &seed, sizeof seed);
	for (i = 0; i < 2 * ns && i < 136; i ++) {
		uint8_t b = (uint8_t)((i & 1) ? w[i >> 1] : w[i >> 1] >> 8);
		unsigned sh = (unsigned)(i & 7) * 8;

		sc->st[i >> 3] &= ~((uint64_t)0xFF << sh);
		sc->st[i >> 3] |= (uint64_t)b << sh;
	}
	sc->dptr = 0;
}

/*
 * ct against the first n acceptable samples of the stream, computed here
 * from the raw output. Returns 0 (nothing checked) when the m samples the
 * ct version reads hold fewer than n acceptable ones.
 */
static int
check_htp_crafted(const fa_shake256_ctx *sc0, unsigned logn,
	const char *what)
{
	static const unsigned over[11] = {
		0, 65, 67, 71, 77, 86, 100, 122, 154, 205, 287
	};
	size_t n = MKN(logn), m = n + over[logn], i, k = 0;
	uint8_t raw[2 * (1024 + 287)], tmp[8 << 10];
	uint16_t exp[1024], x[1024], y[1024];
	fa_shake256_ctx sc;

	sc = *sc0;
	fa_shake256_extract(&sc, raw, 2 * m);
	for (i = 0; i < m && k < n; i ++) {
		uint32_t w = ((uint32_t)raw[2 * i] << 8) | raw[2 * i + 1];

		if (w < 61445) {
			exp[k ++] = (uint16_t)(w % 12289);
		}
	}
	if (k < n) {
		return 0;
	}
	sc = *sc0;
	fa_hash_to_point_ct(&sc, x, logn, tmp);
	sc = *sc0;
	fa_hash_to_point_vartime(&sc, y, logn);
	CHECK(memcmp(x, exp, n * 2) == 0, "crafted ct logn %u %s", logn, what);
	CHECK(memcmp(y, exp, n * 2) == 0, "crafted vartime logn %u %s", logn,
		what);
	return 1;
}

/*
 * Adversarial rejection patterns for the constant-time compaction, whose
 * longest moves (up to `over` slots) random data almost never needs.
 */
static void
test_htp_crafted(void)
{
	uint64_t rs = 0xFACADE;
	uint16_t w[68];
	fa_shake256_ctx sc;
	size_t i, j, u;
	unsigned logn;
	int checked;

	/* logn = 1 (m = 67 samples, all chosen): every pair of positions
	   for the two acceptable samples. */
	checked = 0;
	for (i = 0; i < 67; i ++) {
		for (j = i + 1; j < 67; j ++) {
			for (u = 0; u < 68; u ++) {
				w[u] = (uint16_t)(61445 + tu_rand64(&rs) % 4091);
			}
			w[i] = (uint16_t)(tu_rand64(&rs) % 61445);
			w[j] = (uint16_t)(tu_rand64(&rs) % 61445);
			craft_samples(&sc, w, 68, i * 67 + j);
			checked += check_htp_crafted(&sc, 1, "pair");
		}
	}
	CHECK(checked == 67 * 66 / 2, "pairs checked %d", checked);

	/* Every degree: the first 68 samples with rejection rates from
	   0 to 1 (the rest random). */
	for (logn = 1; logn <= 10; logn ++) {
		int trial;

		checked = 0;
		for (trial = 0; trial < 120; trial ++) {
			unsigned rate = (unsigned)(trial % 12) * 10;   /* % */

			for (u = 0; u < 68; u ++) {
				if (tu_rand64(&rs) % 100 < rate) {
					w[u] = (uint16_t)(61445
						+ tu_rand64(&rs) % 4091);
				} else {
					w[u] = (uint16_t)(tu_rand64(&rs) % 61445);
				}
			}
			if (trial % 12 == 11) {
				/* Boundary values 61444 (kept), 61445 (not). */
				for (u = 0; u < 68; u ++) {
					w[u] = (uint16_t)(61444 + (u & 1));
				}
			}
			craft_samples(&sc, w, 68, tu_rand64(&rs));
			checked += check_htp_crafted(&sc, logn, "rate");
		}
		CHECK(checked >= 60, "logn %u: %d crafted cases checked",
			logn, checked);
	}
}

/* ct == vartime on many inputs, every degree; all values < q. */
static void
test_htp_ct(void)
{
	uint64_t rs = 0xC0FFEE;
	unsigned logn;
	int trial;

	for (logn = 1; logn <= 10; logn ++) {
		int trials = logn >= 9 ? 100 : 300;

		for (trial = 0; trial < trials; trial ++) {
			uint8_t seed[16], tmp[8 << 10];
			uint16_t x[1024], y[1024];
			fa_shake256_ctx sc;
			size_t u, n = MKN(logn);
			int ok = 1;

			for (u = 0; u < sizeof seed; u ++) {
				seed[u] = (uint8_t)tu_rand64(&rs);
			}
			fa_shake256_init_prng_from_seed(&sc, seed, sizeof seed);
			fa_hash_to_point_vartime(&sc, x, logn);
			fa_shake256_init_prng_from_seed(&sc, seed, sizeof seed);
			memset(y, 0xAA, sizeof y);
			fa_hash_to_point_ct(&sc, y, logn, tmp);
			for (u = 0; u < n; u ++) {
				ok &= x[u] < FA_Q && x[u] == y[u];
			}
			CHECK(ok, "ct/vartime logn %u trial %d", logn, trial);
			/* ct writes nothing past x[n-1]. */
			CHECK(n == 1024 || y[n] == 0xAAAA, "ct overflow logn %u",
				logn);
		}
	}
}

static double
now_ns(void)
{
	struct timespec ts;

	timespec_get(&ts, TIME_UTC);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* `test_shake bench`: timings (not a test). */
static void
bench(void)
{
	unsigned logn;

	for (logn = 9; logn <= 10; logn ++) {
		uint16_t x[1024];
		uint8_t tmp[8 << 10], seed[48] = { 0 };
		fa_shake256_ctx sc;
		int i, iter = 2000;
		double t0, t1, t2;

		t0 = now_ns();
		for (i = 0; i < iter; i ++) {
			seed[0] = (uint8_t)i;
			fa_shake256_init_prng_from_seed(&sc, seed, sizeof seed);
			fa_hash_to_point_vartime(&sc, x, logn);
		}
		t1 = now_ns();
		for (i = 0; i < iter; i ++) {
			seed[0] = (uint8_t)i;
			fa_shake256_init_prng_from_seed(&sc, seed, sizeof seed);
			fa_hash_to_point_ct(&sc, x, logn, tmp);
		}
		t2 = now_ns();
		printf("n=%4u hash_to_point vartime %8.0f ns, ct %8.0f ns\n",
			1u << logn, (t1 - t0) / iter, (t2 - t1) / iter);
	}
	{
		fa_shake256_ctx sc;
		uint8_t buf[136 * 64];
		int i, iter = 200;
		double t0, t1;

		fa_shake256_init_prng_from_seed(&sc, "x", 1);
		t0 = now_ns();
		for (i = 0; i < iter; i ++) {
			fa_shake256_extract(&sc, buf, sizeof buf);
		}
		t1 = now_ns();
		printf("keccak-f[1600] %.0f ns per permutation (squeeze)\n",
			(t1 - t0) / (iter * 64.0));
	}
}

/* hash-to-point's division-free w mod q (inner.h), for every w < 5q. */
static void test_mod_q_small(void)
{
	uint32_t w, bad = 0;

	for (w = 0; w < 5u * FA_Q; w ++) {
		bad += fa_mod_q_small(w) != w % FA_Q;
	}
	CHECK(bad == 0, "fa_mod_q_small: %u of 61445 values wrong",
		(unsigned)bad);
}

int
main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "bench") == 0) {
		bench();
		return 0;
	}
	test_keccak_rc();
	test_keccak_forms();
	test_vectors();
	test_splits();
	test_system_seed();
	test_htp_vectors();
	test_htp_ct();
	test_htp_crafted();
	test_mod_q_small();
	return tu_finish("test_shake");
}
