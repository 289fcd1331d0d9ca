// ntt_engine -- NTT/iNTT mod 12289 (n = 2..1024) and the pointwise
// product in NTT form, P lanes. A thin parameterisation of tf_core.
`default_nettype none
module ntt_engine #(parameter P = 4, parameter LP = 2) (
	input  wire clk, input wire rst,
	input  wire start, input wire c_inv, input wire c_vop,
	input  wire [3:0] c_L,
	output wire busy, output wire done, output wire sel,
	input  wire h_en, input wire h_we, input wire h_buf, input wire [9:0] h_slot,
	input  wire [31:0] h_wdata, output wire [31:0] h_rdata
);
	tf_core #(.KIND(1), .P(P), .LP(LP), .W(16), .MAXL(10), .LAT(6)) core (
		.clk(clk), .rst(rst), .start(start), .c_inv(c_inv), .c_vop(c_vop),
		.c_vsel(3'd0), .c_L(c_L), .c_const(64'd0), .busy(busy), .done(done),
		.sel(sel), .h_en(h_en), .h_we(h_we), .h_buf(h_buf), .h_slot(h_slot),
		.h_lane(2'd0), .h_wdata(h_wdata), .h_rdata(h_rdata));
endmodule
`default_nettype wire
