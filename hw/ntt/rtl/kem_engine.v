// kem_engine -- the ML-KEM (q = 3329) mode of the NTT unit: FIPS 203's
// 7-layer NTT, its inverse and the base multiplication on one polynomial
// of 256 coefficients held as 128 pair words, P lanes. A sibling of
// ntt_engine on the same tf_core (KIND = 2: sequencer, banked ping-pong
// buffers, crossbars, host port) with kem_bf lanes; see
// hw/ntt/doc/mlkem_mode.md for why a sibling and not a runtime mode.
// Word i of buffer A / B (h_slot = i, 0..127) is {f_2i+1, f_2i} in bits
// [23:12], [11:0], each in [0, q-1] (the host reduces before writing).
// Control: c_inv / c_vop as in tf_core; c_mont = 1 makes the inverse
// NTT^-1 * 2^16 and the product a o b * 2^-16 (mod q), the library's
// slot contract.
`default_nettype none
module kem_engine #(parameter P = 4, parameter LP = 2) (
	input  wire clk, input wire rst,
	input  wire start, input wire c_inv, input wire c_vop, input wire c_mont,
	output wire busy, output wire done, output wire sel,
	input  wire h_en, input wire h_we, input wire h_buf, input wire [6:0] h_slot,
	input  wire [31:0] h_wdata, output wire [31:0] h_rdata
);
	tf_core #(.KIND(2), .P(P), .LP(LP), .W(24), .MAXL(7), .LAT(11)) core (
		.clk(clk), .rst(rst), .start(start), .c_inv(c_inv), .c_vop(c_vop),
		.c_vsel({2'd0, c_mont}), .c_L(4'd7), .c_const(64'd0), .busy(busy),
		.done(done), .sel(sel), .h_en(h_en), .h_we(h_we), .h_buf(h_buf),
		.h_slot(h_slot), .h_lane(2'd0), .h_wdata(h_wdata), .h_rdata(h_rdata));
endmodule
`default_nettype wire
