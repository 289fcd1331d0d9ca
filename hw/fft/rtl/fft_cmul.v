// fft_cmul -- complex binary64 product, the operation order of src/fft.c:
//   re = ar*br - ai*bi,  im = ar*bi + ai*br
// (each product rounded, then the sum rounded). With prod_only = 1 the
// outputs are the bare products (ar*br, ai*br) -- used for mulconst, where
// the constant is fed as b = (c, c). Latency 11 (fp64_mul 5 + fp64_add 6).
`default_nettype none
module fft_cmul (
	input  wire         clk,
	input  wire         prod_only,   // static during an operation
	input  wire [127:0] a,           // {re, im}
	input  wire [127:0] b,
	output wire [127:0] y
);
	wire [63:0] ar = a[127:64], ai = a[63:0], br = b[127:64], bi = b[63:0];
	// the products, delayed by the adder latency (6) for prod_only
	wire [63:0] p_rr, p_ii, p_ri, p_ir, s_re, s_im, d_rr, d_ir;
	fp64_mul m_rr (.clk(clk), .a(ar), .b(br), .y(p_rr));
	fp64_mul m_ii (.clk(clk), .a(ai), .b(bi), .y(p_ii));
	fp64_mul m_ri (.clk(clk), .a(ar), .b(bi), .y(p_ri));
	fp64_mul m_ir (.clk(clk), .a(ai), .b(br), .y(p_ir));
	fp64_add a_re (.clk(clk), .a(p_rr), .b({~p_ii[63], p_ii[62:0]}), .y(s_re));
	fp64_add a_im (.clk(clk), .a(p_ri), .b(p_ir), .y(s_im));
	fa_delay #(.W(128), .D(6)) dl_p (.clk(clk), .d({p_rr, p_ir}), .q({d_rr, d_ir}));
	assign y = prod_only ? {d_rr, d_ir} : {s_re, s_im};
endmodule
`default_nettype wire
