// fa_ram -- simple dual-port RAM: one synchronous read port (data one
// cycle after the address), one write port with a write enable per
// 32-bit lane of the word (W <= 32: one enable). Maps to BRAM or LUTRAM.
`default_nettype none
module fa_ram #(
	parameter W = 128,
	parameter DEPTH = 64,
	parameter AW = 6,
	parameter NL = (W >= 32) ? W / 32 : 1
) (
	input  wire          clk,
	input  wire [AW-1:0] raddr,
	output reg  [W-1:0]  rdata,
	input  wire [NL-1:0] we,
	input  wire [AW-1:0] waddr,
	input  wire [W-1:0]  wdata
);
	localparam LW = W / NL;
	(* ram_style = "block" *)
	reg [W-1:0] mem [0:DEPTH-1];
	integer i;
	always @(posedge clk) begin
		for (i = 0; i < NL; i = i + 1)
			if (we[i])
				mem[waddr][i*LW +: LW] <= wdata[i*LW +: LW];
		rdata <= mem[raddr];
	end
endmodule
`default_nettype wire
