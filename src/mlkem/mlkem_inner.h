/*
 * mlkem_inner.h -- declarations shared by the ML-KEM sources (FIPS 203),
 * not installed. Public API: include/falcon_accel_kem.h.
 *
 * Representations:
 *
 *  - q = 3329, n = 256. A polynomial is int16_t[256]; coefficients are
 *    signed representatives of Z_q. Each function states the range it
 *    accepts and the range it returns ("|a| < q" means -q < a < q).
 *  - Montgomery arithmetic with R = 2^16: mont(x) = x * R^-1 mod q for
 *    |x| < q * 2^15, result in (-q, q). Constants that multiply are
 *    stored times R (src/mlkem/mlkem_tables.c, generated).
 *  - NTT form (FIPS 203, 4.3): slots 2i, 2i+1 hold the residue of f
 *    modulo x^2 - zeta^(2*brv7(i)+1), zeta = 17, coefficient of x^0
 *    then x^1. The forward NTT keeps the plain domain; base
 *    multiplication leaves a factor R^-1, which the inverse NTT removes
 *    (it ends with a Montgomery product by R^2/128).
 *
 * Nothing here branches on or indexes memory with secret data, except
 * SampleNTT (rejection sampling on the public seed rho).
 */
#ifndef FA_MLKEM_INNER_H
#define FA_MLKEM_INNER_H

#include "inner.h"
#include "falcon_accel_kem.h"

#define MLKEM_Q    3329
#define MLKEM_N    256
#define MLKEM_QINV (-3327)   /* q^-1 mod 2^16, signed */

/* ------------------------------------------------------------------ */
/* Parameter sets (FIPS 203, Table 2). */

typedef struct {
	unsigned level;   /* 512, 768, 1024 */
	unsigned k;       /* module rank */
	unsigned eta1;
	unsigned eta2;
	unsigned du;
	unsigned dv;
} fa_mlkem_params;

/* The parameter set of `level`, or NULL if the level is not one of
   512, 768, 1024. */
const fa_mlkem_params *fa_mlkem_params_get(unsigned level);

/* ------------------------------------------------------------------ */
/* Keccak sponges (mlkem_sha3.c): SHA3-256, SHA3-512, SHAKE128, SHAKE256
   on the Keccak-f[1600] permutation of src/shake256.c. rate in bytes
   (SHA3-256: 136, SHA3-512: 72, SHAKE128: 168, SHAKE256: 136); dsep is
   the domain byte with the first padding bit (SHA3: 0x06, SHAKE: 0x1F). */

typedef struct {
	uint64_t st[25];
	unsigned rate;
	unsigned pos;     /* absorbing: bytes in the block; squeezing: bytes used */
} fa_keccak_sponge;

void fa_sponge_init(fa_keccak_sponge *s, unsigned rate);
void fa_sponge_absorb(fa_keccak_sponge *s, const void *in, size_t len);
void fa_sponge_finish(fa_keccak_sponge *s, uint8_t dsep);
void fa_sponge_squeeze(fa_keccak_sponge *s, void *out, size_t len);

#define FA_SHA3_256_RATE 136
#define FA_SHA3_512_RATE 72
#define FA_SHAKE128_RATE 168
#define FA_SHAKE256_RATE 136

void fa_sha3_256(uint8_t out[32], const void *in, size_t len);
void fa_sha3_512(uint8_t out[64], const void *in, size_t len);
/* SHAKE256 of in1 || in2 (in2 may be NULL with len2 = 0). */
void fa_shake256_2(void *out, size_t out_len, const void *in1,
	size_t len1, const void *in2, size_t len2);

/* Jobs of the four-sponge runner (mlkem_xof4.c). */
enum {
	FA_X4_SAMPLE_NTT = 1,  /* poly = SampleNTT(seed || b0 || b1) */
	FA_X4_CBD,             /* poly = CBD_eta(PRF_eta(seed, b0)) */
	FA_X4_H,               /* out = SHA3-256(m0 || m1) */
	FA_X4_J,               /* out = SHAKE256(m0 || m1, 32) */
	FA_X4_ABSORB           /* state: l0 / 136 full blocks of m0 absorbed
	                          at rate 136 (XOR, permute, per block) */
};

typedef struct {
	unsigned kind;
	const uint8_t *seed;   /* SAMPLE_NTT: rho; CBD: sigma (32 bytes) */
	uint8_t b0, b1;        /* SAMPLE_NTT: j, i; CBD: the nonce (b0) */
	unsigned eta;          /* CBD: 2 or 3 */
	int16_t *poly;         /* SAMPLE_NTT, CBD: 256 coefficients out */
	const uint8_t *m0;     /* H, J: the message m0 || m1 */
	size_t l0;
	const uint8_t *m1;     /* may be NULL when l1 = 0 */
	size_t l1;
	uint8_t *out;          /* H, J: 32 bytes out */
	uint64_t *state;       /* ABSORB: a sponge's 25 lanes, in and out
	                          (lane x + 5y at state[x + 5y], as in
	                          fa_keccak_sponge); l0 a nonzero multiple
	                          of 136 */
} fa_mlkem_x4job;

/* Runs the n jobs on four sponges (the keccak_x4 slot), each sponge
   taking the next job in list order as soon as its own is complete
   (list long jobs first for the best packing). Outputs equal those of
   the one-sponge functions. Timing depends on the list and on SampleNTT
   rejections only (see mlkem_xof4.c). */
void fa_mlkem_x4_run(const fa_mlkem_x4job *jobs, unsigned n,
	const struct fa_kernels *kt);

/* ------------------------------------------------------------------ */
/* Arithmetic mod q and the NTT (mlkem_ntt.c, mlkem_tables.c). */

extern const int16_t fa_mlkem_zetas[128];
extern const int16_t fa_mlkem_gammas[128];
extern const int16_t fa_mlkem_invntt_f;
extern const int16_t fa_mlkem_r2;

/* x * R^-1 mod q, for |x| < q * 2^15; result in (-q, q). */
static inline int16_t
fa_mlkem_mont(int32_t x)
{
	int16_t t = (int16_t)((uint32_t)x * (uint32_t)(uint16_t)MLKEM_QINV);

	return (int16_t)((x - (int32_t)t * MLKEM_Q) >> 16);
}

/* x mod q for any int16 x; result in [-(q-1)/2, (q-1)/2] (Barrett with
   v = round(2^26 / q) = 20159, no division). */
static inline int16_t
fa_mlkem_barrett(int16_t x)
{
	int32_t t = ((int32_t)20159 * x + (1 << 25)) >> 26;

	return (int16_t)(x - t * MLKEM_Q);
}

/* x mod q in [0, q-1] for -q < x < q (constant time). */
static inline uint16_t
fa_mlkem_canon(int16_t x)
{
	x = (int16_t)(x + ((x >> 15) & MLKEM_Q));
	return (uint16_t)x;
}

/* Kernels: slots of the kernel seam (src/kernels.h: mlkem_ntt,
   mlkem_invntt, mlkem_basemul_acc, keccak_x4, mlkem_rej_uniform,
   mlkem_encode, mlkem_decode, mlkem_cbd), called through the dispatchers
   fa_k_<slot>(k, ...). The portable kernels fa_<slot>_portable
   (mlkem_ntt.c, mlkem_poly.c, mlkem_xof4.c; prototypes generated in
   kernels.h) are the reference; the avx2 ones are in
   src/backend_avx2/avx2_mlkem.c, bit-identical. Every output of ntt,
   invntt and basemul_acc is the centred representative in
   [-(q-1)/2, (q-1)/2], so all implementations give identical arrays:
   ntt:     in |a| < q (NTT form out);
   invntt:  in |a| < 4q, out the inverse NTT times R;
   basemul_acc: r = sum_{j<k} a[j] o b[j] (base multiplication, NTT form,
            times R^-1), k <= 4; inputs |a| <= 4095 (undecoded 12-bit
            values allowed), |b| < q. a and b are k consecutive polynomials;
   encode, decode: the byte encodings below; cbd: Algorithm 8;
   keccak_x4: four Keccak-f[1600] permutations, interleaved states,
            lane i of state t at st[4 i + t] (mlkem_xof4.c). */

/* ------------------------------------------------------------------ */
/* Sampling and encodings (mlkem_poly.c). */

/* Algorithm 7: a in NTT form from SHAKE128(rho || j || i); values in
   [0, q-1]. Variable time (rho is public). */
void fa_mlkem_sample_ntt(int16_t *a, const uint8_t rho[32], uint8_t j,
	uint8_t i);
/* Algorithms 8 + PRF: CBD_eta of SHAKE256(sigma || nonce), eta in {2, 3};
   values in [-eta, eta]. */
void fa_mlkem_sample_cbd(int16_t *a, const uint8_t sigma[32],
	uint8_t nonce, unsigned eta);
/* Byte encodings are the mlkem_encode / mlkem_decode slots (src/kernels.h):
   encode d = 12: ByteEncode_12(a mod q), 384 bytes; d < 12: Compress_d
   then ByteEncode_d, 32 d bytes. decode d = 12: ByteDecode_12, values in
   [0, 4095] (not reduced); d < 12: ByteDecode_d then Decompress_d,
   values in [0, q-1]. */

/* 1 if every 12-bit value of the 384-byte string is < q (the modulus
   check of an encapsulation key), else 0. */
int fa_mlkem_check12(const uint8_t *in, const struct fa_kernels *kt);
/* Compress_d(x) for x in [0, q-1] (exported for the tests). */
uint32_t fa_mlkem_compress(uint32_t x, unsigned d);

/* ------------------------------------------------------------------ */
/* K-PKE and ML-KEM (mlkem_kem.c). tmp: FA_KEM_TMPSIZE(level) bytes. */

void fa_mlkem_keygen_inner(const fa_mlkem_params *p, uint8_t *ek,
	uint8_t *dk, const uint8_t d[32], const uint8_t z[32], void *tmp,
	const struct fa_kernels *kt);
void fa_mlkem_encaps_inner(const fa_mlkem_params *p, uint8_t *ct,
	uint8_t ss[32], const uint8_t *ek, const uint8_t m[32], void *tmp,
	const struct fa_kernels *kt);
/* With the hash check of dk: FA_ERR_KEY (ss untouched) when
   H(ek) differs from the h stored in dk, else FA_OK. */
int fa_mlkem_decaps_inner(const fa_mlkem_params *p, uint8_t ss[32],
	const uint8_t *ct, const uint8_t *dk, void *tmp,
	const struct fa_kernels *kt);

#endif
