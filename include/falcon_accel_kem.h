/*
 * falcon_accel_kem.h -- public API of the ML-KEM part of falcon-accel.
 *
 * ML-KEM (FIPS 203, final, August 2024), the module-lattice key
 * encapsulation mechanism, in its three parameter sets ML-KEM-512,
 * ML-KEM-768 and ML-KEM-1024, selected by `level` = 512, 768 or 1024.
 * Keys and ciphertexts are the raw byte strings of FIPS 203 (no header,
 * no ASN.1): encapsulation key ek, decapsulation key dk (the expanded
 * form dk_pke || ek || H(ek) || z), ciphertext c; the shared secret is
 * 32 bytes.
 *
 * Conventions (as include/falcon_accel.h):
 *
 *  - Return value: FA_OK (0) or a negative FA_ERR_* code from
 *    falcon_accel.h:
 *      FA_ERR_BADARG       level not 512/768/1024, or a NULL pointer;
 *      FA_ERR_SIZE         an output or scratch buffer is too small;
 *      FA_ERR_LENGTH       an input key or ciphertext has the wrong length;
 *      FA_ERR_COEFF_RANGE  the encapsulation key fails the modulus check
 *                          (a 12-bit coefficient >= q, FIPS 203 7.2);
 *      FA_ERR_KEY          the decapsulation key fails the hash check
 *                          (H(ek) stored in dk differs, FIPS 203 7.3);
 *      FA_ERR_RANDOM       the OS random source failed.
 *    A ciphertext of the right length never causes an error in
 *    decapsulation: a wrong one yields the implicit-rejection secret
 *    J(z || c), as FIPS 203 requires.
 *  - Scratch: every function takes a caller-provided buffer `tmp` of at
 *    least FA_KEM_TMPSIZE(level) bytes (any alignment). No allocation.
 *  - Backends: `be` selects the kernel implementation (NULL = default);
 *    every backend gives identical bytes.
 *  - Thread safety: no global mutable state.
 *  - Constant time: key generation, encapsulation and decapsulation do
 *    not branch on or index memory with secret data; the re-encryption
 *    comparison and the implicit-rejection choice in decapsulation are
 *    constant-time selects. Matrix sampling (SampleNTT) is rejection
 *    sampling on the public seed rho and is variable time, as the
 *    standard intends. The key checks handle public data (the hash
 *    check compares hashes of the public key).
 *  - The freestanding build (rv32) has every function except those that
 *    read the OS random source (fa_kem_keygen, fa_kem_encaps).
 *  - Running time (every function): fixed by the level, except matrix
 *    sampling (keygen, encaps, decaps's re-encryption), which squeezes
 *    SHAKE128 blocks of 168 bytes (112 candidates of 12 bits) until 256
 *    coefficients per entry are below q; each candidate is kept with
 *    probability 3329/4096 > 0.81, so an entry needs more than 5 blocks
 *    with probability below 2^-261 and more than 6 below 2^-445. The
 *    rejection depends on the public seed rho only. The input checks
 *    read each byte once (fa_kem_check_ek: O(k n); fa_kem_check_dk: one
 *    SHA3-256 of ek). fa_kem_keygen / fa_kem_encaps add one getrandom
 *    call (bounded by the OS).
 */
#ifndef FALCON_ACCEL_KEM_H
#define FALCON_ACCEL_KEM_H

#include <stddef.h>
#include <stdint.h>

#include "falcon_accel.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Module rank k per level (2, 3, 4); 0 for an invalid level. */
#define FA_KEM_K(level) \
	((level) == 512 ? 2u : (level) == 768 ? 3u : (level) == 1024 ? 4u : 0u)

/* Sizes in bytes (FIPS 203, Table 3). */
#define FA_KEM_EK_SIZE(level) (384u * FA_KEM_K(level) + 32u)
#define FA_KEM_DK_SIZE(level) (768u * FA_KEM_K(level) + 96u)
#define FA_KEM_CT_SIZE(level) \
	((level) == 1024 ? 1568u : 32u * (10u * FA_KEM_K(level) + 4u))
#define FA_KEM_SS_SIZE 32u
#define FA_KEM_SEED_SIZE 32u   /* each of d, z, m */

/* Largest sizes over the three levels. */
#define FA_KEM_EK_MAXSIZE 1568u
#define FA_KEM_DK_MAXSIZE 3168u
#define FA_KEM_CT_MAXSIZE 1568u

/* Scratch size: k^2 + 3k + 2 polynomials of 512 bytes (the whole matrix
   A is sampled at once, four entries per Keccak call), a ciphertext, and
   alignment slack. */
#define FA_KEM_TMPSIZE(level) \
	((FA_KEM_K(level) * FA_KEM_K(level) + 3u * FA_KEM_K(level) + 2u) \
	* 512u + FA_KEM_CT_MAXSIZE + 16u)
#define FA_KEM_TMPSIZE_MAX FA_KEM_TMPSIZE(1024)

/*
 * ML-KEM.KeyGen_internal (FIPS 203, Algorithm 16): the key pair derived
 * from the 32-byte seeds d and z (the ACVP "keyGen" test interface).
 * ek: FA_KEM_EK_SIZE(level) bytes, dk: FA_KEM_DK_SIZE(level) bytes.
 */
int fa_kem_keygen_derand(const fa_backend *be, unsigned level,
	uint8_t *ek, size_t ek_len, uint8_t *dk, size_t dk_len,
	const uint8_t d[32], const uint8_t z[32], void *tmp, size_t tmp_len);

/*
 * ML-KEM.KeyGen (Algorithm 19): d and z from the OS random source
 * (getrandom). Not in the freestanding build.
 */
int fa_kem_keygen(const fa_backend *be, unsigned level,
	uint8_t *ek, size_t ek_len, uint8_t *dk, size_t dk_len,
	void *tmp, size_t tmp_len);

/*
 * ML-KEM.Encaps_internal (Algorithm 17) with the 32-byte message m,
 * after the encapsulation-key input check (length and modulus check,
 * 7.2). ct: FA_KEM_CT_SIZE(level) bytes; ss: 32 bytes.
 */
int fa_kem_encaps_derand(const fa_backend *be, unsigned level,
	uint8_t *ct, size_t ct_len, uint8_t ss[32],
	const uint8_t *ek, size_t ek_len, const uint8_t m[32],
	void *tmp, size_t tmp_len);

/*
 * ML-KEM.Encaps (Algorithm 20): m from the OS random source. Not in the
 * freestanding build.
 */
int fa_kem_encaps(const fa_backend *be, unsigned level,
	uint8_t *ct, size_t ct_len, uint8_t ss[32],
	const uint8_t *ek, size_t ek_len, void *tmp, size_t tmp_len);

/*
 * ML-KEM.Decaps (Algorithm 21) after the input checks of 7.3 (ciphertext
 * and key lengths, hash check of dk). Writes the 32-byte shared secret
 * (the implicit-rejection value for an invalid ciphertext).
 */
int fa_kem_decaps(const fa_backend *be, unsigned level, uint8_t ss[32],
	const uint8_t *ct, size_t ct_len, const uint8_t *dk, size_t dk_len,
	void *tmp, size_t tmp_len);

/* Input checks alone: FA_OK, FA_ERR_LENGTH, FA_ERR_COEFF_RANGE (ek) or
   FA_ERR_KEY (dk), FA_ERR_BADARG. */
int fa_kem_check_ek(unsigned level, const uint8_t *ek, size_t ek_len);
int fa_kem_check_dk(unsigned level, const uint8_t *dk, size_t dk_len);

#ifdef __cplusplus
}
#endif

#endif
