// sampler_mulhi -- y = floor(a * b / 2^64) for 64-bit unsigned a, b (the
// mulhi64 of src/sampler.c: the exact high half of the 128-bit product),
// optionally subtracted from a constant: y = c - floor(a b / 2^64) (one
// FACCT Horner step of expm_p63, y_k = C_k - mulhi64(z, y_(k-1))), all
// modulo 2^64.
//
// Three pipeline stages, taken only when the stage before holds a new
// operation (en_i, then its delayed copies), so y_o holds the last result:
//   A  twelve partial products a_i b_j, a = a2 2^48 + a1 2^24 + a0 (24, 24,
//      16 bits), b = sum b_j 2^(16 j) (16 bits each): each one DSP48E1
//      (25 x 18) with its output register;
//   B  one row per b_j: r_j = a0 b_j + a1 b_j 2^24 + a2 b_j 2^48 (80 bits);
//   C  s = r0 + r1 2^16 + r2 2^32 + r3 2^48 = a b (128 bits, exact), then
//      y = sub ? c - s[127:64] : s[127:64].
// Operands presented with en_i in cycle t give y_o in cycle t + 3 (the
// Horner chain of samplerz issues one step every three cycles). Fixed
// latency, independent of the data. Not timing-analysed: stage C is a
// four-input 128-bit sum and a 64-bit subtraction.
`default_nettype none
module sampler_mulhi (
	input  wire        clk_i,
	input  wire        rst_ni,
	input  wire        en_i,
	input  wire [63:0] a_i,
	input  wire [63:0] b_i,
	input  wire [63:0] c_i,
	input  wire        sub_i,
	output reg  [63:0] y_o
);
	reg  [39:0] p0_q [0:3];     // a[23:0]  b_j
	reg  [39:0] p1_q [0:3];     // a[47:24] b_j
	reg  [31:0] p2_q [0:3];     // a[63:48] b_j
	reg  [79:0] r_q  [0:3];
	reg  [63:0] ca_q, cb_q;
	reg         sa_q, sb_q, ena_q, enb_q;

	wire [127:0] s = {48'd0, r_q[0]} + {32'd0, r_q[1], 16'd0} +
	                 {16'd0, r_q[2], 32'd0} + {r_q[3], 48'd0};

	integer j;
	always @(posedge clk_i or negedge rst_ni) begin
		if (!rst_ni) begin
			for (j = 0; j < 4; j = j + 1) begin
				p0_q[j] <= 40'd0; p1_q[j] <= 40'd0; p2_q[j] <= 32'd0; r_q[j] <= 80'd0;
			end
			ca_q <= 64'd0; cb_q <= 64'd0; sa_q <= 1'b0; sb_q <= 1'b0;
			ena_q <= 1'b0; enb_q <= 1'b0; y_o <= 64'd0;
		end else begin
			ena_q <= en_i;
			enb_q <= ena_q;
			if (en_i) begin
				for (j = 0; j < 4; j = j + 1) begin
					p0_q[j] <= a_i[23:0]  * b_i[16 * j +: 16];
					p1_q[j] <= a_i[47:24] * b_i[16 * j +: 16];
					p2_q[j] <= a_i[63:48] * b_i[16 * j +: 16];
				end
				ca_q <= c_i; sa_q <= sub_i;
			end
			if (ena_q) begin
				for (j = 0; j < 4; j = j + 1)
					r_q[j] <= {40'd0, p0_q[j]} + {16'd0, p1_q[j], 24'd0} + {p2_q[j], 48'd0};
				cb_q <= ca_q; sb_q <= sa_q;
			end
			if (enb_q)
				y_o <= sb_q ? (cb_q - s[127:64]) : s[127:64];
		end
	end
endmodule
`default_nettype wire
