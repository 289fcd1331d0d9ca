/*
 * falcon_accel_pki.h -- standard key encodings for Falcon (round 3) and
 * FN-DSA: PKCS#8 PrivateKeyInfo (OneAsymmetricKey v1) and X.509
 * SubjectPublicKeyInfo, in DER and PEM, with the object identifiers of
 * include/falcon_accel_oids.h (generated from data/oids.json).
 *
 * Part of the freestanding core (src/pki.c): no allocation, no stdio; every
 * output goes to a caller buffer, and the decoders return pointers into the
 * caller's input. The CLI (tools/) and the OpenSSL provider
 * (apps/openssl-provider/) both use it; neither the library nor this
 * codec depends on OpenSSL.
 *
 * Layouts (README "Falcon in the PKI"):
 *   SubjectPublicKeyInfo ::= SEQUENCE {
 *       SEQUENCE { OBJECT IDENTIFIER alg }          -- parameters absent
 *       BIT STRING (0 unused bits) raw public key }  -- header byte included
 *   PrivateKeyInfo ::= SEQUENCE {
 *       INTEGER 0,
 *       SEQUENCE { OBJECT IDENTIFIER alg },          -- parameters absent
 *       OCTET STRING privateKey }
 *   privateKey, round 3 (oqs-provider's layout, for interoperability):
 *       the DER of OCTET STRING (raw private key || raw public key)
 *   privateKey, FN-DSA: the raw fn-dsa 0.4.0 private key.
 *
 * The decoders are strict DER: they refuse a wrong tag, an indefinite
 * length, a long-form length where the short form fits or with leading
 * zero octets, a non-minimal INTEGER, a version other than 0, parameters
 * in the AlgorithmIdentifier (NULL included), unused bits in the BIT
 * STRING, attributes or a publicKey field in the PrivateKeyInfo, bytes
 * after any element or after the outer SEQUENCE, an unknown OID, and a key
 * whose length or header byte does not match the OID. An error fills a
 * fa_pki_error naming the field and the byte offset (DER) or line (PEM).
 * The key bytes themselves are checked by the library's decoders.
 */
#ifndef FALCON_ACCEL_PKI_H
#define FALCON_ACCEL_PKI_H

#include <stddef.h>
#include <stdint.h>

#include "falcon_accel_oids.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Algorithms (index into the OID list, in data/oids.json's order). */
#define FA_PKI_FALCON512   0
#define FA_PKI_FALCON1024  1
#define FA_PKI_FNDSA512    2
#define FA_PKI_FNDSA1024   3
#define FA_PKI_ALG_COUNT   4

/* Errors (negative; FA_ERR_SIZE = -2 and FA_ERR_BADARG = -5 of
   falcon_accel.h are also returned). */
#define FA_PKI_ERR_TRUNCATED    -40  /* the data ends inside an element */
#define FA_PKI_ERR_TAG          -41  /* wrong tag for the expected element */
#define FA_PKI_ERR_LENGTH_FORM  -42  /* non-minimal length (long form where
                                        the short form fits, leading zero) */
#define FA_PKI_ERR_INDEFINITE   -43  /* indefinite length (BER, not DER) */
#define FA_PKI_ERR_TRAILING     -44  /* bytes after an element */
#define FA_PKI_ERR_VERSION      -45  /* PrivateKeyInfo version is not 0 */
#define FA_PKI_ERR_INTEGER      -46  /* non-minimal INTEGER encoding */
#define FA_PKI_ERR_OID          -47  /* unknown algorithm identifier */
#define FA_PKI_ERR_PARAMS       -48  /* AlgorithmIdentifier parameters
                                        present (they must be absent) */
#define FA_PKI_ERR_BITSTRING    -49  /* BIT STRING with unused bits */
#define FA_PKI_ERR_KEYLEN       -50  /* key length wrong for the OID */
#define FA_PKI_ERR_KEYHDR       -51  /* key header byte wrong for the OID */
#define FA_PKI_ERR_LENGTH_BIG   -52  /* length field over 3 octets */
#define FA_PKI_ERR_ATTRIBUTES   -53  /* attributes / publicKey fields in a
                                        PrivateKeyInfo (not supported) */
#define FA_PKI_ERR_PEM_BEGIN    -54  /* no "-----BEGIN <label>-----" line */
#define FA_PKI_ERR_PEM_LABEL    -55  /* a label other than PRIVATE KEY /
                                        PUBLIC KEY (or the wrong one) */
#define FA_PKI_ERR_PEM_END      -56  /* END line missing or not matching */
#define FA_PKI_ERR_PEM_BASE64   -57  /* a character outside base64, bad
                                        padding, non-zero unused bits */
#define FA_PKI_ERR_PEM_LINE     -58  /* line length not 64 (last: 1..64),
                                        CR, blank line, text after END */

typedef struct {
	int code;           /* FA_PKI_ERR_* (0: no error) */
	size_t offset;      /* DER: byte offset of the culprit; PEM: line (1-based) */
	const char *what;   /* the element being read, e.g.
	                       "PrivateKeyInfo.version" */
} fa_pki_error;

/* Message of an FA_PKI_ERR_* code (or of FA_ERR_SIZE / FA_ERR_BADARG). */
const char *fa_pki_strerror(int code);

/* Algorithm of (logn, scheme): fndsa 0 = round 3, 1 = FN-DSA; -1 if none. */
int fa_pki_alg(unsigned logn, int fndsa);
/* Properties of an algorithm (alg in 0..FA_PKI_ALG_COUNT-1). */
const char *fa_pki_alg_name(int alg);       /* "falcon512", ... */
const char *fa_pki_alg_oid(int alg);        /* dotted OID */
unsigned fa_pki_alg_logn(int alg);
int fa_pki_alg_fndsa(int alg);
size_t fa_pki_alg_pk_len(int alg);          /* raw public key length */
size_t fa_pki_alg_sk_len(int alg);          /* raw private key length */

/* Exact DER sizes of the encodings. */
size_t fa_pki_spki_size(int alg);
size_t fa_pki_pkcs8_size(int alg);
size_t fa_pki_algid_size(int alg);

/* Encoders: *written set to the size; FA_ERR_SIZE if out_len is too
   small, FA_ERR_BADARG for a wrong alg or key length / header. pk is
   required for round 3 (it is stored after sk, as oqs-provider does) and
   must be NULL or a matching-length key for FN-DSA (not stored). */
int fa_pki_encode_spki(uint8_t *out, size_t out_len, size_t *written,
	int alg, const uint8_t *pk, size_t pk_len);
int fa_pki_encode_pkcs8(uint8_t *out, size_t out_len, size_t *written,
	int alg, const uint8_t *sk, size_t sk_len,
	const uint8_t *pk, size_t pk_len);
/* AlgorithmIdentifier ::= SEQUENCE { OID } (X.509 signatureAlgorithm). */
int fa_pki_encode_algid(uint8_t *out, size_t out_len, size_t *written,
	int alg);

/* Decoders: 0 and *alg, key pointers into der; else an FA_PKI_ERR_* code
   with *err filled (err may be NULL). pkcs8: *pk is the appended public
   key for round 3, NULL (length 0) for FN-DSA. */
int fa_pki_decode_spki(const uint8_t *der, size_t len, int *alg,
	const uint8_t **pk, size_t *pk_len, fa_pki_error *err);
int fa_pki_decode_pkcs8(const uint8_t *der, size_t len, int *alg,
	const uint8_t **sk, size_t *sk_len, const uint8_t **pk, size_t *pk_len,
	fa_pki_error *err);
/* The algorithm of a DER AlgorithmIdentifier (whole input, strict). */
int fa_pki_decode_algid(const uint8_t *der, size_t len, int *alg,
	fa_pki_error *err);

/* PEM (RFC 7468, strict: LF line ends, 64-character lines, no text
   before BEGIN or after END, canonical base64). */
#define FA_PKI_PEM_PRIVATE 1   /* "PRIVATE KEY" (PrivateKeyInfo) */
#define FA_PKI_PEM_PUBLIC  2   /* "PUBLIC KEY" (SubjectPublicKeyInfo) */
size_t fa_pki_pem_size(int label, size_t der_len);
int fa_pki_pem_encode(uint8_t *out, size_t out_len, size_t *written,
	int label, const uint8_t *der, size_t der_len);
/* label: out, the label found. der_cap >= len is always enough. */
int fa_pki_pem_decode(const uint8_t *pem, size_t len, int *label,
	uint8_t *der, size_t der_cap, size_t *der_len, fa_pki_error *err);

/* What a key file holds: PEM if it starts with "-----BEGIN ", DER if its
   first byte is 0x30 (no raw key or signature header is 0x30), else raw. */
#define FA_PKI_FMT_RAW 0
#define FA_PKI_FMT_DER 1
#define FA_PKI_FMT_PEM 2
int fa_pki_detect(const uint8_t *in, size_t len);

#ifdef __cplusplus
}
#endif

#endif
