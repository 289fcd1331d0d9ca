/*
 * cms_sign.c -- CMS SignedData through the falconaccel provider with
 * OpenSSL 3.0/3.1's libcrypto, for tests/run_openssl.sh.
 *
 * OpenSSL before 3.2 leaves the SignerInfo's signatureAlgorithm empty for
 * provider keys (openssl/openssl#17717), so `openssl cms -sign` fails
 * there ("illegal zero content"). This helper does what the command does
 * (CMS_sign with signed attributes, the digest for messageDigest given),
 * and sets signatureAlgorithm to the key's own AlgorithmIdentifier (the
 * OID of the key type, parameters absent), as OpenSSL 3.2+ does itself.
 *
 *   cms_sign PROVIDER_DIR CERT.pem KEY.pem IN OUT.der [digest]
 */
#include <stdio.h>
#include <string.h>

#include <openssl/bio.h>
#include <openssl/cms.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/objects.h>
#include <openssl/pem.h>
#include <openssl/provider.h>
#include <openssl/x509.h>

int main(int argc, char **argv)
{
	CMS_ContentInfo *cms = NULL;
	CMS_SignerInfo *si;
	X509 *cert = NULL;
	EVP_PKEY *key = NULL;
	BIO *b = NULL, *in = NULL, *out = NULL;
	X509_ALGOR *sigalg;
	EVP_MD *md = NULL;
	unsigned flags = CMS_BINARY | CMS_PARTIAL;
	int rc = 1;

	if (argc < 6) {
		fprintf(stderr, "usage: cms_sign PROVIDER_DIR CERT KEY IN OUT [md]\n");
		return 2;
	}
	if (!OSSL_PROVIDER_set_default_search_path(NULL, argv[1])
		|| OSSL_PROVIDER_load(NULL, "falconaccel") == NULL
		|| OSSL_PROVIDER_load(NULL, "default") == NULL)
	{
		goto err;
	}
	md = EVP_MD_fetch(NULL, argc > 6 ? argv[6] : "SHA512", NULL);
	if (md == NULL || (b = BIO_new_file(argv[2], "r")) == NULL
		|| (cert = PEM_read_bio_X509(b, NULL, NULL, NULL)) == NULL)
	{
		goto err;
	}
	BIO_free(b);
	if ((b = BIO_new_file(argv[3], "r")) == NULL
		|| (key = PEM_read_bio_PrivateKey(b, NULL, NULL, NULL)) == NULL
		|| (in = BIO_new_file(argv[4], "rb")) == NULL
		|| (cms = CMS_sign(NULL, NULL, NULL, NULL, flags)) == NULL
		|| (si = CMS_add1_signer(cms, cert, key, md, flags)) == NULL)
	{
		goto err;
	}
	CMS_SignerInfo_get0_algs(si, NULL, NULL, NULL, &sigalg);
	if (!X509_ALGOR_set0(sigalg, OBJ_txt2obj(EVP_PKEY_get0_type_name(key), 0),
		V_ASN1_UNDEF, NULL)
		|| !CMS_final(cms, in, NULL, flags)
		|| (out = BIO_new_file(argv[5], "wb")) == NULL
		|| !i2d_CMS_bio(out, cms))
	{
		goto err;
	}
	rc = 0;
err:
	if (rc != 0) {
		ERR_print_errors_fp(stderr);
	}
	BIO_free(b);
	BIO_free(in);
	BIO_free(out);
	CMS_ContentInfo_free(cms);
	X509_free(cert);
	EVP_PKEY_free(key);
	EVP_MD_free(md);
	return rc;
}
