/*
 * test_fpr_emu32.c -- every check of test_fpr.c on the 32-bit code of
 * src/fpr_emu.c (what rv32 firmware runs: variable 64-bit shifts written on
 * 32-bit halves, the 106-bit product from 32x32->64 pieces), compiled here
 * on the host and compared with this machine's FPU bit for bit.
 *
 * On a 64-bit host the library's own fa_fpr_* use native 64-bit shifts and
 * a 128-bit product (FA_FPR_EMU_32 = 0), which test_fpr.c checks; this file
 * builds a second copy of fpr_emu.c with FA_FPR_EMU_32 = 1, its functions
 * renamed t32_fpr_*, and runs test_fpr.c's main on that copy. On a 32-bit
 * host both test the same code.
 */
#define FA_FPR_EMU_32 1
#define fa_fpr_scaled t32_fpr_scaled
#define fa_fpr_add t32_fpr_add
#define fa_fpr_mul t32_fpr_mul
#define fa_fpr_div t32_fpr_div
#define fa_fpr_sqrt t32_fpr_sqrt
#define fa_fpr_rint t32_fpr_rint
#define fa_fpr_rint32 t32_fpr_rint32
#define fa_fpr_floor t32_fpr_floor
#define fa_fpr_trunc t32_fpr_trunc
#define fa_fpr_lt t32_fpr_lt
#define fa_fpr_add_sub t32_fpr_add_sub
#define fa_fpr_of32 t32_fpr_of32
#define fa_fpr_trunc_scaled t32_fpr_trunc_scaled

#include "fpr_emu.c"

#define TEST_FPR_NAME "test_fpr_emu32"
#define TEST_FPR_N 150000
#include "test_fpr.c"
