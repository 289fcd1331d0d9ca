/*
 * stack_use.c -- the stack high-water mark of the library's operations as
 * the board firmware runs them (soc/boards/fwcheck/stack_use.sh), under
 * qemu-riscv32 (Linux user mode): the same library build as the board's
 * firmware (rv32imc, -Os / MinSizeRel, emulated FP), its own _start on a
 * painted stack of STACK_BYTES, then for degree 2^LOGN with the portable
 * kernels (the firmware's fw mode): keygen, pubkey, sign_dyn,
 * expand + sign_tree, verify; ML-KEM-1024 keygen, encaps, decaps. Prints
 * the largest depth each reached (bytes below the stack top) and the
 * maximum. The firmware's own frames above these calls (request loop,
 * serve) and the accelerator modes' driver frames are not in it:
 * stack_use.sh adds the firmware's frames from -fstack-usage.
 */
#include <stddef.h>
#include <stdint.h>

#include "falcon_accel.h"
#include "falcon_accel_kem.h"
#include "rv32_user_rt.h"

#ifndef LOGN
#define LOGN 9
#endif
#define STACK_BYTES (128u * 1024u)
#define PAINT 0xA5u

uint8_t stack_area[STACK_BYTES] __attribute__((aligned(16)));

static uint8_t sk[FA_PRIVKEY_SIZE(LOGN)], pk[FA_PUBKEY_SIZE(LOGN)];
static uint8_t sig[FA_SIG_MAXSIZE(LOGN)];
static uint8_t tmp[FA_TMPSIZE_SIGN_DYN(LOGN) > FA_TMPSIZE_KEYGEN(LOGN)
	? FA_TMPSIZE_SIGN_DYN(LOGN) : FA_TMPSIZE_KEYGEN(LOGN)] __attribute__((aligned(8)));
static uint8_t ek[FA_EXPANDED_KEY_SIZE(LOGN)] __attribute__((aligned(8)));
static uint8_t kem_ek[FA_KEM_EK_MAXSIZE], kem_dk[FA_KEM_DK_MAXSIZE];
static uint8_t kem_ct[FA_KEM_CT_MAXSIZE];
static const uint8_t nonce[40] = {1, 2, 3};
static const uint8_t msg[] = "stack use of the board firmware";

/* paint everything below the current frame, run, measure */
static void paint(void)
{
	uint8_t *sp = __builtin_frame_address(0);
	uint8_t *p = stack_area;

	while (p < sp - 256) {
		*p++ = PAINT;
	}
}

static unsigned long depth(void)
{
	size_t i = 0;

	while (i < STACK_BYTES && stack_area[i] == PAINT) {
		i++;
	}
	return STACK_BYTES - i;
}

static unsigned long worst;
static int failed;

static void report(const char *what, int rc)
{
	unsigned long d = depth();

	out(what);
	out(rc == FA_OK ? " ok, stack " : " FAILED, stack ");
	out_uint(d);
	out(" bytes\n");
	if (d > worst) {
		worst = d;
	}
	failed |= rc != FA_OK;
}

int stack_main(void)
{
	const fa_backend *be = fa_backend_find("portable");
	fa_shake256_ctx rng;
	size_t sig_len;
	uint8_t ss[32], ss2[32], seed[64] = {7};
	int rc;

	paint();
	fa_shake256_init_prng_from_seed(&rng, seed, 48);
	rc = fa_keygen(be, &rng, LOGN, sk, sizeof sk, pk, sizeof pk, tmp, sizeof tmp);
	report("keygen", rc);
	paint();
	rc = fa_make_public(pk, sizeof pk, sk, sizeof sk, tmp, sizeof tmp);
	report("pubkey", rc);
	paint();
	fa_shake256_init_prng_from_seed(&rng, seed, 48);
	sig_len = FA_SIG_COMPRESSED_MAXSIZE(LOGN);
	rc = fa_sign_dyn_ex(be, nonce, &rng, sig, &sig_len, FA_SIG_COMPRESSED,
		sk, sizeof sk, msg, sizeof msg, tmp, sizeof tmp);
	report("sign_dyn", rc);
	paint();
	rc = fa_verify(be, sig, sig_len, 0, pk, sizeof pk, msg, sizeof msg, tmp, sizeof tmp);
	report("verify", rc);
	paint();
	rc = fa_expand_privkey(be, ek, sizeof ek, sk, sizeof sk, tmp, sizeof tmp);
	report("expand", rc);
	paint();
	fa_shake256_init_prng_from_seed(&rng, seed, 48);
	sig_len = FA_SIG_COMPRESSED_MAXSIZE(LOGN);
	rc = fa_sign_tree_ex(be, nonce, &rng, sig, &sig_len, FA_SIG_COMPRESSED,
		ek, msg, sizeof msg, tmp, sizeof tmp);
	report("sign_tree", rc);
	paint();
	rc = fa_kem_keygen_derand(be, 1024, kem_ek, sizeof kem_ek, kem_dk,
		sizeof kem_dk, seed, seed + 32, tmp, sizeof tmp);
	report("kem_keygen_1024", rc);
	paint();
	rc = fa_kem_encaps_derand(be, 1024, kem_ct, sizeof kem_ct, ss,
		kem_ek, FA_KEM_EK_SIZE(1024), seed, tmp, sizeof tmp);
	report("kem_encaps_1024", rc);
	paint();
	rc = fa_kem_decaps(be, 1024, ss2, kem_ct, FA_KEM_CT_SIZE(1024),
		kem_dk, FA_KEM_DK_SIZE(1024), tmp, sizeof tmp);
	report("kem_decaps_1024", rc);
	failed |= memcmp(ss, ss2, 32) != 0;
	out("max ");
	out_uint(worst);
	out(failed ? " FAILED\n" : " ok\n");
	return failed;
}

/* Entry: the global pointer, sp at the top of stack_area, exit(stack_main()). */
__asm__(
	".section .text._start\n"
	".globl _start\n"
	"_start:\n"
	".option push\n"
	".option norelax\n"
	"	la gp, __global_pointer$\n"
	".option pop\n"
	"	la sp, stack_area + 131072\n"
	"	call stack_main\n"
	"	li a7, 93\n"
	"	ecall\n");
