// ntt_bf -- one NTT butterfly lane mod q = 12289 (values in [0, q-1]).
// Latency LAT = 6 cycles, one butterfly per cycle. Modes (static during
// an operation):
//   forward (Cooley-Tukey):   T = y*w;  o0 = x + T;  o1 = x - T
//   inverse (Gentleman-Sande): o0 = x + y;  o1 = (x - y)*w
//     last inverse level: o0 = (x + y)*n^-1, o1 = (x - y)*(w*n^-1), the
//     twiddle of that level (GMb[1]^-1) being replaced by the constant
//   vector (vop = 1): o0 = x*y (pointwise product in NTT form)
// Timeline: forward: modmul t=0..4, add/sub t=4..5; inverse/vector:
// add/sub t=0..1, modmul t=1..5; output register t=5..6.
`default_nettype none
module ntt_bf (
	input  wire        clk,
	input  wire        inv,
	input  wire        vop,
	input  wire        last,
	input  wire [3:0]  logn,
	input  wire [13:0] x,
	input  wire [13:0] y,
	input  wire [13:0] w,
	output reg  [13:0] o0,
	output reg  [13:0] o1
);
	localparam [14:0] Q = 15'd12289;
	wire fwd = ~inv & ~vop;
	wire [13:0] wlast, ninv;
	ntt_last_consts lc (.logn(logn), .wlast(wlast), .ninv(ninv));

	wire [13:0] x_d1, y_d1, w_d1, x_d4, s_d4, t_a, t_b;
	reg  [13:0] s, d;
	fa_delay #(.W(14), .D(1)) dx1 (.clk(clk), .d(x), .q(x_d1));
	fa_delay #(.W(14), .D(1)) dy1 (.clk(clk), .d(y), .q(y_d1));
	fa_delay #(.W(14), .D(1)) dw1 (.clk(clk), .d(w), .q(w_d1));
	fa_delay #(.W(14), .D(3)) dx4 (.clk(clk), .d(x_d1), .q(x_d4));
	fa_delay #(.W(14), .D(4)) ds4 (.clk(clk), .d(s), .q(s_d4));

	// modular add/sub: forward at t=4 on (x, T), otherwise at t=0 on (x, y)
	wire [13:0] as_a = fwd ? x_d4 : x;
	wire [13:0] as_b = fwd ? t_a : y;
	wire [14:0] sum = {1'b0, as_a} + {1'b0, as_b};
	wire [14:0] dif = {1'b0, as_a} + Q - {1'b0, as_b};
	always @(posedge clk) begin
		s <= (sum >= Q) ? sum - Q : sum[13:0];
		d <= (dif >= Q) ? dif - Q : dif[13:0];
	end

	wire [13:0] ma_a = fwd ? y : (vop ? x_d1 : d);
	wire [13:0] ma_b = fwd ? w : (vop ? y_d1 : (last ? wlast : w_d1));
	ntt_modmul mA (.clk(clk), .a(ma_a), .b(ma_b), .y(t_a));
	ntt_modmul mB (.clk(clk), .a(s), .b(ninv), .y(t_b));

	always @(posedge clk) begin
		if (fwd) begin
			o0 <= s;
			o1 <= d;
		end else if (vop) begin
			o0 <= t_a;
			o1 <= t_a;
		end else begin
			o0 <= last ? t_b : s_d4;
			o1 <= t_a;
		end
	end
endmodule
`default_nettype wire
