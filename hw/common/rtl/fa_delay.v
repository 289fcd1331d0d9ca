// fa_delay -- D-cycle delay line of W bits (D >= 1), no reset.
`default_nettype none
module fa_delay #(parameter W = 1, parameter D = 1) (
	input  wire         clk,
	input  wire [W-1:0] d,
	output wire [W-1:0] q
);
	reg [W-1:0] r [0:D-1];
	integer i;
	always @(posedge clk) begin
		r[0] <= d;
		for (i = 1; i < D; i = i + 1)
			r[i] <= r[i-1];
	end
	assign q = r[D-1];
endmodule
`default_nettype wire
