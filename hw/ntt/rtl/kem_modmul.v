// kem_modmul -- y = a*b mod q, q = 3329 (ML-KEM), a, b in [0, q-1],
// y in [0, q-1]. Barrett reduction: for x = a*b <= (q-1)^2 < 2^24,
// t = floor(x*M / 2^32) with M = floor(2^32/q) = 1290167 satisfies
// x/q - 1 - 2^-8 < t <= x/q (M = 2^32/q - e, 0 <= e < 1, and x*e/2^32 <
// 2^-8), so r = x - t*q is in [0, 2q) and one conditional subtraction
// finishes. Fully pipelined, latency 4 (the structure of ntt_modmul).
`default_nettype none
module kem_modmul (
	input  wire        clk,
	input  wire [11:0] a,
	input  wire [11:0] b,
	output reg  [11:0] y
);
	localparam [20:0] M = 21'd1290167;
	localparam [11:0] Q = 12'd3329;
	reg [23:0] x1, x2;
	reg [11:0] t2;
	reg [12:0] r3;
	wire [44:0] xm = x1 * M;
	always @(posedge clk) begin
		x1 <= a * b;                              // < q^2 < 2^24
		x2 <= x1;
		t2 <= xm[43:32];                          // floor(x*M/2^32) < q
		r3 <= x2[12:0] - t2 * Q;                  // x - t*q mod 2^13, in [0, 2q)
		y  <= (r3 >= {1'b0, Q}) ? r3 - {1'b0, Q} : r3[11:0];
	end
endmodule
`default_nettype wire
