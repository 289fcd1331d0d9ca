/*
 * COSE identifiers of the key's credentials: the ONE place that holds them.
 *
 * FN-DSA: draft-ietf-cose-falcon-04 ("FN-DSA for JOSE and COSE", March
 * 2026). The key type is AKP ("Algorithm Key Pair", registered by the
 * ML-DSA COSE document, RFC 9964 / draft-ietf-cose-dilithium) with the
 * public key as a byte string under label -1 ("pub"). The draft's IANA
 * section leaves the FN-DSA algorithm values to IANA; the values below
 * are the ones this project uses until a final registration (see the
 * README, "FIDO2 security key", for the provenance of each). Under them
 * the key makes FN-DSA as the library implements it (fn-dsa 0.4.0, the
 * provisional FIPS 206: README "FN-DSA"): the FN-DSA public key encoding,
 * pure FN-DSA signatures with an empty context over authenticatorData ||
 * clientDataHash.
 *
 * Round-3 Falcon (the NIST round-3 submission, v1.2: what the key signed
 * under -54 / -55 before FN-DSA) keeps two identifiers of the COSE
 * Algorithms registry's private-use range (integers below -65536, RFC
 * 9052 section 16.4): credentials made with them, and credentials made
 * before this change, sign round-3 compressed signatures. Nobody else
 * knows these values: they are for this project's tests and for relying
 * parties that registered a round-3 credential and verify it as such.
 *
 * A final registration is a one-line change per algorithm here; the
 * Python end-to-end tests read this file, so nothing else needs editing.
 */
#ifndef FIDO2_COSE_H
#define FIDO2_COSE_H

#define FIDO2_COSE_KTY_AKP        7     /* COSE Key Types: AKP */
#define FIDO2_COSE_LABEL_KTY      1
#define FIDO2_COSE_LABEL_ALG      3
#define FIDO2_COSE_LABEL_AKP_PUB  (-1)  /* AKP key parameter "pub" */

#define FIDO2_COSE_ALG_FNDSA512   (-54) /* FN-DSA-512  (pure, empty context) */
#define FIDO2_COSE_ALG_FNDSA1024  (-55) /* FN-DSA-1024 (pure, empty context) */

/* Private use: round-3 Falcon, compressed signatures. */
#define FIDO2_COSE_ALG_FALCON512_R3   (-65537) /* Falcon-512, round 3  */
#define FIDO2_COSE_ALG_FALCON1024_R3  (-65538) /* Falcon-1024, round 3 */

#endif
