// sampler_fpconv -- the integer <-> binary64 conversions of SamplerZ,
// bit-exact with src/fpr_emu.c (combinational).
//
// sampler_i2f: fpr_of(i) for a 32-bit signed i (exact: |i| < 2^53).
// sampler_f2i: fa_fpr_trunc (floor_i = 0) or fa_fpr_floor (floor_i = 1),
//   the same computation as fpr_int_parts: w = significand << 11 (zero for
//   a zero or subnormal input), n = 1085 - e, h = floor(2|x|) = w >> (n mod
//   64) when n < 64 else 0; |result| = h >> 1, plus one for floor of a
//   negative non-integer. Defined by the library for |x| < 2^63; for larger
//   inputs it returns what fpr_emu.c returns (the same wrap of n).
`default_nettype none
module sampler_i2f (
	input  wire [31:0] i_i,
	output wire [63:0] f_o
);
	wire        sign = i_i[31];
	wire [31:0] mag = sign ? (32'd0 - i_i) : i_i;
	reg  [4:0]  lz;
	integer k;
	always @(*) begin
		lz = 5'd0;
		for (k = 0; k < 32; k = k + 1)
			if (mag[k]) lz = 5'd31 - k[4:0];
	end
	wire [31:0] norm = mag << lz;
	wire [10:0] e = 11'd1054 - {6'd0, lz};
	assign f_o = (mag == 32'd0) ? 64'd0 : {sign, e, norm[30:0], 21'd0};
endmodule

module sampler_f2i (
	input  wire [63:0] f_i,
	input  wire        floor_i,
	output wire [63:0] i_o
);
	wire [10:0] e = f_i[62:52];
	// significand << 11; zero for a zero or subnormal input (flushed)
	wire [63:0] w = (e != 11'd0) ? {1'b1, f_i[51:0], 11'd0} : 64'd0;
	wire signed [12:0] n = 13'sd1085 - $signed({2'b00, e});
	wire        in_range = (n < 13'sd64);
	wire [5:0]  nn = n[5:0];
	wire [63:0] h = in_range ? (w >> nn) : 64'd0;
	// bits of w below bit nn (in parallel with the shift, rather than
	// w - (h << nn)): the same flag as fpr_emu.c's `rest`
	wire [63:0] below = in_range ? ~(64'hFFFFFFFFFFFFFFFF << nn) : 64'hFFFFFFFFFFFFFFFF;
	wire        rest = (w & below) != 64'd0;
	wire        sign = f_i[63];
	wire [63:0] ip = {1'b0, h[63:1]};
	wire        up = floor_i & (h[0] | rest);   // floor of a negative non-integer
	// sign ? -(ip + up) : ip, one carry chain: -(ip + up) = ~ip + (1 - up)
	assign i_o = sign ? (~ip + {63'd0, ~up}) : ip;
endmodule
`default_nettype wire
