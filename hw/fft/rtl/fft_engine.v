// fft_engine -- FFT/iFFT over binary64 complex values (n = 4..1024, i.e.
// N = n/2 = 2..512 complex words) and the FFT-domain vector ops, P lanes.
// A thin parameterisation of tf_core (see there for the interface).
// LAT = 21 is the latency of fft_bf (fp64_mul 5 + 2 x fp64_add 6 + two
// operand registers + output and scaling registers).
`default_nettype none
module fft_engine #(parameter P = 4, parameter LP = 2) (
	input  wire clk, input wire rst,
	input  wire start, input wire c_inv, input wire c_vop, input wire [2:0] c_vsel,
	input  wire [3:0] c_L, input wire [63:0] c_const,
	output wire busy, output wire done, output wire sel,
	input  wire h_en, input wire h_we, input wire h_buf, input wire [8:0] h_slot,
	input  wire [1:0] h_lane, input wire [31:0] h_wdata, output wire [31:0] h_rdata
);
	tf_core #(.KIND(0), .P(P), .LP(LP), .W(128), .MAXL(9), .LAT(21)) core (
		.clk(clk), .rst(rst), .start(start), .c_inv(c_inv), .c_vop(c_vop),
		.c_vsel(c_vsel), .c_L(c_L), .c_const(c_const), .busy(busy), .done(done),
		.sel(sel), .h_en(h_en), .h_we(h_we), .h_buf(h_buf), .h_slot(h_slot),
		.h_lane(h_lane), .h_wdata(h_wdata), .h_rdata(h_rdata));
endmodule
`default_nettype wire
