/*
 * fpr_emu_rv32.S -- the hottest emulated binary64 operations of
 * src/fpr_emu.c in hand-written RV32IMC assembly (ilp32):
 *
 *   uint64_t fa_fpr_add_rv32(uint64_t x, uint64_t y);             x + y
 *   void fa_fpr_add_sub_rv32(uint64_t x, uint64_t y,
 *                            uint64_t *sum, uint64_t *dif);       x + y, x - y
 *   uint64_t fa_fpr_mul_rv32(uint64_t x, uint64_t y);             x * y
 *   uint64_t fa_fpr_div_rv32(uint64_t x, uint64_t y);             x / y
 *   uint64_t fa_fpr_sqrt_rv32(uint64_t x);                        sqrt(x)
 *
 * Built only for rv32 targets (CMake option FA_FPR_ASM, on in
 * cmake/rv32imc.cmake); src/fpr.h then routes fpr_add, fpr_sub,
 * fpr_add_sub, fpr_mul, fpr_sqr, fpr_div, fpr_inv and fpr_sqrt here. The
 * C functions fa_fpr_add, fa_fpr_add_sub, fa_fpr_mul, fa_fpr_div and
 * fa_fpr_sqrt stay the reference: the results are bit-identical to
 * theirs for EVERY pair of 64-bit inputs (zeros of both signs, subnormal
 * inputs read as zero, results below 2^-1022 flushed to zero of the same
 * sign except the one that rounds up to 2^-1022, overflow to infinity,
 * exponent field 2047 processed as an ordinary exponent as the C code
 * does). scripts/test_fpr_asm.sh checks that under qemu-riscv32 on
 * random and edge-case operands.
 *
 * Constant time: straight-line code. No branch at all (the only control
 * transfer is the final ret), no memory access but the two result stores
 * of fa_fpr_add_sub_rv32 (at caller-given addresses). Every selection is
 * done with masks; comparisons come from sltu/slt or a borrow; variable
 * shifts (sll/srl, which use the low five bits of the count) and
 * mul/mulhu are assumed to take a fixed time (true on Ibex).
 * scripts/build_rv32.sh fails if a conditional branch appears in this
 * object.
 *
 * Values: x = (sign, e, f), e the 11-bit exponent field, f the 52-bit
 * fraction; for 1 <= e <= 2046, |x| = (2^52 + f) * 2^(e - 1075). A 64-bit
 * quantity lives in a register pair hi:lo.
 *
 * Addition. The operands are ordered by magnitude (bit patterns without
 * the sign order magnitudes), unpacked to significands with the implicit
 * bit at bit 62 (ma = (2^52 + f) << 10 in [2^62, 2^63), or 0 for a zero or
 * subnormal operand), the smaller one shifted right by the exponent
 * difference d (clamped to 63) with the shifted-out bits ORed into bit 0
 * (sticky). The magnitude of the result ma +- mb < 2^64 is exact when
 * d <= 1 and otherwise >= 2^61, so the sticky bit stays far below the
 * rounding position. It is normalized to bit 63 (leading-zero count in
 * six halving steps: 32 on the pair, then 16, 8, 4, 2, 1 on the high
 * word), and rounded to 53 bits, ties to even: rnd = ((t mod 2^11) + 2^10
 * - 1 + lsb) >> 11. The packed magnitude is ((E - 1) << 52) + (t >> 11)
 * + rnd (the implicit bit adds the missing 1 to the field; a carry of the
 * rounding may raise the exponent, up to infinity) with E = ea + 1 - n.
 * fa_fpr_add_sub_rv32 forms p = ma + mb and q = ma - mb once; p is in
 * [2^62, 2^64) (or 0 for two zeros) and needs a one-bit normalization
 * only, q the full one; which of them is x + y and which x - y depends on
 * the signs: the two destinations are swapped, not the values (so *dif
 * may be stored before *sum: the two must not alias; no caller does).
 * A zero sum takes the zero's sign: x + y gives -0 only for two negative
 * operands; x - y gives -0 only for x negative, y positive.
 * A sum of two normal numbers cannot round up to 2^-1022 from below
 * (a result below 2^-1022 is exact), so the addition needs no such case.
 *
 * Multiplication. Significands top-aligned in 64 bits (A = (2^52 + f)
 * << 11); the 128-bit product A * B in [2^126, 2^128) from four 32x32
 * products (mul + mulhu each); its high 64 bits, shifted left by one when
 * bit 127 is clear, carry the 53 + 11 bits to round, the low 64 bits
 * only a sticky bit. E - 1 = ex + ey - 1024 + top. A result with E = 0
 * becomes 2^-1022 when its 53 leading bits are all ones (it lies in
 * [2^-1022 - 2^-1075, 2^-1022): IEEE rounds it up at the subnormal
 * spacing), as in fpr_emu.c. A zero or subnormal operand gives zero of
 * the product's sign.
 *
 * Division. The C code runs a 56-step restoring loop (~1300 rv32
 * instructions); here the quotient Q = floor(X 2^55 / Y) of the
 * significands and its remainder come from multiplications: a reciprocal
 * V <= 2^62 / D of D = floor(Y / 2^22) + 1 (a linear first guess and
 * three Newton steps, all rounded down: relative error below 2^-29 for
 * every D, checked by tests/fpr_asm/div_recip_bound.c), then three
 * quotient digits, each a lower bound from V, each followed by the exact
 * remainder (mod 2^64, where it is known to lie in [0, 4Y)): q1 (28 bits,
 * short by at most 1), q2 (short by at most 3), q3 (at most 3, short by
 * at most 1), and one final correction (remainder >= Y: Q + 1). The
 * sticky bit is "remainder != 0". Rounding and packing as for the
 * product; x zero or subnormal: zero; y zero or subnormal: infinity
 * (0/0 included), as fpr_emu.c.
 *
 * Square root. Likewise without the C code's 55-step loop: the root
 * Q = floor(sqrt(X 2^56)) of the significand X (made even-exponent, in
 * [2^52, 2^54)) from a reciprocal square root R of the top 31 bits
 * (linear guess, four Newton steps, minus a margin: a lower bound,
 * checked for every input by tests/fpr_asm/div_recip_bound.c), then
 * lower-bound digits q1 (28 bits), q2 (from D1 = 4X - q1^2, exact), q3
 * (from the exact remainder N - Q^2 mod 2^64) and one final correction;
 * sticky = remainder != 0. The result is always normal (exponent field
 * (e + 1) / 2 + 511); zero or subnormal: zero of the input's sign;
 * negative nonzero: the NaN 0xFFF8000000000000, as fpr_emu.c.
 *
 * rv32imc instructions (= executed: no branch): fa_fpr_add_rv32 136,
 * fa_fpr_add_sub_rv32 179, fa_fpr_mul_rv32 89, fa_fpr_div_rv32 169,
 * fa_fpr_sqrt_rv32 169 (bench/FPEMU.md has the
 * measured counts and the C versions' counts).
 */

	.text

/* (t mod 2^11) + FPR_RND_HALF + lsb carries into bit 11 iff t rounds up.
   FA_FPR_ASM_MUTANT (tests only: scripts/test_fpr_asm.sh --mutant) makes
   ties round up instead of to even, which the test must catch. */
#ifdef FA_FPR_ASM_MUTANT
#define FPR_RND_HALF 0x400
#else
#define FPR_RND_HALF 0x3FF
#endif

/*
 * Order x (a1:a0), y (a3:a2) by magnitude, unpack, align.
 * Out: a1 / a3 = high words of the larger / smaller operand (signs in
 * bit 31), t0 = all-ones iff they were swapped (|x| < |y|), \ea =
 * exponent field of the larger, a7:a6 = its significand << 10 (0 if its
 * field is 0), t6:t5 = the smaller significand << 10 (0 if its field is
 * 0) shifted right by d = ea - eb (clamped to 63), the shifted-out bits
 * ORed into bit 0 (sticky). Uses a2, t1..t4.
 */
.macro FPR_ADD_PREP ea
	/* t0 = -(|x| < |y|): compare (xh << 1, xl) with (yh << 1, yl) as
	   64-bit numbers; yh << 1 is even, so adding the low borrow to it
	   cannot carry out. */
	slli	t1, a1, 1
	slli	t2, a3, 1
	sltu	t3, a0, a2
	add	t2, t2, t3
	sltu	t1, t1, t2
	neg	t0, t1
	/* swap under the mask */
	xor	t1, a0, a2
	and	t1, t1, t0
	xor	a0, a0, t1
	xor	a2, a2, t1
	xor	t1, a1, a3
	and	t1, t1, t0
	xor	a1, a1, t1
	xor	a3, a3, t1
	/* larger: a7:a6 = ((f | 2^52) << 10) * (ea != 0), \ea = ea */
	lui	t3, 0x40000		/* 2^30: implicit bit, high word */
	slli	a7, a1, 12
	srli	a7, a7, 2
	or	a7, a7, t3
	srli	t1, a0, 22
	or	a7, a7, t1
	slli	a6, a0, 10
	slli	t1, a1, 1
	srli	\ea, t1, 21
	snez	t1, \ea
	mul	a7, a7, t1
	mul	a6, a6, t1
	/* smaller: t6:t5, t2 = eb */
	slli	t6, a3, 12
	srli	t6, t6, 2
	or	t6, t6, t3
	srli	t1, a2, 22
	or	t6, t6, t1
	slli	t5, a2, 10
	slli	t1, a3, 1
	srli	t2, t1, 21
	snez	t1, t2
	mul	t6, t6, t1
	mul	t5, t5, t1
	/* t2 = d = ea - eb in [0, 2047]; d >= 64 -> all-ones (63 mod 64) */
	sub	t2, \ea, t2
	sltiu	t1, t2, 64
	addi	t1, t1, -1
	or	t2, t2, t1
	/* t1 = -(bit 5 of d): the shift crosses the word boundary */
	slli	t1, t2, 26
	srai	t1, t1, 31
	/* d >= 32: (hi, lo) <- (0, hi); t4 = the old low word, all of it
	   shifted out (else 0) */
	and	t4, t5, t1
	and	t3, t6, t1
	xor	t5, t5, t4
	or	t5, t5, t3
	xor	t6, t6, t3
	/* k = d mod 32; t1 = 31 - k (mod 32). Bits k-1..0 of the low word
	   are shifted out: (lo << 1) << (31 - k) (0 for k = 0). */
	not	t1, t2
	slli	t3, t5, 1
	sll	t3, t3, t1
	or	t4, t4, t3
	snez	t4, t4			/* sticky */
	/* shift by k: lo = lo >> k | (hi << 1) << (31 - k), hi >>= k */
	srl	t5, t5, t2
	slli	t3, t6, 1
	sll	t3, t3, t1
	or	t5, t5, t3
	srl	t6, t6, t2
	or	t5, t5, t4
.endm

/*
 * Normalize hi:lo (any 64-bit value) to bit 63 set; n = the left shift
 * (63 for zero). Uses t, u.
 */
.macro FPR_NORM hi, lo, n, t, u
	/* high word zero: (hi, lo) <- (lo, 0), n = 32 */
	seqz	\t, \hi
	neg	\u, \t
	and	\u, \lo, \u
	or	\hi, \hi, \u
	xor	\lo, \lo, \u
	slli	\n, \t, 5
	/* then 16, 8, 4, 2, 1 on the high word */
	srli	\t, \hi, 16
	seqz	\t, \t
	slli	\t, \t, 4
	sll	\hi, \hi, \t
	add	\n, \n, \t
	srli	\t, \hi, 24
	seqz	\t, \t
	slli	\t, \t, 3
	sll	\hi, \hi, \t
	add	\n, \n, \t
	srli	\t, \hi, 28
	seqz	\t, \t
	slli	\t, \t, 2
	sll	\hi, \hi, \t
	add	\n, \n, \t
	srli	\t, \hi, 30
	seqz	\t, \t
	slli	\t, \t, 1
	sll	\hi, \hi, \t
	add	\n, \n, \t
	srli	\t, \hi, 31
	xori	\t, \t, 1
	sll	\hi, \hi, \t
	add	\n, \n, \t
	/* bring the low word's top bits in: k = n mod 32 */
	srli	\t, \lo, 1
	not	\u, \n
	srl	\t, \t, \u
	or	\hi, \hi, \t
	sll	\lo, \lo, \n
.endm

/*
 * Round hi:lo (bit 63 set, or zero with e1 = 0) to 53 bits, ties to
 * even, and pack with exponent field e1 + 1 (signed, any value):
 * 1 <= e1 + 1 <= 2046: (e1 << 52) + (t >> 11) + rnd (carry may reach
 * infinity); e1 + 1 > 2046: infinity; e1 + 1 <= 0: zero. No sign.
 * Result in hi:lo. Uses t, u.
 */
.macro FPR_ROUND hi, lo, e1, t, u
	srli	\t, \lo, 11
	slli	\u, \hi, 21
	or	\t, \t, \u		/* low word of t >> 11 */
	andi	\u, \t, 1		/* lsb */
	andi	\lo, \lo, 0x7FF
	add	\lo, \lo, \u
	addi	\lo, \lo, FPR_RND_HALF
	srli	\lo, \lo, 11		/* rnd: guard & (sticky | lsb) */
	srli	\hi, \hi, 11
	add	\lo, \t, \lo
	sltu	\t, \lo, \t
	add	\hi, \hi, \t
	slli	\t, \e1, 20
	add	\hi, \hi, \t
	/* normal: e1 in [0, 2045] (unsigned compare) */
	sltiu	\t, \e1, 2046
	neg	\t, \t
	and	\hi, \hi, \t
	and	\lo, \lo, \t
	/* overflow: e1 >= 2046 (signed) */
	slti	\t, \e1, 2046
	addi	\t, \t, -1
	lui	\u, 0x7FF00
	and	\t, \t, \u
	or	\hi, \hi, \t
.endm

/* uint64_t fa_fpr_add_rv32(uint64_t x, uint64_t y) */
	.globl	fa_fpr_add_rv32
	.type	fa_fpr_add_rv32, @function
	.p2align 2
fa_fpr_add_rv32:
	FPR_ADD_PREP a4
	/* a1:a0 = ma + mb, or ma - mb (>= 0) when the signs differ:
	   ma + (mb ^ m) + 1 with m = -1; ma's bit 0 is clear, so the +1
	   cannot carry. t1 = xh ^ yh (kept for the sign). */
	xor	t1, a1, a3
	srai	t2, t1, 31
	sub	a6, a6, t2
	xor	t5, t5, t2
	xor	t6, t6, t2
	add	a0, a6, t5
	sltu	t3, a0, t5
	add	a1, a7, t6
	add	a1, a1, t3
	FPR_NORM a1, a0, t2, t3, t4
	/* t3 = -(sum != 0); t4 = E - 1 = ea - n, or 0 for a zero sum
	   (which then packs to zero) */
	srai	t3, a1, 31
	sub	t4, a4, t2
	and	t4, t4, t3
	/* sign: sa, or sa & sb for a zero sum; sa = (xh ^ yh) ^ yh */
	xor	t5, t1, a3
	or	t6, a3, t3
	and	t5, t5, t6
	FPR_ROUND a1, a0, t4, t1, t2
	srli	t5, t5, 31
	slli	t5, t5, 31
	or	a1, a1, t5
	ret
	.size	fa_fpr_add_rv32, .-fa_fpr_add_rv32

/* void fa_fpr_add_sub_rv32(uint64_t x, uint64_t y, uint64_t *sum,
                            uint64_t *dif) */
	.globl	fa_fpr_add_sub_rv32
	.type	fa_fpr_add_sub_rv32, @function
	.p2align 2
fa_fpr_add_sub_rv32:
	FPR_ADD_PREP a0
	/* p = ma + mb (t2:t1), q = ma - mb (a7:a6) */
	add	t1, a6, t5
	sltu	t3, t1, t5
	add	t2, a7, t6
	add	t2, t2, t3
	sltu	t3, a6, t5
	sub	a6, a6, t5
	sub	a7, a7, t6
	sub	a7, a7, t3
	/* Signs equal: x + y = p, x - y = q; signs differ (mask t3):
	   x + y = q, x - y = p. Swap the destinations instead of the
	   values: a4 <- where p goes, a5 <- where q goes. */
	xor	t3, a1, a3
	srai	t3, t3, 31
	xor	t4, a4, a5
	and	t4, t4, t3
	xor	a4, a4, t4
	xor	a5, a5, t4
	/* Signs (bit 31 only). Larger operand's sign sa (a1), swap t0.
	   p: x + y with equal signs (sa; p = 0 only for two zeros, of sign
	   sa = sb) or x - y with different signs (sa ^ swap, zero or not).
	   q: x - y with equal signs (sa ^ swap; +0 if q = 0) or x + y with
	   different signs (sa; +0 if q = 0).
	   a1 <- sa ^ (swap & m), a3 <- that ^ swap. */
	srli	a1, a1, 31
	slli	a1, a1, 31
	slli	t0, t0, 31
	and	t3, t0, t3
	xor	a1, a1, t3
	xor	a3, a1, t0
	/* p = ma + mb is in [2^62, 2^64) (ma >= 2^62), or 0 when ea = 0:
	   normalize by one bit at most, s = 1 - bit 63; E - 1 = ea - s
	   (p = 0: -1, which packs to zero) */
	srli	t3, t2, 31
	xori	t3, t3, 1
	sll	t2, t2, t3
	srli	t4, t1, 31
	and	t4, t4, t3
	or	t2, t2, t4
	sll	t1, t1, t3
	sub	t3, a0, t3
	FPR_ROUND t2, t1, t3, t4, t5
	or	t2, t2, a1
	sw	t1, 0(a4)
	sw	t2, 4(a4)
	/* q: E - 1 = ea - n, 0 for q = 0 (packs to +0) */
	FPR_NORM a7, a6, t3, t4, t5
	srai	t4, a7, 31
	sub	t3, a0, t3
	and	t3, t3, t4
	and	a3, a3, t4
	FPR_ROUND a7, a6, t3, t4, t5
	or	a7, a7, a3
	sw	a6, 0(a5)
	sw	a7, 4(a5)
	ret
	.size	fa_fpr_add_sub_rv32, .-fa_fpr_add_sub_rv32

/* uint64_t fa_fpr_mul_rv32(uint64_t x, uint64_t y) */
	.globl	fa_fpr_mul_rv32
	.type	fa_fpr_mul_rv32, @function
	.p2align 2
fa_fpr_mul_rv32:
	lui	t3, 0x80000
	xor	t0, a1, a3
	and	t0, t0, t3		/* sign */
	slli	t1, a1, 1
	srli	t1, t1, 21		/* ex */
	slli	t2, a3, 1
	srli	t2, t2, 21		/* ey */
	/* A = a1:a0, B = a3:a2: (2^52 + f) << 11 */
	slli	a1, a1, 11
	srli	t5, a0, 21
	or	a1, a1, t5
	or	a1, a1, t3
	slli	a0, a0, 11
	slli	a3, a3, 11
	srli	t5, a2, 21
	or	a3, a3, t5
	or	a3, a3, t3
	slli	a2, a2, 11
	/* A * B = w3:w2:w1:w0 */
	mul	t4, a0, a2		/* w0 */
	mulhu	t5, a0, a2
	mul	t6, a1, a2
	mulhu	a2, a1, a2
	mul	a4, a0, a3
	mulhu	a5, a0, a3
	mul	a0, a1, a3
	mulhu	a1, a1, a3
	/* w1 = t5, carry a6 */
	add	t5, t5, t6
	sltu	a6, t5, t6
	add	t5, t5, a4
	sltu	a4, t5, a4
	add	a6, a6, a4
	/* w2 = a0, carry a7 */
	add	a0, a0, a2
	sltu	a7, a0, a2
	add	a0, a0, a5
	sltu	a5, a0, a5
	add	a7, a7, a5
	add	a0, a0, a6
	sltu	a6, a0, a6
	add	a7, a7, a6
	/* w3 = a1 */
	add	a1, a1, a7
	/* sticky of w1:w0 */
	or	t4, t4, t5
	snez	t4, t4
	/* bit 127 clear: shift w3:w2 left by one */
	srli	t5, a1, 31		/* top */
	xori	t6, t5, 1
	sll	a1, a1, t6
	srli	a2, a0, 31
	and	a2, a2, t6
	or	a1, a1, a2
	sll	a0, a0, t6
	or	a0, a0, t4
	/* t1 = E - 1 = ex + ey - 1024 + top; a zero or subnormal operand
	   (ex * ey = 0): minus 2^20, a result of zero */
	mul	t6, t1, t2
	add	t1, t1, t2
	add	t1, t1, t5
	addi	t1, t1, -1024
	seqz	t6, t6
	slli	t6, t6, 20
	sub	t1, t1, t6
	/* t2 = (E == 0 && leading 53 bits all ones): 2^-1022 */
	ori	t2, a0, 0x7FF
	and	t2, t2, a1
	not	t2, t2
	addi	t5, t1, 1
	or	t2, t2, t5
	seqz	t2, t2
	FPR_ROUND a1, a0, t1, t4, t5
	slli	t2, t2, 20
	or	a1, a1, t2
	or	a1, a1, t0
	ret
	.size	fa_fpr_mul_rv32, .-fa_fpr_mul_rv32

/* uint64_t fa_fpr_div_rv32(uint64_t x, uint64_t y) */
	.globl	fa_fpr_div_rv32
	.type	fa_fpr_div_rv32, @function
	.p2align 2
fa_fpr_div_rv32:
	xor	t0, a1, a3
	srli	t0, t0, 31
	slli	t0, t0, 31		/* sign */
	slli	t1, a1, 1
	srli	t1, t1, 21		/* ex */
	slli	t2, a3, 1
	srli	t2, t2, 21		/* ey */
	/* X = a1:a0, Y = a3:a2 in [2^52, 2^53) (implicit bit forced; zero
	   operands are dealt with through the exponent at the end) */
	lui	t3, 0x100
	slli	a1, a1, 12
	srli	a1, a1, 12
	or	a1, a1, t3
	slli	a3, a3, 12
	srli	a3, a3, 12
	or	a3, a3, t3
	/* t3 = D = floor(Y / 2^22) + 1 in [2^30 + 1, 2^31] (D > Y / 2^22) */
	slli	t3, a3, 10
	srli	t4, a2, 22
	or	t3, t3, t4
	addi	t3, t3, 1
	/* t4 = V <= 2^62 / D, relative error < 2^-29 (checked for every D
	   by tests/fpr_asm/div_recip_bound.c): V0 = 2 (48/17 - (32/17) d)
	   2^30 with d = D / 2^31, then three Newton steps
	   V <- V (2 - d V / 2^31) computed downwards:
	   E = 2^31 - 1 - floor(D V / 2^32), V <- floor(V E / 2^30) */
	li	t5, 0xF0F0F0F0
	mulhu	t5, t3, t5
	li	t4, 0xB4B4B4B4
	sub	t4, t4, t5
	slli	t4, t4, 1
	li	t6, 0x7FFFFFFF
	mulhu	t5, t3, t4
	xor	t5, t5, t6
	mulhu	a4, t4, t5
	mul	a5, t4, t5
	slli	a4, a4, 2
	srli	a5, a5, 30
	or	t4, a4, a5
	mulhu	t5, t3, t4
	xor	t5, t5, t6
	mulhu	a4, t4, t5
	mul	a5, t4, t5
	slli	a4, a4, 2
	srli	a5, a5, 30
	or	t4, a4, a5
	mulhu	t5, t3, t4
	xor	t5, t5, t6
	mulhu	a4, t4, t5
	mul	a5, t4, t5
	slli	a4, a4, 2
	srli	a5, a5, 30
	or	t4, a4, a5
	/* Every estimate below is a lower bound: X, R truncated, 1/D <
	   2^22 / Y, V <= 2^62 / D, products floored.
	   q1 = floor(floor(X / 2^21) V / 2^36): floor(X 2^27 / Y) or one
	   less; R1 = X 2^27 - q1 Y in [0, 2Y) (exact mod 2^64) */
	slli	a4, a1, 11
	srli	a5, a0, 21
	or	a4, a4, a5
	mulhu	a4, a4, t4
	srli	a4, a4, 4		/* q1 < 2^28 */
	slli	a7, a1, 27
	srli	a5, a0, 5
	or	a7, a7, a5
	slli	a6, a0, 27
	mul	a5, a4, a2
	mulhu	t5, a4, a2
	mul	t6, a4, a3
	add	t5, t5, t6
	sltu	t6, a6, a5
	sub	a6, a6, a5
	sub	a7, a7, t5
	sub	a7, a7, t6
	/* q2 = floor(floor(R1 / 2^23) V / 2^33): floor(R1 2^28 / Y) minus
	   at most 3; R2 = R1 2^28 - q2 Y in [0, 4Y) */
	slli	a5, a7, 9
	srli	t5, a6, 23
	or	a5, a5, t5
	mulhu	a5, a5, t4
	srli	a5, a5, 1		/* q2 < 2^30 */
	slli	a7, a7, 28
	srli	t5, a6, 4
	or	a7, a7, t5
	slli	a6, a6, 28
	mul	t5, a5, a2
	mulhu	t6, a5, a2
	mul	a0, a5, a3
	add	t6, t6, a0
	sltu	a0, a6, t5
	sub	a6, a6, t5
	sub	a7, a7, t6
	sub	a7, a7, a0
	/* a1:a0 = Q = q1 2^28 + q2 */
	slli	a0, a4, 28
	srli	a1, a4, 4
	add	a0, a0, a5
	sltu	t5, a0, a5
	add	a1, a1, t5
	/* q3 = floor(floor(R2 / 2^24) V / 2^60): floor(R2 / Y) or one less;
	   Q += q3, R3 = R2 - q3 Y in [0, 2Y) */
	slli	t5, a7, 8
	srli	t6, a6, 24
	or	t5, t5, t6
	mulhu	t5, t5, t4
	srli	t5, t5, 28
	add	a0, a0, t5
	sltu	t6, a0, t5
	add	a1, a1, t6
	mul	t6, t5, a2
	mulhu	a4, t5, a2
	mul	a5, t5, a3
	add	a4, a4, a5
	sltu	a5, a6, t6
	sub	a6, a6, t6
	sub	a7, a7, a4
	sub	a7, a7, a5
	/* R3 >= Y: Q += 1, R3 -= Y. a4 = sticky (final remainder != 0) */
	sltu	t5, a6, a2
	sub	a4, a6, a2
	sub	a5, a7, a3
	sub	a5, a5, t5
	srai	t5, a5, 31		/* -1 iff R3 < Y */
	addi	t6, t5, 1
	add	a0, a0, t6
	sltu	t6, a0, t6
	add	a1, a1, t6
	or	a6, a6, a7
	snez	a6, a6
	or	a4, a4, a5
	snez	a4, a4
	xor	a6, a6, a4
	and	a6, a6, t5
	xor	a4, a4, a6
	/* Q = floor(X 2^55 / Y) in [2^54, 2^56): to bit 63 (shift 9 - top),
	   sticky in bit 0 */
	srli	t5, a1, 23		/* top */
	xori	t6, t5, 9
	sll	a1, a1, t6
	neg	a5, t6
	srl	a5, a0, a5
	or	a1, a1, a5
	sll	a0, a0, t6
	or	a0, a0, a4
	/* t3 = E - 1 = ex - ey + 1021 + top; x zero or subnormal: minus
	   2^20 (zero); y zero or subnormal: plus 2^21 (infinity, also 0/0) */
	sub	t3, t1, t2
	add	t3, t3, t5
	addi	t3, t3, 1021
	seqz	t1, t1
	slli	t1, t1, 20
	sub	t3, t3, t1
	seqz	t2, t2
	slli	t2, t2, 21
	add	t3, t3, t2
	/* t2 = (E == 0 && leading 53 bits all ones): 2^-1022 */
	ori	t2, a0, 0x7FF
	and	t2, t2, a1
	not	t2, t2
	addi	t5, t3, 1
	or	t2, t2, t5
	seqz	t2, t2
	FPR_ROUND a1, a0, t3, t4, t5
	slli	t2, t2, 20
	or	a1, a1, t2
	or	a1, a1, t0
	ret
	.size	fa_fpr_div_rv32, .-fa_fpr_div_rv32

/* Reciprocal square root, one Newton step on t6 = R (u = t3 / 2^31,
   a4 = 3 * 2^28): W = 3 * 2^28 - u R^2 / 2^32, R <- R W / 2^29 */
#define FPR_RSQ_C0 0x93333333
#define FPR_RSQ_C1 0xaccccccc
.macro FPR_RSQ_STEP
	mulhu	t5, t6, t6
	mulhu	t5, t3, t5
	slli	t5, t5, 1
	sub	t5, a4, t5
	mul	a5, t6, t5
	mulhu	a6, t6, t5
	srli	a5, a5, 29
	slli	a6, a6, 3
	or	t6, a5, a6
.endm

/* uint64_t fa_fpr_sqrt_rv32(uint64_t x) */
	.globl	fa_fpr_sqrt_rv32
	.type	fa_fpr_sqrt_rv32, @function
	.p2align 2
fa_fpr_sqrt_rv32:
	srli	t0, a1, 31
	slli	t0, t0, 31		/* sign of x */
	slli	t1, a1, 1
	srli	t1, t1, 21		/* ex */
	/* X = a3:a2 = significand (implicit bit forced) << (1 - ex mod 2),
	   in [2^52, 2^54): x = X 2^(ex' - 1075) with ex' odd */
	andi	t2, t1, 1
	xori	t2, t2, 1
	lui	t3, 0x100
	slli	a3, a1, 12
	srli	a3, a3, 12
	or	a3, a3, t3
	sll	a3, a3, t2
	srli	t3, a0, 31
	and	t3, t3, t2
	or	a3, a3, t3
	sll	a2, a0, t2
	/* t3 = A = floor(X / 2^23) + 1 (A / 2^31 > X / 2^54), t4 = floor(X / 2^22) */
	slli	t3, a3, 9
	srli	t4, a2, 23
	or	t3, t3, t4
	addi	t3, t3, 1
	slli	t4, a3, 10
	srli	t5, a2, 22
	or	t4, t4, t5
	/* t6 = R ~ 2^30 / sqrt(u), u = A / 2^31: R0 = (2.3 - 1.35 u) 2^30,
	   four Newton steps R <- R (3 - u R^2 / 2^60) / 2, then minus 10:
	   2^30 / sqrt(u) - 12 < R <= 2^30 / sqrt(u) for every A
	   (tests/fpr_asm/div_recip_bound.c checks it) */
	li	t5, FPR_RSQ_C1
	mulhu	t5, t3, t5
	li	t6, FPR_RSQ_C0
	sub	t6, t6, t5
	lui	a4, 0x30000		/* 3 * 2^28 */
	FPR_RSQ_STEP
	FPR_RSQ_STEP
	FPR_RSQ_STEP
	FPR_RSQ_STEP
	addi	t6, t6, -10
	/* Root Q = floor(sqrt(N)), N = X 2^56. Lower bounds, as for the
	   division: q1 = floor(floor(X / 2^22) R / 2^34) <= 2 sqrt(X) (short
	   by at most 3); D1 = 4X - q1^2 (exact, < 2^32); q2 = floor(D1 R /
	   2^32) <= sqrt(N) - q1 2^27; Q = q1 2^27 + q2 (short by a few units) */
	mulhu	t4, t4, t6
	srli	t4, t4, 2
	slli	a5, a2, 2
	mul	a6, t4, t4
	sub	a5, a5, a6
	mulhu	a5, a5, t6
	slli	a6, t4, 27
	srli	a7, t4, 5
	add	a6, a6, a5
	sltu	a5, a6, a5
	add	a7, a7, a5
	/* a4:a5 = rem2 = N - Q^2 (exact mod 2^64: in [0, 2^61)) */
	mul	a5, a6, a6
	mulhu	t5, a6, a6
	mul	t3, a6, a7
	slli	t3, t3, 1
	add	t5, t5, t3
	slli	a4, a2, 24
	snez	t3, a5
	neg	a5, a5
	sub	a4, a4, t5
	sub	a4, a4, t3
	/* q3 = floor(e (1 - 2^-20) / 2^25), e = floor(floor(rem2 / 2^29) R /
	   2^32): at most the number k of units still missing (rem2 / 2Q
	   shrunk by 2^-20 stays below k), at least k - 1 */
	slli	t3, a4, 3
	srli	t5, a5, 29
	or	t3, t3, t5
	mulhu	t3, t3, t6
	srli	t5, t3, 20
	sub	t3, t3, t5
	srli	t3, t3, 25
	/* rem3 = rem2 - q3 (2Q + q3); Q += q3 */
	slli	t5, a6, 1
	add	t5, t5, t3
	sltu	t4, t5, t3
	slli	a2, a7, 1
	srli	a3, a6, 31
	or	a2, a2, a3
	add	a2, a2, t4
	mul	a3, t3, t5
	mulhu	t4, t3, t5
	mul	a2, t3, a2
	add	t4, t4, a2
	sltu	a2, a5, a3
	sub	a5, a5, a3
	sub	a4, a4, t4
	sub	a4, a4, a2
	add	a6, a6, t3
	sltu	t3, a6, t3
	add	a7, a7, t3
	/* rem3 >= 2Q + 1: Q += 1, rem3 -= 2Q + 1. t5 = sticky */
	slli	t5, a6, 1
	ori	t5, t5, 1
	slli	a2, a7, 1
	srli	a3, a6, 31
	or	a2, a2, a3
	sltu	a3, a5, t5
	sub	t5, a5, t5
	sub	a2, a4, a2
	sub	a2, a2, a3
	srai	a3, a2, 31		/* -1 iff rem3 < 2Q + 1 */
	addi	t3, a3, 1
	add	a6, a6, t3
	sltu	t3, a6, t3
	add	a7, a7, t3
	or	a5, a5, a4
	snez	a5, a5
	or	t5, t5, a2
	snez	t5, t5
	xor	a5, a5, t5
	and	a5, a5, a3
	xor	t5, t5, a5
	/* Q in [2^54, 2^55) to bit 63, sticky in bit 0 */
	slli	a7, a7, 9
	srli	a3, a6, 23
	or	a7, a7, a3
	slli	a6, a6, 9
	or	a6, a6, t5
	/* E - 1 = (ex + 1) / 2 + 510 in [510, 1534]: always normal */
	addi	t2, t1, 1
	srli	t2, t2, 1
	addi	t2, t2, 510
	srli	t3, a6, 11
	slli	t4, a7, 21
	or	t3, t3, t4
	andi	t4, t3, 1
	andi	a6, a6, 0x7FF
	add	a6, a6, t4
	addi	a6, a6, FPR_RND_HALF
	srli	a6, a6, 11
	srli	a7, a7, 11
	add	a0, t3, a6
	sltu	t3, a0, t3
	add	a7, a7, t3
	slli	t2, t2, 20
	add	a1, a7, t2
	/* zero or subnormal: zero of the sign of x; negative nonzero: NaN
	   0xFFF8000000000000 */
	snez	t2, t1
	neg	t2, t2
	and	a0, a0, t2
	and	a1, a1, t2
	or	a1, a1, t0
	srai	t3, t0, 31
	and	t3, t3, t2
	lui	t4, 0xFFF80
	xor	t4, t4, a1
	and	t4, t4, t3
	xor	a1, a1, t4
	not	t3, t3
	and	a0, a0, t3
	ret
	.size	fa_fpr_sqrt_rv32, .-fa_fpr_sqrt_rv32
