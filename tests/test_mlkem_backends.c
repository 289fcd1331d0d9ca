/*
 * test_mlkem_backends.c -- the ML-KEM slots of every available backend,
 * through the seam's dispatchers, against the portable kernels, bit for
 * bit (centred representatives out), on zero, single-coefficient, extreme
 * and random inputs, for k = 1..4 in base multiplication (the seam's own
 * contract test, tests/test_backends.c, also covers the raw kernels and
 * declines); the four-sponge job runner (SampleNTT, CBD, H, J mixed)
 * against the one-sponge functions; whole key pairs, ciphertexts
 * and secrets equal across backends.
 *
 * A backend that is not available on this CPU is reported and skipped
 * (the portable case always runs).
 */
#include "mlkem/mlkem_inner.h"
#include "test_util.h"

#define N MLKEM_N

static uint64_t rs = 0x1234567;

static int16_t
rnd_range(int lo, int hi)   /* uniform in [lo, hi] */
{
	return (int16_t)(lo + (int)(tu_rand64(&rs) % (uint64_t)(hi - lo + 1)));
}

/* Inputs of pattern `pat` within [lo, hi]: 0 zero, 1 one coefficient,
   2 all hi, 3 all lo, 4 alternating, else random. */
static void
fill(int16_t *a, size_t n, int pat, int lo, int hi)
{
	size_t i;

	for (i = 0; i < n; i ++) {
		switch (pat) {
		case 0: a[i] = 0; break;
		case 1: a[i] = (int16_t)(i == (size_t)(rs % n) ? hi : 0); break;
		case 2: a[i] = (int16_t)hi; break;
		case 3: a[i] = (int16_t)lo; break;
		case 4: a[i] = (int16_t)((i & 1) ? hi : lo); break;
		default: a[i] = rnd_range(lo, hi); break;
		}
	}
}

static void
test_kernels(const struct fa_kernels *be)
{
	static int16_t a[4 * N], b[4 * N], x[4 * N], y[4 * N];
	int pat;
	unsigned k, bad_ntt = 0, bad_inv = 0, bad_mul = 0, bad_range = 0;

	for (pat = 0; pat < 40; pat ++) {
		unsigned i;

		fill(a, N, pat, -(MLKEM_Q - 1), MLKEM_Q - 1);
		memcpy(x, a, N * sizeof *a);
		fa_mlkem_ntt_portable(a);
		fa_k_mlkem_ntt(be, x);
		bad_ntt += memcmp(a, x, N * sizeof *a) != 0;
		for (i = 0; i < N; i ++) {
			bad_range += a[i] > (MLKEM_Q - 1) / 2
				|| a[i] < -(MLKEM_Q - 1) / 2;
		}

		fill(a, N, pat, -(4 * MLKEM_Q - 1), 4 * MLKEM_Q - 1);
		memcpy(x, a, N * sizeof *a);
		fa_mlkem_invntt_portable(a);
		fa_k_mlkem_invntt(be, x);
		bad_inv += memcmp(a, x, N * sizeof *a) != 0;
		for (i = 0; i < N; i ++) {
			bad_range += a[i] > (MLKEM_Q - 1) / 2
				|| a[i] < -(MLKEM_Q - 1) / 2;
		}

		for (k = 1; k <= 4; k ++) {
			/* a: undecoded 12-bit values; b: |b| < q */
			fill(a, k * N, pat, 0, 4095);
			fill(b, k * N, pat + 1, -(MLKEM_Q - 1), MLKEM_Q - 1);
			fa_mlkem_basemul_acc_portable(x, a, b, k);
			fa_k_mlkem_basemul_acc(be, y, a, b, k);
			bad_mul += memcmp(x, y, N * sizeof *x) != 0;
			fill(a, k * N, pat, -4095, 4095);
			fa_mlkem_basemul_acc_portable(x, a, b, k);
			fa_k_mlkem_basemul_acc(be, y, a, b, k);
			bad_mul += memcmp(x, y, N * sizeof *x) != 0;
			for (i = 0; i < N; i ++) {
				bad_range += x[i] > (MLKEM_Q - 1) / 2
					|| x[i] < -(MLKEM_Q - 1) / 2;
			}
		}
	}
	CHECK(bad_ntt == 0, "%s ntt differs (%u inputs)", be->name, bad_ntt);
	CHECK(bad_inv == 0, "%s invntt differs (%u inputs)", be->name, bad_inv);
	CHECK(bad_mul == 0, "%s basemul_acc differs (%u inputs)", be->name,
		bad_mul);
	CHECK(bad_range == 0, "portable outputs not centred (%u)", bad_range);

	/* keccak_x4 = four scalar permutations (interleaved states) */
	{
		uint64_t st[100], want[100];
		unsigned i, r, bad = 0;

		for (r = 0; r < 20; r ++) {
			for (i = 0; i < 100; i ++) {
				st[i] = r == 0 ? 0 : tu_rand64(&rs);
			}
			/* want: state t de-interleaved at want + 25 t */
			for (i = 0; i < 100; i ++) {
				want[25 * (i & 3) + (i >> 2)] = st[i];
			}
			for (i = 0; i < 4; i ++) {
				fa_keccak_f1600(want + 25 * i);
			}
			fa_k_keccak_x4(be, st);
			for (i = 0; i < 100; i ++) {
				bad += st[i] != want[25 * (i & 3) + (i >> 2)];
			}
		}
		CHECK(bad == 0, "%s keccak_x4 differs (%u)", be->name, bad);
	}

	/* encode (Compress_d + ByteEncode_d, d = 12: mod q + ByteEncode_12):
	   every int16 input, in order and shuffled within each block, every
	   d; decode (ByteDecode_d + Decompress_d): zero, all-ones and random
	   byte strings, every d; round trip at d = 12 */
	{
		static int16_t in[N], a1[N], a2[N];
		uint8_t e1[32 * 12], e2[32 * 12];
		unsigned d, bad = 0, badd = 0, badr = 0, r;
		int32_t x;

		for (d = 1; d <= 12; d ++) {
			for (x = -32768; x < 32768; x += N) {
				unsigned i;

				for (i = 0; i < N; i ++) {
					in[i] = (int16_t)(x + (int32_t)i);
				}
				if (x & N) {
					for (i = N - 1; i > 0; i --) {
						unsigned j = (unsigned)(tu_rand64(&rs) % (i + 1));
						int16_t t = in[i];

						in[i] = in[j];
						in[j] = t;
					}
				}
				fa_mlkem_encode_portable(e1, in, d);
				memset(e2, 0xA5, sizeof e2);
				fa_k_mlkem_encode(be, e2, in, d);
				bad += memcmp(e1, e2, 32 * d) != 0;
				bad += d < 12 && e2[32 * d] != 0xA5;   /* wrote past */
			}
			for (r = 0; r < 40; r ++) {
				unsigned i;

				for (i = 0; i < 32 * d; i ++) {
					e1[i] = r == 0 ? 0 : r == 1 ? 0xFF
						: (uint8_t)tu_rand64(&rs);
				}
				fa_mlkem_decode_portable(a1, e1, d);
				fa_k_mlkem_decode(be, a2, e1, d);
				badd += memcmp(a1, a2, sizeof a1) != 0;
				if (d == 12) {
					/* values < q survive the round trip */
					for (i = 0; i < N; i ++) {
						a1[i] = (int16_t)(a1[i] % MLKEM_Q);
					}
					fa_k_mlkem_encode(be, e2, a1, 12);
					fa_k_mlkem_decode(be, a2, e2, 12);
					badr += memcmp(a1, a2, sizeof a1) != 0;
				}
			}
		}
		CHECK(bad == 0, "%s encode differs (%u blocks)", be->name, bad);
		CHECK(badd == 0, "%s decode differs (%u strings)", be->name, badd);
		CHECK(badr == 0, "%s encode/decode 12 round trip (%u)", be->name,
			badr);
	}

	/* CBD_eta: zero, all-ones, alternating and random byte strings */
	{
		static uint8_t in[192];
		int16_t c1[N], c2[N];
		unsigned eta, r, i, bad = 0;

		for (eta = 2; eta <= 3; eta ++) {
			for (r = 0; r < 60; r ++) {
				for (i = 0; i < sizeof in; i ++) {
					in[i] = r == 0 ? 0 : r == 1 ? 0xFF
						: r == 2 ? 0x0F : r == 3 ? 0xF0
						: r == 4 ? 0x55 : (uint8_t)tu_rand64(&rs);
				}
				fa_mlkem_cbd_portable(c1, in, eta);
				fa_k_mlkem_cbd(be, c2, in, eta);
				bad += memcmp(c1, c2, sizeof c1) != 0;
			}
		}
		CHECK(bad == 0, "%s cbd differs (%u strings)", be->name, bad);
	}

	/* the four-sponge runner = the one-sponge functions: job lists of
	   every kind mixed, 1 to 30 jobs (idle sponges at the end, jobs
	   finishing at different permutations), hash messages of 0 to 1600
	   bytes split anywhere between m0 and m1, ABSORB of 1 to 9 blocks
	   into a random state (= fa_sponge_absorb from that state) */
	{
		static const size_t lens[] = { 0, 1, 31, 135, 136, 137, 271,
			272, 800, 1120, 1184, 1568, 1600 };
		static uint8_t msg[1600];
		static int16_t got[30][N];
		static uint8_t hout[30][32];
		static uint64_t ast[30][25];
		fa_mlkem_x4job jb[30];
		fa_keccak_sponge ref;
		int16_t want[N];
		uint8_t rho[32], sigma[32], h2[32];
		unsigned r, n, u, bad = 0, kinds = 0;

		for (u = 0; u < sizeof msg; u ++) {
			msg[u] = (uint8_t)tu_rand64(&rs);
		}
		for (r = 0; r < 24; r ++) {
			for (u = 0; u < 32; u ++) {
				rho[u] = (uint8_t)tu_rand64(&rs);
				sigma[u] = (uint8_t)tu_rand64(&rs);
			}
			n = r < 8 ? r + 1 : 1 + (unsigned)(tu_rand64(&rs) % 30);
			for (u = 0; u < n; u ++) {
				unsigned kind = (r * 5 + u) % 7 == 3 ? FA_X4_ABSORB
					: (r + u) % 4 == 0 ? FA_X4_H
					: (r + u) % 4 == 1 ? FA_X4_J
					: (r * 7 + u) % 3 == 0 ? FA_X4_CBD
					: FA_X4_SAMPLE_NTT;
				size_t len = lens[tu_rand64(&rs) % 13];
				size_t l0 = len == 0 ? 0 : tu_rand64(&rs) % (len + 1);

				memset(&jb[u], 0, sizeof jb[u]);
				jb[u].kind = kind;
				jb[u].seed = kind == FA_X4_CBD ? sigma : rho;
				jb[u].b0 = (uint8_t)tu_rand64(&rs);
				jb[u].b1 = (uint8_t)tu_rand64(&rs);
				jb[u].eta = 2 + (unsigned)(tu_rand64(&rs) & 1);
				jb[u].poly = got[u];
				jb[u].m0 = msg;
				jb[u].l0 = l0;
				jb[u].m1 = len - l0 ? msg + l0 : NULL;
				jb[u].l1 = len - l0;
				jb[u].out = hout[u];
				if (kind == FA_X4_ABSORB) {
					unsigned w;

					for (w = 0; w < 25; w ++) {
						ast[u][w] = tu_rand64(&rs);
					}
					jb[u].state = ast[u];
					jb[u].l0 = FA_SHA3_256_RATE
						* (1 + (size_t)(tu_rand64(&rs) % 9));
					jb[u].m0 = msg + tu_rand64(&rs) % 64;
					jb[u].m1 = NULL;
					jb[u].l1 = 0;
					/* the reference starts from the same state
					   (got[u] is not written by ABSORB) */
					memcpy(got[u], ast[u], sizeof ast[u]);
				}
				kinds |= 1u << kind;
			}
			fa_mlkem_x4_run(jb, n, be);
			for (u = 0; u < n; u ++) {
				switch (jb[u].kind) {
				case FA_X4_SAMPLE_NTT:
					fa_mlkem_sample_ntt(want, rho, jb[u].b0,
						jb[u].b1);
					bad += memcmp(want, got[u], sizeof want) != 0;
					break;
				case FA_X4_CBD:
					fa_mlkem_sample_cbd(want, sigma, jb[u].b0,
						jb[u].eta);
					bad += memcmp(want, got[u], sizeof want) != 0;
					break;
				case FA_X4_H:
					fa_sha3_256(h2, msg, jb[u].l0 + jb[u].l1);
					bad += memcmp(h2, hout[u], 32) != 0;
					break;
				case FA_X4_ABSORB:
					/* got[u] holds the state before the run */
					fa_sponge_init(&ref, FA_SHA3_256_RATE);
					memcpy(ref.st, got[u], sizeof ref.st);
					fa_sponge_absorb(&ref, jb[u].m0, jb[u].l0);
					bad += ref.pos != 0;
					bad += memcmp(ref.st, ast[u], sizeof ref.st) != 0;
					break;
				default:
					fa_shake256_2(h2, 32, msg, jb[u].l0 + jb[u].l1,
						NULL, 0);
					bad += memcmp(h2, hout[u], 32) != 0;
					break;
				}
			}
		}
		CHECK(kinds == 0x3E, "four-sponge test misses a job kind (%x)",
			kinds);
		CHECK(bad == 0, "%s four-sponge runner differs (%u jobs)",
			be->name, bad);
	}
}

static void
test_scheme(const fa_backend *be)
{
	static const unsigned levels[3] = { 512, 768, 1024 };
	static uint8_t tmp[FA_KEM_TMPSIZE_MAX];
	static uint8_t ek1[FA_KEM_EK_MAXSIZE], dk1[FA_KEM_DK_MAXSIZE];
	static uint8_t ek2[FA_KEM_EK_MAXSIZE], dk2[FA_KEM_DK_MAXSIZE];
	static uint8_t ct1[FA_KEM_CT_MAXSIZE], ct2[FA_KEM_CT_MAXSIZE];
	const fa_backend *portable = fa_backend_find("portable");
	uint8_t seed[64], m[32], ss1[32], ss2[32];
	unsigned li, r, bad = 0;

	for (li = 0; li < 3; li ++) {
		unsigned lv = levels[li];

		for (r = 0; r < 4; r ++) {
			unsigned i;

			for (i = 0; i < 64; i ++) {
				seed[i] = (uint8_t)tu_rand64(&rs);
			}
			memcpy(m, seed + 16, 32);
			fa_kem_keygen_derand(portable, lv, ek1, sizeof ek1, dk1,
				sizeof dk1, seed, seed + 32, tmp, sizeof tmp);
			fa_kem_keygen_derand(be, lv, ek2, sizeof ek2, dk2,
				sizeof dk2, seed, seed + 32, tmp, sizeof tmp);
			bad += memcmp(ek1, ek2, FA_KEM_EK_SIZE(lv)) != 0;
			bad += memcmp(dk1, dk2, FA_KEM_DK_SIZE(lv)) != 0;
			fa_kem_encaps_derand(portable, lv, ct1, sizeof ct1, ss1,
				ek1, FA_KEM_EK_SIZE(lv), m, tmp, sizeof tmp);
			fa_kem_encaps_derand(be, lv, ct2, sizeof ct2, ss2, ek1,
				FA_KEM_EK_SIZE(lv), m, tmp, sizeof tmp);
			bad += memcmp(ct1, ct2, FA_KEM_CT_SIZE(lv)) != 0;
			bad += memcmp(ss1, ss2, 32) != 0;
			ct1[r * 7] ^= 0x10;   /* implicit rejection path too */
			fa_kem_decaps(portable, lv, ss1, ct1, FA_KEM_CT_SIZE(lv),
				dk1, FA_KEM_DK_SIZE(lv), tmp, sizeof tmp);
			fa_kem_decaps(be, lv, ss2, ct1, FA_KEM_CT_SIZE(lv),
				dk1, FA_KEM_DK_SIZE(lv), tmp, sizeof tmp);
			bad += memcmp(ss1, ss2, 32) != 0;
		}
	}
	CHECK(bad == 0, "backend %s: ML-KEM bytes differ from portable (%u)",
		fa_backend_name(be), bad);
}

int
main(void)
{
	size_t i, tested = 0;

	for (i = 0; i < fa_backend_count(); i ++) {
		const fa_backend *be = fa_backend_at(i);

		if (!fa_backend_available(be)) {
			printf("backend %s: not available here, skipped\n",
				fa_backend_name(be));
			continue;
		}
		printf("backend %s: ML-KEM slots %s\n", fa_backend_name(be),
			be->mlkem_ntt != NULL ? "own kernels" : "portable");
		test_kernels(be);
		test_scheme(be);
		tested ++;
	}
	CHECK(tested >= 1, "no backend tested");
	return tu_finish("test_mlkem_backends");
}
