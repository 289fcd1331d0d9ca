/*
 * COSE identifiers for FN-DSA credentials: the ONE place that holds them.
 *
 * Source: draft-ietf-cose-falcon-04 ("FN-DSA for JOSE and COSE", March
 * 2026). The key type is AKP ("Algorithm Key Pair", registered by the
 * ML-DSA COSE document, RFC 9964 / draft-ietf-cose-dilithium) with the
 * public key as a byte string under label -1 ("pub"). The draft's IANA
 * section leaves the FN-DSA algorithm values to IANA; the values below
 * are the ones this project uses until a final registration (see the
 * README, "FIDO2 security key", for the provenance of each). A final
 * registration is a one-line change per algorithm here; the Python
 * end-to-end tests read this file, so nothing else needs editing.
 */
#ifndef FIDO2_COSE_H
#define FIDO2_COSE_H

#define FIDO2_COSE_KTY_AKP        7     /* COSE Key Types: AKP */
#define FIDO2_COSE_LABEL_KTY      1
#define FIDO2_COSE_LABEL_ALG      3
#define FIDO2_COSE_LABEL_AKP_PUB  (-1)  /* AKP key parameter "pub" */

#define FIDO2_COSE_ALG_FNDSA512   (-54) /* FN-DSA-512  (Falcon-512)  */
#define FIDO2_COSE_ALG_FNDSA1024  (-55) /* FN-DSA-1024 (Falcon-1024) */

#endif
