// fp64_add -- IEEE-754 binary64 adder (y = a + b; a subtraction is an
// addition of the operand with its sign bit flipped, which is exactly
// IEEE a - b), round to nearest (ties to even), fully pipelined: one
// operation per cycle, result LAT = 3 cycles after the operands.
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
`default_nettype none
module fp64_add (
	input  wire        clk,
	input  wire [63:0] a,
	input  wire [63:0] b,
	output reg  [63:0] y
);
	localparam [63:0] QNAN = 64'h7FF8000000000000;

	// ---- stage 1: classify, order by magnitude, align -------------------
	wire [10:0] ea = a[62:52], eb = b[62:52];
	wire        za = (ea == 11'd0), zb = (eb == 11'd0);
	wire        ia = (ea == 11'h7FF) & (a[51:0] == 52'd0);
	wire        ib = (eb == 11'h7FF) & (b[51:0] == 52'd0);
	wire        na = (ea == 11'h7FF) & (a[51:0] != 52'd0);
	wire        nb = (eb == 11'h7FF) & (b[51:0] != 52'd0);
	// magnitudes with subnormals flushed
	wire [62:0] maga = za ? 63'd0 : a[62:0];
	wire [62:0] magb = zb ? 63'd0 : b[62:0];
	wire        swap = (magb > maga);
	wire [62:0] mx = swap ? magb : maga;
	wire [62:0] my = swap ? maga : magb;
	wire        sx = swap ? b[63] : a[63];
	wire        sy = swap ? a[63] : b[63];
	wire [10:0] ex = mx[62:52], ey = my[62:52];
	wire [52:0] fx = {(ex != 11'd0), mx[51:0]};
	wire [52:0] fy = {(ey != 11'd0), my[51:0]};
	wire [10:0] d = ex - ey;
	wire [5:0]  dsh = (d > 11'd58) ? 6'd58 : d[5:0];
	// y significand with 3 extra low bits, shifted right by d; the bits
	// shifted out are ORed into the lowest (sticky) bit.
	wire [111:0] wide = {fy, 3'b000, 56'd0} >> dsh;
	wire [55:0] yal = {wide[111:57], wide[56] | (|wide[55:0])};

	reg         s1_nan, s1_inf, s1_infsign, s1_sub, s1_sx, s1_bothzero, s1_zsign;
	reg  [10:0] s1_ex;
	reg  [55:0] s1_fx, s1_fy;
	always @(posedge clk) begin
		s1_nan     <= na | nb | (ia & ib & (a[63] ^ b[63]));
		s1_inf     <= ia | ib;
		s1_infsign <= ia ? a[63] : b[63];
		s1_sub     <= sx ^ sy;
		s1_sx      <= sx;
		s1_bothzero <= (mx == 63'd0);
		s1_zsign   <= a[63] & b[63];
		s1_ex      <= ex;
		s1_fx      <= {fx, 3'b000};
		s1_fy      <= yal;
	end

	// ---- stage 2: add/subtract, normalise -------------------------------
	wire [56:0] sum = s1_sub ? ({1'b0, s1_fx} - {1'b0, s1_fy})
	                         : ({1'b0, s1_fx} + {1'b0, s1_fy});
	reg  [5:0]  lz;
	integer     k;
	always @(*) begin
		lz = 6'd56;
		for (k = 0; k < 56; k = k + 1)
			if (sum[k])
				lz = 6'd55 - k[5:0];
	end
	wire [55:0] nsh = sum[55:0] << lz;
	reg         s2_nan, s2_inf, s2_sign, s2_zero, s2_guard, s2_stick;
	reg  [52:0] s2_mant;
	reg  [12:0] s2_exp;
	always @(posedge clk) begin
		s2_nan  <= s1_nan;
		s2_inf  <= s1_inf;
		if (s1_inf)
			s2_sign <= s1_infsign;
		else if (s1_bothzero)
			s2_sign <= s1_zsign;
		else if (sum == 57'd0)
			s2_sign <= 1'b0;
		else
			s2_sign <= s1_sx;
		s2_zero <= (sum == 57'd0);
		if (sum[56]) begin
			s2_mant  <= sum[56:4];
			s2_guard <= sum[3];
			s2_stick <= |sum[2:0];
			s2_exp   <= {2'b00, s1_ex} + 13'd1;
		end else begin
			s2_mant  <= nsh[55:3];
			s2_guard <= nsh[2];
			s2_stick <= |nsh[1:0];
			s2_exp   <= {2'b00, s1_ex} - {7'd0, lz};
		end
	end

	// ---- stage 3: round to nearest even, range check, pack --------------
	wire         inc = s2_guard & (s2_stick | s2_mant[0]);
	wire [53:0]  r_mant = {1'b0, s2_mant} + {53'd0, inc};
	wire         r_ovf = r_mant[53];
	wire [12:0]  r_exp = s2_exp + {12'd0, r_ovf};
	wire [51:0]  r_frac = r_ovf ? r_mant[52:1] : r_mant[51:0];
	wire         big = ~r_exp[12] & (r_exp >= 13'd2047);
	wire         tiny = r_exp[12] | (r_exp == 13'd0);
	always @(posedge clk) begin
		if (s2_nan)
			y <= QNAN;
		else if (s2_inf | big)
			y <= {s2_sign, 11'h7FF, 52'd0};
		else if (s2_zero | tiny)
			y <= {s2_sign, 63'd0};
		else
			y <= {s2_sign, r_exp[10:0], r_frac};
	end
endmodule
`default_nettype wire
