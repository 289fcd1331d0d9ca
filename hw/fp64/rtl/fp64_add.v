// fp64_add -- IEEE-754 binary64 adder (y = a + b; a subtraction is an
// addition of the operand with its sign bit flipped, which is exactly
// IEEE a - b), round to nearest (ties to even), fully pipelined: one
// operation per cycle, result LAT = 5 cycles after the operands.
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
// 4 leading-zero count + normalising shift, 5 round + pack. The split keeps
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
	// magnitudes with subnormals flushed (the exponent field is unchanged)
	wire [62:0] maga = za ? 63'd0 : a[62:0];
	wire [62:0] magb = zb ? 63'd0 : b[62:0];
	wire        swap = (magb > maga);
	wire [62:0] mx = swap ? magb : maga;
	wire [62:0] my = swap ? maga : magb;
	// ex - ey >= 0, from both differences computed beside the compare
	wire [10:0] dab = ea - eb, dba = eb - ea;
	wire [10:0] d = swap ? dba : dab;

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
		s1_bothzero <= (mx == 63'd0);
		s1_zsign    <= a[63] & b[63];
		s1_ex       <= mx[62:52];
		s1_fx       <= {(mx[62:52] != 11'd0), mx[51:0]};
		s1_fy       <= {(my[62:52] != 11'd0), my[51:0]};
		s1_dsh      <= (d > 11'd58) ? 6'd58 : d[5:0];
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
	reg  [5:0]  lz;
	integer     k;
	always @(*) begin
		lz = 6'd56;
		for (k = 0; k < 56; k = k + 1)
			if (s3_sum[k])
				lz = 6'd55 - k[5:0];
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
