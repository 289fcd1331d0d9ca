/*
 * fpr_asm_diff.c -- differential test of src/fpr_emu_rv32.S (the RV32IMC
 * assembly of fpr add, add_sub, mul) against the C emulation of
 * src/fpr_emu.c, both compiled for rv32imc/ilp32, run under qemu-riscv32
 * (Linux user mode). Freestanding: its own _start, write and exit
 * system calls, no C library. Built and run by scripts/test_fpr_asm.sh.
 *
 * Every result must be bit-identical:
 *   fa_fpr_add_rv32(x, y)      == fa_fpr_add(x, y)
 *   fa_fpr_add_sub_rv32(x, y)  == fa_fpr_add_sub(x, y)   (both outputs)
 *   fa_fpr_mul_rv32(x, y)      == fa_fpr_mul(x, y)
 *   fa_fpr_div_rv32(x, y)      == fa_fpr_div(x, y)
 *   fa_fpr_sqrt_rv32(x)        == fa_fpr_sqrt(x)
 * on all ordered pairs of a table of edge values (zeros of both signs,
 * subnormals, 2^-1022 and its neighbours, the largest finite value,
 * infinities and NaNs, which both codes process as ordinary exponents)
 * and on N random pairs per generator: raw 64-bit patterns, Falcon's
 * range, same/close exponents, cancellation (y = -x +- a few ulps),
 * exponent differences 0..70 with short significands (rounding ties),
 * results near 2^-1022 and near overflow, products whose 53 leading bits
 * are all ones at exponent 0 (the round-up to 2^-1022).
 *
 * Usage: fpr_asm_diff.elf [N]   (default 200000)
 * Prints one line per generator and exits 0 iff no mismatch.
 */
#include <stdint.h>
#include <stddef.h>

uint64_t fa_fpr_add(uint64_t x, uint64_t y);
void fa_fpr_add_sub(uint64_t x, uint64_t y, uint64_t *sum, uint64_t *dif);
uint64_t fa_fpr_mul(uint64_t x, uint64_t y);
uint64_t fa_fpr_add_rv32(uint64_t x, uint64_t y);
void fa_fpr_add_sub_rv32(uint64_t x, uint64_t y, uint64_t *sum, uint64_t *dif);
uint64_t fa_fpr_mul_rv32(uint64_t x, uint64_t y);
uint64_t fa_fpr_div(uint64_t x, uint64_t y);
uint64_t fa_fpr_div_rv32(uint64_t x, uint64_t y);
uint64_t fa_fpr_sqrt(uint64_t x);
uint64_t fa_fpr_sqrt_rv32(uint64_t x);

/* ---- Linux rv32 system calls (qemu-riscv32) ---- */
#include "rv32_user_rt.h"

static void out_u(uint32_t v)
{
	char b[12];
	int i = 11;
	b[i] = 0;
	do {
		b[-- i] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	out(b + i);
}

static void out_x(uint64_t v)
{
	char b[19];
	int i;
	b[0] = '0';
	b[1] = 'x';
	for (i = 0; i < 16; i ++)
		b[2 + i] = "0123456789abcdef"[(v >> (60 - 4 * i)) & 15];
	b[18] = 0;
	out(b);
}

/* ---- random numbers (splitmix64) ---- */
static uint64_t rs = 0x9E3779B97F4A7C15u;

static uint64_t rnd(void)
{
	uint64_t z = (rs += 0x9E3779B97F4A7C15u);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
	return z ^ (z >> 31);
}

static uint32_t below(uint32_t n) { return (uint32_t)(rnd() >> 32) % n; }

#define SIGN ((uint64_t)1 << 63)
#define FRAC (((uint64_t)1 << 52) - 1)

static uint64_t mk(uint64_t s, uint32_t e, uint64_t f)
{
	return (s << 63) | ((uint64_t)(e & 0x7FF) << 52) | (f & FRAC);
}

/* random fraction, half the time with its low bits cleared (ties) */
static uint64_t frac(void)
{
	uint64_t f = rnd() & FRAC;
	if (rnd() & 1)
		f &= ~(((uint64_t)1 << below(53)) - 1);
	return f;
}

static uint64_t normal(uint32_t emin, uint32_t emax)
{
	return mk(rnd() & 1, emin + below(emax - emin + 1), frac());
}

static const uint64_t edge[] = {
	0, SIGN, 1, SIGN | 1, FRAC, SIGN | FRAC, 0x0008000000000000u,
	(uint64_t)1 << 52, SIGN | ((uint64_t)1 << 52), ((uint64_t)1 << 52) | 1,
	((uint64_t)2 << 52) - 1, (uint64_t)2 << 52, ((uint64_t)2 << 52) | FRAC,
	0x3FF0000000000000u, 0xBFF0000000000000u, 0x3FF0000000000001u,
	0x3FEFFFFFFFFFFFFFu, 0x4000000000000000u, 0xC000000000000000u,
	0x3CA0000000000000u, 0x3CB0000000000000u, 0x3C90000000000000u,
	0x4330000000000000u, 0x4340000000000000u, 0x3FF8000000000000u,
	0x7FEFFFFFFFFFFFFFu, 0xFFEFFFFFFFFFFFFFu, 0x7FE0000000000000u,
	0x7FDFFFFFFFFFFFFFu, 0x7FF0000000000000u, 0xFFF0000000000000u,
	0x7FF8000000000000u, 0xFFF8000000000001u, 0x7FF0000000000001u,
	0x2000000000000000u, 0x1FF0000000000000u, 0x1FEFFFFFFFFFFFFFu,
	0x5FF0000000000000u, 0x6000000000000000u, 0x0010000000000001u,
	0x0020000000000000u, 0x001FFFFFFFFFFFFFu, 0x8010000000000000u,
	/* sqrt: N = X 2^56 just above Q^2 (N - Q^2 in {28, 60, ..}, Q = 2
	   mod 4): the root is off by one until its last correction, and
	   that changes the rounding */
	0x3FE2725B8277ECA1u, 0x3FE4EB5F85E783A9u, 0x3FE5B95344972FE2u,
	0x3FEE8D14F4732010u, 0x3FF17FCEB77E1D55u, 0x3FF1E87A3BC15A74u,
	0x3FF2B035C1197F48u, 0x3FFBA44C2A0737A2u, 0x3FFD407BB3641DA5u,
	0x3FFE197E83425044u, 0x3FFE99893042C2CBu,
};
#define NEDGE (sizeof edge / sizeof edge[0])

static uint32_t fails;

static void report(const char *op, uint64_t x, uint64_t y, uint64_t want, uint64_t got)
{
	if (fails ++ < 20) {
		out("MISMATCH ");
		out(op);
		out(" x=");
		out_x(x);
		out(" y=");
		out_x(y);
		out(" C=");
		out_x(want);
		out(" asm=");
		out_x(got);
		out("\n");
	}
}

static uint64_t checksum;

/* All three operations on one pair. */
static void check(uint64_t x, uint64_t y)
{
	uint64_t a, b, s1, d1, s2, d2;

	a = fa_fpr_add(x, y);
	b = fa_fpr_add_rv32(x, y);
	if (a != b)
		report("add", x, y, a, b);
	fa_fpr_add_sub(x, y, &s1, &d1);
	fa_fpr_add_sub_rv32(x, y, &s2, &d2);
	if (s1 != s2)
		report("add_sub.sum", x, y, s1, s2);
	if (d1 != d2)
		report("add_sub.dif", x, y, d1, d2);
	a = fa_fpr_mul(x, y);
	b = fa_fpr_mul_rv32(x, y);
	if (a != b)
		report("mul", x, y, a, b);
	checksum = (checksum ^ b ^ d2) * 0x100000001B3u;
	a = fa_fpr_div(x, y);
	b = fa_fpr_div_rv32(x, y);
	if (a != b)
		report("div", x, y, a, b);
	checksum = (checksum ^ b) * 0x100000001B3u;
	a = fa_fpr_sqrt(x);
	b = fa_fpr_sqrt_rv32(x);
	if (a != b)
		report("sqrt", x, 0, a, b);
	checksum = (checksum ^ b) * 0x100000001B3u;
}

/* ---- generators of pairs ---- */
typedef void (*gen_fn)(uint64_t *x, uint64_t *y);

static void g_raw(uint64_t *x, uint64_t *y) { *x = rnd(); *y = rnd(); }

static void g_falcon(uint64_t *x, uint64_t *y)
{
	*x = normal(1023 - 70, 1023 + 70);
	*y = normal(1023 - 70, 1023 + 70);
}

static void g_close(uint64_t *x, uint64_t *y)
{
	uint32_t e = 1 + below(2046);
	*x = mk(rnd() & 1, e, frac());
	*y = mk(rnd() & 1, e + below(7) - 3, frac());
}

static void g_cancel(uint64_t *x, uint64_t *y)
{
	uint64_t t = normal(1, 2046);
	*x = t;
	*y = (t + below(33) - 16) ^ SIGN ^ ((rnd() & 1) ? SIGN : 0);
}

static void g_expdiff(uint64_t *x, uint64_t *y)
{
	uint32_t e = 72 + below(1900), d = below(71);
	*x = mk(rnd() & 1, e, frac());
	*y = mk(rnd() & 1, e - d, frac());
	if (rnd() & 1) {
		uint64_t t = *x;
		*x = *y;
		*y = t;
	}
}

static void g_tiny(uint64_t *x, uint64_t *y)
{
	uint32_t e = 1 + below(60);
	*x = mk(rnd() & 1, e, frac());
	*y = mk(rnd() & 1, 1 + below(60), frac());
	if (rnd() & 3)
		*y = mk(rnd() & 1, e + below(5) - 2, frac());
}

/* products near 2^-1022 (ex + ey ~ 1023) and near overflow */
static void g_mul_edge(uint64_t *x, uint64_t *y)
{
	uint32_t ex = 1 + below(2046), ey;
	if (rnd() & 1)
		ey = 1023 + below(5) - 2 - ex;          /* around 2^-1022 */
	else
		ey = 3069 + below(5) - 2 - ex;          /* around 2^1024 */
	if ((int32_t)ey < 1 || ey > 2046)
		ey = 1 + below(2046);
	*x = mk(rnd() & 1, ex, frac());
	*y = mk(rnd() & 1, ey, frac());
}

/* leading 53 bits of the product all ones (or nearly), at E = 0 or 1 */
static void g_mul_min(uint64_t *x, uint64_t *y)
{
	uint32_t ex = 2 + below(1020);
	uint64_t fx = FRAC - below(4), fy = below(4);
	if (rnd() & 1) {
		/* y slightly below 2 x 1 - eps: x * y rounds near a power of 2 */
		fx = FRAC - (rnd() & 0xFFF);
		fy = rnd() & 0xFF;
	}
	*x = mk(rnd() & 1, ex, fx);
	*y = mk(rnd() & 1, 1023 - ex + below(3) - 1, fy);
}

/* quotients: exact (x = y * small integer or power of two), next to 1,
   near 2^-1022 and overflow, divisor significands near 1 and 2 */
static void g_div(uint64_t *x, uint64_t *y)
{
	uint32_t k = below(6), ey = 1 + below(2046), ex;
	uint64_t fy = frac();
	if (k == 0)
		fy = rnd() & 0xFFFF;
	else if (k == 1)
		fy = FRAC - (rnd() & 0xFFFF);
	*y = mk(rnd() & 1, ey, fy);
	if (k == 2) {
		/* x = y * m, m small: exact quotient m */
		uint64_t m = 1 + below(255), sy = fy | ((uint64_t)1 << 52);
		uint64_t p = sy * m;
		uint32_t sh = 0;
		while ((p >> 53) != 0) {
			p >>= 1;
			sh ++;
		}
		if ((p << sh) != sy * m)
			p = sy;
		*x = mk(rnd() & 1, (ey + sh) & 0x7FF, p);
		return;
	}
	if (k == 3) {
		*x = *y + below(5) - 2;                 /* quotient ~1 */
		return;
	}
	ex = ey + 1022 - below(5);                      /* near overflow */
	if (k == 4)
		ex = ey - 1023 + below(5);              /* near 2^-1022 */
	if (rnd() & 1)
		ex = 1 + below(2046);
	*x = mk(rnd() & 1, ex, frac());
}

/* square roots: exact squares (and +- 1 ulp), significands near 1, 2, 4.
   An exact square: X = s^2 for s in [2^26, 2^27), X the significand (odd
   exponent field) or twice it (even field, s even). */
static void g_sqrt(uint64_t *x, uint64_t *y)
{
	uint32_t k = below(4), e = 1 + below(2046);
	uint64_t f = frac();
	if (k == 0) {
		uint64_t sq = (rnd() >> 37) | ((uint64_t)1 << 26), p = sq * sq;
		uint32_t eo = 2 * below(1000) + 25;     /* odd field */
		if ((p >> 53) != 0) {
			sq &= ~(uint64_t)1;
			p = (sq * sq) >> 1;
			eo ++;                          /* even field */
		}
		f = p & FRAC;
		if ((rnd() & 3) == 0)
			f = (f + below(3) - 1) & FRAC;
		e = eo;
	} else if (k == 1) {
		f = rnd() & 0xFFFF;
	} else if (k == 2) {
		f = FRAC - (rnd() & 0xFFFF);
	}
	*x = mk((rnd() & 7) == 0, e, f);
	*y = mk(0, 1 + below(2046), frac());
}

static const struct { const char *name; gen_fn fn; } gens[] = {
	{ "raw", g_raw }, { "falcon", g_falcon }, { "close", g_close },
	{ "cancel", g_cancel }, { "expdiff", g_expdiff }, { "tiny", g_tiny },
	{ "mul_edge", g_mul_edge }, { "mul_min", g_mul_min },
	{ "div", g_div }, { "sqrt", g_sqrt },
};

static uint32_t parse_u(const char *s)
{
	uint32_t v = 0;
	while (*s >= '0' && *s <= '9')
		v = v * 10 + (uint32_t)(*s ++ - '0');
	return v;
}

int fpr_asm_main(long *sp)
{
	long argc = sp[0];
	char **argv = (char **)(sp + 1);
	uint32_t n = 200000, i, j, k, f0;
	uint64_t x, y;

	if (argc > 1)
		n = parse_u(argv[1]);

	f0 = fails;
	for (i = 0; i < NEDGE; i ++)
		for (j = 0; j < NEDGE; j ++)
			check(edge[i], edge[j]);
	/* edges against random values, both orders */
	for (i = 0; i < NEDGE; i ++)
		for (j = 0; j < 200; j ++) {
			y = (j & 1) ? normal(1, 2046) : normal(1023 - 70, 1023 + 70);
			check(edge[i], y);
			check(y, edge[i]);
		}
	out("edge pairs: ");
	out_u((uint32_t)(NEDGE * NEDGE + NEDGE * 400));
	out(fails == f0 ? " ok\n" : " FAIL\n");

	for (k = 0; k < sizeof gens / sizeof gens[0]; k ++) {
		f0 = fails;
		for (i = 0; i < n; i ++) {
			gens[k].fn(&x, &y);
			check(x, y);
		}
		out(gens[k].name);
		out(": ");
		out_u(n);
		out(" pairs x 5 ops");
		out(fails == f0 ? " ok\n" : " FAIL\n");
	}
	out("checksum ");
	out_x(checksum);
	out("\n");
	if (fails) {
		out("fpr_asm_diff: FAIL, ");
		out_u(fails);
		out(" mismatches\n");
		return 1;
	}
	out("fpr_asm_diff: OK\n");
	return 0;
}

/* Entry from the kernel (qemu): sp -> argc, argv[]. gp for relaxed
   accesses, then exit(fpr_asm_main(sp)). */
__asm__(
	".section .text._start\n"
	".globl _start\n"
	"_start:\n"
	".option push\n"
	".option norelax\n"
	"	la gp, __global_pointer$\n"
	".option pop\n"
	"	mv a0, sp\n"
	"	andi sp, sp, -16\n"
	"	call fpr_asm_main\n"
	"	li a7, 93\n"
	"	ecall\n"
	"1:	j 1b\n"
	".text\n");

