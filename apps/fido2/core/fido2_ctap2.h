/*
 * CTAP 2.1 authenticator core with FN-DSA (and round-3 Falcon) credentials.
 *
 * Commands: authenticatorMakeCredential (0x01), GetAssertion (0x02),
 * GetInfo (0x04), Reset (0x07), GetNextAssertion (0x08), Selection (0x0B).
 * No clientPIN, no built-in user verification: UV is never claimed.
 *
 * Credentials (algorithms in fido2_cose.h, in the relying party's order):
 *  - FN-DSA-512 (preferred) or FN-DSA-1024: FN-DSA as the library
 *    implements it (fn-dsa 0.4.0): the key pair by fa_fndsa_keygen_seed
 *    from a 32-byte seed, the COSE key's public key the FN-DSA encoding,
 *    signatures fa_fndsa_sign_seed / fa_fndsa_sign_tree (pure, empty
 *    context, a fresh 40-byte seed each) over authenticatorData ||
 *    clientDataHash, FA_FNDSA_SIG_SIZE bytes;
 *  - round-3 Falcon-512 / -1024 under private-use identifiers (and every
 *    credential made before FN-DSA): the key pair by fa_keygen from a
 *    SHAKE256 PRNG seeded with the 32-byte seed, compressed signatures
 *    (fa_sign_dyn / fa_sign_tree).
 * The credential ID always wraps that seed with ChaCha20-Poly1305 under a
 * key derived from the device secret, with the rpId hash and the ID's two
 * header bytes as associated data:
 *   id = scheme | logn | nonce(12) | ciphertext(seed, 32) | tag(16)  (62 bytes)
 * where scheme is FIDO2_SCHEME_FALCON_R3 (0x01, the only value before
 * FN-DSA) or FIDO2_SCHEME_FNDSA (0x02); authenticated, so an ID names its
 * scheme for good. Discoverable credentials are also kept in the store
 * (with the private key, the scheme and the user handle). Attestation:
 * packed, self, signed like an assertion with the credential's scheme.
 *
 * Freestanding: no allocation, no stdio; the platform supplies the store,
 * the randomness, the clock, user presence and the scratch buffer.
 */
#ifndef FIDO2_CTAP2_H
#define FIDO2_CTAP2_H

#include <stddef.h>
#include <stdint.h>
#include "falcon_accel.h"

/* CTAP status codes used here. */
#define CTAP2_OK                        0x00
#define CTAP1_ERR_INVALID_COMMAND       0x01
#define CTAP1_ERR_INVALID_PARAMETER     0x02
#define CTAP1_ERR_INVALID_LENGTH        0x03
#define CTAP2_ERR_CBOR_UNEXPECTED_TYPE  0x11
#define CTAP2_ERR_INVALID_CBOR          0x12
#define CTAP2_ERR_MISSING_PARAMETER     0x14
#define CTAP2_ERR_CREDENTIAL_EXCLUDED   0x19
#define CTAP2_ERR_UNSUPPORTED_ALGORITHM 0x26
#define CTAP2_ERR_OPERATION_DENIED      0x27
#define CTAP2_ERR_KEY_STORE_FULL        0x28
#define CTAP2_ERR_UNSUPPORTED_OPTION    0x2b
#define CTAP2_ERR_INVALID_OPTION        0x2c
#define CTAP2_ERR_KEEPALIVE_CANCEL      0x2d
#define CTAP2_ERR_NO_CREDENTIALS        0x2e
#define CTAP2_ERR_USER_ACTION_TIMEOUT   0x2f
#define CTAP2_ERR_NOT_ALLOWED           0x30
#define CTAP2_ERR_PIN_AUTH_INVALID      0x33
#define CTAP2_ERR_PIN_NOT_SET           0x35
#define CTAP1_ERR_OTHER                 0x7f

#define CTAP2_CMD_MAKE_CREDENTIAL   0x01
#define CTAP2_CMD_GET_ASSERTION     0x02
#define CTAP2_CMD_GET_INFO          0x04
#define CTAP2_CMD_RESET             0x07
#define CTAP2_CMD_GET_NEXT_ASSERTION 0x08
#define CTAP2_CMD_SELECTION         0x0b

#define FIDO2_CRED_ID_LEN   62u
#define FIDO2_USER_ID_MAX   64u
#define FIDO2_NAME_MAX      64u
#define FIDO2_MAX_ASSERT    16u   /* credentials per rpId listed by GNA */
#define FIDO2_ALLOW_MAX     16u   /* maxCredentialCountInList */
#define FIDO2_COUNTER_STEP  64u   /* counter values reserved per write */
#ifndef FIDO2_KEY_CACHE
#define FIDO2_KEY_CACHE     4     /* derived private keys kept in RAM */
#endif
/* Credential schemes: the first byte of a credential ID, and of a
   stored record's scheme field. */
#define FIDO2_SCHEME_FALCON_R3 1u   /* round-3 Falcon (private-use COSE ids) */
#define FIDO2_SCHEME_FNDSA     2u   /* FN-DSA, fn-dsa 0.4.0 (-54, -55) */
#define FIDO2_MAX2(x, y)    ((x) > (y) ? (x) : (y))
/* Largest private key, public key and signature of either scheme. */
#define FIDO2_SK_MAX        FIDO2_MAX2(FA_PRIVKEY_SIZE(10), \
	FA_FNDSA_PRIVKEY_SIZE(10))
#define FIDO2_PK_MAX        FIDO2_MAX2(FA_PUBKEY_SIZE(10), \
	FA_FNDSA_PUBKEY_SIZE(10))
#define FIDO2_SIG_MAX       FIDO2_MAX2(FA_SIG_COMPRESSED_MAXSIZE(10), \
	FA_FNDSA_SIG_SIZE(10))
/* Scratch the platform must provide (keygen, expansion or signing of
   either scheme, logn <= 10; FA_TMPSIZE_FNDSA_SIGN covers FN-DSA's
   expansion too). */
#define FIDO2_TMP_SIZE      FIDO2_MAX2(FIDO2_MAX2(FA_TMPSIZE_SIGN_DYN(10), \
	FA_TMPSIZE_KEYGEN(10)), FIDO2_MAX2(FA_TMPSIZE_FNDSA_SIGN(10), \
	FIDO2_MAX2(FA_TMPSIZE_FNDSA_KEYGEN(10), \
	FA_TMPSIZE_FNDSA_SIGN_TREE(10))))
#define FIDO2_GNA_TIMEOUT_MS 30000u

/* Durable device state. */
typedef struct {
	uint8_t master[32];        /* device secret (wrapping key source) */
	uint32_t counter_reserved; /* signature counter never exceeds this */
	uint32_t epoch;            /* incremented by Reset */
	uint32_t flags;            /* FIDO2_STATE_* */
} fido2_dev_state;
/* Set by Reset's commit (the state write that brings the new epoch and
   secret) and cleared once the old epoch's records are wiped. It is the
   only licence a store has to drop credential records: while it is set,
   records of an older epoch are the Reset's to wipe; without it, a record
   of another epoch, or any record without a state, is an inconsistency
   that the store reports (it never deletes or ignores the record). */
#define FIDO2_STATE_RESET_PENDING 0x1u

/* A discoverable credential as stored. */
typedef struct {
	uint8_t id[FIDO2_CRED_ID_LEN];
	uint8_t rp_id_hash[32];
	uint8_t user_id[FIDO2_USER_ID_MAX];
	uint8_t user_name[FIDO2_NAME_MAX];
	uint8_t display_name[FIDO2_NAME_MAX];
	uint8_t user_id_len, user_name_len, display_name_len;
	uint8_t logn;
	uint8_t scheme;            /* FIDO2_SCHEME_*, = id[0] */
	uint32_t epoch;            /* device epoch at creation */
	uint32_t created;          /* signature counter at creation (order) */
	uint8_t sk[FIDO2_SK_MAX];  /* the scheme's private key encoding */
} fido2_cred;

/* Fixed little-endian serialization of a credential, independent of
   struct padding; the body of a credential record in both stores (file
   store in apps/fido2/host, flash store here). Two layouts, told apart by
   the stores (record magic or type) and by their lengths:
    - version 2 (FIDO2_CRED_SER_LEN, written): id, rpIdHash, user id,
      user name, display name (each at its maximum size), the three
      lengths and logn (one byte each), epoch, created (u32 LE), scheme
      (one byte) and three zero bytes, sk (FIDO2_SK_MAX bytes: the
      scheme's private key, zero padded);
    - version 1 (FIDO2_CRED_SER_LEN_V1, read only: records written before
      FN-DSA): the same up to created, then the round-3 private key
      (FA_PRIVKEY_SIZE(10) bytes); always round-3 Falcon.
   The fields up to created are at the same offsets in both. */
#define FIDO2_CRED_SER_HEAD (FIDO2_CRED_ID_LEN + 32 + FIDO2_USER_ID_MAX \
	+ 2 * FIDO2_NAME_MAX + 4 + 4 + 4)
#define FIDO2_CRED_SER_LEN (FIDO2_CRED_SER_HEAD + 4 + FIDO2_SK_MAX)
#define FIDO2_CRED_SER_LEN_V1 (FIDO2_CRED_SER_HEAD + FA_PRIVKEY_SIZE(10))
/* Writes version 2 (FIDO2_CRED_SER_LEN bytes). */
void fido2_cred_serialize(const fido2_cred *c, uint8_t *out);
/* Reads len bytes: FIDO2_CRED_SER_LEN (version 2) or
   FIDO2_CRED_SER_LEN_V1 (version 1, scheme FIDO2_SCHEME_FALCON_R3).
   Returns 0, or -1 when len is neither, a length field exceeds its
   maximum, logn is not 9 or 10, the scheme is unknown, the credential
   ID's header bytes do not name the same scheme and degree, or (version
   2) the padding is not zero (c is filled either way). */
int fido2_cred_deserialize(fido2_cred *c, const uint8_t *in, size_t len);

/* Storage. Every write returns only once it is durable. */
typedef struct {
	/* 0: loaded; 1: no state yet; < 0: error. */
	int (*load_state)(void *user, fido2_dev_state *st);
	int (*save_state)(void *user, const fido2_dev_state *st);
	/* Number of stored credentials, and the idx-th (0 or < 0). */
	int (*cred_count)(void *user);
	int (*cred_get)(void *user, int idx, fido2_cred *c);
	/* Adds c, replacing a credential with the same rp_id_hash and user
	   id. 0, FIDO2_STORE_FULL, or < 0 on error. */
	int (*cred_put)(void *user, const fido2_cred *c);
	/* Removes every credential. */
	int (*wipe)(void *user);
} fido2_store_ops;
#define FIDO2_STORE_FULL 1

/* User presence answers. */
#define FIDO2_UP_APPROVED 0
#define FIDO2_UP_DENIED   1
#define FIDO2_UP_CANCEL   2
#define FIDO2_UP_TIMEOUT  3

typedef struct fido2_auth fido2_auth;

typedef struct {
	/* Fills buf with len random bytes; 0 on success. */
	int (*rng)(void *user, void *buf, size_t len);
	/* Milliseconds from an arbitrary origin (wraps at 2^32). */
	uint32_t (*now_ms)(void *user);
	/* Asks for user presence for an operation (what: "register",
	   "authenticate", "reset", "select"; rp: rpId or NULL). */
	int (*user_presence)(void *user, const char *what,
		const uint8_t *rp, size_t rp_len);
} fido2_platform;

typedef struct {
	uint8_t id[FIDO2_CRED_ID_LEN];
	uint8_t logn;
	uint8_t scheme;
	uint8_t sk[FIDO2_SK_MAX];
	uint8_t used;
} fido2_key_slot;

/* Expanded-key cache (optional, fido2_auth_set_ek_cache or
   fido2_auth_set_ek_cache_persistent): up to FIDO2_EK_SLOTS expanded
   private keys in a platform buffer, so that an assertion with a
   credential used recently signs from its expanded key instead of the
   private key (same signature bytes): fa_sign_tree instead of fa_sign_dyn
   for round-3 Falcon, fa_fndsa_sign_tree instead of fa_fndsa_sign_seed
   for FN-DSA. The buffer has one layout in both modes, with the metadata
   inside it, so that it can be persistent memory:

     header (FIDO2_EK_HDR_SIZE): u32 words magic FIDO2_EK_MAGIC, version
       FIDO2_EK_VERSION, slot count, slot size (FIDO2_EK_SLOT_SIZE),
       metadata size (FIDO2_EK_META_SIZE), device epoch (fido2_dev_state),
       and a 64-bit fingerprint of the device secret (SHA-256 of a tag and
       the secret, first 8 bytes, as two little-endian words);
     metadata of slot i at FIDO2_EK_META_OFF(i): u32 used (0 or 1), logn
       (0, 9 or 10), last (LRU clock at the last use), scheme (0, or the
       FIDO2_SCHEME_* of the key: 1 round-3, 2 FN-DSA), then the
       credential ID whose key the slot holds (FIDO2_CRED_ID_LEN bytes,
       zero-padded to 64);
     slot i at FIDO2_EK_SLOT_OFF(n, i): FIDO2_EK_SLOT_SIZE bytes, the
       fa_expand_privkey (round 3) or fa_fndsa_expand_privkey (FN-DSA)
       output of that credential's private key.

   Version 2 (FN-DSA): version 1's fourth metadata word was zero, its
   slots round-3 only and FA_EXPANDED_KEY_SIZE(10) bytes; a version-1
   cache is not adopted (formatted).
   u32 words are native (little-endian on every target of the project);
   every offset is a multiple of 8. A slot is found by the credential ID
   (compared in full, in constant time) after the ID has been
   authenticated (it unwraps under the device key with the rpId hash):
   the ID wraps the key's seed and names its scheme, so it names the key
   exactly, and a hit needs neither the stored key nor, for a
   non-discoverable credential, the key generation from the seed. Write
   order (each step ordered by a fence): used = 0 before any byte of a
   slot or of its metadata changes; used = 1 only after the expansion and
   the ID copy are complete; so a power cut at any instant leaves a slot
   either complete and used, or unused. */
#define FIDO2_EK_SLOTS      2u
#define FIDO2_EK_SLOT_SIZE  FIDO2_MAX2(FA_EXPANDED_KEY_SIZE(10), \
	FA_FNDSA_EXPANDED_KEY_SIZE(10))
#define FIDO2_EK_MAGIC      0x43454146u   /* "FAEC" in little-endian */
#define FIDO2_EK_VERSION    2u
#define FIDO2_EK_HDR_SIZE   32u
#define FIDO2_EK_META_SIZE  (16u + ((FIDO2_CRED_ID_LEN + 7u) & ~7u))
#define FIDO2_EK_META_OFF(i) (FIDO2_EK_HDR_SIZE + (size_t)(i) * FIDO2_EK_META_SIZE)
#define FIDO2_EK_SLOT_OFF(n, i) (FIDO2_EK_META_OFF(n) \
	+ (size_t)(i) * FIDO2_EK_SLOT_SIZE)
/* Bytes a buffer needs for n slots (n = FIDO2_EK_SLOTS: 246,176). */
#define FIDO2_EK_CACHE_SIZE(n) FIDO2_EK_SLOT_OFF(n, n)

struct fido2_auth {
	const fido2_store_ops *store;
	void *store_user;          /* first argument of the store callbacks */
	const fido2_platform *plat;
	void *user;                /* first argument of the platform callbacks */
	const fa_backend *be;
	void *tmp;
	size_t tmp_len;
	uint8_t aaguid[16];

	fido2_dev_state st;
	uint32_t counter;          /* last signature counter value used */
	uint8_t wrap_key[32];

	fido2_cred cred;           /* scratch record */
	uint8_t sk[FIDO2_SK_MAX];
	uint8_t pk[FIDO2_PK_MAX];
	uint8_t tbs[2048];         /* authenticatorData || clientDataHash */

	/* GetNextAssertion state. */
	int gna_active;
	uint32_t gna_start_ms;
	uint8_t gna_cdh[32];
	uint8_t gna_rp_id_hash[32];
	uint8_t gna_flags;
	unsigned gna_count, gna_next;
	uint8_t gna_ids[FIDO2_MAX_ASSERT][FIDO2_CRED_ID_LEN];

	fido2_key_slot cache[FIDO2_KEY_CACHE];
	unsigned cache_next;

	/* Expanded-key cache (fido2_auth_set_ek_cache*); ek_slots == 0: off.
	   The slot metadata lives in ek_buf (layout above). */
	uint8_t *ek_buf;
	unsigned ek_slots;
	void (*ek_changed)(void *user);
	uint32_t ek_clock;         /* largest LRU clock value in use */
	uint32_t ek_expansions;    /* slots (re)filled since the cache was set */
	int ek_adopted;            /* 1: the persistent content was adopted */
	/* Optional (set after fido2_auth_init): called with the platform's
	   user pointer at each ordering point of the cache's writes, after
	   the fence; a platform with a write-back cache in front of its
	   persistent memory flushes there (the tests take snapshots). */
	void (*ek_persist)(void *user);
};

/* Loads or creates the device state; finishes a Reset that the state
   says is in progress (wipes the store, then clears the flag).
   0 or a negative error. */
int fido2_auth_init(fido2_auth *a, const fido2_store_ops *store,
	void *store_user, const fido2_platform *plat, void *user,
	const fa_backend *be,
	void *tmp, size_t tmp_len);
/* Turns on the expanded-key cache after fido2_auth_init (which turns it
   off): buf (8-byte aligned, len bytes) holds the largest n <=
   FIDO2_EK_SLOTS with FIDO2_EK_CACHE_SIZE(n) <= len (none: the cache stays
   off). fido2_auth_set_ek_cache (RAM) formats the buffer now (header,
   zeroised metadata and slots). fido2_auth_set_ek_cache_persistent
   (memory that survives a power cut and keeps stores in program order
   across fences) adopts the content when the header matches (magic,
   version, slot count and sizes, the device epoch and secret) and every
   slot's metadata is valid (used in {0, 1}, logn in {0, 9, 10} and in
   {9, 10} when used, scheme in {0, 1, 2} and in {1, 2} when used); the
   LRU clock continues from the largest one;
   unused slots are zeroised. Otherwise it formats.
   A slot is zeroised when evicted, and all of them by Reset (before its
   commit point, so that no expanded key of a wiped credential survives).
   changed (may be NULL) is called with the platform's user pointer before
   any byte of a slot's expanded key changes, so that a platform keeping a
   copy of an expanded key elsewhere (the ffSampling engine's tree memory)
   drops it. Signing reads the slot of the credential when one holds it
   (fa_sign_tree / fa_fndsa_sign_tree), else gets the key (store record,
   or key generation from the wrapped seed) and expands it into a free or
   the least recently used slot first; a key that cannot be expanded, or a
   slot that the library refuses (its header or checksum), is signed from
   the private key (fa_sign_dyn / fa_fndsa_sign_seed) as without the
   cache. Timing: a hit and a miss differ (the expansion, and for a
   non-discoverable credential the key generation), which shows whether
   the credential was one of the last FIDO2_EK_SLOTS used, not the key.
   The expanded keys are plaintext in buf. */
void fido2_auth_set_ek_cache(fido2_auth *a, void *buf, size_t len,
	void (*changed)(void *user));
void fido2_auth_set_ek_cache_persistent(fido2_auth *a, void *buf, size_t len,
	void (*changed)(void *user));
/* Slot i of the cache: its logn (scheme) when it is in use, else 0. */
unsigned fido2_auth_ek_slot_logn(const fido2_auth *a, unsigned i);
unsigned fido2_auth_ek_slot_scheme(const fido2_auth *a, unsigned i);

/* Handles one CTAP2 request (command byte + CBOR parameters); writes the
   status byte and the CBOR response to resp (capacity resp_cap) and
   returns the response length (>= 1). */
size_t fido2_ctap2_handle(fido2_auth *a, const uint8_t *req, size_t req_len,
	uint8_t *resp, size_t resp_cap);

#endif
