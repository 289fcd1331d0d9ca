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
 * The k x k matrix: A + (i k + j) n holds A[i][j] = SampleNTT(rho || j || i)
 * (transpose = 0) or A^T[i][j] = A[j][i] = SampleNTT(rho || i || j)
 * (transpose = 1); sampled four entries at a time.
 */
static void
sample_matrix(int16_t *A, const uint8_t rho[32], unsigned k, int transpose,
	const struct fa_kernels *kt)
{
	unsigned e, t, total = k * k;

	for (e = 0; e < total; e += 4) {
		int16_t *out[4];
		uint8_t ji[4][2];
		unsigned n = total - e < 4 ? total - e : 4;

		for (t = 0; t < n; t ++) {
			unsigned i = (e + t) / k, j = (e + t) % k;

			out[t] = A + (e + t) * MLKEM_N;
			ji[t][0] = (uint8_t)(transpose ? i : j);
			ji[t][1] = (uint8_t)(transpose ? j : i);
		}
		fa_mlkem_sample_ntt_x4(out, rho, ji, n, kt);
	}
}

/* count consecutive noise polynomials at dst: polynomial u is
   CBD_eta(PRF(sigma, u)), eta = eta_a for u < n_a, else eta_b. */
static void
sample_noise(int16_t *dst, const uint8_t sigma[32], unsigned count,
	unsigned n_a, unsigned eta_a, unsigned eta_b,
	const struct fa_kernels *kt)
{
	unsigned u, t;

	for (u = 0; u < count; u += 4) {
		int16_t *out[4];
		uint8_t nonce[4];
		unsigned eta[4];
		unsigned n = count - u < 4 ? count - u : 4;

		for (t = 0; t < n; t ++) {
			out[t] = dst + (u + t) * MLKEM_N;
			nonce[t] = (uint8_t)(u + t);
			eta[t] = u + t < n_a ? eta_a : eta_b;
		}
		fa_mlkem_sample_cbd_x4(out, sigma, nonce, eta, n, kt);
	}
}

/*
 * K-PKE.KeyGen (Algorithm 13) and ML-KEM.KeyGen_internal (Algorithm 16).
 * (rho, sigma) = G(d || k); s, e from CBD_eta1 with nonces 0..2k-1;
 * t = A s + e in NTT form; ek = ByteEncode_12(t) || rho;
 * dk = ByteEncode_12(s) || ek || H(ek) || z.
 * Scratch: k^2 + 2k + 1 polynomials.
 */
void
fa_mlkem_keygen_inner(const fa_mlkem_params *p, uint8_t *ek, uint8_t *dk,
	const uint8_t d[32], const uint8_t z[32], void *tmp,
	const struct fa_kernels *kt)
{
	unsigned k = p->k, i, j;
	int16_t *A = fa_align8(tmp);
	int16_t *s = A + k * k * MLKEM_N;
	int16_t *e = s + k * MLKEM_N;
	int16_t *t = e + k * MLKEM_N;
	uint8_t gin[33], rs[64];
	const uint8_t *rho = rs, *sigma = rs + 32;
	size_t ek_len = POLY_BYTES * k + 32;

	memcpy(gin, d, 32);
	gin[32] = (uint8_t)k;
	fa_sha3_512(rs, gin, sizeof gin);
	/* declassified: rho is public (the last 32 bytes of ek) */
	FA_DECLASSIFY(rs, 32);
	sample_matrix(A, rho, k, 0, kt);
	sample_noise(s, sigma, 2 * k, 2 * k, p->eta1, p->eta1, kt);  /* s, e */
	for (i = 0; i < 2 * k; i ++) {
		fa_k_mlkem_ntt(kt, s + i * MLKEM_N);
	}
	for (i = 0; i < k; i ++) {
		/* (A s)_i * R^-1, then * R^2 * R^-1: plain domain, |t| < q */
		fa_k_mlkem_basemul_acc(kt, t, A + i * k * MLKEM_N, s, k);
		for (j = 0; j < MLKEM_N; j ++) {
			t[j] = fa_mlkem_mont((int32_t)t[j] * fa_mlkem_r2);
		}
		poly_add(t, e + i * MLKEM_N);
		fa_mlkem_encode12(ek + i * POLY_BYTES, t);
	}
	memcpy(ek + POLY_BYTES * k, rho, 32);

	for (i = 0; i < k; i ++) {
		fa_mlkem_encode12(dk + i * POLY_BYTES, s + i * MLKEM_N);
	}
	memcpy(dk + POLY_BYTES * k, ek, ek_len);
	fa_sha3_256(dk + POLY_BYTES * k + ek_len, ek, ek_len);
	memcpy(dk + POLY_BYTES * k + ek_len + 32, z, 32);
	memset(rs, 0, sizeof rs);
	memset(gin, 0, sizeof gin);
}

/*
 * K-PKE.Encrypt (Algorithm 14): y, e1, e2 from CBD with nonces 0..k-1
 * (eta1), k..2k-1 and 2k (eta2);
 *   u = NTT^-1(A^T y) + e1,  v = NTT^-1(t^T y) + e2 + Decompress_1(m),
 *   c = ByteEncode_du(Compress_du(u)) || ByteEncode_dv(Compress_dv(v)).
 * t is ByteDecode_12 of ek (12-bit values, reduced by the arithmetic).
 * Scratch: k^2 + 3k + 2 polynomials.
 */
static void
kpke_encrypt(const fa_mlkem_params *p, uint8_t *ct, const uint8_t *ek,
	const uint8_t m[32], const uint8_t r[32], void *tmp,
	const struct fa_kernels *kt)
{
	unsigned k = p->k, i;
	int16_t *At = fa_align8(tmp);
	int16_t *that = At + k * k * MLKEM_N;
	int16_t *y = that + k * MLKEM_N;
	int16_t *e1 = y + k * MLKEM_N;     /* then e2, right after */
	int16_t *e2 = e1 + k * MLKEM_N;
	int16_t *u = e2 + MLKEM_N;
	const uint8_t *rho = ek + POLY_BYTES * k;

	for (i = 0; i < k; i ++) {
		fa_mlkem_decode12(that + i * MLKEM_N, ek + i * POLY_BYTES);
	}
	sample_matrix(At, rho, k, 1, kt);
	/* y (k, eta1), e1 (k, eta2), e2 (eta2): nonces 0..2k */
	sample_noise(y, r, 2 * k + 1, k, p->eta1, p->eta2, kt);
	for (i = 0; i < k; i ++) {
		fa_k_mlkem_ntt(kt, y + i * MLKEM_N);
	}
	for (i = 0; i < k; i ++) {
		fa_k_mlkem_basemul_acc(kt, u, At + i * k * MLKEM_N, y, k);
		fa_k_mlkem_invntt(kt, u);
		poly_add(u, e1 + i * MLKEM_N);
		fa_mlkem_compress_encode(ct + i * 32 * p->du, u, p->du, kt);
	}
	fa_k_mlkem_basemul_acc(kt, u, that, y, k);
	fa_k_mlkem_invntt(kt, u);
	poly_add(u, e2);
	fa_mlkem_decode_decompress(e2, m, 1);
	poly_add(u, e2);   /* |u| < q/2 + 2 + q */
	fa_mlkem_compress_encode(ct + k * 32 * p->du, u, p->dv, kt);
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
		fa_mlkem_decode12(shat + i * MLKEM_N, dk_pke + i * POLY_BYTES);
		fa_mlkem_decode_decompress(u + i * MLKEM_N,
			ct + i * 32 * p->du, p->du);
		fa_k_mlkem_ntt(kt, u + i * MLKEM_N);
	}
	fa_k_mlkem_basemul_acc(kt, w, shat, u, k);
	fa_k_mlkem_invntt(kt, w);
	fa_mlkem_decode_decompress(u, ct + k * 32 * p->du, p->dv);
	for (i = 0; i < MLKEM_N; i ++) {
		w[i] = (int16_t)(u[i] - w[i]);   /* |w| < 3q/2 */
	}
	fa_mlkem_compress_encode(m, w, 1, kt);
}

/* Algorithm 17: (K, r) = G(m || H(ek)), c = K-PKE.Encrypt(ek, m, r). */
void
fa_mlkem_encaps_inner(const fa_mlkem_params *p, uint8_t *ct,
	uint8_t ss[32], const uint8_t *ek, const uint8_t m[32], void *tmp,
	const struct fa_kernels *kt)
{
	uint8_t gin[64], kr[64];

	memcpy(gin, m, 32);
	fa_sha3_256(gin + 32, ek, POLY_BYTES * p->k + 32);
	fa_sha3_512(kr, gin, sizeof gin);
	kpke_encrypt(p, ct, ek, m, kr + 32, tmp, kt);
	memcpy(ss, kr, 32);
	memset(kr, 0, sizeof kr);
	memset(gin, 0, sizeof gin);
}

/*
 * Algorithm 18: m' = Decrypt(dk_pke, c); (K', r') = G(m' || h);
 * Kbar = J(z || c) = SHAKE256(z || c, 32) (given); c' = Encrypt(ek, m', r');
 * K = K' if c = c' else Kbar, chosen with a mask from the OR of all byte
 * differences. Scratch: a ciphertext and k^2 + 3k + 2 polynomials.
 */
void
fa_mlkem_decaps_inner(const fa_mlkem_params *p, uint8_t ss[32],
	const uint8_t *ct, const uint8_t *dk, const uint8_t kbar[32],
	void *tmp, const struct fa_kernels *kt)
{
	unsigned k = p->k;
	size_t ct_len = 32u * (p->du * k + p->dv), i;
	const uint8_t *ek = dk + POLY_BYTES * k;
	const uint8_t *h = ek + POLY_BYTES * k + 32;
	uint8_t gin[64], kr[64];
	uint8_t *ct2 = (uint8_t *)fa_align8(tmp);
	void *ptmp = ct2 + FA_KEM_CT_MAXSIZE;
	uint32_t diff = 0;
	uint8_t mask;

	kpke_decrypt(p, gin, ct, dk, ptmp, kt);
	memcpy(gin + 32, h, 32);
	fa_sha3_512(kr, gin, sizeof gin);
	kpke_encrypt(p, ct2, ek, gin, kr + 32, ptmp, kt);
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

int
fa_kem_check_ek(unsigned level, const uint8_t *ek, size_t ek_len)
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
		if (!fa_mlkem_check12(ek + i * POLY_BYTES)) {
			return FA_ERR_COEFF_RANGE;
		}
	}
	return FA_OK;
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
	int r;

	if (p == NULL || ct == NULL || ss == NULL || m == NULL) {
		return FA_ERR_BADARG;
	}
	if ((r = fa_kem_check_ek(level, ek, ek_len)) != FA_OK) {
		return r;
	}
	if ((r = check_tmp(level, tmp, tmp_len)) != FA_OK) {
		return r;
	}
	if (ct_len < FA_KEM_CT_SIZE(level)) {
		return FA_ERR_SIZE;
	}
	fa_mlkem_encaps_inner(p, ct, ss, ek, m, tmp, fa_kernels_resolve(be));
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
	{
		/* the hash check's H(ek) and J(z || c) side by side; z || c
		   assembled in the scratch (before decapsulation uses it) */
		const struct fa_kernels *kt = fa_kernels_resolve(be);
		size_t ek_len = POLY_BYTES * p->k + 32;
		const uint8_t *ek = dk + POLY_BYTES * p->k;
		uint8_t *zc = (uint8_t *)fa_align8(tmp);
		uint8_t hh[32], kbar[32];

		memcpy(zc, dk + dk_len - 32, 32);
		memcpy(zc + 32, ct, ct_len);
		fa_mlkem_h_and_j(kt, hh, ek, ek_len, kbar, zc, 32 + ct_len);
		memset(zc, 0, 32);
		/* public: H of the public ek against the stored hash */
		if (memcmp(hh, ek + ek_len, 32) != 0) {
			memset(kbar, 0, sizeof kbar);
			return FA_ERR_KEY;
		}
		fa_mlkem_decaps_inner(p, ss, ct, dk, kbar, tmp, kt);
		memset(kbar, 0, sizeof kbar);
	}
	return FA_OK;
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
