// kem_bf -- one lane of the ML-KEM (q = 3329) mode of the NTT unit. A word
// holds a coefficient pair {c1, c0} (bits [23:12], [11:0], each in
// [0, q-1]): word i of a polynomial is (f_2i, f_2i+1). The 7-layer NTT of
// FIPS 203 never mixes even and odd coefficients, so it is two 128-point
// transforms side by side, one per half of the word, with one twiddle.
// Latency LAT = 11, one word pair per cycle. Modes (static during an op):
//   forward (Cooley-Tukey), per half h: T = y_h w; o0_h = x_h + T;
//     o1_h = x_h - T
//   inverse (Gentleman-Sande), per half: o0_h = x_h + y_h;
//     o1_h = (x_h - y_h) w; on the last level (zeta_1^-1, k = 0):
//     o0_h = (x_h + y_h) c0, o1_h = (x_h - y_h) c1 with (c0, c1) =
//     (n^-1, zeta_1^-1 n^-1), n = 128, times 2^16 when mont = 1
//   vector (vop = 1): base multiplication (FIPS 203, Algorithm 12) of
//     the pairs x = (a0, a1), y = (b0, b1) modulo X^2 - gamma (w = gamma,
//     or gamma 2^-16 when mont = 1): o0 = (a0 b0) s + (a1 b1) w,
//     o1 = (a0 b1 + a1 b0) s, s = 1 or 2^-16 (mont)
// Timeline: forward: modmul t=0..4, add/sub t=4..5; inverse: add/sub
// t=0..1, modmul t=1..5; both then wait in a 5-stage delay; vector:
// products t=1..5, odd sum t=5..6, scaling products t=6..10; output
// register t=10..11.
`default_nettype none
module kem_bf (
	input  wire        clk,
	input  wire        inv,
	input  wire        vop,
	input  wire        last,
	input  wire        mont,
	input  wire [23:0] x,
	input  wire [23:0] y,
	input  wire [11:0] w,
	output reg  [23:0] o0,
	output reg  [23:0] o1
);
	localparam [12:0] Q = 13'd3329;
	localparam [11:0] RINV = 12'd169;          // 2^-16 mod q
	wire fwd = ~inv & ~vop;
	wire [11:0] c0, c1;
	kem_last_consts u_lc (.mont(mont), .c0(c0), .c1(c1));
	wire [11:0] sc = mont ? RINV : 12'd1;

	function [11:0] addq(input [11:0] a, input [11:0] b);
		reg [12:0] t;
		begin
			t = {1'b0, a} + {1'b0, b};
			addq = (t >= Q) ? t - Q : t[11:0];
		end
	endfunction
	function [11:0] subq(input [11:0] a, input [11:0] b);
		reg [12:0] t;
		begin
			t = {1'b0, a} + Q - {1'b0, b};
			subq = (t >= Q) ? t - Q : t[11:0];
		end
	endfunction

	wire [23:0] x_d1, y_d1, x_d4;
	wire [11:0] w_d1, w_d6;
	fa_delay #(.W(24), .D(1)) u_dx1 (.clk(clk), .d(x), .q(x_d1));
	fa_delay #(.W(24), .D(1)) u_dy1 (.clk(clk), .d(y), .q(y_d1));
	fa_delay #(.W(12), .D(1)) u_dw1 (.clk(clk), .d(w), .q(w_d1));
	fa_delay #(.W(12), .D(5)) u_dw6 (.clk(clk), .d(w_d1), .q(w_d6));
	fa_delay #(.W(24), .D(3)) u_dx4 (.clk(clk), .d(x_d1), .q(x_d4));

	// inverse add/sub (t=0..1)
	reg  [23:0] s_q, d_q;
	always @(posedge clk) begin
		s_q <= {addq(x[23:12], y[23:12]), addq(x[11:0], y[11:0])};
		d_q <= {subq(x[23:12], y[23:12]), subq(x[11:0], y[11:0])};
	end
	wire [23:0] s_d5;
	fa_delay #(.W(24), .D(4)) u_ds5 (.clk(clk), .d(s_q), .q(s_d5));

	// first products: mA_h (forward t=0, else t=1), mB_h (t=1)
	wire [11:0] wa = last ? c1 : w_d1;
	wire [11:0] a0a = fwd ? y[11:0]  : (vop ? x_d1[11:0]  : d_q[11:0]);
	wire [11:0] b0a = fwd ? w        : (vop ? y_d1[11:0]  : wa);
	wire [11:0] a1a = fwd ? y[23:12] : (vop ? x_d1[23:12] : d_q[23:12]);
	wire [11:0] b1a = fwd ? w        : (vop ? y_d1[23:12] : wa);
	wire [11:0] a0b = vop ? x_d1[11:0]  : s_q[11:0];
	wire [11:0] b0b = vop ? y_d1[23:12] : c0;
	wire [11:0] a1b = vop ? x_d1[23:12] : s_q[23:12];
	wire [11:0] b1b = vop ? y_d1[11:0]  : c0;
	wire [11:0] pa0, pa1, pb0, pb1;
	kem_modmul u_ma0 (.clk(clk), .a(a0a), .b(b0a), .y(pa0));
	kem_modmul u_ma1 (.clk(clk), .a(a1a), .b(b1a), .y(pa1));
	kem_modmul u_mb0 (.clk(clk), .a(a0b), .b(b0b), .y(pb0));
	kem_modmul u_mb1 (.clk(clk), .a(a1b), .b(b1b), .y(pb1));

	// forward add/sub (t=4..5)
	reg  [23:0] fs_q, fd_q;
	always @(posedge clk) begin
		fs_q <= {addq(x_d4[23:12], pa1), addq(x_d4[11:0], pa0)};
		fd_q <= {subq(x_d4[23:12], pa1), subq(x_d4[11:0], pa0)};
	end
	// butterfly results at t=5, delayed to t=10
	wire [23:0] bf0 = fwd ? fs_q : (last ? {pb1, pb0} : s_d5);
	wire [23:0] bf1 = fwd ? fd_q : {pa1, pa0};
	wire [23:0] bf0_d, bf1_d;
	fa_delay #(.W(24), .D(5)) u_db0 (.clk(clk), .d(bf0), .q(bf0_d));
	fa_delay #(.W(24), .D(5)) u_db1 (.clk(clk), .d(bf1), .q(bf1_d));

	// base multiplication: pa0 = a0 b0, pa1 = a1 b1, pb0 = a0 b1,
	// pb1 = a1 b0 at t=5; odd sum and the even products to t=6
	reg  [11:0] odd_q, p00_q, p11_q;
	always @(posedge clk) begin
		odd_q <= addq(pb0, pb1);
		p00_q <= pa0;
		p11_q <= pa1;
	end
	wire [11:0] m_even, m_gam, m_odd;
	kem_modmul u_mc (.clk(clk), .a(p00_q), .b(sc), .y(m_even));
	kem_modmul u_md (.clk(clk), .a(p11_q), .b(w_d6), .y(m_gam));
	kem_modmul u_me (.clk(clk), .a(odd_q), .b(sc), .y(m_odd));

	always @(posedge clk) begin
		if (vop) begin
			o0 <= {m_odd, addq(m_even, m_gam)};
			o1 <= {m_odd, addq(m_even, m_gam)};
		end else begin
			o0 <= bf0_d;
			o1 <= bf1_d;
		end
	end
endmodule
`default_nettype wire
