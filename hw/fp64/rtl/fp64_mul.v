// fp64_mul -- IEEE-754 binary64 multiplier, round to nearest (ties to
// even), fully pipelined: one operation per cycle, result LAT = 3 cycles
// after the operands.
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

	// ---- stage 1: unpack, classify, 53x53 product -----------------------
	wire        sa = a[63], sb = b[63];
	wire [10:0] ea = a[62:52], eb = b[62:52];
	wire        za = (ea == 11'd0), zb = (eb == 11'd0);     // zero or subnormal
	wire        ia = (ea == 11'h7FF) & (a[51:0] == 52'd0);
	wire        ib = (eb == 11'h7FF) & (b[51:0] == 52'd0);
	wire        na = (ea == 11'h7FF) & (a[51:0] != 52'd0);
	wire        nb = (eb == 11'h7FF) & (b[51:0] != 52'd0);
	wire [52:0] ma = {1'b1, a[51:0]}, mb = {1'b1, b[51:0]};

	reg          s1_sign, s1_nan, s1_inf, s1_zero;
	reg  [12:0]  s1_exp;            // biased exponent sum, signed
	reg  [105:0] s1_prod;           // in [2^104, 2^106)
	always @(posedge clk) begin
		s1_sign <= sa ^ sb;
		s1_nan  <= na | nb | (ia & zb) | (ib & za);
		s1_inf  <= ia | ib;
		s1_zero <= za | zb;
		s1_exp  <= {2'b00, ea} + {2'b00, eb} - 13'd1023;
		s1_prod <= ma * mb;
	end

	// ---- stage 2: normalise to 53 bits + guard + sticky -----------------
	wire         top = s1_prod[105];
	wire [52:0]  n_mant = top ? s1_prod[105:53] : s1_prod[104:52];
	wire         n_guard = top ? s1_prod[52] : s1_prod[51];
	wire         n_stick = top ? (|s1_prod[51:0]) : (|s1_prod[50:0]);
	reg          s2_sign, s2_nan, s2_inf, s2_zero, s2_guard, s2_stick;
	reg  [52:0]  s2_mant;
	reg  [12:0]  s2_exp;
	always @(posedge clk) begin
		s2_sign  <= s1_sign;
		s2_nan   <= s1_nan;
		s2_inf   <= s1_inf;
		s2_zero  <= s1_zero;
		s2_mant  <= n_mant;
		s2_guard <= n_guard;
		s2_stick <= n_stick;
		s2_exp   <= s1_exp + {12'd0, top};
	end

	// ---- stage 3: round to nearest even, range check, pack --------------
	wire         inc = s2_guard & (s2_stick | s2_mant[0]);
	wire [53:0]  r_mant = {1'b0, s2_mant} + {53'd0, inc};
	wire         r_ovf = r_mant[53];                   // 1.111.. rounded up to 2.0
	wire [12:0]  r_exp = s2_exp + {12'd0, r_ovf};
	wire [51:0]  r_frac = r_ovf ? r_mant[52:1] : r_mant[51:0];
	wire         big = ~r_exp[12] & (r_exp >= 13'd2047);
	wire         tiny = r_exp[12] | (r_exp == 13'd0);
	always @(posedge clk) begin
		if (s2_nan)
			y <= QNAN;
		else if (s2_inf | (~s2_zero & big))
			y <= {s2_sign, 11'h7FF, 52'd0};
		else if (s2_zero | tiny)
			y <= {s2_sign, 63'd0};
		else
			y <= {s2_sign, r_exp[10:0], r_frac};
	end
endmodule
`default_nettype wire
