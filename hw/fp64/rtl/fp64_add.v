// fp64_add -- IEEE-754 binary64 adder (y = a + b; a subtraction is an
// addition of the operand with its sign bit flipped, which is exactly
// IEEE a - b), round to nearest (ties to even), fully pipelined: one
// operation per cycle, result LAT = 6 cycles after the operands.
//
// Value handling (hw/fp64/doc/fp64.md): subnormal operands read as zero of
// the same sign; results below 2^-1022 after rounding flush to zero of
// the result sign; exact zero sums are +0 except (-0) + (-0) = -0;
// overflow gives infinity; inf + (-inf) and any NaN operand give the
// canonical quiet NaN 0x7FF8000000000000.
//
// Algorithm: swap so that |x| >= |y|, align y with guard, round and
// sticky bits, add or subtract the 56-bit significands, normalise with a
// leading-zero count, round. The addition is commutative bit for bit.
// Pipeline (one register after each): 1 compare / swap / exponent
// difference, 2 alignment shift + sticky, 3 56-bit add / subtract,
// 4 leading-zero count, 5 normalising shift, 6 round + pack. The split keeps
// every stage short for a 100 MHz Artix-7 clock (see hw/syn/abc9_delay.sh).
`default_nettype none
module fp64_add (
	input  wire        clk,
	input  wire [63:0] a,
	input  wire [63:0] b,
	output reg  [63:0] y
);
	localparam [63:0] QNAN = 64'h7FF8000000000000;

	// ---- stage 1: classify, order by magnitude, exponent difference ----
	wire [10:0] ea = a[62:52], eb = b[62:52];
	wire        za = (ea == 11'd0), zb = (eb == 11'd0);
	wire        ia = (ea == 11'h7FF) & (a[51:0] == 52'd0);
	wire        ib = (eb == 11'h7FF) & (b[51:0] == 52'd0);
	wire        na = (ea == 11'h7FF) & (a[51:0] != 52'd0);
	wire        nb = (eb == 11'h7FF) & (b[51:0] != 52'd0);
	// Order by magnitude, subnormals read as zero: |b| > |a| is a plain
	// compare of the raw fields when neither is zero/subnormal; a zero a
	// is below any nonzero b, and a zero b is below nothing. The compare
	// reads the registered operands directly (no flush mux before the
	// carry chain), and everything that depends on its result is computed
	// for both orders beside it, so only one 2:1 mux follows it.
	wire        gt = (b[62:0] > a[62:0]);
	wire        swap = ~zb & (za | gt);
	// significands with the hidden bit, zero for a zero/subnormal operand
	wire [52:0] fa = za ? 53'd0 : {1'b1, a[51:0]};
	wire [52:0] fb = zb ? 53'd0 : {1'b1, b[51:0]};
	// ex - ey >= 0, from both differences computed beside the compare,
	// each clamped to the shift range
	wire [10:0] dab = ea - eb, dba = eb - ea;
	wire [5:0]  cab = (dab > 11'd58) ? 6'd58 : dab[5:0];
	wire [5:0]  cba = (dba > 11'd58) ? 6'd58 : dba[5:0];

	reg         s1_nan, s1_inf, s1_infsign, s1_sub, s1_sx, s1_bothzero, s1_zsign;
	reg  [10:0] s1_ex;
	reg  [52:0] s1_fx, s1_fy;
	reg  [5:0]  s1_dsh;
	always @(posedge clk) begin
		s1_nan      <= na | nb | (ia & ib & (a[63] ^ b[63]));
		s1_inf      <= ia | ib;
		s1_infsign  <= ia ? a[63] : b[63];
		s1_sub      <= a[63] ^ b[63];
		s1_sx       <= swap ? b[63] : a[63];
		s1_bothzero <= za & zb;
		s1_zsign    <= a[63] & b[63];
		s1_ex       <= swap ? eb : ea;
		s1_fx       <= swap ? fb : fa;
		s1_fy       <= swap ? fa : fb;
		s1_dsh      <= swap ? cba : cab;
	end

	// ---- stage 2: align y (shift right, sticky) -------------------------
	// y significand with 3 extra low bits, shifted right by dsh; the bits
	// shifted out are ORed into the lowest (sticky) bit.
	wire [111:0] wide = {s1_fy, 3'b000, 56'd0} >> s1_dsh;
	reg         s2_nan, s2_inf, s2_infsign, s2_sub, s2_sx, s2_bothzero, s2_zsign;
	reg  [10:0] s2_ex;
	reg  [55:0] s2_fx, s2_fy;
	always @(posedge clk) begin
		s2_nan      <= s1_nan;
		s2_inf      <= s1_inf;
		s2_infsign  <= s1_infsign;
		s2_sub      <= s1_sub;
		s2_sx       <= s1_sx;
		s2_bothzero <= s1_bothzero;
		s2_zsign    <= s1_zsign;
		s2_ex       <= s1_ex;
		s2_fx       <= {s1_fx, 3'b000};
		s2_fy       <= {wide[111:57], wide[56] | (|wide[55:0])};
	end

	// ---- stage 3: add/subtract the significands, result sign ------------
	wire [56:0] sum = s2_sub ? ({1'b0, s2_fx} - {1'b0, s2_fy})
	                         : ({1'b0, s2_fx} + {1'b0, s2_fy});
	reg         s3_nan, s3_inf, s3_infsign, s3_sx, s3_bothzero, s3_zsign;
	reg  [10:0] s3_ex;
	reg  [56:0] s3_sum;
	always @(posedge clk) begin
		s3_nan      <= s2_nan;
		s3_inf      <= s2_inf;
		s3_infsign  <= s2_infsign;
		s3_sx       <= s2_sx;
		s3_bothzero <= s2_bothzero;
		s3_zsign    <= s2_zsign;
		s3_ex       <= s2_ex;
		s3_sum      <= sum;
	end

	// ---- stage 4: leading-zero count, zero test ------------------------
	// lz = leading zeros of s3_sum[55:0] (56 when it is zero), by a
	// balanced tree: the 64-bit word {s3_sum[55:0], 8 ones} is split into
	// groups of 2, 4, .., 64 bits; a group's count is its upper half's
	// when that half is nonzero, else half its width plus its lower
	// half's (depth log2(64) instead of a 56-long priority chain).
	wire [63:0] lzv = {s3_sum[55:0], 8'hFF};
	reg  [31:0] lz_nz;           // group i nonzero
	reg  [191:0] lz_c;           // group i count, 6 bits at 6i
	reg  [5:0]  lz;
	integer     k, lv;
	always @(*) begin
		lz_nz = 32'd0;
		lz_c = 192'd0;
		for (k = 0; k < 32; k = k + 1) begin
			lz_nz[k] = lzv[2*k+1] | lzv[2*k];
			lz_c[6*k +: 6] = {5'd0, ~lzv[2*k+1]};
		end
		for (lv = 1; lv < 6; lv = lv + 1)
			for (k = 0; k < (32 >> lv); k = k + 1) begin
				lz_c[6*k +: 6] = lz_nz[2*k+1] ? lz_c[6*(2*k+1) +: 6]
				                              : (lz_c[6*(2*k) +: 6] | (6'd1 << lv));
				lz_nz[k] = lz_nz[2*k+1] | lz_nz[2*k];
			end
		lz = lz_c[5:0];
	end
	wire        sum0 = (s3_sum == 57'd0);
	reg         s4_nan, s4_inf, s4_sign, s4_zero;
	reg  [5:0]  s4_lz;
	reg  [10:0] s4_ex;
	reg  [56:0] s4_sum;
	always @(posedge clk) begin
		s4_nan  <= s3_nan;
		s4_inf  <= s3_inf;
		if (s3_inf)
			s4_sign <= s3_infsign;
		else if (s3_bothzero)
			s4_sign <= s3_zsign;
		else if (sum0)
			s4_sign <= 1'b0;
		else
			s4_sign <= s3_sx;
		s4_zero <= sum0;
		s4_lz   <= lz;
		s4_ex   <= s3_ex;
		s4_sum  <= s3_sum;
	end

	// ---- stage 5: normalising shift, exponent ---------------------------
	wire [55:0] nsh = s4_sum[55:0] << s4_lz;
	reg         s5_nan, s5_inf, s5_sign, s5_zero, s5_guard, s5_stick;
	reg  [52:0] s5_mant;
	reg  [12:0] s5_exp;
	always @(posedge clk) begin
		s5_nan  <= s4_nan;
		s5_inf  <= s4_inf;
		s5_sign <= s4_sign;
		s5_zero <= s4_zero;
		if (s4_sum[56]) begin
			s5_mant  <= s4_sum[56:4];
			s5_guard <= s4_sum[3];
			s5_stick <= |s4_sum[2:0];
			s5_exp   <= {2'b00, s4_ex} + 13'd1;
		end else begin
			s5_mant  <= nsh[55:3];
			s5_guard <= nsh[2];
			s5_stick <= |nsh[1:0];
			s5_exp   <= {2'b00, s4_ex} - {7'd0, s4_lz};
		end
	end

	// ---- stage 6: round to nearest even, range check, pack --------------
	// The carry out of the rounding increment (1.11..1 rounded up to 2.0)
	// is found beside it: all significand bits one and inc. The range
	// checks are made for both exponents (e and e + 1) beside it too.
	wire         inc = s5_guard & (s5_stick | s5_mant[0]);
	wire         r_ovf = inc & (&s5_mant);
	wire [51:0]  r_frac = s5_mant[51:0] + {51'd0, inc};    // 0 when r_ovf
	wire [12:0]  e1 = s5_exp + 13'd1;
	wire         big0 = ~s5_exp[12] & (s5_exp >= 13'd2047);
	wire         big1 = ~e1[12] & (e1 >= 13'd2047);
	wire         tiny0 = s5_exp[12] | (s5_exp == 13'd0);
	wire         tiny1 = e1[12] | (e1 == 13'd0);
	wire         big = r_ovf ? big1 : big0;
	wire         tiny = r_ovf ? tiny1 : tiny0;
	wire [10:0]  r_exp = r_ovf ? e1[10:0] : s5_exp[10:0];
	always @(posedge clk) begin
		if (s5_nan)
			y <= QNAN;
		else if (s5_inf | big)
			y <= {s5_sign, 11'h7FF, 52'd0};
		else if (s5_zero | tiny)
			y <= {s5_sign, 63'd0};
		else
			y <= {s5_sign, r_exp, r_frac};
	end
endmodule
`default_nettype wire
