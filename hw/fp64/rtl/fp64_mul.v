// fp64_mul -- IEEE-754 binary64 multiplier, round to nearest (ties to
// even), fully pipelined: one operation per cycle, result LAT = 5 cycles
// after the operands. Pipeline: 1 partial products (18x17 multipliers
// with a result register), 2 row sums, 3 product, 4 normalise + sticky,
// 5 round + pack.
//
// Value handling (see hw/fp64/doc/fp64.md):
//  - normal operands and results: exact IEEE-754 RNE result;
//  - subnormal operands are read as zero of the same sign, and a result
//    whose magnitude, rounded to 53 bits with an unbounded exponent, is
//    below 2^-1022 is flushed to zero of the result sign (flush-to-zero,
//    like the library's emulated-FP build; Falcon never produces them);
//  - overflow gives infinity; inf * finite-nonzero = inf; inf * 0 = NaN;
//  - a NaN result is always the canonical quiet NaN 0x7FF8000000000000.
`default_nettype none
module fp64_mul (
	input  wire        clk,
	input  wire [63:0] a,
	input  wire [63:0] b,
	output reg  [63:0] y
);
	localparam [63:0] QNAN = 64'h7FF8000000000000;

	// ---- stage 1: unpack, classify, partial products --------------------
	// ma = a2*2^36 + a1*2^18 + a0 with a0, a1 of 18 bits and a2 of 17, and
	// mb = b3*2^51 + b2*2^34 + b1*2^17 + b0 with b0, b1, b2 of 17 bits and
	// b3 of 2, so each partial product a_i*b_j is one unsigned multiplier
	// of at most 18x17 bits: one ECP5 MULT18X18D (18x18, no carry chain
	// after it) or one DSP48E1 (25x18 signed), with the product register
	// after it.
	wire        sa = a[63], sb = b[63];
	wire [10:0] ea = a[62:52], eb = b[62:52];
	wire        za = (ea == 11'd0), zb = (eb == 11'd0);     // zero or subnormal
	wire        ia = (ea == 11'h7FF) & (a[51:0] == 52'd0);
	wire        ib = (eb == 11'h7FF) & (b[51:0] == 52'd0);
	wire        na = (ea == 11'h7FF) & (a[51:0] != 52'd0);
	wire        nb = (eb == 11'h7FF) & (b[51:0] != 52'd0);
	wire [52:0] ma = {1'b1, a[51:0]}, mb = {1'b1, b[51:0]};
	wire [17:0] a0 = ma[17:0], a1 = ma[35:18];
	wire [16:0] a2 = ma[52:36];
	wire [16:0] b0 = mb[16:0], b1 = mb[33:17], b2 = mb[50:34];
	wire [1:0]  b3 = mb[52:51];

	reg          s1_sign, s1_nan, s1_inf, s1_zero;
	reg  [12:0]  s1_exp;            // biased exponent sum, signed
	reg  [34:0]  p00, p01, p02, p10, p11, p12;
	reg  [33:0]  p20, p21, p22;
	reg  [19:0]  p03, p13;
	reg  [18:0]  p23;
	always @(posedge clk) begin
		s1_sign <= sa ^ sb;
		s1_nan  <= na | nb | (ia & zb) | (ib & za);
		s1_inf  <= ia | ib;
		s1_zero <= za | zb;
		s1_exp  <= {2'b00, ea} + {2'b00, eb} - 13'd1023;
		p00 <= a0 * b0;  p01 <= a0 * b1;  p02 <= a0 * b2;
		p10 <= a1 * b0;  p11 <= a1 * b1;  p12 <= a1 * b2;
		p20 <= a2 * b0;  p21 <= a2 * b1;  p22 <= a2 * b2;
		p03 <= a0 * b3;  p13 <= a1 * b3;  p23 <= a2 * b3;
	end

	// ---- stage 2: row sums r_i = sum_j a_i*b_j*2^(17j) ------------------
	// (r0, r1 < 2^18 * 2^53; r2 < 2^17 * 2^53)
	wire [70:0] row0 = {36'd0, p00} + {19'd0, p01, 17'd0} + {2'd0, p02, 34'd0} + {p03, 51'd0};
	wire [70:0] row1 = {36'd0, p10} + {19'd0, p11, 17'd0} + {2'd0, p12, 34'd0} + {p13, 51'd0};
	wire [69:0] row2 = {36'd0, p20} + {19'd0, p21, 17'd0} + {2'd0, p22, 34'd0} + {p23, 51'd0};
	reg          s2_sign, s2_nan, s2_inf, s2_zero;
	reg  [12:0]  s2_exp;
	reg  [70:0]  s2_r0, s2_r1;
	reg  [69:0]  s2_r2;
	always @(posedge clk) begin
		s2_sign <= s1_sign;
		s2_nan  <= s1_nan;
		s2_inf  <= s1_inf;
		s2_zero <= s1_zero;
		s2_exp  <= s1_exp;
		s2_r0   <= row0;
		s2_r1   <= row1;
		s2_r2   <= row2;
	end

	// ---- stage 3: product = r0 + r1*2^18 + r2*2^36, in [2^104, 2^106) -----
	// (bits 17..0 are those of r0)
	wire [87:0] hi = {35'd0, s2_r0[70:18]} + {17'd0, s2_r1} + {s2_r2, 18'd0};
	reg          s3_sign, s3_nan, s3_inf, s3_zero;
	reg  [12:0]  s3_exp;
	reg  [105:0] s3_prod;
	always @(posedge clk) begin
		s3_sign <= s2_sign;
		s3_nan  <= s2_nan;
		s3_inf  <= s2_inf;
		s3_zero <= s2_zero;
		s3_exp  <= s2_exp;
		s3_prod <= {hi[87:0], s2_r0[17:0]};
	end

	// ---- stage 4: normalise to 53 bits + guard + sticky -----------------
	wire         top = s3_prod[105];
	wire [52:0]  n_mant = top ? s3_prod[105:53] : s3_prod[104:52];
	wire         n_guard = top ? s3_prod[52] : s3_prod[51];
	wire         n_stick = top ? (|s3_prod[51:0]) : (|s3_prod[50:0]);
	reg          s4_sign, s4_nan, s4_inf, s4_zero, s4_guard, s4_stick;
	reg  [52:0]  s4_mant;
	reg  [12:0]  s4_exp;
	always @(posedge clk) begin
		s4_sign  <= s3_sign;
		s4_nan   <= s3_nan;
		s4_inf   <= s3_inf;
		s4_zero  <= s3_zero;
		s4_mant  <= n_mant;
		s4_guard <= n_guard;
		s4_stick <= n_stick;
		s4_exp   <= s3_exp + {12'd0, top};
	end

	// ---- stage 5: round to nearest even, range check, pack --------------
	// The carry out of the rounding increment (1.11..1 rounded up to 2.0)
	// is found beside it: all significand bits one and inc. The range
	// checks are made for both exponents (e and e + 1) beside it too.
	wire         inc = s4_guard & (s4_stick | s4_mant[0]);
	wire         r_ovf = inc & (&s4_mant);
	wire [51:0]  r_frac = s4_mant[51:0] + {51'd0, inc};    // 0 when r_ovf
	wire [12:0]  e1 = s4_exp + 13'd1;
	wire         big0 = ~s4_exp[12] & (s4_exp >= 13'd2047);
	wire         big1 = ~e1[12] & (e1 >= 13'd2047);
	wire         tiny0 = s4_exp[12] | (s4_exp == 13'd0);
	wire         tiny1 = e1[12] | (e1 == 13'd0);
	wire         big = r_ovf ? big1 : big0;
	wire         tiny = r_ovf ? tiny1 : tiny0;
	wire [10:0]  r_exp = r_ovf ? e1[10:0] : s4_exp[10:0];
	always @(posedge clk) begin
		if (s4_nan)
			y <= QNAN;
		else if (s4_inf | (~s4_zero & big))
			y <= {s4_sign, 11'h7FF, 52'd0};
		else if (s4_zero | tiny)
			y <= {s4_sign, 63'd0};
		else
			y <= {s4_sign, r_exp, r_frac};
	end
endmodule
`default_nettype wire
