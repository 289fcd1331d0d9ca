// sampler_mulhi -- y = floor(a * b / 2^64) for 64-bit unsigned a, b (the
// mulhi64 of src/sampler.c: exact high half of the 128-bit product).
// Four 64 x 16 partial products, one per cycle (each as three registered
// pieces a[23:0] b_k, a[47:24] b_k, a[63:48] b_k, one DSP48 each), then
// accumulated from the low chunk up: A_0 = a b_0, A_k = floor(A_{k-1} /
// 2^16) + a b_k gives A_3 = floor(a b / 2^48), so y = A_3 >> 16.
// start_i loads the operands; done_o rises 5 cycles later with y_o valid
// (held until the next start). Fixed latency, independent of the data.
`default_nettype none
module sampler_mulhi (
	input  wire        clk_i,
	input  wire        rst_ni,
	input  wire        start_i,
	input  wire [63:0] a_i,
	input  wire [63:0] b_i,
	output wire        done_o,
	output wire [63:0] y_o
);
	reg [63:0] a_q, b_q;
	reg [39:0] p0_q, p1_q;      // a[23:0] b_k, a[47:24] b_k
	reg [31:0] p2_q;            // a[63:48] b_k
	reg [79:0] acc_q;
	reg [2:0]  cnt_q;
	reg        run_q;

	assign done_o = ~run_q & (cnt_q == 3'd5);
	assign y_o    = acc_q[79:16];

	wire [15:0] bk = b_q[16 * cnt_q[1:0] +: 16];
	wire [79:0] prod = {40'd0, p0_q} + {16'd0, p1_q, 24'd0} + {p2_q, 48'd0};

	always @(posedge clk_i or negedge rst_ni) begin
		if (!rst_ni) begin
			a_q <= 64'd0; b_q <= 64'd0; p0_q <= 40'd0; p1_q <= 40'd0; p2_q <= 32'd0;
			acc_q <= 80'd0; cnt_q <= 3'd0; run_q <= 1'b0;
		end else if (start_i) begin
			a_q <= a_i; b_q <= b_i; cnt_q <= 3'd0; run_q <= 1'b1;
		end else if (run_q) begin
			// cnt 0..3: pieces of chunk cnt; cnt 1..4: accumulate chunk cnt-1
			if (cnt_q != 3'd4) begin
				p0_q <= a_q[23:0] * bk;
				p1_q <= a_q[47:24] * bk;
				p2_q <= a_q[63:48] * bk;
			end
			if (cnt_q == 3'd1)
				acc_q <= prod;
			else if (cnt_q != 3'd0)
				acc_q <= {16'd0, acc_q[79:16]} + prod;
			cnt_q <= cnt_q + 3'd1;
			if (cnt_q == 3'd4) run_q <= 1'b0;
		end
	end
endmodule
`default_nettype wire
