// samplerz -- SamplerZ(mu, 1/sigma) of the library (src/sampler.c,
// fa_samplerz_portable), bit for bit: the same operations in the same
// order on hw/fp64's adder and multiplier (binary64, round to nearest
// even, subnormals flushed as the emulated build), the same bytes taken
// from sampler_prng in the same order.
//
// Per sample (once):   s = floor(mu); r = mu - s; dss = half(isigma^2);
//                      ccs = isigma * sigma_min; c63 = trunc(ccs 2^63) << 1
// Per trial:           9 bytes -> v (72 bits, little-endian); z0 = #{i :
//                      v < RCDT[i]} (18 constant compares); 1 byte -> b;
//                      z = b ? z0 + 1 : -z0;
//                      x = (z - r)^2 dss - z0^2 / (2 sigma0^2);
//   BerExp(x, ccs):    e = trunc(x / ln2); t = x - e ln2;
//                      y = FACCT Horner (12 x mulhi on trunc(t 2^63) << 1);
//                      zb = ((mulhi(c63, y) << 1) - 1) >> min(e, 63);
//                      bytes compared with zb from the top, one per cycle,
//                      until one differs or all 8 are equal; accept iff the
//                      last byte read is below zb's byte.
// Output: z_o = s + z, trials_o = number of trials.
//
// Illegal requests (err_o, no sample):
//   ERR_ARG   (1) mu not finite or |mu| >= 2^30; isigma outside [0.5, 1);
//                 sigma_min outside [1, 2);
//   ERR_RANGE (2) e < 0 in a trial (x <= -ln 2: sigma above sigma0, which
//                 Falcon never requests); the PRNG has advanced;
//   ERR_TRIALS(3) the trial count reached max_trials_i (the watchdog; 0
//                 means 255), the PRNG has advanced.
//
// Timing: every step has a fixed cycle count except (1) the number of
// trials (the rejection loop) and (2) the number of BerExp bytes compared
// (it stops at the first random byte that differs from zb's byte) and
// (3) PRNG refills, which happen at fixed byte positions. See
// hw/sampler/doc/sampler.md.
//
// Speculative trials: a front (bytes, x, exponent split on the FP adder and
// multiplier) and a back (Horner on the mulhi, BerExp bytes) run one trial
// apart. While the back runs trial k, the front runs trial k+1 on the
// look-ahead port at the cursor guessed for one BerExp byte (fp + 1); it
// becomes real (commit: ptr = its end) when trial k rejects after exactly
// one BerExp byte, is dropped when trial k accepts, and is redone at the
// committed cursor when trial k rejects after more than one byte (a
// rewind) or when the guess would cross a refill rule (fp > 500). The
// PRNG state after a sample is the library's. The speculative trial's 10
// bytes are prefetched while the front runs trial k's x chain; its z is
// formed in the hand-over cycle; the accepting byte's cycle ends the
// sample. Cycles per sample (no refill wait): 30 + 36 trials + 28 (trials
// started at the committed cursor - 1) + bytes read on the byte port
// (fitted by test-sampler; hw/sampler/doc/sampler.md has the history).
//
// Pair speculation (nvalid_i, the leaves of ffSampling): if A's trial k
// accepts after one BerExp byte, the next sample B's first trial reads the
// bytes at g, the position after it (where A's speculative trial k+1
// starts): the same z. So beside the front's chain of every trial of A, a
// B chain (self-timed, on cycles where the front issues nothing) runs the
// x chain and exponent split of the position after that trial with r_B =
// mu_B - floor(mu_B) (set up beside A's; A's dss and c63), its own t4 and
// the prefetched bytes, and B's Horner rule follows on the mulhi between
// the back's issues (a second context). If A accepts after one byte, B is
// held (the chain for g + 11, beside the drained trial, is kept for B's
// second trial), and the next start that asks for exactly B (mu, 1/sigma,
// sigma_min, trial limit, PRNG pointer at g) commits g's bytes and
// compares B's BerExp byte at once (S_TAKE). Anything else drops it; B then
// starts as usual. Same bytes, same operations: bit-exact.
`default_nettype none
module samplerz (
	input  wire        clk_i,
	input  wire        rst_ni,
	input  wire        start_i,
	input  wire [63:0] mu_i,
	input  wire [63:0] isigma_i,
	input  wire [63:0] sigma_min_i,
	input  wire [7:0]  max_trials_i,
	// the next sample's mu, read with nvalid_i two cycles after start_i
	// (so that a value computed one cycle after this sample's own mu is
	// seen): the caller's next start is likely SamplerZ(nmu_i, isigma_i)
	// with the same sigma_min and max_trials and nothing else reading the
	// PRNG in between (the pair at a leaf of ffSampling). Its first trial is
	// then speculated beside this sample's trials (hw/sampler/doc/
	// sampler.md, "Pair speculation"); the next start takes the result
	// only if it asks for exactly that sample. 0 for single samples.
	input  wire [63:0] nmu_i,
	input  wire        nvalid_i,
	output reg         done_o,
	output reg  [31:0] z_o,
	output reg  [1:0]  err_o,
	output reg  [7:0]  trials_o,
	output wire        busy_o,
	// byte port of sampler_prng
	output reg         rd_valid_o,
	output reg         rd_align_o,
	input  wire        rd_ready_i,
	input  wire [7:0]  rd_byte_i,
	// look-ahead and commit ports of sampler_prng (speculative trials)
	input  wire [8:0]  ptr_i,
	output wire [8:0]  pk_addr_o,
	input  wire [7:0]  pk_byte_i,
	output reg         cm_valid_o,
	output reg  [8:0]  cm_ptr_o
);
	wire [18*72-1:0] SAMPLER_RCDT;
	wire [13*64-1:0] SAMPLER_EXPM;
	wire [63:0] SAMPLER_FPR_INV_2SQRSIGMA0, SAMPLER_FPR_INV_LOG2;
	// (ln 2 itself is in sampler_eln2_rom's products; 2^63 is scale63)
	sampler_tables u_tables (.rcdt_o(SAMPLER_RCDT), .expm_o(SAMPLER_EXPM),
		.fpr_inv_2sqrsigma0_o(SAMPLER_FPR_INV_2SQRSIGMA0),
		.fpr_inv_log2_o(SAMPLER_FPR_INV_LOG2));
	localparam [63:0] SIGN = 64'h8000000000000000;
	localparam integer LAT_ADD = 6, LAT_MUL = 5;
	// S_WAIT cycles after an issue before the state that reads the result
	localparam [3:0] WAIT_ADD = LAT_ADD - 2, WAIT_MUL = LAT_MUL - 2;
	// sampler_mulhi's latency: one Horner step every LAT_MH cycles
	localparam [1:0] LAT_MH = 2'd2;
	localparam [1:0] ERR_NONE = 2'd0, ERR_ARG = 2'd1, ERR_RANGE = 2'd2, ERR_TRIALS = 2'd3;

	localparam [4:0]
		S_IDLE   = 5'd0,  S_TRIAL  = 5'd5,  S_BYTES  = 5'd6,
		S_X1     = 5'd9,  S_X2     = 5'd10, S_X3     = 5'd11,
		S_X4     = 5'd12, S_E1     = 5'd13, S_E2     = 5'd14, S_E3     = 5'd15,
		S_HAND   = 5'd17, S_PARK   = 5'd18, S_TAKE   = 5'd19, S_ADOPT  = 5'd20,
		S_WAIT   = 5'd22, S_ERR    = 5'd23;
	localparam [1:0] B_IDLE = 2'd0, B_HORNER = 2'd1, B_BER = 2'd2, B_CM = 2'd3;
	localparam [1:0] HB_IDLE = 2'd0, HB_RDY = 2'd1, HB_WAIT = 2'd2;
	// B's chain: cycles after the front's S_X1 issue (bc_q) at which it
	// takes the prefetched position's z and issues its operations (the
	// same chain as the front's, shifted by 12 cycles: no issue of the
	// front's chain or of the next one, 37 cycles later, falls on these)
	localparam [5:0] BC_Z = 6'd11, BC_T1 = 6'd12, BC_SQ = 6'd18, BC_DSS = 6'd23,
		BC_X = 6'd28, BC_Y = 6'd34, BC_E = 6'd39, BC_T = 6'd41, BC_END = 6'd47;

	reg  [4:0]  st_q, ret_q;     // front state; S_WAIT returns to ret_q
	reg  [1:0]  bst_q;           // back state (Horner + BerExp bytes)
	reg         spec_q;          // the front's trial is speculative
	reg         pf_q;            // prefetch of the next trial's 10 bytes runs
	reg  [8:0]  fcur_q;          // its look-ahead cursor
	reg  [7:0]  nsb_q;           // the prefetched sign byte
	reg  [9:0]  fp_q;            // stream position after the front trial's
	                             // 10 bytes (its first BerExp byte), 0..512
	reg  [31:0] fe_q;            // front: (int) trunc(x / ln 2)
	reg         terr_q;          // front: ticket with e < 0 (ERR_RANGE)
	reg  [63:0] tzz_q;           // front: ticket zz
	reg  [5:0]  bz_q;            // back: z of the trial in the Horner rule
	reg  [3:0]  cnt_q;
	reg         issued_q;        // second visit of a state after S_WAIT
	reg  [3:0]  su_q;            // per-sample setup step (0: done)
	reg  [63:0] mu_q, isig_q, smin_q;
	reg  [7:0]  maxt_q;
	reg  [31:0] s_q;             // floor(mu)
	reg  [63:0] fs_q;            // fpr_of(s_q), then fpr_of(bs_q) (setup)
	reg  [63:0] r_q, dss_q, c63_q, t4_q, x_q, zz_q, zb_q;
	reg  [5:0]  e_q;             // back: min(e, 63), e = (int) trunc(x / ln 2)
	reg  [71:0] v_q;
	reg  [3:0]  nb_q;            // bytes read in this trial
	reg  [4:0]  z0_q;
	reg  [5:0]  z_q;             // signed, -18..19
	reg  [3:0]  hk_q;            // Horner step 1..12, 13: the ccs product
	reg  [1:0]  hc_q;            // cycle within a Horner step (0: issue)
	reg  [2:0]  bi_q;            // BerExp byte index, 7 (top) .. 0
	reg  [7:0]  trials_q;
	// pair speculation: the next sample B (its mu, floor, r); B's chain
	// for the position g after the front's trial (its bytes prefetched),
	// run beside the front's chain; B's Horner rule for it on the mulhi
	// between the back's issues; and a start latched while the front
	// drains after an accept
	reg         pv_q;            // B is known (set at start with nvalid_i)
	reg  [63:0] bmu_q, br_q;
	reg  [31:0] bs_q;
	reg         pfok_q;          // the prefetch of the front trial's next
	                             // position was made (B's chain may run)
	reg  [5:0]  bc_q;            // B's chain: cycles since the front's S_X1
	                             // issue, 0 when none runs
	reg  [5:0]  tc_q;            // the previous chain's count while the next
	                             // front chain has started a new one (its
	                             // last steps, BC_E .. BC_END, overlap the
	                             // new chain's first ten cycles, which issue
	                             // nothing)
	reg  [5:0]  bzc_q;           // B's chain: z at g (signed)
	reg  [4:0]  bz0c_q;          // its z0
	reg  [63:0] bt4_q, qx_q;
	reg  [31:0] qfe_q;
	reg  [1:0]  hb_st_q;         // B's Horner context
	reg  [3:0]  hbk_q;           // its next step (1..13), 14: last product due
	reg  [1:0]  bp_q;            // B issued on the mulhi 1 / 2 cycles ago
	reg  [63:0] hbz_q, hby_q;
	reg  [5:0]  hbe_q;           // min(e_B, 63)
	reg         hbrdy_q;         // B's zb (zbb_q) is ready
	reg  [63:0] zbb_q;
	reg         bnext_q;         // the running B chain is B's second trial
	                             // (position g + 11), kept after A's accept
	reg         ardy_q;          // its ticket is in tzz_q, fe_q (S_ADOPT)
	reg         held_q;          // A accepted after one BerExp byte at the
	                             // trial whose next position B's Horner
	                             // context holds: kept for the next start
	                             // (B's z and fp are the front's z_q, fp_q
	                             // of the speculative trial at g, which the
	                             // drain does not change)
	reg         ps_q;            // a start latched while draining
	reg  [63:0] lmu_q, lisig_q, lsmin_q;
	reg  [7:0]  lmaxt_q;

	// FP units. An operation issues in the cycle its state decides it:
	// the operands go to the unit's first stage directly (add_iss /
	// mul_iss with add_a_d ... below), so a result is read LAT_ADD = 6
	// (LAT_MUL = 5) cycles after its issue. Between issues the unit sees
	// the last issued operands again (held in add_a_q ...), so a result
	// stays readable until LAT cycles after the next issue.
	reg  [63:0] add_a_q, add_b_q, mul_a_q, mul_b_q;
	reg         add_iss, mul_iss;
	reg  [63:0] add_a_d, add_b_d, mul_a_d, mul_b_d;
	wire [63:0] add_a = add_iss ? add_a_d : add_a_q;
	wire [63:0] add_b = add_iss ? add_b_d : add_b_q;
	wire [63:0] mul_a = mul_iss ? mul_a_d : mul_a_q;
	wire [63:0] mul_b = mul_iss ? mul_b_d : mul_b_q;
	wire [63:0] add_y, mul_y;
	fp64_add u_add (.clk(clk_i), .a(add_a), .b(add_b), .y(add_y));
	fp64_mul u_mul (.clk(clk_i), .a(mul_a), .b(mul_b), .y(mul_y));

	// x 2^63 of a binary64 that is zero or has |x| < 2^960: exact, so it
	// is the exponent field plus 63 (a zero or subnormal x gives a zero
	// of its sign, as fp64_mul's flush); fpr_trunc_scaled(x, 63) of
	// src/fpr_emu.c is then fpr_trunc of it
	function [63:0] scale63(input [63:0] x);
		scale63 = (x[62:52] == 11'd0) ? (x & SIGN) : (x + {1'b0, 11'd63, 52'd0});
	endfunction

	// conversions
	wire [63:0] f_s, f_z, f_z0sq, floor_mu, trunc_mul, trunc_add63, trunc_mul63;
	// step 4 of the setup converts B's floor (pair speculation)
	sampler_i2f u_i2f_s  (.i_i((su_q == 4'd4) ? bs_q : s_q), .f_o(f_s));  // registered in fs_q
	// (B's chain has its own two: each output bit is a function of five or
	// six register bits, one LUT, where a shared converter would put a
	// multiplexer in front of it)
	wire [63:0] f_zb, f_z0sqb;
	sampler_i2f u_i2f_z  (.i_i({{26{z_q[5]}}, z_q}), .f_o(f_z));
	sampler_i2f u_i2f_zb (.i_i({{26{bzc_q[5]}}, bzc_q}), .f_o(f_zb));
	wire [9:0] z0sq = {5'd0, z0_q} * {5'd0, z0_q};
	wire [9:0] z0sqb = {5'd0, bz0c_q} * {5'd0, bz0c_q};
	sampler_i2f u_i2f_z0b (.i_i({22'd0, z0sqb}), .f_o(f_z0sqb));
	sampler_i2f u_i2f_z0 (.i_i({22'd0, z0sq}), .f_o(f_z0sq));
	// e ln 2 = fpr_mul(fpr_of(e), ln 2) from a ROM (sampler_eln2_rom,
	// generated: the products for e = 0..511; e < 289 for legal inputs as
	// x < 20^2 / 2): read one cycle after e is registered (the front's fe_q
	// in the cycle after S_E1, B's qfe_q in the cycle after BC_E), instead of a
	// multiplication (5 cycles) issued in S_E1
	reg         rsel_q;          // the ROM read is B's (qfe_q, at BC_E + 1)
	wire [63:0] eln2;
	sampler_eln2_rom u_eln2 (.clk_i(clk_i), .a_i(rsel_q ? qfe_q[8:0] : fe_q[8:0]), .d_o(eln2));
	// (int) trunc(y) < 0 for the y = x / ln 2 of S_E1, i.e. y <= -1:
	// exact for |y| < 2^31, and x >= -18^2 / (2 sigma0^2) > -49 for every
	// z0 the base sampler gives (the same flag as trunc_mul[31], without
	// the conversion on the issue path)
	wire        eneg = mul_y[63] & (mul_y[62:52] >= 11'd1023);
	// step 3 of the setup takes B's floor (pair speculation)
	sampler_f2i u_floor  (.f_i((su_q == 4'd3) ? bmu_q : mu_q), .floor_i(1'b1), .i_o(floor_mu));
	sampler_f2i u_trunc  (.f_i(mul_y), .floor_i(1'b0), .i_o(trunc_mul));
	sampler_f2i u_trunca (.f_i(scale63(add_y)), .floor_i(1'b0), .i_o(trunc_add63));
	sampler_f2i u_truncm (.f_i(scale63(mul_y)), .floor_i(1'b0), .i_o(trunc_mul63));

	// 64 x 64 -> high 64 (optionally C - high), two-stage pipeline
	reg         mh_en, mh_sub;
	reg  [63:0] mh_a, mh_b, mh_c;
	wire [63:0] mh_y;
	sampler_mulhi u_mulhi (.clk_i(clk_i), .rst_ni(rst_ni), .en_i(mh_en),
		.a_i(mh_a), .b_i(mh_b), .c_i(mh_c), .sub_i(mh_sub), .y_o(mh_y));

	// z = b ? z0 + 1 : -z0 (the base sampler's sign byte b, low bit)
	function [5:0] zsigned(input b, input [4:0] z0);
		zsigned = b ? {1'b0, z0} + 6'd1 : 6'd0 - {1'b0, z0};
	endfunction

	// fpr_half (src/fpr.h): exponent field minus one, zero below field 2
	function [63:0] fhalf(input [63:0] x);
		fhalf = (x[62:52] >= 11'd2) ? (x - 64'h0010000000000000) : (x & SIGN);
	endfunction

	// legality of the operands
	// the start's operands: the inputs, or those latched during a drain
	wire [63:0] in_mu   = ps_q ? lmu_q : mu_i;
	wire [63:0] in_isig = ps_q ? lisig_q : isigma_i;
	wire [63:0] in_smin = ps_q ? lsmin_q : sigma_min_i;
	wire [7:0]  in_mt   = ps_q ? lmaxt_q : max_trials_i;
	wire [7:0]  in_maxt = (in_mt == 8'd0) ? 8'd255 : in_mt;
	wire mu_ok   = (in_mu[62:52] < 11'd1053);                   // |mu| < 2^30
	wire isig_ok = ~in_isig[63] & (in_isig[62:52] == 11'h3FE);
	wire smin_ok = ~in_smin[63] & (in_smin[62:52] == 11'h3FF);
	// the held ticket of B is taken when the start asks exactly for B (its
	// mu, A's 1/sigma, sigma_min and trial limit) and the PRNG is still
	// where A's accepting byte left it (B's bytes start there)
	wire take = held_q & (in_mu == bmu_q) & (in_isig == isig_q)
		& (in_smin == smin_q) & (in_maxt == maxt_q) & ({1'b0, ptr_i} + 10'd10 == fp_q);

	// base sampler compares and their count, taken with the sign byte
	reg [17:0] lt;
	integer i;
	always @(*) begin
		for (i = 0; i < 18; i = i + 1)
			lt[i] = (v_q < SAMPLER_RCDT[72 * i +: 72]);
	end
	reg [4:0] z0c;
	always @(*) begin
		z0c = 5'd0;
		for (i = 0; i < 18; i = i + 1)
			z0c = z0c + {4'd0, lt[i]};
	end

	// B's Horner context: its product issued two cycles ago arrives now
	// (b_arr); the last one (hb_fin) never in the cycle of the back's
	// zfirst: the two issue in different cycles
	wire        b_arr = (hb_st_q == HB_WAIT) & bp_q[1];
	wire        hb_fin = b_arr & (hbk_q == 4'd14);
	wire [5:0]  sw = hb_fin ? hbe_q : e_q;
	function [5:0] sat63(input [31:0] e);
		sat63 = (e > 32'd63) ? 6'd63 : e[5:0];
	endfunction
	// zb = ((mulhi(c63, y) << 1) - 1) >> min(e, 63), formed in the cycle
	// the product is read (zfirst), which also compares the first (top)
	// BerExp byte against it; later bytes against the registered zb
	wire        zfirst = (bst_q == B_HORNER) & (hc_q == 2'd0) & (hk_q == 4'd14);
	wire [63:0] zb_d = ({mh_y[62:0], 1'b0} - 64'd1) >> sw;
	wire [7:0]  zbyte = zfirst ? zb_d[63:56] : zb_q[8 * bi_q +: 8];
	wire        ber_last = (rd_byte_i != zbyte) || (!zfirst && bi_q == 3'd0);
	wire        ber_acc = (rd_byte_i < zbyte);

	assign busy_o = (st_q != S_IDLE);

	// the front reads its 10 bytes on the byte port (a trial at the
	// committed cursor) or on the look-ahead port (a speculative trial:
	// always ready, the PRNG state does not move); the back reads the
	// BerExp bytes on the byte port, never in the same cycle as the front
	wire f_rd = (st_q == S_TRIAL) | ((st_q == S_BYTES) & ~spec_q);
	always @(*) begin
		rd_valid_o = f_rd | (bst_q == B_BER) | zfirst;
		rd_align_o = (st_q == S_TRIAL);
	end
	wire rd_fire = rd_valid_o & rd_ready_i;
	wire b_fire = ((bst_q == B_BER) | zfirst) & rd_ready_i;
	wire f_fire = f_rd & rd_ready_i;
	wire [7:0] f_byte = rd_byte_i;
	assign pk_addr_o = fcur_q;
	// a speculative trial k+1 (BerExp of trial k read 1 byte) starts at
	// g = fp + 1 and reads g .. g + 9; it is made only when these bytes
	// and the commit ptr g + 10 stay in the current buffer with no refill
	// rule firing (fp <= 500: the align needs g < 503, the last byte g + 9
	// below 511): a function of the stream position only. Its 10 bytes
	// are prefetched on the look-ahead port (10 cycles, one per cycle)
	// while the front runs trial k's x chain (36 cycles), into v_q (free
	// once trial k's z0 is taken) and nsb_q.
	wire spec_ok = (fp_q <= 10'd500);

	// Horner: step k (1..12) issues y_k = C[k] - mulhi(zz, y_(k-1)) with
	// y_0 = C[0]; step 13 issues mulhi(c63, y_12); one issue every LAT_MH
	// cycles (the pipeline's latency), the result read when the next issues
	// B's Horner context issues in the cycles the back does not: its step
	// is ready (operand in hby_q) or its previous product arrives now
	wire a_mh = (bst_q == B_HORNER) & (hc_q == 2'd0) & (hk_q != 4'd14);
	wire b_mh = ((hb_st_q == HB_RDY) | (b_arr & ~hb_fin)) & ~a_mh;
	always @(*) begin
		mh_en = a_mh | b_mh;
		if (a_mh) begin
			mh_a = (hk_q == 4'd13) ? c63_q : zz_q;
			mh_b = (hk_q == 4'd1) ? SAMPLER_EXPM[63:0] : mh_y;
			mh_c = (hk_q < 4'd13) ? SAMPLER_EXPM[64 * hk_q +: 64] : 64'd0;
			mh_sub = (hk_q != 4'd13);
		end else begin
			mh_a = (hbk_q == 4'd13) ? c63_q : hbz_q;
			mh_b = (hbk_q == 4'd1) ? SAMPLER_EXPM[63:0] : (b_arr ? mh_y : hby_q);
			mh_c = (hbk_q < 4'd13) ? SAMPLER_EXPM[64 * hbk_q +: 64] : 64'd0;
			mh_sub = (hbk_q != 4'd13);
		end
	end
	// B's chain events of this cycle (on either count); bc_iss: B issues
	// on a unit (the front's first issue of a chain then waits a cycle: only
	// possible when a hand-over was late, near a refill)
	wire ev_z = (bc_q == BC_Z) | (tc_q == BC_Z), ev_t1 = (bc_q == BC_T1) | (tc_q == BC_T1),
	     ev_sq = (bc_q == BC_SQ) | (tc_q == BC_SQ), ev_dss = (bc_q == BC_DSS) | (tc_q == BC_DSS),
	     ev_x = (bc_q == BC_X) | (tc_q == BC_X), ev_y = (bc_q == BC_Y) | (tc_q == BC_Y),
	     ev_e = (bc_q == BC_E) | (tc_q == BC_E), ev_t = (bc_q == BC_T) | (tc_q == BC_T),
	     ev_end = (bc_q == BC_END) | (tc_q == BC_END);
	wire bc_iss = ev_t1 | ev_sq | ev_dss | ev_x | ev_y | ev_t;

	// FP issues of this cycle: the per-sample setup, B's chain and the
	// front's chain. They never fall in one cycle (the setup is over before
	// S_X1, B's chain is placed between the front's issues, and the front's
	// first issue of a chain waits when it would meet one of B's), so the
	// operands are a one-hot AND-OR of the sources (one multiplexer level
	// in front of the units, not a priority chain). B's chain and the
	// front's share the selects of the steps whose operands are the same
	// (add_y / mul_y are then the issuer's own results).
	wire fx1 = (st_q == S_X1) & ~issued_q & (su_q == 4'd0) & ~bc_iss;
	wire m_ii = (su_q == 4'd2);                                   // isigma^2
	wire m_is = (su_q == 4'd3);                                   // ccs
	wire m_t4 = ev_t1 | fx1;                                      // t4
	wire m_sq = ev_sq | ((st_q == S_X1) & issued_q);              // t1^2
	wire m_ds = ev_dss | (st_q == S_X2);                          // t2 dss
	wire m_y  = ev_y | (st_q == S_X4);                            // x / ln 2
	wire a_r  = (su_q == 4'd3);                                   // mu - s
	wire a_rb = (su_q == 4'd5) & pv_q;                            // mu_B - s_B
	wire a_tf = fx1, a_tb = ev_t1;                                // z - r, z - r_B
	wire a_xf = (st_q == S_X3), a_xb = ev_x;                      // t3 - t4, t3 - t4_B
	wire a_ef = (st_q == S_E2), a_eb = ev_t;                      // x - e ln 2
	function [63:0] gate(input c, input [63:0] v);
		gate = {64{c}} & v;
	endfunction
	always @(*) begin
		mul_iss = m_ii | m_is | m_t4 | m_sq | m_ds | m_y;
		mul_a_d = (gate(m_ii | m_is, isig_q) | gate(fx1, f_z0sq) | gate(ev_t1, f_z0sqb)
			| gate(m_sq | m_y, add_y) | gate(m_ds, mul_y));
		mul_b_d = (gate(m_ii, isig_q) | gate(m_is, smin_q)
			| gate(m_t4, SAMPLER_FPR_INV_2SQRSIGMA0) | gate(m_sq, add_y) | gate(m_ds, dss_q)
			| gate(m_y, SAMPLER_FPR_INV_LOG2));
		add_iss = a_r | a_rb | a_tf | a_tb | a_xf | a_xb | a_ef | a_eb;
		add_a_d = (gate(a_r, mu_q) | gate(a_rb, bmu_q) | gate(a_tf, f_z) | gate(a_tb, f_zb)
			| gate(a_xf | a_xb, mul_y) | gate(a_ef, x_q) | gate(a_eb, qx_q));
		add_b_d = ((gate(a_r | a_rb, fs_q) | gate(a_tf, r_q) | gate(a_tb, br_q)
			| gate(a_xf, t4_q) | gate(a_xb, bt4_q) | gate(a_ef | a_eb, eln2)) ^ SIGN);
	end

	// Dropping the pair speculation's work: the B chains (and the kept
	// second-trial ticket), and B's Horner context.
	task b_stop_chains;
		begin
			bc_q <= 6'd0; tc_q <= 6'd0; bnext_q <= 1'b0; ardy_q <= 1'b0;
		end
	endtask
	task b_drop_ctx;
		begin
			hb_st_q <= HB_IDLE; hbrdy_q <= 1'b0;
		end
	endtask

	// The front's next trial after a hand-over (S_HAND) or a take
	// (S_TAKE): speculative at g' = fp + 1 if spec_ok, its z from the
	// prefetched bytes (as the last cycle of S_BYTES), its BerExp byte at
	// fcur_q (= g' + 10), the next prefetch if that is <= 500 (which also
	// lets a pair's B chain run beside it); else the front parks until the
	// back decides. `go` is the state that runs the trial's chain.
	task spec_next(input [4:0] go);
		begin
			nb_q <= 4'd0;
			if (spec_ok) begin
				spec_q <= 1'b1;
				z0_q <= z0c;
				z_q <= zsigned(nsb_q[0], z0c);
				fp_q <= {1'b0, fcur_q};
				pfok_q <= (fcur_q <= 9'd500);
				if (fcur_q <= 9'd500) begin
					pf_q <= 1'b1; fcur_q <= fcur_q + 9'd1;
				end
				st_q <= go;
			end else begin
				spec_q <= 1'b0; st_q <= S_PARK;
				pfok_q <= 1'b0;
			end
		end
	endtask

	always @(posedge clk_i or negedge rst_ni) begin
		if (!rst_ni) begin
			st_q <= S_IDLE; ret_q <= S_IDLE; cnt_q <= 4'd0; issued_q <= 1'b0; su_q <= 4'd0;
			bst_q <= B_IDLE; spec_q <= 1'b0; pf_q <= 1'b0; nsb_q <= 8'd0; fcur_q <= 9'd0; fp_q <= 10'd0; fe_q <= 32'd0;
			terr_q <= 1'b0; tzz_q <= 64'd0; bz_q <= 6'd0;
			cm_valid_o <= 1'b0; cm_ptr_o <= 9'd0;
			mu_q <= 64'd0; isig_q <= 64'd0; smin_q <= 64'd0; maxt_q <= 8'd0;
			s_q <= 32'd0; fs_q <= 64'd0; r_q <= 64'd0; dss_q <= 64'd0; c63_q <= 64'd0;
			t4_q <= 64'd0; x_q <= 64'd0; zz_q <= 64'd0; zb_q <= 64'd0;
			e_q <= 6'd0; v_q <= 72'd0; nb_q <= 4'd0; z0_q <= 5'd0;
			z_q <= 6'd0; hk_q <= 4'd0; hc_q <= 2'd0; bi_q <= 3'd0; trials_q <= 8'd0;
			add_a_q <= 64'd0; add_b_q <= 64'd0; mul_a_q <= 64'd0; mul_b_q <= 64'd0;
			done_o <= 1'b0; z_o <= 32'd0; err_o <= ERR_NONE; trials_o <= 8'd0;
			pv_q <= 1'b0; bmu_q <= 64'd0; br_q <= 64'd0; bs_q <= 32'd0; pfok_q <= 1'b0;
			bc_q <= 6'd0; tc_q <= 6'd0; bzc_q <= 6'd0; bz0c_q <= 5'd0; bt4_q <= 64'd0;
			rsel_q <= 1'b0; qx_q <= 64'd0; qfe_q <= 32'd0;
			hb_st_q <= HB_IDLE; hbk_q <= 4'd0; bp_q <= 2'd0; hbz_q <= 64'd0; hby_q <= 64'd0;
			hbe_q <= 6'd0; hbrdy_q <= 1'b0; zbb_q <= 64'd0;
			held_q <= 1'b0; ps_q <= 1'b0;
			bnext_q <= 1'b0; ardy_q <= 1'b0;
			lmu_q <= 64'd0; lisig_q <= 64'd0; lsmin_q <= 64'd0; lmaxt_q <= 8'd0;
		end else begin
			done_o <= 1'b0;
			cm_valid_o <= 1'b0;
			if (add_iss) begin add_a_q <= add_a_d; add_b_q <= add_b_d; end
			if (mul_iss) begin mul_a_q <= mul_a_d; mul_b_q <= mul_b_d; end
			// Per-sample setup, a fixed schedule on the FP units beside
			// the first trial's bytes (which take at least 11 cycles, so it
			// is over before S_X1): s = floor(mu) (step 1), fpr_of(s)
			// (step 2, registered); isigma^2 issued at step 2, r = mu - s
			// and ccs = isigma sigma_min at step 3 (the issues of the
			// always block above); dss = half(isigma^2) at step 7 (the
			// multiplier's result 5 cycles after its issue), r and c63 =
			// trunc(ccs 2^63) << 1 at step 9 (the adder's: 6).
			// With a pair (nvalid_i at step 2): B's mu (step 2), its
			// floor (step 3, the floor converter's input switched to B's
			// mu), fpr_of of it (step 4) and r_B = mu_B - floor(mu_B)
			// (issued at step 5, read at step 11, before the first trial's
			// bytes are in); its dss and c63 are A's (the same 1/sigma and
			// sigma_min).
			if (su_q != 4'd0) begin
				su_q <= (su_q == (pv_q ? 4'd11 : 4'd9)) ? 4'd0 : su_q + 4'd1;
				case (su_q)
				4'd1: s_q <= floor_mu[31:0];
				4'd2: begin
					fs_q <= f_s;
					pv_q <= nvalid_i; bmu_q <= nmu_i;
				end
				4'd3: bs_q <= floor_mu[31:0];
				4'd4: fs_q <= f_s;
				4'd7: dss_q <= fhalf(mul_y);
				4'd9: begin r_q <= add_y; c63_q <= {trunc_mul63[62:0], 1'b0}; end
				4'd11: br_q <= add_y;
				default: ;
				endcase
			end
			// ---- pair speculation: B's chain for the position g after the
			// front's trial, self-timed from the front's S_X1 issue (bc_q);
			// its issues are in the always block above, its results read at
			// the same distances as the front's ----
			rsel_q <= ev_e;
			if (bc_q != 6'd0) bc_q <= (bc_q == BC_END) ? 6'd0 : bc_q + 6'd1;
			if (tc_q != 6'd0) tc_q <= (tc_q == BC_END) ? 6'd0 : tc_q + 6'd1;
			if (ev_z) begin bzc_q <= zsigned(nsb_q[0], z0c); bz0c_q <= z0c; end // g's z, z0
			if (ev_sq) bt4_q <= mul_y;                                  // t4_B
			if (ev_y) qx_q <= add_y;                                    // x_B
			if (ev_e) begin                                             // e_B
				qfe_q <= trunc_mul[31:0];
				if (eneg) begin                      // e < 0: B is not kept
					if (bc_q == BC_E) bc_q <= 6'd0;
					if (tc_q == BC_E) tc_q <= 6'd0;
				end
			end
			if (ev_end) begin
				if (bnext_q) begin
					// B's second trial: its ticket goes to the front's
					// ticket registers (the front is past its drain and
					// runs no chain until S_ADOPT hands this one over)
					tzz_q <= {trunc_add63[62:0], 1'b0}; fe_q <= qfe_q; terr_q <= 1'b0;
					ardy_q <= 1'b1;
				end else begin
					// the ticket goes to B's Horner context
					hbz_q <= {trunc_add63[62:0], 1'b0}; hbe_q <= sat63(qfe_q);
					hbk_q <= 4'd1; hb_st_q <= HB_RDY; hbrdy_q <= 1'b0;
				end
			end
			// ---- B's Horner context: y = C[k] - mulhi(zz_B, y), then
			// mulhi(c63, y) and zb_B, on the mulhi cycles the back leaves ----
			bp_q <= {bp_q[0], b_mh};
			if (b_mh) begin
				hbk_q <= hbk_q + 4'd1; hb_st_q <= HB_WAIT;
			end else if (b_arr) begin
				if (hb_fin) begin
					zbb_q <= zb_d; hbrdy_q <= 1'b1; hb_st_q <= HB_IDLE;
				end else begin
					hby_q <= mh_y; hb_st_q <= HB_RDY;
				end
			end
			// a start while the front drains (after an accept with B's
			// chain running) is kept for S_IDLE
			if (start_i && st_q != S_IDLE) begin
				ps_q <= 1'b1; lmu_q <= mu_i; lisig_q <= isigma_i; lsmin_q <= sigma_min_i;
				lmaxt_q <= max_trials_i;
			end
			// ---- front: a trial's bytes, x and the exponent split ----
			case (st_q)
			S_IDLE: if (start_i || ps_q) begin
				ps_q <= 1'b0;
				trials_q <= 8'd0;
				issued_q <= 1'b0;
				held_q <= 1'b0;
				if (take) begin
					// B of a pair: its first trial (the bytes at the
					// committed cursor) has its chain and Horner rule done
					// or under way in B's context; S_TAKE decides it
					mu_q <= in_mu; s_q <= bs_q; r_q <= br_q; pv_q <= 1'b0;
					st_q <= S_TAKE;
				end else begin
					b_stop_chains; b_drop_ctx;
					mu_q <= in_mu; isig_q <= in_isig; smin_q <= in_smin;
					maxt_q <= in_maxt;
					pv_q <= 1'b0;
					spec_q <= 1'b0;
					pf_q <= 1'b0;
					if (mu_ok & isig_ok & smin_ok) begin
						su_q <= 4'd1; st_q <= S_TRIAL;
					end else begin err_o <= ERR_ARG; st_q <= S_ERR; end
				end
			end
			// align (prng_u64's refill rule), on the byte port only
			S_TRIAL: begin
				nb_q <= 4'd0;
				if (rd_fire) st_q <= S_BYTES;
			end
			// 9 bytes -> v; the 10th (b) is taken with the compares of v
			S_BYTES: if (f_fire) begin
				nb_q <= nb_q + 4'd1;
				fcur_q <= fcur_q + 9'd1;
				if (nb_q == 4'd9) begin
					// b = this byte's low bit; z = b ? z0 + 1 : -z0
					z0_q <= z0c;
					z_q <= zsigned(f_byte[0], z0c);
					// position of this trial's first BerExp byte; the
					// prefetch of the next trial's bytes if spec_ok
					fp_q <= {1'b0, ptr_i} + 10'd1;
					pfok_q <= (ptr_i < 9'd500);
					if (ptr_i < 9'd500) begin
						pf_q <= 1'b1; nb_q <= 4'd0; fcur_q <= ptr_i + 9'd2;
					end
					st_q <= S_X1;
				end else begin
					v_q[8 * nb_q +: 8] <= f_byte;
				end
			end
			// t1 = z - r; t4 = z0^2 * 1/(2 sigma0^2) (after the setup)
			// (the issues of S_X1 .. S_E2 are in the always block above)
			S_X1: if (!issued_q) begin
				if (su_q == 4'd0 && !bc_iss) begin
					cnt_q <= WAIT_ADD; ret_q <= S_X1; issued_q <= 1'b1; st_q <= S_WAIT;
					// with a pair: B's chain for the next position g
					if (pv_q && pfok_q) begin
						bc_q <= 6'd1;
						if (bc_q != 6'd0 && bc_q != BC_END) tc_q <= bc_q + 6'd1;
					end
				end
			end else begin
				t4_q <= mul_y;
				cnt_q <= WAIT_MUL; ret_q <= S_X2; issued_q <= 1'b1; st_q <= S_WAIT;
			end
			// t2 = t1^2
			S_X2: begin
				cnt_q <= WAIT_MUL; ret_q <= S_X3; issued_q <= 1'b1; st_q <= S_WAIT;
			end
			// t3 = t2 * dss
			S_X3: begin
				cnt_q <= WAIT_ADD; ret_q <= S_X4; issued_q <= 1'b1; st_q <= S_WAIT;
			end
			// x = t3 - t4
			S_X4: begin
				x_q <= add_y;
				cnt_q <= WAIT_MUL; ret_q <= S_E1; issued_q <= 1'b1; st_q <= S_WAIT;
			end
			// e = (int) trunc(x / ln 2); e ln 2 is read from the ROM in
			// the next cycle (address fe_q), S_E2 issues with it;
			// e < 0 makes an error ticket (an error only if the trial is
			// not speculative or its speculation is confirmed)
			S_E1: begin
				fe_q <= trunc_mul[31:0];
				if (eneg) begin
					issued_q <= 1'b0; terr_q <= 1'b1; st_q <= S_HAND;
					bc_q <= 6'd0; tc_q <= 6'd0;            // as does B's chain beside it
				end else begin
					terr_q <= 1'b0;
					cnt_q <= 4'd0; ret_q <= S_E2; issued_q <= 1'b1; st_q <= S_WAIT;
				end
			end
			// t = x - e ln 2
			S_E2: begin
				cnt_q <= WAIT_ADD; ret_q <= S_E3; issued_q <= 1'b1; st_q <= S_WAIT;
			end
			// zz = trunc(t 2^63) << 1 (registered: fpr_trunc is a long
			// path, the mulhi's partial products another): the ticket
			S_E3: begin
				tzz_q <= {trunc_add63[62:0], 1'b0};
				issued_q <= 1'b0; st_q <= S_HAND;
			end
			// hand the ticket to the back when it is idle: the trial
			// becomes real (a speculative one: commit its 10 bytes, the
			// PRNG ptr moves from g to g + 10); then the front starts the
			// next trial speculatively at g' = fp + 1 if spec_ok, else parks
			// until the back decides
			// (after A accepted with B's chain running, the front only
			// drains: no hand-over, B's ticket is kept)
			S_HAND: if (held_q) begin
				st_q <= S_IDLE;
			end else if (bst_q == B_IDLE && !pf_q) begin
				trials_q <= trials_q + 8'd1;
				if (spec_q) begin cm_valid_o <= 1'b1; cm_ptr_o <= fp_q[8:0]; end
				if (terr_q) begin
					err_o <= ERR_RANGE; st_q <= S_ERR;
				end else begin
					zz_q <= tzz_q; e_q <= sat63(fe_q); bz_q <= z_q;
					hk_q <= 4'd1; hc_q <= 2'd0; bst_q <= B_HORNER;
					spec_next(S_X1);
				end
			end
			// B of a pair taken: when B's context has zb, B's first trial
			// becomes real (its 10 bytes at g committed, trial 1), its
			// BerExp bytes are compared with zb (the back, after the commit
			// is in), and the front starts B's next trial speculatively at
			// g + 11 (the bytes the drain prefetched), as S_HAND does
			S_TAKE: if (hbrdy_q && bst_q == B_IDLE && !pf_q) begin
				hbrdy_q <= 1'b0;
				trials_q <= 8'd1;
				cm_valid_o <= 1'b1; cm_ptr_o <= fp_q[8:0];
				bz_q <= z_q; zb_q <= zbb_q; bi_q <= 3'd7; bst_q <= B_CM;
				// (its chain already runs if A's drain kept it)
				spec_next(bnext_q ? S_ADOPT : S_X1);
				if (!spec_ok) b_stop_chains;
			end else if (hb_st_q == HB_IDLE && !hbrdy_q) begin
				// (not reached: a held B always has its context) B starts
				// as a single sample
				spec_q <= 1'b0; pf_q <= 1'b0; su_q <= 4'd1; st_q <= S_TRIAL;
			end
			// B's second trial at g + 11: the chain kept from A's drain
			// gives its ticket (then S_HAND as for any speculative trial);
			// if that chain stopped (e < 0), the front runs the trial's chain
			S_ADOPT: if (ardy_q) begin
				ardy_q <= 1'b0; bnext_q <= 1'b0; st_q <= S_HAND;
			end else if (bc_q == 6'd0) begin
				bnext_q <= 1'b0; st_q <= S_X1;
			end
			S_PARK: ;
			S_ERR: begin
				b_stop_chains; b_drop_ctx; held_q <= 1'b0;
				z_o <= 32'd0;
				trials_o <= trials_q;
				done_o <= 1'b1;
				su_q <= 4'd0;
				spec_q <= 1'b0;
				pf_q <= 1'b0;
				bst_q <= B_IDLE;
				st_q <= S_IDLE;
			end
			S_WAIT: begin
				if (cnt_q == 4'd0) st_q <= ret_q;
				else cnt_q <= cnt_q - 4'd1;
			end
			default: st_q <= S_IDLE;
			endcase
			// ---- prefetch: 9 bytes -> v, the 10th -> nsb ----
			if (pf_q) begin
				fcur_q <= fcur_q + 9'd1;
				if (nb_q == 4'd9) begin
					nsb_q <= pk_byte_i; pf_q <= 1'b0;
				end else begin
					v_q[8 * nb_q +: 8] <= pk_byte_i; nb_q <= nb_q + 4'd1;
				end
			end
			// ---- back: Horner, zb, BerExp bytes; its decision overrides
			// the front (assigned last) ----
			case (bst_q)
			// y = C[k] - mulhi(zz, y), k = 1..12, then mulhi(c63, y), one
			// step every LAT_MH cycles (mh_en above); when the 13th is read
			// (zfirst): zb, and the first BerExp byte compared (as B_BER)
			B_HORNER: begin
				hc_q <= (hc_q == LAT_MH - 2'd1) ? 2'd0 : hc_q + 2'd1;
				if (zfirst) begin
					zb_q <= zb_d;
					bi_q <= 3'd7;
					bst_q <= B_BER;
					if (b_fire) begin
						bi_q <= 3'd6;
						if (ber_last) begin
							bst_q <= B_IDLE;
							if (ber_acc) begin
								// accept: the sample ends in this cycle;
								// with B's Horner context on the position
								// after this trial (one BerExp byte read:
								// B's first trial is the speculative
								// trial's bytes), the front drains and B
								// is held for the next start (the chain
								// of the position after that stops)
								z_o <= s_q + {{26{bz_q[5]}}, bz_q};
								err_o <= ERR_NONE; trials_o <= trials_q; done_o <= 1'b1;
								tc_q <= 6'd0;
								if (pv_q && spec_q && (hb_st_q != HB_IDLE || hbrdy_q)) begin
									// (the chain beside the drained trial is
									// B's second trial at g + 11: kept)
									held_q <= 1'b1; bnext_q <= (bc_q != 6'd0);
								end else begin
									pf_q <= 1'b0; st_q <= S_IDLE;
									b_stop_chains; b_drop_ctx;
								end
							end
							else if (trials_q == maxt_q) begin
								err_o <= ERR_TRIALS; st_q <= S_ERR;
							end else if (!spec_q) begin
								// no speculation made (parked front)
								issued_q <= 1'b0; pf_q <= 1'b0; st_q <= S_TRIAL;
								b_stop_chains; b_drop_ctx;
							end else begin
								// the speculative trial is the next one;
								// B's context (its position) is not B's
								b_drop_ctx;
							end
						end
					end
				end else if (hc_q == LAT_MH - 2'd1) begin
					hk_q <= hk_q + 4'd1;
				end
			end
			// compare random bytes with zb, most significant first: the
			// trial ends at the first byte that differs or after the 8th;
			// accept iff that byte is below zb's. A second byte read means
			// the speculation's guess (one byte) was wrong: the front
			// restarts at the committed cursor (a rewind)
			B_BER: if (b_fire) begin
				bi_q <= bi_q - 3'd1;
				if (ber_last) begin
					bst_q <= B_IDLE;
					// (more than one byte read: B's chain and context, if
					// any, had the wrong bytes; after B's first trial,
					// its second's chain is wanted only after a rejection
					// after this one byte)
					if (bi_q != 3'd7) b_drop_ctx;
					if (bi_q != 3'd7 || ber_acc) b_stop_chains;
					if (ber_acc) begin
						// accept: the sample ends in this cycle
						z_o <= s_q + {{26{bz_q[5]}}, bz_q};
						err_o <= ERR_NONE; trials_o <= trials_q; done_o <= 1'b1;
						pf_q <= 1'b0; st_q <= S_IDLE;
					end else if (trials_q == maxt_q) begin
						err_o <= ERR_TRIALS; st_q <= S_ERR;
					end else if (bi_q == 3'd7 && spec_q) begin
						// B's first trial (S_TAKE) rejected after one
						// byte: the speculative trial is the next one
					end else begin
						issued_q <= 1'b0; spec_q <= 1'b0; pf_q <= 1'b0; st_q <= S_TRIAL;
					end
				end
			end
			// the commit of B's bytes (S_TAKE) is in the PRNG: its BerExp
			// bytes can be read
			B_CM: bst_q <= B_BER;
			default: ;
			endcase
		end
	end
endmodule
`default_nettype wire
