/*
 * mlkem_kem.c -- K-PKE and ML-KEM (FIPS 203, Algorithms 13 to 21) and the
 * public API of include/falcon_accel_kem.h.
 *
 * Scratch: polynomials are carved from the caller's tmp (2-byte aligned
 * after fa_align8). The matrix A is never stored whole: the k entries a
 * row (key generation) or a column (encryption) needs are sampled into
 * k polynomials just before use, A[i][j] = SampleNTT(rho || j || i).
 *
 * Secret data: s, e, y, e1, e2, m, r, K and the decrypted message flow
 * through fixed-length loops only; decapsulation compares the
 * re-encryption with the ciphertext and picks K' or J(z || c) with a
 * mask, with no branch.
 */

#include "mlkem/mlkem_inner.h"
#include "ct_declassify.h"

#if !FA_FREESTANDING
#include <errno.h>
#include <sys/random.h>
#endif

#define POLY_BYTES 384

static const fa_mlkem_params params_table[3] = {
	{ 512, 2, 3, 2, 10, 4 },
	{ 768, 3, 2, 2, 10, 4 },
	{ 1024, 4, 2, 2, 11, 5 },
};

const fa_mlkem_params *
fa_mlkem_params_get(unsigned level)
{
	switch (level) {
	case 512:  return &params_table[0];
	case 768:  return &params_table[1];
	case 1024: return &params_table[2];
	default:   return NULL;
	}
}

/* a[i] += b[i] (|a| + |b| stays below 2^15 wherever used). */
static void
poly_add(int16_t *a, const int16_t *b)
{
	unsigned i;

	for (i = 0; i < MLKEM_N; i ++) {
		a[i] = (int16_t)(a[i] + b[i]);
	}
}

/*
 * t[i] = mont(t[i] R^2) + e[i] = t[i] R + e[i] mod q, |t| < 2^15 in,
 * |mont| < q. mont(X) = (X - u q) / 2^16 with u = lo16(X q^-1) is
 * written as hi16(X) - hi16(u q), exact since X and u q agree in their
 * low 16 bits; in this form (16-bit high and low products) compilers
 * vectorise the loop on 16-bit lanes.
 */
static void
poly_tomont_add(int16_t *t, const int16_t *e)
{
	int16_t r2 = fa_mlkem_r2;
	int16_t r2q = (int16_t)(uint16_t)((uint32_t)(uint16_t)r2
		* (uint16_t)MLKEM_QINV);
	unsigned i;

	for (i = 0; i < MLKEM_N; i ++) {
		int16_t hi = (int16_t)(((int32_t)t[i] * r2) >> 16);
		int16_t u = (int16_t)(uint16_t)((uint32_t)(uint16_t)t[i]
			* (uint16_t)r2q);
		int16_t uq = (int16_t)(((int32_t)u * MLKEM_Q) >> 16);

		t[i] = (int16_t)(hi - uq + e[i]);
	}
}

/*
 * Jobs of the four-sponge runner (mlkem_xof4.c) for entries e = from ..
 * to - 1 (row-major, e = i k + j) of the k x k matrix: A + e n receives
 * A[i][j] = SampleNTT(rho || j || i) (transpose = 0) or
 * A^T[i][j] = A[j][i] = SampleNTT(rho || i || j) (transpose = 1).
 * Returns the number of jobs written (to - from).
 */
static unsigned
matrix_jobs(fa_mlkem_x4job *jb, int16_t *A, const uint8_t *rho, unsigned k,
	int transpose, unsigned from, unsigned to)
{
	unsigned e;

	for (e = from; e < to; e ++) {
		unsigned i = e / k, j = e % k;
		fa_mlkem_x4job *b = &jb[e - from];

		memset(b, 0, sizeof *b);
		b->kind = FA_X4_SAMPLE_NTT;
		b->seed = rho;
		b->b0 = (uint8_t)(transpose ? i : j);
		b->b1 = (uint8_t)(transpose ? j : i);
		b->poly = A + e * MLKEM_N;
	}
	return to - from;
}

/* Jobs for count consecutive noise polynomials at dst: polynomial u is
   CBD_eta(PRF(sigma, u)), eta = eta_a for u < n_a, else eta_b. Returns
   count. */
static unsigned
noise_jobs(fa_mlkem_x4job *jb, int16_t *dst, const uint8_t sigma[32],
	unsigned count, unsigned n_a, unsigned eta_a, unsigned eta_b)
{
	unsigned u;

	for (u = 0; u < count; u ++) {
		memset(&jb[u], 0, sizeof jb[u]);
		jb[u].kind = FA_X4_CBD;
		jb[u].seed = sigma;
		jb[u].b0 = (uint8_t)u;
		jb[u].eta = u < n_a ? eta_a : eta_b;
		jb[u].poly = dst + u * MLKEM_N;
	}
	return count;
}

/* A hash job: out = H(m0 || m1) (kind FA_X4_H) or J(m0 || m1). */
static void
hash_job(fa_mlkem_x4job *jb, unsigned kind, uint8_t *out,
	const uint8_t *m0, size_t l0, const uint8_t *m1, size_t l1)
{
	memset(jb, 0, sizeof *jb);
	jb->kind = kind;
	jb->m0 = m0;
	jb->l0 = l0;
	jb->m1 = m1;
	jb->l1 = l1;
	jb->out = out;
}

/*
 * K-PKE.KeyGen (Algorithm 13) and ML-KEM.KeyGen_internal (Algorithm 16).
 * (rho, sigma) = G(d || k); s, e from CBD_eta1 with nonces 0..2k-1;
 * t = A s + e in NTT form; ek = ByteEncode_12(t) || rho;
 * dk = ByteEncode_12(s) || ek || H(ek) || z.
 * Scratch: k^2 + 2k + 1 polynomials.
 *
 * Sponges: at k = 3 a row of A leaves a sponge spare, which absorbs
 * H(ek) while the next row is sampled: run 1 samples row 0 and s, e
 * (4 four-way permutations); run i = 1, 2 samples row i (3) while the
 * spare sponge absorbs the full 136-byte blocks of ek =
 * ByteEncode_12(t_0..t_{i-1}) || ... that are ready (ABSORB job: blocks
 * 0-1, then 2-4); the one-sponge SHA3-256 absorbs blocks 5-8: 10
 * four-way and 4 single permutations instead of 9 and 9 (ML-KEM-768
 * avx2: 24.6k -> 21.8k TSC ticks). At k = 2 the same measured slower
 * (one run of 5 four-way permutations and 6 single ones before), and at
 * k = 4 a row fills the four sponges: there the matrix and the noise
 * come from one run and H(ek) from the one-sponge SHA3-256 afterwards.
 */
void
fa_mlkem_keygen_inner(const fa_mlkem_params *p, uint8_t *ek, uint8_t *dk,
	const uint8_t d[32], const uint8_t z[32], void *tmp,
	const struct fa_kernels *kt)
{
	unsigned k = p->k, i;
	int16_t *A = fa_align8(tmp);
	int16_t *s = A + k * k * MLKEM_N;
	int16_t *e = s + k * MLKEM_N;
	int16_t *t = e + k * MLKEM_N;
	uint8_t gin[33], rs[64];
	const uint8_t *rho = rs, *sigma = rs + 32;
	size_t ek_len = POLY_BYTES * k + 32, absorbed = 0;
	/* rows of A sampled in the first run (see above) */
	unsigned rows1 = k == 3 ? 1 : k;
	fa_mlkem_x4job jb[16 + 8];
	fa_keccak_sponge hs;
	unsigned nj;

	memcpy(gin, d, 32);
	gin[32] = (uint8_t)k;
	fa_sha3_512(rs, gin, sizeof gin);
	/* declassified: rho is public (the last 32 bytes of ek) */
	FA_DECLASSIFY(rs, 32);
	/* rows 0..rows1-1 of A (SampleNTT), then s, e (2k CBD, nonces
	   0..2k-1) */
	nj = matrix_jobs(jb, A, rho, k, 0, 0, rows1 * k);
	nj += noise_jobs(jb + nj, s, sigma, 2 * k, 2 * k, p->eta1, p->eta1);
	fa_mlkem_x4_run(jb, nj, kt);
	for (i = 0; i < 2 * k; i ++) {
		fa_k_mlkem_ntt(kt, s + i * MLKEM_N);
	}
	fa_sponge_init(&hs, FA_SHA3_256_RATE);
	for (i = 0; i < k; i ++) {
		if (i >= rows1) {
			/* row i of A; H absorbs the full blocks of ek so far */
			size_t ready = (POLY_BYTES * i / FA_SHA3_256_RATE)
				* FA_SHA3_256_RATE;

			nj = matrix_jobs(jb, A, rho, k, 0, i * k, (i + 1) * k);
			if (ready > absorbed) {
				memset(&jb[nj], 0, sizeof jb[nj]);
				jb[nj].kind = FA_X4_ABSORB;
				jb[nj].m0 = ek + absorbed;
				jb[nj].l0 = ready - absorbed;
				jb[nj].state = hs.st;
				nj ++;
				absorbed = ready;
			}
			fa_mlkem_x4_run(jb, nj, kt);
		}
		/* (A s)_i * R^-1, then * R^2 * R^-1: plain domain, |t| < q */
		fa_k_mlkem_basemul_acc(kt, t, A + i * k * MLKEM_N, s, k);
		poly_tomont_add(t, e + i * MLKEM_N);
		fa_k_mlkem_encode(kt, ek + i * POLY_BYTES, t, 12);
	}
	memcpy(ek + POLY_BYTES * k, rho, 32);

	for (i = 0; i < k; i ++) {
		fa_k_mlkem_encode(kt, dk + i * POLY_BYTES, s + i * MLKEM_N, 12);
	}
	memcpy(dk + POLY_BYTES * k, ek, ek_len);
	/* H(ek): the blocks not absorbed above (hs.pos = 0: whole blocks) */
	fa_sponge_absorb(&hs, ek + absorbed, ek_len - absorbed);
	fa_sponge_finish(&hs, 0x06);
	fa_sponge_squeeze(&hs, dk + POLY_BYTES * k + ek_len, 32);
	memcpy(dk + POLY_BYTES * k + ek_len + 32, z, 32);
	memset(rs, 0, sizeof rs);
	memset(gin, 0, sizeof gin);
}

/*
 * K-PKE.Encrypt (Algorithm 14): y, e1, e2 from CBD with nonces 0..k-1
 * (eta1), k..2k-1 and 2k (eta2);
 *   u = NTT^-1(A^T y) + e1,  v = NTT^-1(t^T y) + e2 + Decompress_1(m),
 *   c = ByteEncode_du(Compress_du(u)) || ByteEncode_dv(Compress_dv(v)).
 * At: the k^2 entries of A^T; the first at_done of them (row-major) are
 * sampled by the caller (they depend on rho only, so that their sampling
 * can share the four sponges with H(ek) or J), the others here, in the
 * run that samples the noise (listed first: the long jobs). t is
 * ByteDecode_12 of ek (12-bit values, reduced by the arithmetic).
 * Scratch work: 3k + 2 polynomials.
 */
static void
kpke_encrypt(const fa_mlkem_params *p, uint8_t *ct, const uint8_t *ek,
	const uint8_t m[32], const uint8_t r[32], int16_t *At,
	unsigned at_done, int16_t *work, const struct fa_kernels *kt)
{
	unsigned k = p->k, i;
	int16_t *that = work;
	int16_t *y = that + k * MLKEM_N;
	int16_t *e1 = y + k * MLKEM_N;     /* then e2, right after */
	int16_t *e2 = e1 + k * MLKEM_N;
	int16_t *u = e2 + MLKEM_N;
	fa_mlkem_x4job jb[16 + 9];
	unsigned nj;

	for (i = 0; i < k; i ++) {
		fa_k_mlkem_decode(kt, that + i * MLKEM_N, ek + i * POLY_BYTES,
			12);
	}
	/* the rest of A^T, then y (k, eta1), e1 (k, eta2), e2 (eta2):
	   nonces 0..2k */
	nj = matrix_jobs(jb, At, ek + POLY_BYTES * k, k, 1, at_done, k * k);
	nj += noise_jobs(jb + nj, y, r, 2 * k + 1, k, p->eta1, p->eta2);
	fa_mlkem_x4_run(jb, nj, kt);
	for (i = 0; i < k; i ++) {
		fa_k_mlkem_ntt(kt, y + i * MLKEM_N);
	}
	for (i = 0; i < k; i ++) {
		fa_k_mlkem_basemul_acc(kt, u, At + i * k * MLKEM_N, y, k);
		fa_k_mlkem_invntt(kt, u);
		poly_add(u, e1 + i * MLKEM_N);
		fa_k_mlkem_encode(kt, ct + i * 32 * p->du, u, p->du);
	}
	fa_k_mlkem_basemul_acc(kt, u, that, y, k);
	fa_k_mlkem_invntt(kt, u);
	poly_add(u, e2);
	fa_k_mlkem_decode(kt, e2, m, 1);
	poly_add(u, e2);   /* |u| < q/2 + 2 + q */
	fa_k_mlkem_encode(kt, ct + k * 32 * p->du, u, p->dv);
}

/*
 * K-PKE.Decrypt (Algorithm 15):
 *   w = Decompress_dv(c2) - NTT^-1(s^T NTT(Decompress_du(c1))),
 *   m = ByteEncode_1(Compress_1(w)).
 * Scratch: 2k + 1 polynomials.
 */
static void
kpke_decrypt(const fa_mlkem_params *p, uint8_t m[32], const uint8_t *ct,
	const uint8_t *dk_pke, void *tmp, const struct fa_kernels *kt)
{
	unsigned k = p->k, i;
	int16_t *shat = fa_align8(tmp);
	int16_t *u = shat + k * MLKEM_N;
	int16_t *w = u + k * MLKEM_N;

	for (i = 0; i < k; i ++) {
		fa_k_mlkem_decode(kt, shat + i * MLKEM_N, dk_pke + i * POLY_BYTES,
			12);
		fa_k_mlkem_decode(kt, u + i * MLKEM_N, ct + i * 32 * p->du,
			p->du);
		fa_k_mlkem_ntt(kt, u + i * MLKEM_N);
	}
	fa_k_mlkem_basemul_acc(kt, w, shat, u, k);
	fa_k_mlkem_invntt(kt, w);
	fa_k_mlkem_decode(kt, u, ct + k * 32 * p->du, p->dv);
	for (i = 0; i < MLKEM_N; i ++) {
		w[i] = (int16_t)(u[i] - w[i]);   /* |w| < 3q/2 */
	}
	fa_k_mlkem_encode(kt, m, w, 1);
}

/*
 * Algorithm 17: (K, r) = G(m || H(ek)), c = K-PKE.Encrypt(ek, m, r).
 * H(ek) (nine blocks at ML-KEM-768) runs in one sponge while the other
 * three sample A^T. Scratch: k^2 + 3k + 2 polynomials.
 */
void
fa_mlkem_encaps_inner(const fa_mlkem_params *p, uint8_t *ct,
	uint8_t ss[32], const uint8_t *ek, const uint8_t m[32], void *tmp,
	const struct fa_kernels *kt)
{
	unsigned k = p->k;
	int16_t *At = fa_align8(tmp);
	fa_mlkem_x4job jb[1 + 16];
	uint8_t gin[64], kr[64];

	memcpy(gin, m, 32);
	hash_job(&jb[0], FA_X4_H, gin + 32, ek, POLY_BYTES * k + 32, NULL, 0);
	fa_mlkem_x4_run(jb, 1 + matrix_jobs(jb + 1, At, ek + POLY_BYTES * k,
		k, 1, 0, k * k), kt);
	fa_sha3_512(kr, gin, sizeof gin);
	kpke_encrypt(p, ct, ek, m, kr + 32, At, k * k, At + k * k * MLKEM_N,
		kt);
	memcpy(ss, kr, 32);
	memset(kr, 0, sizeof kr);
	memset(gin, 0, sizeof gin);
}

/*
 * The number of entries of A^T (row-major) that decapsulation samples in
 * its first run, beside H(ek) and J(z || c); encryption samples the rest
 * with its 2k + 1 noise polynomials. H and J take nb = ek_len / 136 + 1
 * blocks each (6, 9, 12 at k = 2, 3, 4; z || c is as long as ek), one
 * sponge each, and an entry 3 SHAKE128 blocks (4 for about 1 in 100).
 * Four-way permutations, estimated (each run at least its total of
 * sponge blocks / 4, and at least its longest job):
 *   all k^2 entries first: max(nb, (2 nb + 3 k^2) / 4) + (2k + 1) / 4;
 *   a = 2 floor(nb / 3) first (what the two spare sponges finish while H
 *   and J run): nb + (3 (k^2 - a) + 2k + 1) / 4  (divisions rounded up).
 * The split is taken when it is shorter: k = 3, 13 instead of 14
 * (measured 26.6k -> 25.7k TSC ticks per decapsulation); at k = 2 all
 * four entries fit (a = 4), at k = 4 both give 21 (all first, measured
 * slightly faster).
 */
static unsigned
decaps_first_entries(unsigned k, size_t ek_len)
{
	unsigned nb = (unsigned)(ek_len / FA_SHA3_256_RATE) + 1;
	unsigned a = 2 * (nb / 3), all, split;

	if (a >= k * k) {
		return k * k;
	}
	all = (2 * nb + 3 * k * k + 3) / 4;
	all = (all > nb ? all : nb) + (2 * k + 1 + 3) / 4;
	split = nb + (3 * (k * k - a) + 2 * k + 1 + 3) / 4;
	return split < all ? a : k * k;
}

/*
 * Algorithm 18 with the hash check of dk: H(ek) (checked against h),
 * Kbar = J(z || c) and the first entries of A^T (from ek's rho) on the
 * four sponges together; then m' = Decrypt(dk_pke, c); (K', r') =
 * G(m' || h); c' = Encrypt(ek, m', r') (which samples the rest of A^T
 * beside its noise); K = K' if c = c' else Kbar, chosen with a mask from
 * the OR of all byte differences. Scratch: a ciphertext and
 * k^2 + 3k + 2 polynomials.
 *
 * Which entries of A^T go to the first run: see decaps_first_entries.
 */
int
fa_mlkem_decaps_inner(const fa_mlkem_params *p, uint8_t ss[32],
	const uint8_t *ct, const uint8_t *dk, void *tmp,
	const struct fa_kernels *kt)
{
	unsigned k = p->k;
	size_t ct_len = 32u * (p->du * k + p->dv), ek_len = POLY_BYTES * k + 32;
	size_t i;
	const uint8_t *ek = dk + POLY_BYTES * k;
	const uint8_t *h = ek + ek_len;
	const uint8_t *z = h + 32;
	uint8_t gin[64], kr[64], hh[32], kbar[32];
	uint8_t *ct2 = (uint8_t *)fa_align8(tmp);
	int16_t *At = (int16_t *)(void *)(ct2 + FA_KEM_CT_MAXSIZE);
	int16_t *work = At + k * k * MLKEM_N;
	fa_mlkem_x4job jb[2 + 16];
	unsigned at_done = decaps_first_entries(k, ek_len);
	uint32_t diff = 0;
	uint8_t mask;

	hash_job(&jb[0], FA_X4_H, hh, ek, ek_len, NULL, 0);
	hash_job(&jb[1], FA_X4_J, kbar, z, 32, ct, ct_len);
	fa_mlkem_x4_run(jb, 2 + matrix_jobs(jb + 2, At, ek + POLY_BYTES * k,
		k, 1, 0, at_done), kt);
	/* public: H of the public ek against the stored hash */
	if (memcmp(hh, h, 32) != 0) {
		memset(kbar, 0, sizeof kbar);
		return FA_ERR_KEY;
	}
	kpke_decrypt(p, gin, ct, dk, work, kt);
	memcpy(gin + 32, h, 32);
	fa_sha3_512(kr, gin, sizeof gin);
	kpke_encrypt(p, ct2, ek, gin, kr + 32, At, at_done, work, kt);
	for (i = 0; i < ct_len; i ++) {
		diff |= ct[i] ^ ct2[i];
	}
	/* diff in [0, 255]: (diff - 1) >> 8 is all ones iff diff = 0 */
	mask = (uint8_t)((diff - 1) >> 8);
#if defined(__GNUC__)
	__asm__ ("" : "+r" (mask));   /* keep the select branch-free */
#endif
	for (i = 0; i < 32; i ++) {
		ss[i] = (uint8_t)(kbar[i] ^ (mask & (kr[i] ^ kbar[i])));
	}
	memset(kr, 0, sizeof kr);
	memset(gin, 0, sizeof gin);
	memset(kbar, 0, sizeof kbar);
	return FA_OK;
}

/* ------------------------------------------------------------------ */
/* Public API. */

static int
check_tmp(unsigned level, const void *tmp, size_t tmp_len)
{
	if (tmp == NULL) {
		return FA_ERR_BADARG;
	}
	return tmp_len < FA_KEM_TMPSIZE(level) ? FA_ERR_SIZE : FA_OK;
}

/* fa_kem_check_ek on the kernels kt (the decode slot). */
static int
check_ek(unsigned level, const uint8_t *ek, size_t ek_len,
	const struct fa_kernels *kt)
{
	const fa_mlkem_params *p = fa_mlkem_params_get(level);
	unsigned i;

	if (p == NULL || ek == NULL) {
		return FA_ERR_BADARG;
	}
	if (ek_len != FA_KEM_EK_SIZE(level)) {
		return FA_ERR_LENGTH;
	}
	/* modulus check: ByteEncode_12(ByteDecode_12(ek)) = ek */
	for (i = 0; i < p->k; i ++) {
		if (!fa_mlkem_check12(ek + i * POLY_BYTES, kt)) {
			return FA_ERR_COEFF_RANGE;
		}
	}
	return FA_OK;
}

int
fa_kem_check_ek(unsigned level, const uint8_t *ek, size_t ek_len)
{
	return check_ek(level, ek, ek_len, fa_kernels_resolve(NULL));
}

int
fa_kem_check_dk(unsigned level, const uint8_t *dk, size_t dk_len)
{
	const fa_mlkem_params *p = fa_mlkem_params_get(level);
	uint8_t hh[32];
	size_t ek_len;

	if (p == NULL || dk == NULL) {
		return FA_ERR_BADARG;
	}
	if (dk_len != FA_KEM_DK_SIZE(level)) {
		return FA_ERR_LENGTH;
	}
	/* hash check: H(dk[384k : 768k+32]) = dk[768k+32 : 768k+64];
	   both sides are public (ek and its hash) */
	ek_len = POLY_BYTES * p->k + 32;
	fa_sha3_256(hh, dk + POLY_BYTES * p->k, ek_len);
	if (memcmp(hh, dk + POLY_BYTES * p->k + ek_len, 32) != 0) {
		return FA_ERR_KEY;
	}
	return FA_OK;
}

int
fa_kem_keygen_derand(const fa_backend *be, unsigned level,
	uint8_t *ek, size_t ek_len, uint8_t *dk, size_t dk_len,
	const uint8_t d[32], const uint8_t z[32], void *tmp, size_t tmp_len)
{
	const fa_mlkem_params *p = fa_mlkem_params_get(level);
	int r;

	if (p == NULL || ek == NULL || dk == NULL || d == NULL || z == NULL) {
		return FA_ERR_BADARG;
	}
	if ((r = check_tmp(level, tmp, tmp_len)) != FA_OK) {
		return r;
	}
	if (ek_len < FA_KEM_EK_SIZE(level) || dk_len < FA_KEM_DK_SIZE(level)) {
		return FA_ERR_SIZE;
	}
	fa_mlkem_keygen_inner(p, ek, dk, d, z, tmp, fa_kernels_resolve(be));
	return FA_OK;
}

int
fa_kem_encaps_derand(const fa_backend *be, unsigned level,
	uint8_t *ct, size_t ct_len, uint8_t ss[32],
	const uint8_t *ek, size_t ek_len, const uint8_t m[32],
	void *tmp, size_t tmp_len)
{
	const fa_mlkem_params *p = fa_mlkem_params_get(level);
	const struct fa_kernels *kt = fa_kernels_resolve(be);
	int r;

	if (p == NULL || ct == NULL || ss == NULL || m == NULL) {
		return FA_ERR_BADARG;
	}
	if ((r = check_ek(level, ek, ek_len, kt)) != FA_OK) {
		return r;
	}
	if ((r = check_tmp(level, tmp, tmp_len)) != FA_OK) {
		return r;
	}
	if (ct_len < FA_KEM_CT_SIZE(level)) {
		return FA_ERR_SIZE;
	}
	fa_mlkem_encaps_inner(p, ct, ss, ek, m, tmp, kt);
	return FA_OK;
}

int
fa_kem_decaps(const fa_backend *be, unsigned level, uint8_t ss[32],
	const uint8_t *ct, size_t ct_len, const uint8_t *dk, size_t dk_len,
	void *tmp, size_t tmp_len)
{
	const fa_mlkem_params *p = fa_mlkem_params_get(level);
	int r;

	if (p == NULL || ss == NULL || ct == NULL) {
		return FA_ERR_BADARG;
	}
	if (ct_len != FA_KEM_CT_SIZE(level)) {
		return FA_ERR_LENGTH;
	}
	if (dk == NULL) {
		return FA_ERR_BADARG;
	}
	if (dk_len != FA_KEM_DK_SIZE(level)) {
		return FA_ERR_LENGTH;
	}
	if ((r = check_tmp(level, tmp, tmp_len)) != FA_OK) {
		return r;
	}
	return fa_mlkem_decaps_inner(p, ss, ct, dk, tmp,
		fa_kernels_resolve(be));
}

#if !FA_FREESTANDING
/* len bytes from getrandom (blocking until the pool is ready). */
static int
os_random(uint8_t *out, size_t len)
{
	size_t got = 0;

	while (got < len) {
		ssize_t r = getrandom(out + got, len - got, 0);

		if (r < 0) {
			if (errno == EINTR) {
				continue;
			}
			return FA_ERR_RANDOM;
		}
		got += (size_t)r;
	}
	return FA_OK;
}

int
fa_kem_keygen(const fa_backend *be, unsigned level,
	uint8_t *ek, size_t ek_len, uint8_t *dk, size_t dk_len,
	void *tmp, size_t tmp_len)
{
	uint8_t dz[64];
	int r;

	if (fa_mlkem_params_get(level) == NULL) {
		return FA_ERR_BADARG;
	}
	if ((r = os_random(dz, sizeof dz)) != FA_OK) {
		return r;
	}
	r = fa_kem_keygen_derand(be, level, ek, ek_len, dk, dk_len,
		dz, dz + 32, tmp, tmp_len);
	memset(dz, 0, sizeof dz);
	return r;
}

int
fa_kem_encaps(const fa_backend *be, unsigned level,
	uint8_t *ct, size_t ct_len, uint8_t ss[32],
	const uint8_t *ek, size_t ek_len, void *tmp, size_t tmp_len)
{
	uint8_t m[32];
	int r;

	if (fa_mlkem_params_get(level) == NULL) {
		return FA_ERR_BADARG;
	}
	if ((r = os_random(m, sizeof m)) != FA_OK) {
		return r;
	}
	r = fa_kem_encaps_derand(be, level, ct, ct_len, ss, ek, ek_len, m,
		tmp, tmp_len);
	memset(m, 0, sizeof m);
	return r;
}
#endif
