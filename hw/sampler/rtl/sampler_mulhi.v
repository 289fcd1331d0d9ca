// sampler_mulhi -- y = floor(a * b / 2^64) for 64-bit unsigned a, b (the
// mulhi64 of src/sampler.c: the exact high half of the 128-bit product),
// optionally subtracted from a constant: y = c - floor(a b / 2^64) (one
// FACCT Horner step of expm_p63, y_k = C_k - mulhi64(z, y_(k-1))), all
// modulo 2^64.
//
// Two pipeline stages, taken only when the stage before holds a new
// operation (en_i, then its delayed copy), so y_o holds the last result:
//   A  twelve partial products a_i b_j, a = a2 2^48 + a1 2^24 + a0 (24, 24,
//      16 bits), b = sum b_j 2^(16 j) (16 bits each): each one DSP48E1
//      (25 x 18) with its output register; c + 1 and sub registered;
//   B  P = a b = the sum of the twelve shifted products (exact, < 2^128),
//      reduced to two vectors S + C = P by a carry-save tree (3:2
//      compressors, five levels), then one 128-bit addition:
//        sub = 0:  Q = S + C = P;
//        sub = 1:  Q = (c + 1) 2^64 + 1 + ~S + ~C
//                    = c 2^64 + 2^64 - 1 - P      (mod 2^128, as -S = ~S + 1)
//      and y = Q[127:64]. For sub = 1 that is c - floor(P / 2^64) (mod
//      2^64): with P = h 2^64 + l, 0 <= l < 2^64, Q = (c - h) 2^64 +
//      (2^64 - 1 - l) and the low half 2^64 - 1 - l is in [0, 2^64).
//      So the subtraction costs one more compressor level, not a second
//      carry chain.
// Operands presented with en_i in cycle t give y_o in cycle t + 2 (the
// Horner chain of samplerz issues one step every two cycles). Fixed
// latency, independent of the data. (Until session 13: three stages, the
// row sums in a stage of their own and stage C a four-input 128-bit sum
// followed by the 64-bit subtraction.)
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
	reg  [63:0] c1_q;           // c + 1
	reg         sub_q, ena_q;

	// 3:2 compressor: x + y + z = s + k (modulo 2^128)
	function [255:0] csa(input [127:0] x, input [127:0] y, input [127:0] z);
		csa = {((x & y) | (x & z) | (y & z)) << 1, x ^ y ^ z};
	endfunction

	// the twelve products at their weights (zero elsewhere: the tree's
	// constant bits fold away in synthesis)
	wire [127:0] pp [0:11];
	genvar g;
	generate
		for (g = 0; g < 4; g = g + 1) begin : g_pp
			assign pp[3 * g]     = {88'd0, p0_q[g]} << (16 * g);
			assign pp[3 * g + 1] = {88'd0, p1_q[g]} << (24 + 16 * g);
			assign pp[3 * g + 2] = {96'd0, p2_q[g]} << (48 + 16 * g);
		end
	endgenerate
	// 12 -> 8 -> 6 -> 4 -> 3 -> 2
	wire [255:0] l1a = csa(pp[0], pp[1], pp[2]);
	wire [255:0] l1b = csa(pp[3], pp[4], pp[5]);
	wire [255:0] l1c = csa(pp[6], pp[7], pp[8]);
	wire [255:0] l1d = csa(pp[9], pp[10], pp[11]);
	wire [255:0] l2a = csa(l1a[127:0], l1a[255:128], l1b[127:0]);
	wire [255:0] l2b = csa(l1b[255:128], l1c[127:0], l1c[255:128]);
	wire [255:0] l3a = csa(l2a[127:0], l2a[255:128], l2b[127:0]);
	wire [255:0] l3b = csa(l2b[255:128], l1d[127:0], l1d[255:128]);
	wire [255:0] l4a = csa(l3a[127:0], l3a[255:128], l3b[127:0]);
	wire [255:0] l5a = csa(l4a[127:0], l4a[255:128], l3b[255:128]);
	// S = l5a[127:0], C = l5a[255:128]; the subtraction's form
	wire [127:0] inv = {128{sub_q}};
	wire [127:0] k   = sub_q ? {c1_q, 64'd1} : 128'd0;
	wire [255:0] l6  = csa(k, l5a[127:0] ^ inv, l5a[255:128] ^ inv);
	wire [127:0] q   = l6[127:0] + l6[255:128];

	integer j;
	always @(posedge clk_i or negedge rst_ni) begin
		if (!rst_ni) begin
			for (j = 0; j < 4; j = j + 1) begin
				p0_q[j] <= 40'd0; p1_q[j] <= 40'd0; p2_q[j] <= 32'd0;
			end
			c1_q <= 64'd0; sub_q <= 1'b0; ena_q <= 1'b0; y_o <= 64'd0;
		end else begin
			ena_q <= en_i;
			if (en_i) begin
				for (j = 0; j < 4; j = j + 1) begin
					p0_q[j] <= a_i[23:0]  * b_i[16 * j +: 16];
					p1_q[j] <= a_i[47:24] * b_i[16 * j +: 16];
					p2_q[j] <= a_i[63:48] * b_i[16 * j +: 16];
				end
				c1_q <= c_i + 64'd1; sub_q <= sub_i;
			end
			if (ena_q)
				y_o <= q[127:64];
		end
	end
endmodule
`default_nettype wire
