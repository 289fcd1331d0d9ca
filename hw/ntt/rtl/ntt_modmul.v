// ntt_modmul -- y = a*b mod q, q = 12289, a, b in [0, q-1], y in [0, q-1].
// Barrett reduction: for x = a*b < q^2 < 2^28, t = floor(x*M / 2^32) with
// M = floor(2^32/q) = 349496 satisfies x/q - 1.07 < t <= x/q, so
// r = x - t*q is in [0, 2q) and one conditional subtraction finishes.
// Fully pipelined, latency 4.
`default_nettype none
module ntt_modmul (
	input  wire        clk,
	input  wire [13:0] a,
	input  wire [13:0] b,
	output reg  [13:0] y
);
	localparam [18:0] M = 19'd349496;
	localparam [13:0] Q = 14'd12289;
	reg [27:0] x1, x2;
	reg [13:0] t2;
	reg [14:0] r3;
	wire [46:0] xm = x1 * M;
	always @(posedge clk) begin
		x1 <= a * b;                              // < q^2
		x2 <= x1;
		t2 <= xm[45:32];                          // floor(x*M/2^32) < q
		r3 <= x2[14:0] - t2 * Q;                  // x - t*q mod 2^15, in [0, 2q)
		y  <= (r3 >= {1'b0, Q}) ? r3 - {1'b0, Q} : r3[13:0];
	end
endmodule
`default_nettype wire
