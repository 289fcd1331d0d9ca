/*
 * ref_main.c -- a firmware for the falcon-accel SoC (soc) that runs
 * the Falcon round-3 reference implementation (Falcon-impl-20211101,
 * fetched and built by soc/ref/build_ref_fw.sh, never stored in this
 * repository) with its integer-emulated floating point (FALCON_FPEMU=1),
 * so that our firmware-only figures can be set beside the reference's on
 * the same core, compiler and flags.
 *
 * It answers the host link protocol of soc/fw/soc_proto.h through the same
 * request loop as soc/fw/fw_main.c (soc/fw/fw_link.c), so the host side is unchanged:
 * `falcon-accel bench --backend soc` with FALCON_ACCEL_SOC_FW pointing at
 * this image, or soc/host/soc_link.py. Only the firmware-only mode
 * exists here (mode != FW answers BAD_MODE; KSTATS answers BAD_OP).
 *
 * Inputs and timing match fw_main.c: the keygen RNG is SHAKE256(seed);
 * signing hashes nonce || message with SHAKE256 and draws its sampler
 * seed from SHAKE256(seed); cycles are mcycle around the whole library
 * work (hashing included); sign_tree reports the signing in `cycles` and
 * the key expansion in `cycles_aux`. Signatures are in the compressed
 * format.
 */
#include <stdint.h>
#include <string.h>

#include "falcon.h"
#include "fw_hal.h"
#include "fw_link.h"
#include "soc_proto.h"

#define REF_LOGN_MAX 10u
#define REF_SEED_MAX 64u
#define REF_NONCE 40u

static uint8_t req_buf[FA_SOC_MAX_MSG] __attribute__((aligned(8)));
static uint8_t rsp_buf[FA_SOC_MAX_MSG] __attribute__((aligned(8)));
static uint8_t sk_buf[FALCON_PRIVKEY_SIZE(REF_LOGN_MAX)];
static uint8_t pk_buf[FALCON_PUBKEY_SIZE(REF_LOGN_MAX)];
static uint8_t sig_buf[FALCON_SIG_COMPRESSED_MAXSIZE(REF_LOGN_MAX)];
/* scratch for every operation at logn 10; sign_dyn needs the most */
#define REF_TMP_MAX FALCON_TMPSIZE_SIGNDYN(REF_LOGN_MAX)
static uint8_t tmp_buf[REF_TMP_MAX] __attribute__((aligned(8)));
static uint8_t ek_buf[FALCON_EXPANDEDKEY_SIZE(REF_LOGN_MAX)]
	__attribute__((aligned(8)));

_Static_assert(REF_TMP_MAX >= FALCON_TMPSIZE_KEYGEN(10)
	&& REF_TMP_MAX >= FALCON_TMPSIZE_EXPANDPRIV(10)
	&& REF_TMP_MAX >= FALCON_TMPSIZE_SIGNTREE(10)
	&& REF_TMP_MAX >= FALCON_TMPSIZE_VERIFY(10)
	&& REF_TMP_MAX >= FALCON_TMPSIZE_MAKEPUB(10),
	"tmp_buf holds every operation's scratch");

/* Library result: return code, cycles, aux cycles; status from rc. */
static void reply_result(int rc, uint64_t cycles, uint64_t aux)
{
	fw_rsp_put32(FA_SOC_RSP_LIBRC_OFF, (uint32_t)rc);
	fw_rsp_put64(FA_SOC_RSP_CYCLES_OFF, cycles);
	fw_rsp_put64(FA_SOC_RSP_AUX_OFF, aux);
	fw_rsp_status(rc == 0 ? FA_SOC_ST_OK : FA_SOC_ST_LIB_ERROR);
	if (rc != 0) {
		fw_rsp_len = FA_SOC_RSP_HDR;
	}
}

/* Private / public key of exactly degree logn; else the status. */
static unsigned sk_status(const fw_field *f, unsigned logn)
{
	return fw_key_status(f, (uint8_t)(0x50 + logn), FALCON_PRIVKEY_SIZE(logn));
}

static unsigned pk_status(const fw_field *f, unsigned logn)
{
	return fw_key_status(f, (uint8_t)logn, FALCON_PUBKEY_SIZE(logn));
}

static void op_keygen(unsigned logn, const fw_field *f)
{
	shake256_context rng;
	uint64_t t0, t1;
	int rc;

	t0 = fw_cycles();
	shake256_init_prng_from_seed(&rng, f[0].p, f[0].len);
	rc = falcon_keygen_make(&rng, logn, sk_buf, FALCON_PRIVKEY_SIZE(logn),
		pk_buf, FALCON_PUBKEY_SIZE(logn), tmp_buf, sizeof tmp_buf);
	t1 = fw_cycles();
	reply_result(rc, t1 - t0, 0);
	if (rc == 0) {
		fw_rsp_field(sk_buf, FALCON_PRIVKEY_SIZE(logn));
		fw_rsp_field(pk_buf, FALCON_PUBKEY_SIZE(logn));
	}
}

/* f: sk, nonce, seed, msg. tree != 0: expand (timed apart), then sign. */
static void op_sign(unsigned logn, const fw_field *f, int tree)
{
	shake256_context rng, hd;
	uint64_t t0, t1, t2;
	size_t sig_len = FALCON_SIG_COMPRESSED_MAXSIZE(logn);
	int rc = 0;

	t0 = fw_cycles();
	if (tree) {
		rc = falcon_expand_privkey(ek_buf, FALCON_EXPANDEDKEY_SIZE(logn),
			f[0].p, f[0].len, tmp_buf, sizeof tmp_buf);
	}
	t1 = fw_cycles();
	if (rc == 0) {
		shake256_init(&hd);
		shake256_inject(&hd, f[1].p, REF_NONCE);
		shake256_inject(&hd, f[3].p, f[3].len);
		shake256_init_prng_from_seed(&rng, f[2].p, f[2].len);
		if (tree) {
			rc = falcon_sign_tree_finish(&rng, sig_buf, &sig_len,
				FALCON_SIG_COMPRESSED, ek_buf, &hd, f[1].p,
				tmp_buf, sizeof tmp_buf);
		} else {
			rc = falcon_sign_dyn_finish(&rng, sig_buf, &sig_len,
				FALCON_SIG_COMPRESSED, f[0].p, f[0].len, &hd,
				f[1].p, tmp_buf, sizeof tmp_buf);
		}
	}
	t2 = fw_cycles();
	reply_result(rc, t2 - t1, t1 - t0);
	if (rc == 0) {
		fw_rsp_field(sig_buf, (uint32_t)sig_len);
	}
}

/* One request (header checked, PING answered by soc/fw/fw_link.c). */
static void serve(const fw_request *rq)
{
	uint32_t op = rq->op;
	unsigned logn = rq->logn, st, nf;
	fw_field f[4];
	uint64_t t0, t1;
	int rc;

	if (op < FA_SOC_OP_KEYGEN || op > FA_SOC_OP_PUBKEY) {
		fw_rsp_status(FA_SOC_ST_BAD_OP);
		return;
	}
	if (logn < 1 || logn > REF_LOGN_MAX) {
		fw_rsp_status(FA_SOC_ST_BAD_DEGREE);
		return;
	}
	if (rq->mode != FA_SOC_MODE_FW) {
		fw_rsp_status(FA_SOC_ST_BAD_MODE);
		return;
	}
	switch (op) {
	case FA_SOC_OP_KEYGEN:
	case FA_SOC_OP_PUBKEY:
		nf = 1;
		break;
	case FA_SOC_OP_VERIFY:
		nf = 3;
		break;
	default:
		nf = 4;
		break;
	}
	if (fw_fields(rq->body, rq->body_len, f, nf) != 0) {
		fw_rsp_status(FA_SOC_ST_BAD_LENGTH);
		return;
	}
	switch (op) {
	case FA_SOC_OP_KEYGEN:
		if (f[0].len == 0 || f[0].len > REF_SEED_MAX) {
			fw_rsp_status(FA_SOC_ST_BAD_LENGTH);
			return;
		}
		op_keygen(logn, f);
		return;
	case FA_SOC_OP_SIGN_DYN:
	case FA_SOC_OP_SIGN_TREE:
		if (f[1].len != REF_NONCE || f[2].len == 0 || f[2].len > REF_SEED_MAX) {
			fw_rsp_status(FA_SOC_ST_BAD_LENGTH);
			return;
		}
		st = sk_status(&f[0], logn);
		if (st != FA_SOC_ST_OK) {
			fw_rsp_status(st);
			return;
		}
		op_sign(logn, f, op == FA_SOC_OP_SIGN_TREE);
		return;
	case FA_SOC_OP_VERIFY:
		if (f[1].len == 0 || f[1].len > FALCON_SIG_COMPRESSED_MAXSIZE(logn)) {
			fw_rsp_status(FA_SOC_ST_BAD_LENGTH);
			return;
		}
		st = pk_status(&f[0], logn);
		if (st != FA_SOC_ST_OK) {
			fw_rsp_status(st);
			return;
		}
		t0 = fw_cycles();
		rc = falcon_verify(f[1].p, f[1].len, FALCON_SIG_COMPRESSED,
			f[0].p, f[0].len, f[2].p, f[2].len, tmp_buf, sizeof tmp_buf);
		t1 = fw_cycles();
		/* an invalid signature is an answer (lib_rc), not an error */
		reply_result(0, t1 - t0, 0);
		fw_rsp_put32(FA_SOC_RSP_LIBRC_OFF, (uint32_t)rc);
		return;
	default: /* FA_SOC_OP_PUBKEY */
		st = sk_status(&f[0], logn);
		if (st != FA_SOC_ST_OK) {
			fw_rsp_status(st);
			return;
		}
		t0 = fw_cycles();
		rc = falcon_make_public(pk_buf, FALCON_PUBKEY_SIZE(logn),
			f[0].p, f[0].len, tmp_buf, sizeof tmp_buf);
		t1 = fw_cycles();
		reply_result(rc, t1 - t0, 0);
		if (rc == 0) {
			fw_rsp_field(pk_buf, FALCON_PUBKEY_SIZE(logn));
		}
		return;
	}
}

/* No accelerator driver in this image: PING's third word says "REF1". */
static uint32_t ref_id(void)
{
	return 0x52454631u;
}

static const fw_link_config link = {
	.name = "ref_fw",
	.req_buf = req_buf,
	.req_max = sizeof req_buf,
	.rsp_buf = rsp_buf,
	.serve = serve,
	.ping_word = ref_id,
};

void fw_main(void)
{
	fw_puts("ref_fw: Falcon-impl-20211101 (FALCON_FPEMU) on the falcon-accel SoC\n");
	fw_link_run(&link);
}
