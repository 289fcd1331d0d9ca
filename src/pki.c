/*
 * pki.c -- PKCS#8 / SubjectPublicKeyInfo in strict DER, and PEM, for
 * Falcon (round 3) and FN-DSA keys (include/falcon_accel_pki.h).
 * Freestanding: caller buffers only; the decoders point into the input.
 */
#include <string.h>

#include "falcon_accel.h"
#include "falcon_accel_pki.h"

typedef struct {
	const char *name, *oid;
	unsigned logn;
	int fndsa;
	uint8_t der[32];   /* OID TLV */
	size_t der_len;
} pki_alg_info;

#define PKI_ALG(N) { FA_OID_##N##_SN, FA_OID_##N##_TXT, FA_OID_##N##_LOGN, \
	FA_OID_##N##_FNDSA, FA_OID_##N##_DER, FA_OID_##N##_DER_LEN },
static const pki_alg_info pki_algs[FA_PKI_ALG_COUNT] = {
	FA_OID_FOREACH(PKI_ALG)
};

const char *fa_pki_strerror(int code)
{
	switch (code) {
	case 0: return "no error";
	case FA_ERR_SIZE: return "output buffer too small";
	case FA_ERR_BADARG: return "invalid argument";
	case FA_PKI_ERR_TRUNCATED: return "truncated: the data ends inside this element";
	case FA_PKI_ERR_TAG: return "wrong tag";
	case FA_PKI_ERR_LENGTH_FORM: return "non-minimal length encoding (not DER)";
	case FA_PKI_ERR_INDEFINITE: return "indefinite length (BER, not DER)";
	case FA_PKI_ERR_TRAILING: return "trailing bytes after the element";
	case FA_PKI_ERR_VERSION: return "unsupported version (0 expected)";
	case FA_PKI_ERR_INTEGER: return "non-minimal INTEGER encoding (not DER)";
	case FA_PKI_ERR_OID: return "unknown algorithm OID (not Falcon / FN-DSA)";
	case FA_PKI_ERR_PARAMS: return "algorithm parameters present (must be absent)";
	case FA_PKI_ERR_BITSTRING: return "BIT STRING with unused bits";
	case FA_PKI_ERR_KEYLEN: return "key length does not match the algorithm";
	case FA_PKI_ERR_KEYHDR: return "key header byte does not match the algorithm";
	case FA_PKI_ERR_LENGTH_BIG: return "length field too large";
	case FA_PKI_ERR_ATTRIBUTES: return "attributes or publicKey field (not supported)";
	case FA_PKI_ERR_PEM_BEGIN: return "no PEM BEGIN line at the start";
	case FA_PKI_ERR_PEM_LABEL: return "wrong PEM label";
	case FA_PKI_ERR_PEM_END: return "PEM END line missing or not matching";
	case FA_PKI_ERR_PEM_BASE64: return "invalid base64";
	case FA_PKI_ERR_PEM_LINE: return "PEM line not canonical (64-character lines, LF, nothing after END)";
	default: return "unknown error";
	}
}

static int alg_ok(int alg)
{
	return alg >= 0 && alg < FA_PKI_ALG_COUNT;
}

int fa_pki_alg(unsigned logn, int fndsa)
{
	int a;

	for (a = 0; a < FA_PKI_ALG_COUNT; a ++) {
		if (pki_algs[a].logn == logn && pki_algs[a].fndsa == (fndsa != 0)) {
			return a;
		}
	}
	return -1;
}

const char *fa_pki_alg_name(int alg)
{
	return alg_ok(alg) ? pki_algs[alg].name : "?";
}

const char *fa_pki_alg_oid(int alg)
{
	return alg_ok(alg) ? pki_algs[alg].oid : "?";
}

unsigned fa_pki_alg_logn(int alg)
{
	return alg_ok(alg) ? pki_algs[alg].logn : 0;
}

int fa_pki_alg_fndsa(int alg)
{
	return alg_ok(alg) ? pki_algs[alg].fndsa : 0;
}

size_t fa_pki_alg_pk_len(int alg)
{
	return alg_ok(alg) ? (size_t)FA_PUBKEY_SIZE(pki_algs[alg].logn) : 0;
}

size_t fa_pki_alg_sk_len(int alg)
{
	if (!alg_ok(alg)) {
		return 0;
	}
	return pki_algs[alg].fndsa
		? (size_t)FA_FNDSA_PRIVKEY_SIZE(pki_algs[alg].logn)
		: (size_t)FA_PRIVKEY_SIZE(pki_algs[alg].logn);
}

/* ------------------------------------------------------------------ */
/* Encoding */

static size_t len_size(size_t len)
{
	return len < 0x80 ? 1 : len < 0x100 ? 2 : len < 0x10000 ? 3 : 4;
}

static size_t tlv_size(size_t len)
{
	return 1 + len_size(len) + len;
}

/* Tag and minimal length at out; returns the header size. */
static size_t put_hdr(uint8_t *out, unsigned tag, size_t len)
{
	size_t n = len_size(len), i;

	out[0] = (uint8_t)tag;
	if (n == 1) {
		out[1] = (uint8_t)len;
		return 2;
	}
	out[1] = (uint8_t)(0x80 | (n - 1));
	for (i = 0; i < n - 1; i ++) {
		out[2 + i] = (uint8_t)(len >> (8 * (n - 2 - i)));
	}
	return 1 + n;
}

size_t fa_pki_algid_size(int alg)
{
	return alg_ok(alg) ? tlv_size(pki_algs[alg].der_len) : 0;
}

/* Inner OCTET STRING content of the PrivateKeyInfo. */
static size_t pkcs8_inner(int alg)
{
	size_t sk = fa_pki_alg_sk_len(alg);

	if (pki_algs[alg].fndsa) {
		return sk;
	}
	return tlv_size(sk + fa_pki_alg_pk_len(alg));
}

size_t fa_pki_pkcs8_size(int alg)
{
	if (!alg_ok(alg)) {
		return 0;
	}
	return tlv_size(3 + fa_pki_algid_size(alg) + tlv_size(pkcs8_inner(alg)));
}

size_t fa_pki_spki_size(int alg)
{
	if (!alg_ok(alg)) {
		return 0;
	}
	return tlv_size(fa_pki_algid_size(alg)
		+ tlv_size(1 + fa_pki_alg_pk_len(alg)));
}

static size_t put_algid(uint8_t *out, int alg)
{
	size_t h = put_hdr(out, 0x30, pki_algs[alg].der_len);

	memcpy(out + h, pki_algs[alg].der, pki_algs[alg].der_len);
	return h + pki_algs[alg].der_len;
}

int fa_pki_encode_algid(uint8_t *out, size_t out_len, size_t *written,
	int alg)
{
	if (!alg_ok(alg) || written == NULL) {
		return FA_ERR_BADARG;
	}
	if (out_len < fa_pki_algid_size(alg)) {
		return FA_ERR_SIZE;
	}
	*written = put_algid(out, alg);
	return 0;
}

static int key_ok(int alg, const uint8_t *k, size_t len, int priv)
{
	unsigned logn = pki_algs[alg].logn;

	if (k == NULL) {
		return 0;
	}
	if (priv) {
		return len == fa_pki_alg_sk_len(alg) && k[0] == 0x50 + logn;
	}
	return len == fa_pki_alg_pk_len(alg) && k[0] == logn;
}

int fa_pki_encode_spki(uint8_t *out, size_t out_len, size_t *written,
	int alg, const uint8_t *pk, size_t pk_len)
{
	size_t total, p;

	if (!alg_ok(alg) || written == NULL || !key_ok(alg, pk, pk_len, 0)) {
		return FA_ERR_BADARG;
	}
	total = fa_pki_spki_size(alg);
	if (out_len < total) {
		return FA_ERR_SIZE;
	}
	p = put_hdr(out, 0x30, fa_pki_algid_size(alg) + tlv_size(1 + pk_len));
	p += put_algid(out + p, alg);
	p += put_hdr(out + p, 0x03, 1 + pk_len);
	out[p ++] = 0;
	memcpy(out + p, pk, pk_len);
	*written = p + pk_len;
	return 0;
}

int fa_pki_encode_pkcs8(uint8_t *out, size_t out_len, size_t *written,
	int alg, const uint8_t *sk, size_t sk_len,
	const uint8_t *pk, size_t pk_len)
{
	size_t total, inner, p;

	if (!alg_ok(alg) || written == NULL || !key_ok(alg, sk, sk_len, 1)) {
		return FA_ERR_BADARG;
	}
	if (pki_algs[alg].fndsa) {
		if (pk != NULL && !key_ok(alg, pk, pk_len, 0)) {
			return FA_ERR_BADARG;
		}
	} else if (!key_ok(alg, pk, pk_len, 0)) {
		return FA_ERR_BADARG;
	}
	total = fa_pki_pkcs8_size(alg);
	if (out_len < total) {
		return FA_ERR_SIZE;
	}
	inner = pkcs8_inner(alg);
	p = put_hdr(out, 0x30, 3 + fa_pki_algid_size(alg) + tlv_size(inner));
	out[p ++] = 0x02;
	out[p ++] = 0x01;
	out[p ++] = 0x00;
	p += put_algid(out + p, alg);
	p += put_hdr(out + p, 0x04, inner);
	if (!pki_algs[alg].fndsa) {
		p += put_hdr(out + p, 0x04, sk_len + pk_len);
	}
	memcpy(out + p, sk, sk_len);
	p += sk_len;
	if (!pki_algs[alg].fndsa) {
		memcpy(out + p, pk, pk_len);
		p += pk_len;
	}
	*written = p;
	return 0;
}

/* ------------------------------------------------------------------ */
/* Strict DER decoding */

static int fail(fa_pki_error *e, int code, size_t off, const char *what)
{
	if (e != NULL) {
		e->code = code;
		e->offset = off;
		e->what = what;
	}
	return code;
}

/*
 * The element at in[off..end): tag must be `tag`; *c and *clen its
 * content (offsets in `in`), *next the offset after it.
 */
static int der_elem(const uint8_t *in, size_t off, size_t end, unsigned tag,
	size_t *c, size_t *clen, fa_pki_error *e, const char *what)
{
	size_t p = off, n, len, i;
	unsigned b;

	if (p >= end) {
		return fail(e, FA_PKI_ERR_TRUNCATED, off, what);
	}
	if (in[p] != tag) {
		return fail(e, FA_PKI_ERR_TAG, off, what);
	}
	p ++;
	if (p >= end) {
		return fail(e, FA_PKI_ERR_TRUNCATED, off, what);
	}
	b = in[p ++];
	if (b < 0x80) {
		len = b;
	} else if (b == 0x80) {
		return fail(e, FA_PKI_ERR_INDEFINITE, off + 1, what);
	} else {
		n = b & 0x7F;
		if (n > 3) {
			return fail(e, FA_PKI_ERR_LENGTH_BIG, off + 1, what);
		}
		if (end - p < n) {
			return fail(e, FA_PKI_ERR_TRUNCATED, off, what);
		}
		if (in[p] == 0) {
			return fail(e, FA_PKI_ERR_LENGTH_FORM, off + 1, what);
		}
		len = 0;
		for (i = 0; i < n; i ++) {
			len = (len << 8) | in[p ++];
		}
		if (len < 0x80) {
			return fail(e, FA_PKI_ERR_LENGTH_FORM, off + 1, what);
		}
	}
	if (end - p < len) {
		return fail(e, FA_PKI_ERR_TRUNCATED, off, what);
	}
	*c = p;
	*clen = len;
	return 0;
}

/* AlgorithmIdentifier in[off..end) exactly (a SEQUENCE already opened:
   content c, clen). */
static int der_algid(const uint8_t *in, size_t c, size_t clen, int *alg,
	fa_pki_error *e, const char *what_oid, const char *what_params)
{
	size_t oc, olen, end = c + clen;
	int a, r;

	r = der_elem(in, c, end, 0x06, &oc, &olen, e, what_oid);
	if (r != 0) {
		return r;
	}
	if (oc + olen != end) {
		return fail(e, FA_PKI_ERR_PARAMS, oc + olen, what_params);
	}
	for (a = 0; a < FA_PKI_ALG_COUNT; a ++) {
		const pki_alg_info *ai = &pki_algs[a];

		if (ai->der_len == 2 + olen
			&& memcmp(ai->der, in + c, ai->der_len) == 0)
		{
			*alg = a;
			return 0;
		}
	}
	return fail(e, FA_PKI_ERR_OID, c, what_oid);
}

int fa_pki_decode_algid(const uint8_t *der, size_t len, int *alg,
	fa_pki_error *err)
{
	size_t c, clen;
	int r;

	if (der == NULL || alg == NULL) {
		return FA_ERR_BADARG;
	}
	r = der_elem(der, 0, len, 0x30, &c, &clen, err, "AlgorithmIdentifier");
	if (r != 0) {
		return r;
	}
	if (c + clen != len) {
		return fail(err, FA_PKI_ERR_TRAILING, c + clen, "AlgorithmIdentifier");
	}
	return der_algid(der, c, clen, alg, err, "AlgorithmIdentifier.algorithm",
		"AlgorithmIdentifier.parameters");
}

/* Check a key's length and header for alg. */
static int check_key(int alg, const uint8_t *k, size_t len, int priv,
	size_t off, fa_pki_error *e, const char *what)
{
	unsigned logn;
	size_t want = priv ? fa_pki_alg_sk_len(alg) : fa_pki_alg_pk_len(alg);

	if (!alg_ok(alg)) {
		return FA_ERR_BADARG;
	}
	logn = pki_algs[alg].logn;
	if (len != want) {
		return fail(e, FA_PKI_ERR_KEYLEN, off, what);
	}
	if (k[0] != (priv ? 0x50 + logn : logn)) {
		return fail(e, FA_PKI_ERR_KEYHDR, off, what);
	}
	return 0;
}

int fa_pki_decode_spki(const uint8_t *der, size_t len, int *alg,
	const uint8_t **pk, size_t *pk_len, fa_pki_error *err)
{
	size_t c, clen, ac, alen, bc, blen, end;
	int r, a;

	if (der == NULL || alg == NULL || pk == NULL || pk_len == NULL) {
		return FA_ERR_BADARG;
	}
	if (err != NULL) {
		err->code = 0;
	}
	r = der_elem(der, 0, len, 0x30, &c, &clen, err, "SubjectPublicKeyInfo");
	if (r != 0) {
		return r;
	}
	end = c + clen;
	if (end != len) {
		return fail(err, FA_PKI_ERR_TRAILING, end, "SubjectPublicKeyInfo");
	}
	r = der_elem(der, c, end, 0x30, &ac, &alen, err,
		"SubjectPublicKeyInfo.algorithm");
	if (r != 0) {
		return r;
	}
	r = der_algid(der, ac, alen, &a, err,
		"SubjectPublicKeyInfo.algorithm.algorithm",
		"SubjectPublicKeyInfo.algorithm.parameters");
	if (r != 0) {
		return r;
	}
	r = der_elem(der, ac + alen, end, 0x03, &bc, &blen, err,
		"SubjectPublicKeyInfo.subjectPublicKey");
	if (r != 0) {
		return r;
	}
	if (bc + blen != end) {
		return fail(err, FA_PKI_ERR_TRAILING, bc + blen, "SubjectPublicKeyInfo");
	}
	if (blen == 0 || der[bc] != 0) {
		return fail(err, FA_PKI_ERR_BITSTRING, bc,
			"SubjectPublicKeyInfo.subjectPublicKey");
	}
	if (blen == 1) {
		return fail(err, FA_PKI_ERR_KEYLEN, bc + 1,
			"SubjectPublicKeyInfo.subjectPublicKey");
	}
	r = check_key(a, der + bc + 1, blen - 1, 0, bc + 1, err,
		"SubjectPublicKeyInfo.subjectPublicKey");
	if (r != 0) {
		return r;
	}
	*alg = a;
	*pk = der + bc + 1;
	*pk_len = blen - 1;
	return 0;
}

int fa_pki_decode_pkcs8(const uint8_t *der, size_t len, int *alg,
	const uint8_t **sk, size_t *sk_len, const uint8_t **pk, size_t *pk_len,
	fa_pki_error *err)
{
	size_t c, clen, end, vc, vlen, ac, alen, oc, olen, ic, ilen, p;
	int r, a;

	if (der == NULL || alg == NULL || sk == NULL || sk_len == NULL
		|| pk == NULL || pk_len == NULL)
	{
		return FA_ERR_BADARG;
	}
	if (err != NULL) {
		err->code = 0;
	}
	r = der_elem(der, 0, len, 0x30, &c, &clen, err, "PrivateKeyInfo");
	if (r != 0) {
		return r;
	}
	end = c + clen;
	if (end != len) {
		return fail(err, FA_PKI_ERR_TRAILING, end, "PrivateKeyInfo");
	}
	r = der_elem(der, c, end, 0x02, &vc, &vlen, err, "PrivateKeyInfo.version");
	if (r != 0) {
		return r;
	}
	if (vlen == 0 || (vlen > 1 && (der[vc] == 0
		|| (der[vc] == 0xFF && (der[vc + 1] & 0x80)))))
	{
		return fail(err, FA_PKI_ERR_INTEGER, vc, "PrivateKeyInfo.version");
	}
	if (vlen != 1 || der[vc] != 0) {
		return fail(err, FA_PKI_ERR_VERSION, vc, "PrivateKeyInfo.version");
	}
	r = der_elem(der, vc + vlen, end, 0x30, &ac, &alen, err,
		"PrivateKeyInfo.privateKeyAlgorithm");
	if (r != 0) {
		return r;
	}
	r = der_algid(der, ac, alen, &a, err,
		"PrivateKeyInfo.privateKeyAlgorithm.algorithm",
		"PrivateKeyInfo.privateKeyAlgorithm.parameters");
	if (r != 0) {
		return r;
	}
	r = der_elem(der, ac + alen, end, 0x04, &oc, &olen, err,
		"PrivateKeyInfo.privateKey");
	if (r != 0) {
		return r;
	}
	p = oc + olen;
	if (p != end) {
		if (der[p] == 0xA0 || der[p] == 0x81 || der[p] == 0xA1) {
			return fail(err, FA_PKI_ERR_ATTRIBUTES, p, "PrivateKeyInfo");
		}
		return fail(err, FA_PKI_ERR_TRAILING, p, "PrivateKeyInfo");
	}
	if (pki_algs[a].fndsa) {
		r = check_key(a, der + oc, olen, 1, oc, err,
			"PrivateKeyInfo.privateKey");
		if (r != 0) {
			return r;
		}
		*alg = a;
		*sk = der + oc;
		*sk_len = olen;
		*pk = NULL;
		*pk_len = 0;
		return 0;
	}
	/* round 3: OCTET STRING (sk || pk) inside */
	r = der_elem(der, oc, oc + olen, 0x04, &ic, &ilen, err,
		"PrivateKeyInfo.privateKey (inner OCTET STRING)");
	if (r != 0) {
		return r;
	}
	if (ic + ilen != oc + olen) {
		return fail(err, FA_PKI_ERR_TRAILING, ic + ilen,
			"PrivateKeyInfo.privateKey (inner OCTET STRING)");
	}
	if (ilen != fa_pki_alg_sk_len(a) + fa_pki_alg_pk_len(a)) {
		return fail(err, FA_PKI_ERR_KEYLEN, ic,
			"PrivateKeyInfo.privateKey (private || public key)");
	}
	r = check_key(a, der + ic, fa_pki_alg_sk_len(a), 1, ic, err,
		"PrivateKeyInfo.privateKey (private key)");
	if (r != 0) {
		return r;
	}
	r = check_key(a, der + ic + fa_pki_alg_sk_len(a), fa_pki_alg_pk_len(a),
		0, ic + fa_pki_alg_sk_len(a), err,
		"PrivateKeyInfo.privateKey (appended public key)");
	if (r != 0) {
		return r;
	}
	*alg = a;
	*sk = der + ic;
	*sk_len = fa_pki_alg_sk_len(a);
	*pk = der + ic + *sk_len;
	*pk_len = fa_pki_alg_pk_len(a);
	return 0;
}

/* ------------------------------------------------------------------ */
/* PEM */

/* strlen without libc (the freestanding core may use memcpy, memset,
   memmove and memcmp only) */
static size_t slen(const char *s)
{
	size_t n = 0;

	while (s[n] != 0) {
		n ++;
	}
	return n;
}

static const char b64[] =
	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static const char *pem_label(int label)
{
	return label == FA_PKI_PEM_PRIVATE ? "PRIVATE KEY"
		: label == FA_PKI_PEM_PUBLIC ? "PUBLIC KEY" : NULL;
}

size_t fa_pki_pem_size(int label, size_t der_len)
{
	const char *l = pem_label(label);
	size_t chars = 4 * ((der_len + 2) / 3);
	size_t lines = (chars + 63) / 64;

	if (l == NULL) {
		return 0;
	}
	/* "-----BEGIN " l "-----\n" body "-----END " l "-----\n" */
	return 11 + slen(l) + 6 + chars + lines + 9 + slen(l) + 6;
}

static size_t put_str(uint8_t *out, const char *s)
{
	size_t n = slen(s);

	memcpy(out, s, n);
	return n;
}

int fa_pki_pem_encode(uint8_t *out, size_t out_len, size_t *written,
	int label, const uint8_t *der, size_t der_len)
{
	const char *l = pem_label(label);
	size_t p = 0, i, col = 0;

	if (l == NULL || written == NULL || (der == NULL && der_len > 0)) {
		return FA_ERR_BADARG;
	}
	if (out_len < fa_pki_pem_size(label, der_len)) {
		return FA_ERR_SIZE;
	}
	p += put_str(out + p, "-----BEGIN ");
	p += put_str(out + p, l);
	p += put_str(out + p, "-----\n");
	for (i = 0; i < der_len; i += 3) {
		uint32_t v = (uint32_t)der[i] << 16;
		size_t k, n = der_len - i < 3 ? der_len - i : 3;
		char q[4];

		if (n > 1) {
			v |= (uint32_t)der[i + 1] << 8;
		}
		if (n > 2) {
			v |= der[i + 2];
		}
		q[0] = b64[(v >> 18) & 63];
		q[1] = b64[(v >> 12) & 63];
		q[2] = n > 1 ? b64[(v >> 6) & 63] : '=';
		q[3] = n > 2 ? b64[v & 63] : '=';
		for (k = 0; k < 4; k ++) {
			out[p ++] = (uint8_t)q[k];
			if (++ col == 64) {
				out[p ++] = '\n';
				col = 0;
			}
		}
	}
	if (col != 0) {
		out[p ++] = '\n';
	}
	p += put_str(out + p, "-----END ");
	p += put_str(out + p, l);
	p += put_str(out + p, "-----\n");
	*written = p;
	return 0;
}

static int b64_val(uint8_t c)
{
	if (c >= 'A' && c <= 'Z') {
		return c - 'A';
	}
	if (c >= 'a' && c <= 'z') {
		return c - 'a' + 26;
	}
	if (c >= '0' && c <= '9') {
		return c - '0' + 52;
	}
	if (c == '+') {
		return 62;
	}
	if (c == '/') {
		return 63;
	}
	return -1;
}

static int starts(const uint8_t *p, size_t len, const char *s)
{
	size_t n = slen(s);

	return len >= n && memcmp(p, s, n) == 0;
}

int fa_pki_pem_decode(const uint8_t *pem, size_t len, int *label,
	uint8_t *der, size_t der_cap, size_t *der_len, fa_pki_error *err)
{
	size_t p, line = 1, out = 0, nchars = 0, pad = 0;
	uint32_t acc = 0;
	int l, seen_short = 0;
	const char *ls;

	if (pem == NULL || label == NULL || der_len == NULL
		|| (der == NULL && der_cap > 0))
	{
		return FA_ERR_BADARG;
	}
	if (err != NULL) {
		err->code = 0;
	}
	if (!starts(pem, len, "-----BEGIN ")) {
		return fail(err, FA_PKI_ERR_PEM_BEGIN, 1, "PEM BEGIN line");
	}
	p = 11;
	if (starts(pem + p, len - p, "PRIVATE KEY-----\n")) {
		l = FA_PKI_PEM_PRIVATE;
	} else if (starts(pem + p, len - p, "PUBLIC KEY-----\n")) {
		l = FA_PKI_PEM_PUBLIC;
	} else {
		return fail(err, FA_PKI_ERR_PEM_LABEL, 1, "PEM BEGIN line");
	}
	ls = pem_label(l);
	p += slen(ls) + 6;
	line = 2;
	/* base64 lines up to the END line */
	for (;;) {
		size_t s = p, n;

		if (p >= len) {
			return fail(err, FA_PKI_ERR_PEM_END, line, "PEM END line");
		}
		if (pem[p] == '-') {
			break;
		}
		if (seen_short || pad > 0) {
			/* a line after the last (short or padded) one */
			return fail(err, FA_PKI_ERR_PEM_LINE, line, "PEM body");
		}
		while (p < len && pem[p] != '\n') {
			int v;

			if (pem[p] == '=') {
				pad ++;
				if (pad > 2) {
					return fail(err, FA_PKI_ERR_PEM_BASE64, line,
						"PEM body");
				}
			} else {
				if (pem[p] == '\r') {
					return fail(err, FA_PKI_ERR_PEM_LINE, line,
						"PEM body (CR)");
				}
				v = b64_val(pem[p]);
				if (v < 0 || pad > 0) {
					return fail(err, FA_PKI_ERR_PEM_BASE64, line,
						"PEM body");
				}
				acc = (acc << 6) | (uint32_t)v;
			}
			nchars ++;
			p ++;
			if (nchars % 4 == 0) {
				size_t nb = 3 - pad;

				if (pad > 0) {
					acc <<= 6 * pad;
					/* unused bits must be zero */
					if ((pad == 1 && (acc & 0xFF) != 0)
						|| (pad == 2 && (acc & 0xFFFF) != 0))
					{
						return fail(err, FA_PKI_ERR_PEM_BASE64,
							line, "PEM body (non-zero unused bits)");
					}
				}
				if (der_cap - out < nb) {
					return FA_ERR_SIZE;
				}
				der[out ++] = (uint8_t)(acc >> 16);
				if (nb > 1) {
					der[out ++] = (uint8_t)(acc >> 8);
				}
				if (nb > 2) {
					der[out ++] = (uint8_t)acc;
				}
				acc = 0;
			}
		}
		if (p >= len) {
			return fail(err, FA_PKI_ERR_PEM_END, line, "PEM END line");
		}
		n = p - s;
		if (n == 0 || n > 64) {
			return fail(err, FA_PKI_ERR_PEM_LINE, line, "PEM body");
		}
		if (n < 64) {
			seen_short = 1;
		}
		p ++;   /* '\n' */
		line ++;
	}
	if (nchars == 0 || nchars % 4 != 0) {
		return fail(err, FA_PKI_ERR_PEM_BASE64, line, "PEM body (length)");
	}
	if (!starts(pem + p, len - p, "-----END ")
		|| !starts(pem + p + 9, len - p - 9, ls)
		|| !starts(pem + p + 9 + slen(ls), len - p - 9 - slen(ls),
			"-----\n"))
	{
		return fail(err, FA_PKI_ERR_PEM_END, line, "PEM END line");
	}
	p += 9 + slen(ls) + 6;
	if (p != len) {
		return fail(err, FA_PKI_ERR_PEM_LINE, line + 1, "after the PEM END line");
	}
	*label = l;
	*der_len = out;
	return 0;
}

int fa_pki_detect(const uint8_t *in, size_t len)
{
	if (in != NULL && starts(in, len, "-----BEGIN ")) {
		return FA_PKI_FMT_PEM;
	}
	if (in != NULL && len > 0 && in[0] == 0x30) {
		return FA_PKI_FMT_DER;
	}
	return FA_PKI_FMT_RAW;
}
