/*
 * kem_ticks.c -- minimum TSC ticks of ML-KEM operations and of the avx2
 * kernels they spend their time in (x86-64 with AVX2 only; not a test).
 * The figures of BENCHMARKS.md's "Where the time goes" (ML-KEM) come
 * from it:
 *
 *   cmake -S . -B build/rel -DCMAKE_BUILD_TYPE=Release -DFA_RTL=OFF
 *   cmake --build build/rel -j2 --target falcon_accel
 *   cc -O2 -Iinclude bench/kem_ticks/kem_ticks.c build/rel/libfalcon_accel.a \
 *      -lm -o build/rel/kem_ticks
 *   build/rel/kem_ticks [level]          (default 768)
 *
 * Each figure is the minimum over many calls of rdtsc around one call
 * (TSC ticks, not core cycles: on the project's EPYC the core runs about
 * 1.32 ticks' worth of cycles per tick). Minima, not medians: they say
 * what a piece costs without the other sessions' interference, and are
 * compared only within one run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <x86intrin.h>

#include "falcon_accel.h"
#include "falcon_accel_kem.h"

/* the avx2 kernels (src/backend_avx2/avx2_mlkem.h) and the scalar
   permutation (src/inner.h), declared here to keep the include path to
   the public headers */
int fa_keccak_x4_avx2(uint64_t *st);
void fa_keccak_f1600(uint64_t *st);
int fa_mlkem_ntt_avx2(int16_t *a);
int fa_mlkem_invntt_avx2(int16_t *a);
int fa_mlkem_basemul_acc_avx2(int16_t *r, const int16_t *a,
	const int16_t *b, unsigned k);
int fa_mlkem_encode_avx2(uint8_t *out, const int16_t *a, unsigned d);
int fa_mlkem_decode_avx2(int16_t *a, const uint8_t *in, unsigned d);

#define MIN_TICKS(label, reps, code) do { \
		unsigned long long best_ = ~0ull; \
		for (unsigned it_ = 0; it_ < (reps); it_ ++) { \
			unsigned long long t0_ = __rdtsc(); \
			code; \
			unsigned long long t1_ = __rdtsc(); \
			if (t1_ - t0_ < best_) { \
				best_ = t1_ - t0_; \
			} \
		} \
		printf("%-28s %8llu\n", (label), best_); \
	} while (0)

static uint8_t tmp[FA_KEM_TMPSIZE_MAX];
static uint8_t ek[FA_KEM_EK_MAXSIZE], dk[FA_KEM_DK_MAXSIZE];
static uint8_t ct[FA_KEM_CT_MAXSIZE], ss[32], ss2[32];

int
main(int argc, char **argv)
{
	static uint64_t st[100] __attribute__((aligned(32)));
	static int16_t a[4 * 256] __attribute__((aligned(32)));
	static int16_t b[4 * 256] __attribute__((aligned(32)));
	static int16_t r[256] __attribute__((aligned(32)));
	static uint8_t enc[400];
	unsigned lvl = argc > 1 ? (unsigned)atoi(argv[1]) : 768, i;
	const fa_backend *be = fa_backend_find("avx2");
	uint8_t d[32] = { 1 }, z[32] = { 2 }, m[32] = { 3 };

	if (be == NULL || (lvl != 512 && lvl != 768 && lvl != 1024)) {
		fprintf(stderr, "kem_ticks: needs the avx2 backend and a level "
			"512, 768 or 1024\n");
		return 2;
	}
	if (fa_kem_keygen_derand(be, lvl, ek, sizeof ek, dk, sizeof dk, d, z,
		tmp, sizeof tmp) != FA_OK
		|| fa_kem_encaps_derand(be, lvl, ct, sizeof ct, ss, ek,
		FA_KEM_EK_SIZE(lvl), m, tmp, sizeof tmp) != FA_OK
		|| fa_kem_decaps(be, lvl, ss2, ct, FA_KEM_CT_SIZE(lvl), dk,
		FA_KEM_DK_SIZE(lvl), tmp, sizeof tmp) != FA_OK
		|| memcmp(ss, ss2, 32) != 0)
	{
		fprintf(stderr, "kem_ticks: ML-KEM-%u round trip failed\n", lvl);
		return 1;
	}
	for (i = 0; i < 100; i ++) {
		st[i] = (uint64_t)i * 0x9E3779B97F4A7C15u;
	}
	for (i = 0; i < 4 * 256; i ++) {
		a[i] = (int16_t)((i * 37) % 4095);
		b[i] = (int16_t)((i * 91) % 3329 - 1664);
	}
	printf("ML-KEM-%u, avx2 backend, min TSC ticks\n", lvl);
	MIN_TICKS("keygen", 3000, fa_kem_keygen_derand(be, lvl, ek, sizeof ek,
		dk, sizeof dk, d, z, tmp, sizeof tmp));
	MIN_TICKS("encaps", 3000, fa_kem_encaps_derand(be, lvl, ct, sizeof ct,
		ss, ek, FA_KEM_EK_SIZE(lvl), m, tmp, sizeof tmp));
	MIN_TICKS("decaps", 3000, fa_kem_decaps(be, lvl, ss2, ct,
		FA_KEM_CT_SIZE(lvl), dk, FA_KEM_DK_SIZE(lvl), tmp, sizeof tmp));
	MIN_TICKS("keccak_f1600 (one)", 20000, fa_keccak_f1600(st));
	MIN_TICKS("keccak_x4 (four)", 20000, fa_keccak_x4_avx2(st));
	MIN_TICKS("ntt", 20000, fa_mlkem_ntt_avx2(a));
	MIN_TICKS("invntt", 20000, fa_mlkem_invntt_avx2(a));
	MIN_TICKS("basemul_acc k=3", 20000,
		fa_mlkem_basemul_acc_avx2(r, a, b, 3));
	MIN_TICKS("encode d=12", 20000, fa_mlkem_encode_avx2(enc, b, 12));
	MIN_TICKS("encode d=10", 20000, fa_mlkem_encode_avx2(enc, b, 10));
	MIN_TICKS("decode d=12", 20000, fa_mlkem_decode_avx2(r, enc, 12));
	MIN_TICKS("decode d=10", 20000, fa_mlkem_decode_avx2(r, enc, 10));
	return 0;
}
