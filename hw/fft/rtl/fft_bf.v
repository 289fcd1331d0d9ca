// fft_bf -- one FFT butterfly lane (binary64 complex), also the FFT-domain
// vector-op datapath. Latency LAT = 21 cycles, one butterfly per cycle.
// Words are {re[63:0], im[63:0]}. All mode inputs are static during an
// operation.
//
//  forward (Cooley-Tukey, src/fft.c):  T = y*w;  o0 = x + T;  o1 = x - T
//  inverse (Gentleman-Sande):          o0 = x + y;  o1 = (x - y)*conj(w)
//     last inverse level (scale = 1):  o0, o1 times 2^-scale_k, done by
//     decrementing the exponent (exact; a result below 2^-1022 flushes to
//     zero, like the FP units)
//  vector ops (vop = 1), x = a[i], y = b[i] (or y = (c, c) for mulconst):
//     0 add  x + y        1 sub  x + (-y)      2 neg  -x     3 adj  conj(x)
//     4 mul  x*y          5 muladj x*conj(y)   6 mulselfadj  (x*conj(x)).re, 0
//     7 mulconst (x.re*c, x.im*c)
//  x*conj(y) computed as cmul(x, conj(y)) equals the C expression
//  (ar*br + ai*bi, ai*br - ar*bi) bit for bit: negating an operand of a
//  product negates the rounded product exactly, and a - (-b) is a + b.
//
// Pipeline. The add/sub unit (four fp64_add, LA = 6) and the complex
// multiplier (fft_cmul, LC = 11) each take their operands from a register
// (LR = 1) loaded from the mode's operand mux, so no mux sits in front of
// the first stage of an FP unit (the adder's magnitude compare, the
// multiplier's partial products). Timeline, t = cycles after x, y, w:
//   forward:        t=0..1   cmul operand register (y, w)
//                   t=1..12  cmul
//                   t=12..13 add/sub operand register (x delayed, T)
//                   t=13..19 add/sub
//   inverse/vector: t=0..1   add/sub operand register (x, y or -y)
//                   t=1..7   add/sub
//                   t=7..8   cmul operand register (x - y and conj(w), or
//                            x and y / conj(y) / conj(x), delayed)
//                   t=8..19  cmul
//   both:           t=19..20 output register (the mode's two results)
//                   t=20..21 optional exact power-of-two scaling
`default_nettype none
module fft_bf (
	input  wire         clk,
	input  wire         inv,
	input  wire         vop,
	input  wire [2:0]   vsel,
	input  wire         scale,
	input  wire [3:0]   scale_k,
	input  wire [127:0] x,
	input  wire [127:0] y,
	input  wire [127:0] w,
	output reg  [127:0] o0,
	output reg  [127:0] o1
);
	localparam [63:0] S = 64'h8000000000000000;
	localparam LR = 1;             // operand register
	localparam LA = 6;             // fp64_add latency
	localparam LM = 5;             // fp64_mul latency
	localparam LC = LM + LA;       // fft_cmul latency
	wire fwd = ~inv & ~vop;

	// ---- delay lines ----------------------------------------------------
	// x_da, y_da, w_da: by LR + LA (inverse/vector: at the cmul operand
	// register with x - y); x_dc: by LR + LC (forward: at the add/sub
	// operand register with T); s_dc: the sums by LR + LC (inverse/vector:
	// at the output register with the cmul result); x_dac: x by
	// 2 LR + LA + LC (vector neg/adj: at the output register).
	wire [127:0] x_dc, t_cm, x_da, y_da, w_da, s_dc, x_dac;
	wire [63:0]  s_re, s_im, d_re, d_im;
	fa_delay #(.W(128), .D(LR + LA)) dl_xa (.clk(clk), .d(x), .q(x_da));
	fa_delay #(.W(128), .D(LR + LA)) dl_ya (.clk(clk), .d(y), .q(y_da));
	fa_delay #(.W(128), .D(LR + LA)) dl_wa (.clk(clk), .d(w), .q(w_da));
	fa_delay #(.W(128), .D(LM)) dl_xc (.clk(clk), .d(x_da), .q(x_dc));
	fa_delay #(.W(128), .D(LR + LC)) dl_sc (.clk(clk), .d({s_re, s_im}), .q(s_dc));
	fa_delay #(.W(128), .D(LR + LA)) dl_xac (.clk(clk), .d(x_dc), .q(x_dac));

	// ---- add/sub operand register (forward t=12, inverse/vector t=0) -----
	wire [127:0] y_neg = {y[127:64] ^ S, y[63:0] ^ S};
	reg  [127:0] bf_a, bf_b;
	always @(posedge clk) begin
		bf_a <= fwd ? x_dc : x;
		bf_b <= fwd ? t_cm : ((vop && vsel == 3'd1) ? y_neg : y);
	end

	// ---- add/sub (forward t=13..19, inverse/vector t=1..7) ----------------
	fp64_add a0 (.clk(clk), .a(bf_a[127:64]), .b(bf_b[127:64]), .y(s_re));
	fp64_add a1 (.clk(clk), .a(bf_a[63:0]),   .b(bf_b[63:0]),   .y(s_im));
	fp64_add a2 (.clk(clk), .a(bf_a[127:64]), .b(bf_b[127:64] ^ S), .y(d_re));
	fp64_add a3 (.clk(clk), .a(bf_a[63:0]),   .b(bf_b[63:0] ^ S),   .y(d_im));

	// ---- cmul operand register (forward t=0, inverse/vector t=7) ----------
	reg [127:0] cm_a, cm_b;
	always @(posedge clk) begin
		if (fwd) begin
			cm_a <= y;
			cm_b <= w;
		end else if (!vop) begin
			cm_a <= {d_re, d_im};
			cm_b <= {w_da[127:64], w_da[63:0] ^ S};
		end else begin
			cm_a <= x_da;
			case (vsel)
			3'd5:    cm_b <= {y_da[127:64], y_da[63:0] ^ S};
			3'd6:    cm_b <= {x_da[127:64], x_da[63:0] ^ S};
			default: cm_b <= y_da;
			endcase
		end
	end

	// ---- complex multiplier (forward t=1..12, inverse/vector t=8..19) -----
	fft_cmul cm (.clk(clk), .prod_only(vop && vsel == 3'd7), .a(cm_a), .b(cm_b), .y(t_cm));

	// ---- output register (t=19..20): the mode's two results ---------------
	reg [127:0] r0, r1;
	always @(posedge clk) begin
		if (fwd) begin
			r0 <= {s_re, s_im};
			r1 <= {d_re, d_im};
		end else if (!vop) begin
			r0 <= s_dc;
			r1 <= t_cm;
		end else begin
			r1 <= t_cm;
			case (vsel)
			3'd0, 3'd1: r0 <= s_dc;
			3'd2:       r0 <= {x_dac[127:64] ^ S, x_dac[63:0] ^ S};
			3'd3:       r0 <= {x_dac[127:64], x_dac[63:0] ^ S};
			3'd6:       r0 <= {t_cm[127:64], 64'd0};
			default:    r0 <= t_cm;
			endcase
		end
	end

	// x * 2^-k by exponent decrement; zero, inf and NaN unchanged.
	function [63:0] pow2_down(input [63:0] v, input [3:0] k);
		begin
			if (v[62:52] == 11'd0 || v[62:52] == 11'h7FF)
				pow2_down = v;
			else if (v[62:52] <= {7'd0, k})
				pow2_down = {v[63], 63'd0};
			else
				pow2_down = {v[63], v[62:52] - {7'd0, k}, v[51:0]};
		end
	endfunction

	// ---- scaling register (t=20..21): o0, o1 = r0, r1, times 2^-scale_k
	// on the last inverse level ----------------------------------------
	always @(posedge clk) begin
		if (scale) begin
			o0 <= {pow2_down(r0[127:64], scale_k), pow2_down(r0[63:0], scale_k)};
			o1 <= {pow2_down(r1[127:64], scale_k), pow2_down(r1[63:0], scale_k)};
		end else begin
			o0 <= r0;
			o1 <= r1;
		end
	end
endmodule
`default_nettype wire
