// mlkem_encaps -- ML-KEM-768 encapsulation (FIPS 203, Algorithm 17 with
// K-PKE.Encrypt, Algorithm 14) as one hardware operation: ek (1,184
// bytes) and m (32 bytes) in, ct (1,088 bytes) and K (32 bytes) out,
// everything between in the block.
//
// Architecture: a fixed program of 43 steps (step_q, decoded by
// `program` below), each a small sub-machine (st_q):
//   DEC    ByteDecode12 of ek's t_hat into polynomials 0..2 with the
//          modulus check (every coefficient < q; else ERR_EK, 385 cycles)
//   HASH_H h = SHA3-256(ek)                (9 Keccak blocks)
//   HASH_G (K, r) = SHA3-512(m || h)       (1 block)
//   PRF    CBD_2(SHAKE256(r || N, 128 bytes)) written into (y) or added
//          to (e1, e2) a polynomial
//   NTT / INTT  FIPS 203 Algorithms 9 / 10 (the inverse with its final
//          factor 3303 = 128^-1), one word butterfly per cycle
//   XOF    A_hat[j][i] = SampleNTT(SHAKE128(rho || i || j)) into the
//          scratch polynomial (rejection parse, 1 byte per cycle)
//   BMUL   acc (+)= a o b, Algorithm 11, one word (two coefficients) per
//          cycle, accumulation in place
//   MU     v += Decompress_1(m)
//   ENC    Compress_d + ByteEncode_d, d_u = 10 (u), d_v = 4 (v)
// Polynomials live in pm (11 x 128 words of {f_2i+1, f_2i}, 12 bits each,
// in [0, q-1]): 0..2 t_hat, 3..5 y_hat, 6..8 u, 9 v, 10 the A_hat entry
// being used. u[i] = sum_j A_hat[j][i] o y_hat[j] samples each matrix
// entry just before its product, so the matrix is never stored.
// Hashing uses one keccak_unit (hw/keccak) through its word port: the
// sequencer writes the padded message words (absorb), permutes, and
// reads state words (squeeze).
//
// Constant time: every loop has a fixed count except SampleNTT's, whose
// length depends on rho (public, in ek). The cycle count of an operation
// is therefore a function of ek alone (tested: two m, same cycles).
//
// Host port (word address h_addr_i, 32-bit little-endian words of the
// byte strings; reads answer the next cycle on h_rdata_o):
//   0x000..0x127  ek (write; reads back)       0x128..0x12f  m (write)
//   0x200..0x30f  ct (read)                    0x310..0x317  K (read)
// h_err_o pulses for a refused access (any write while busy, an address
// outside the map, ct/K before a successful operation or while busy);
// refused writes change nothing, refused reads return 0.
//
// Control: start_i with level_i (1 = ML-KEM-768; 0 = 512 and 2 = 1024 are
// not built in). done_o pulses at the end of every accepted or refused
// start; err_o holds the code of the last one: ERR_NONE, ERR_BUSY (start
// while busy: refused, the running operation goes on), ERR_LEVEL,
// ERR_EK (modulus check failed), ERR_WDOG (the operation ran more than
// WDOG cycles: aborted; SampleNTT's loop is the only one unbounded).
// cycles_o: cycles of the last operation (start to done).
// Memories are behavioural arrays with asynchronous reads (several read
// ports per cycle): correct for simulation; on an FPGA they map to LUT RAM
// or flops, not block RAM (hw/mlkem/doc/mlkem.md).
`default_nettype none
module mlkem_encaps #(parameter integer WDOG = 200000) (
	input  wire        clk_i,
	input  wire        rst_ni,
	input  wire        start_i,
	input  wire [1:0]  level_i,
	output wire        busy_o,
	output reg         done_o,
	output reg  [2:0]  err_o,
	output reg  [31:0] cycles_o,
	input  wire        h_en_i,
	input  wire        h_we_i,
	input  wire [9:0]  h_addr_i,
	input  wire [31:0] h_wdata_i,
	output reg  [31:0] h_rdata_o,
	output reg         h_err_o
);
	localparam [2:0] ERR_NONE = 3'd0, ERR_BUSY = 3'd1, ERR_LEVEL = 3'd2,
	                 ERR_EK = 3'd3, ERR_WDOG = 3'd4;
	localparam [12:0] Q = 13'd3329;

	// ---------------------------------------------------------------
	// Arithmetic mod q (all operands and results in [0, q-1])
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
	// Barrett reduction in two pipeline stages (quotient, then remainder):
	// for x < 2^25, bq(x) = floor(x M / 2^25) with M = floor(2^25 / q) =
	// 10079 satisfies x / q - 2 < bq(x) <= x / q (x M / 2^25 > x / q - x /
	// 2^25 > x / q - 1), so bq(x) is floor(x / q) or floor(x / q) - 1,
	// bc(x, bq(x)) = x - bq(x) q is in [0, 2q), and one conditional
	// subtraction leaves x mod q in [0, q-1]. t q is formed as
	// t (2^11 + 2^10 + 2^8 + 1) mod 2^14 (the remainder is < 2^13).
	localparam [13:0] BM = 14'd10079;
	function [12:0] bq(input [24:0] x);
		reg [38:0] xm;
		begin
			xm = x * BM;
			bq = xm[37:25];
		end
	endfunction
	function [13:0] brem(input [24:0] x, input [12:0] t);   // x - t q, in [0, 2q)
		brem = x[13:0] - ({t[2:0], 11'd0} + {t[3:0], 10'd0}) - ({t[5:0], 8'd0} + {1'b0, t});
	endfunction
	function [11:0] bc(input [24:0] x, input [12:0] t);
		reg [13:0] r, rq;
		begin
			r = brem(x, t);
			rq = r - {1'b0, Q};            // bit 13 set iff r < q
			bc = rq[13] ? r[11:0] : rq[11:0];
		end
	endfunction
	// x - t q >= q, for the Compress quotient's correction
	function bge(input [24:0] x, input [12:0] t);
		reg [13:0] rq;
		begin
			rq = brem(x, t) - {1'b0, Q};
			bge = !rq[13];
		end
	endfunction
	// CBD_2 of one nibble: (v0 + v1) - (v2 + v3) mod q.
	function [11:0] cbd2(input [3:0] v);
		reg [1:0] x, y;
		begin
			x = {1'b0, v[0]} + {1'b0, v[1]};
			y = {1'b0, v[2]} + {1'b0, v[3]};
			cbd2 = (x >= y) ? {10'd0, x - y} : Q[11:0] - {10'd0, y - x};
		end
	endfunction

	// ---------------------------------------------------------------
	// Storage
	reg [31:0] ekw [0:295];
	reg [31:0] mw  [0:7];
	reg [31:0] ctw [0:271];
	reg [31:0] kw  [0:7];
	reg [31:0] hw  [0:7];
	reg [31:0] rw  [0:7];
	reg [23:0] pm  [0:1407];

	// ---------------------------------------------------------------
	// Program
	localparam [3:0] OP_DEC = 4'd0, OP_HASH_H = 4'd1, OP_HASH_G = 4'd2,
	                 OP_PRF = 4'd3, OP_NTT = 4'd4, OP_XOF = 4'd5,
	                 OP_BMUL = 4'd6, OP_INTT = 4'd7, OP_MU = 4'd8,
	                 OP_ENC10 = 4'd9, OP_ENC4 = 4'd10, OP_END = 4'd11;
	localparam [3:0] P_TMP = 4'd10, P_V = 4'd9;
	reg  [5:0] step_q;
	// The step's decoded fields are registered (p_*, from d_*): S_FETCH
	// waits one cycle (S_FETCH0) for them after step_q changes.
	reg  [3:0] p_op, p_a, p_b, p_c, d_op, d_a, d_b, d_c;
	reg  [7:0] p_n, d_n;     // PRF nonce N / XOF bytes (i, j)
	reg        p_f, d_f;     // BMUL: first term; PRF: 1 = add
	reg  [5:0] s;
	reg  [4:0] ij;
	always @(*) begin
		d_op = OP_END; d_a = 4'd0; d_b = 4'd0; d_c = 4'd0; d_n = 8'd0; d_f = 1'b0;
		s = 6'd0; ij = 5'd0;
		if (step_q == 6'd0) d_op = OP_DEC;
		else if (step_q == 6'd1) d_op = OP_HASH_H;
		else if (step_q == 6'd2) d_op = OP_HASH_G;
		else if (step_q <= 6'd5) begin                     // y[i]
			s = step_q - 6'd3;
			d_op = OP_PRF; d_n = {2'd0, s}; d_c = 4'd3 + s[3:0]; d_f = 1'b0;
		end else if (step_q <= 6'd8) begin                 // y_hat = NTT(y)
			d_op = OP_NTT; d_c = step_q[3:0] - 4'd3;
		end else if (step_q <= 6'd26) begin                // u_hat
			s = step_q - 6'd9;                              // 6 i + 2 j + (0: XOF, 1: BMUL)
			ij = s[5:1];                                    // 3 i + j
			d_n = {(ij >= 5'd6) ? 4'd2 : (ij >= 5'd3) ? 4'd1 : 4'd0,
			       (ij >= 5'd6) ? ij[3:0] - 4'd6 : (ij >= 5'd3) ? ij[3:0] - 4'd3 : ij[3:0]};
			if (!s[0]) d_op = OP_XOF;
			else begin
				d_op = OP_BMUL; d_a = P_TMP; d_b = 4'd3 + d_n[3:0];
				d_c = 4'd6 + d_n[7:4]; d_f = (d_n[3:0] == 4'd0);
			end
		end else if (step_q <= 6'd29) begin                // v_hat = t_hat^T o y_hat
			s = step_q - 6'd27;
			d_op = OP_BMUL; d_a = s[3:0]; d_b = 4'd3 + s[3:0]; d_c = P_V;
			d_f = (s == 6'd0);
		end else if (step_q <= 6'd33) begin                // u, v = NTT^-1
			s = step_q - 6'd30;
			d_op = OP_INTT; d_c = 4'd6 + s[3:0];
		end else if (step_q <= 6'd37) begin                // + e1, + e2
			s = step_q - 6'd34;
			d_op = OP_PRF; d_n = {2'd0, s} + 8'd3; d_c = 4'd6 + s[3:0]; d_f = 1'b1;
		end else if (step_q == 6'd38) begin
			d_op = OP_MU; d_c = P_V;
		end
		else if (step_q <= 6'd41) begin
			s = step_q - 6'd39;
			d_op = OP_ENC10; d_c = 4'd6 + s[3:0];
		end else if (step_q == 6'd42) begin
			d_op = OP_ENC4; d_c = P_V;
		end
	end

	always @(posedge clk_i) begin
		p_op <= d_op; p_a <= d_a; p_b <= d_b; p_c <= d_c; p_n <= d_n; p_f <= d_f;
	end

	// ---------------------------------------------------------------
	// Keccak unit
	reg         k_cmd_valid;
	reg  [1:0]  k_cmd;
	reg         k_en, k_we;
	reg  [5:0]  k_idx;
	reg  [31:0] k_wdata;
	wire [31:0] k_rdata;
	wire        k_busy, k_done, k_err;
	keccak_unit u_keccak (
		.clk_i(clk_i), .rst_ni(rst_ni), .cmd_valid_i(k_cmd_valid), .cmd_i(k_cmd),
		.busy_o(k_busy), .done_o(k_done), .err_o(k_err),
		.h_en_i(k_en), .h_we_i(k_we), .h_idx_i(k_idx), .h_wdata_i(k_wdata),
		.h_rdata_o(k_rdata));

	// ---------------------------------------------------------------
	// Sub-machine state
	localparam [3:0] S_IDLE = 4'd0, S_FETCH = 4'd1, S_DEC = 4'd2, S_CLR = 4'd3,
	                 S_ABS = 4'd4, S_APW = 4'd5, S_RD = 4'd6, S_SQW = 4'd7,
	                 S_SPW = 4'd8, S_NTT = 4'd9, S_SCALE = 4'd10, S_BMUL = 4'd11,
	                 S_MU = 4'd12, S_ENC = 4'd13, S_DRN = 4'd14,
	                 S_FETCH0 = 4'd15;
	reg  [3:0]  st_q;
	reg         busy_q;
	reg  [31:0] cyc_q;
	reg         ok_q;           // ct and K hold a successful operation's result
	reg  [8:0]  w_q;            // word / butterfly counter
	reg  [2:0]  lay_q;          // NTT layer 0..6
	reg  [8:0]  sw_q;           // sponge: message word
	reg  [5:0]  si_q;           // sponge: word within the block
	reg  [1:0]  sub_q;          // byte within a squeezed word
	reg         bad_q;          // DEC: a coefficient >= q
	reg  [15:0] tb_q;           // SampleNTT: bytes of the current triple
	reg  [1:0]  tc_q;           // SampleNTT: how many of them
	reg  [8:0]  j_q;            // SampleNTT: coefficients accepted
	reg  [11:0] ev_q;           // SampleNTT: even coefficient waiting for its pair
	reg  [63:0] acc_q;          // ENC: bit accumulator
	reg  [6:0]  nb_q;           // ENC: bits in it
	reg  [8:0]  ow_q;           // ENC: next ct word
	reg  [3:0]  drn_q;          // S_DRN: cycles waited
	reg         dnt_q;          // S_DRN: after an NTT / INTT layer

	reg         sq_word_done, sq_finish;

	// Sponge parameters of the current step
	reg  [8:0]  sp_total;       // padded message words
	reg  [5:0]  sp_rate;        // rate in words
	reg  [31:0] sp_word;        // padded message word sw_q
	always @(*) begin
		sp_total = 9'd34; sp_rate = 6'd34; sp_word = 32'd0;
		case (p_op)
		OP_HASH_H: begin       // SHA3-256(ek): 1,184 bytes, rate 136
			sp_total = 9'd306;
			if (sw_q < 9'd296) sp_word = ekw[sw_q];
			else if (sw_q == 9'd296) sp_word = 32'h06;
			if (sw_q == 9'd305) sp_word = sp_word ^ 32'h8000_0000;
		end
		OP_HASH_G: begin       // SHA3-512(m || h): 64 bytes, rate 72
			sp_total = 9'd18; sp_rate = 6'd18;
			if (sw_q < 9'd8) sp_word = mw[sw_q[2:0]];
			else if (sw_q < 9'd16) sp_word = hw[sw_q[2:0]];
			else if (sw_q == 9'd16) sp_word = 32'h06;
			else sp_word = 32'h8000_0000;
		end
		OP_XOF: begin          // SHAKE128(rho || i || j), rate 168
			sp_total = 9'd42; sp_rate = 6'd42;
			if (sw_q < 9'd8) sp_word = ekw[9'd288 + sw_q];
			else if (sw_q == 9'd8) sp_word = {8'h00, 8'h1f, 4'd0, p_n[3:0], 4'd0, p_n[7:4]};
			if (sw_q == 9'd41) sp_word = sp_word ^ 32'h8000_0000;
		end
		default: begin         // PRF: SHAKE256(r || N), rate 136
			if (sw_q < 9'd8) sp_word = rw[sw_q[2:0]];
			else if (sw_q == 9'd8) sp_word = {16'h0000, 8'h1f, p_n};
			if (sw_q == 9'd33) sp_word = sp_word ^ 32'h8000_0000;
		end
		endcase
	end

	// ---------------------------------------------------------------
	// Datapath of the current cycle (combinational)
	// NTT / INTT butterfly addresses: coefficient distance 2^l, word
	// distance 2^(l-1); l = 7 - lay (forward), 1 + lay (inverse).
	wire        inv = (p_op == OP_INTT);
	wire [2:0]  l = inv ? lay_q + 3'd1 : 3'd7 - lay_q;
	wire [5:0]  bfly = w_q[5:0];
	wire [5:0]  grp = bfly >> (l - 3'd1);
	wire [5:0]  off = bfly & ((6'd1 << (l - 3'd1)) - 6'd1);
	wire [6:0]  wj = ({1'b0, grp} << l) | {1'b0, off};
	wire [6:0]  wk = wj + (7'd1 << (l - 3'd1));
	wire [7:0]  zk8 = inv ? ((8'd1 << (4'd8 - {1'b0, l})) - 8'd1 - {2'b0, grp})
	                      : ((8'd1 << (3'd7 - l)) + {2'b0, grp});
	wire [6:0]  zk = zk8[6:0];
	wire [11:0] zeta, gamma;
	mlkem_zeta_rom u_zeta  (.sel_i(1'b0), .k_i(zk), .data_o(zeta));
	mlkem_zeta_rom u_gamma (.sel_i(1'b1), .k_i(w_q[6:0]), .data_o(gamma));


	// Word w_q (SCALE, BMUL, MU, ENC)
	wire [6:0]  wrd = w_q[6:0];

	// DEC: 12 bytes = 3 ek words = 8 coefficients = 4 pair words
	wire [8:0]  dg3 = {w_q[8:2], 1'b0} + {2'd0, w_q[8:2]};     // 3 g, g = w / 4
	// read in cycle w (w = 0..383), split, checked and written in cycle w + 1
	wire [95:0] d96 = {ekw[dg3 + 9'd2], ekw[dg3 + 9'd1], ekw[dg3]};
	reg  [95:0] d96_q;
	reg  [8:0]  dw_q;
	reg         dv_q;
	always @(posedge clk_i) begin
		dv_q <= (st_q == S_DEC) && (w_q != 9'd384);
		d96_q <= d96; dw_q <= w_q;
	end
	wire [23:0] dpair = d96_q[24 * dw_q[1:0] +: 24];
	wire        dbad = dv_q && ((dpair[11:0] >= Q[11:0]) || (dpair[23:12] >= Q[11:0]));

	// PRF consumer: byte sub_q of the squeezed word -> one pair word
	wire [7:0]  sqb = k_rdata[8 * sub_q +: 8];
	wire [6:0]  cw = {si_q[4:0], sub_q};          // pair word 4 si + sub
	wire [23:0] xcw = pm[{p_c, cw}];
	wire [23:0] cpair = {cbd2(sqb[7:4]), cbd2(sqb[3:0])};
	wire [23:0] cout = p_f ? {addq(xcw[23:12], cpair[23:12]), addq(xcw[11:0], cpair[11:0])} : cpair;

	// SampleNTT consumer: triple (C0, C1, C2) = (tb[7:0], tb[15:8], sqb)
	wire [11:0] d1 = {tb_q[11:8], tb_q[7:0]};
	wire [11:0] d2 = {sqb, tb_q[15:12]};
	wire        acc1 = (d1 < Q[11:0]) && (j_q < 9'd256);
	wire [8:0]  j1 = j_q + {8'd0, acc1};
	wire        acc2 = (d2 < Q[11:0]) && (j1 < 9'd256);
	wire [8:0]  j2 = j1 + {8'd0, acc2};

	// MU: m bits 2w, 2w+1
	wire [31:0] mword = mw[wrd[6:4]];
	wire        mb0 = mword[{wrd[3:0], 1'b0}];
	wire        mb1 = mword[{wrd[3:0], 1'b1}];

	// ---------------------------------------------------------------
	// Arithmetic pipeline (NTT, INTT, SCALE, BMUL, MU, ENC).
	// The pipelined states issue one item per cycle (the NTT one
	// butterfly every two cycles); an item's operands are read from pm
	// (asynchronous LUT-RAM reads) in its issue cycle and registered in
	// stage 1; each later stage does at most one 12 x 12 (or Barrett
	// 25 x 21) multiplication or one add/compare level; the item leaves
	// stage 9 and is written back in that cycle (an NTT butterfly's
	// word k one cycle later, from bk_q). Every kind has the same latency
	// and no stage waits, so the cycle count stays a function of ek alone.
	// A pass (a layer of an NTT, or one SCALE/BMUL/MU/ENC step) issues
	// nothing it depends on before the previous pass is written back:
	// S_DRN waits DRN cycles after the last issue of each pass.
	//   stage 0  read addresses, zeta (NTT, INTT) or 3303 (SCALE), gamma
	//   stage 1  operands a = pm[j] (NTT) / pm[a] (BMUL), b = pm[k] / pm[b],
	//            c = pm[c], z = zeta (NTT, INTT) or 3303 (SCALE), g = gamma
	//   stage 2  NTT: u = b; INTT: u = b - a, s = a + b; SCALE: u = c;
	//            BMUL: the four products a_i b_j; MU: c + 1665 m;
	//            ENC: n = 2^d c + 1664
	//   stage 3  NTT-like: p = z u; BMUL: quotient of a1 b1,
	//            a0 b1 + a1 b0; ENC: quotient of n
	//   stage 4  NTT-like: quotient of p; BMUL: a1 b1 mod q;
	//            ENC: Compress_d = quotient + (remainder >= q)
	//   stage 5  NTT-like: p mod q = m; BMUL: (a1 b1 mod q) gamma
	//   stage 6  NTT: (a + m, a - m); INTT: (s, m); SCALE: m;
	//            BMUL: a0 b0 + (a1 b1 mod q) gamma
	//   stage 7  BMUL: quotients of both sums
	//   stage 8  BMUL: both sums mod q
	//   stage 9  BMUL: the product, or acc + product
	localparam [2:0] KN_NTT = 3'd0, KN_INTT = 3'd1, KN_SCALE = 3'd2,
	                 KN_BMUL = 3'd3, KN_MU = 3'd4, KN_ENC = 3'd5;
	localparam [3:0] DRN = 4'd11;
	reg         iss;            // an item issues this cycle
	reg  [2:0]  iss_k;
	always @(*) begin
		iss = 1'b0; iss_k = KN_SCALE;
		case (st_q)
		S_NTT:   begin iss = !nph_q; iss_k = inv ? KN_INTT : KN_NTT; end
		S_SCALE: begin iss = 1'b1; iss_k = KN_SCALE; end
		S_BMUL:  begin iss = 1'b1; iss_k = KN_BMUL; end
		S_MU:    begin iss = 1'b1; iss_k = KN_MU; end
		S_ENC:   begin iss = 1'b1; iss_k = KN_ENC; end
		default: ;
		endcase
	end
	wire        nttk = (st_q == S_NTT);
	wire        pl_kill = !rst_ni || (busy_q && cyc_q >= WDOG);

	// stage 0: read addresses, twiddle and the item's fields registered
	// (the address arithmetic and the ROMs before the RAM read would be
	// one long path)
	reg  [10:0] ra0_q, rb0_q, rc0_q;
	reg  [11:0] z0_q, g0_q;
	reg  [1:0]  m0_q;
	reg         f0_q, d0_q;
	reg  [2:0]  k0_q;
	always @(posedge clk_i) begin
		ra0_q <= nttk ? {p_c, wj} : {p_a, wrd};
		rb0_q <= nttk ? {p_c, wk} : {p_b, wrd};
		rc0_q <= {p_c, wrd};
		z0_q <= (st_q == S_SCALE) ? 12'd3303 : zeta;
		g0_q <= gamma;
		m0_q <= {mb1, mb0};
		f0_q <= p_f;
		d0_q <= (p_op == OP_ENC10);
		k0_q <= iss_k;
	end

	// stage 1: the operands read
	reg  [9:0]  pv_q;                      // valid per stage 0..9
	reg  [2:0]  k1_q, k2_q, k3_q, k4_q, k5_q, k6_q, k7_q, k8_q, k9_q;
	reg  [10:0] wa1_q, wa2_q, wa3_q, wa4_q, wa5_q, wa6_q, wa7_q, wa8_q, wa9_q;
	reg  [10:0] wb1_q, wb2_q, wb3_q, wb4_q, wb5_q, wb6_q, wb7_q, wb8_q, wb9_q;
	reg  [23:0] a1_q, b1_q, c1_q;
	reg  [11:0] z1_q, g1_q;
	reg  [1:0]  m1_q;
	reg         f1_q, d1_q;
	always @(posedge clk_i) begin
		a1_q <= pm[ra0_q];
		b1_q <= pm[rb0_q];
		c1_q <= pm[rc0_q];
		z1_q <= z0_q; g1_q <= g0_q; m1_q <= m0_q; f1_q <= f0_q; d1_q <= d0_q;
		k1_q <= k0_q;
		// write address: word j (NTT) or the word itself (= c); word k
		wa1_q <= (k0_q == KN_NTT || k0_q == KN_INTT) ? ra0_q : rc0_q;
		wb1_q <= rb0_q;
	end

	// stage 2
	reg  [23:0] a2_q, c2_q, u2_q, s2_q;    // s2: INTT's a + b, MU's result
	reg  [23:0] p00_2, p11_2, p01_2, p10_2;
	reg  [21:0] n0_2, n1_2;
	reg  [11:0] z2_q, g2_q;
	reg         f2_q, d2_q;
	always @(posedge clk_i) begin
		a2_q <= a1_q; c2_q <= c1_q; z2_q <= z1_q; g2_q <= g1_q;
		f2_q <= f1_q; d2_q <= d1_q;
		case (k1_q)
		KN_INTT: u2_q <= {subq(b1_q[23:12], a1_q[23:12]), subq(b1_q[11:0], a1_q[11:0])};
		KN_SCALE: u2_q <= c1_q;
		default: u2_q <= b1_q;
		endcase
		s2_q <= (k1_q == KN_MU)
			? {addq(c1_q[23:12], m1_q[1] ? 12'd1665 : 12'd0),
			   addq(c1_q[11:0], m1_q[0] ? 12'd1665 : 12'd0)}
			: {addq(a1_q[23:12], b1_q[23:12]), addq(a1_q[11:0], b1_q[11:0])};
		p00_2 <= a1_q[11:0] * b1_q[11:0];
		p11_2 <= a1_q[23:12] * b1_q[23:12];
		p01_2 <= a1_q[11:0] * b1_q[23:12];
		p10_2 <= a1_q[23:12] * b1_q[11:0];
		// Compress_d(x) = floor((2^d x + 1664) / q) mod 2^d (q odd: no ties)
		n0_2 <= (d1_q ? {c1_q[11:0], 10'd0} : {6'd0, c1_q[11:0], 4'd0}) + 22'd1664;
		n1_2 <= (d1_q ? {c1_q[23:12], 10'd0} : {6'd0, c1_q[23:12], 4'd0}) + 22'd1664;
	end

	// stage 3
	reg  [23:0] a3_q, c3_q, s3_q, p0_3, p1_3, p00_3, p11_3;
	reg  [24:0] x1_3;                      // a0 b1 + a1 b0 < 2^25
	reg  [12:0] t11_3, tn0_3, tn1_3;
	reg  [21:0] n0_3, n1_3;
	reg  [11:0] g3_q;
	reg         f3_q, d3_q;
	always @(posedge clk_i) begin
		a3_q <= a2_q; c3_q <= c2_q; s3_q <= s2_q; g3_q <= g2_q;
		f3_q <= f2_q; d3_q <= d2_q;
		p0_3 <= z2_q * u2_q[11:0];
		p1_3 <= z2_q * u2_q[23:12];
		p00_3 <= p00_2; p11_3 <= p11_2;
		x1_3 <= {1'b0, p01_2} + {1'b0, p10_2};
		t11_3 <= bq({1'b0, p11_2});
		tn0_3 <= bq({3'd0, n0_2}); tn1_3 <= bq({3'd0, n1_2});
		n0_3 <= n0_2; n1_3 <= n1_2;
	end

	// stage 4
	reg  [23:0] a4_q, c4_q, s4_q, p0_4, p1_4, p00_4;
	reg  [24:0] x1_4;
	reg  [12:0] t0_4, t1_4;
	reg  [11:0] r11_4, g4_q;
	reg  [9:0]  cv0_4, cv1_4;
	reg         f4_q, d4_q;
	always @(posedge clk_i) begin
		a4_q <= a3_q; c4_q <= c3_q; s4_q <= s3_q; g4_q <= g3_q;
		f4_q <= f3_q; d4_q <= d3_q;
		p0_4 <= p0_3; p1_4 <= p1_3; p00_4 <= p00_3; x1_4 <= x1_3;
		t0_4 <= bq({1'b0, p0_3}); t1_4 <= bq({1'b0, p1_3});
		r11_4 <= bc({1'b0, p11_3}, t11_3);
		// quotient floor(n / q) = tn + (n - tn q >= q)
		cv0_4 <= tn0_3[9:0] + {9'd0, bge({3'd0, n0_3}, tn0_3)};
		cv1_4 <= tn1_3[9:0] + {9'd0, bge({3'd0, n1_3}, tn1_3)};
	end

	// stage 5
	reg  [23:0] a5_q, c5_q, s5_q, m5_q, p00_5, gp_5;
	reg  [24:0] x1_5;
	reg  [9:0]  cv0_5, cv1_5;
	reg         f5_q, d5_q;
	always @(posedge clk_i) begin
		a5_q <= a4_q; c5_q <= c4_q; s5_q <= s4_q; f5_q <= f4_q; d5_q <= d4_q;
		m5_q <= {bc({1'b0, p1_4}, t1_4), bc({1'b0, p0_4}, t0_4)};
		p00_5 <= p00_4; x1_5 <= x1_4;
		gp_5 <= r11_4 * g4_q;
		cv0_5 <= cv0_4; cv1_5 <= cv1_4;
	end

	// stage 6: the result of every kind but BMUL (r6_q: word j / the word,
	// rk6_q: NTT's word k)
	reg  [23:0] c6_q, r6_q, rk6_q;
	reg  [24:0] x0_6, x1_6;
	reg         f6_q, d6_q;
	always @(posedge clk_i) begin
		c6_q <= c5_q; f6_q <= f5_q; d6_q <= d5_q;
		case (k5_q)
		KN_NTT: begin
			r6_q <= {addq(a5_q[23:12], m5_q[23:12]), addq(a5_q[11:0], m5_q[11:0])};
			rk6_q <= {subq(a5_q[23:12], m5_q[23:12]), subq(a5_q[11:0], m5_q[11:0])};
		end
		KN_INTT: begin r6_q <= s5_q; rk6_q <= m5_q; end
		KN_SCALE: begin r6_q <= m5_q; rk6_q <= m5_q; end
		KN_MU: begin r6_q <= s5_q; rk6_q <= s5_q; end
		default: begin                 // ENC: the two compressed values
			r6_q <= {2'd0, cv1_5, 2'd0, cv0_5}; rk6_q <= 24'd0;
		end
		endcase
		x0_6 <= {1'b0, p00_5} + {1'b0, gp_5};
		x1_6 <= x1_5;
	end

	// stages 7..9
	reg  [23:0] c7_q, r7_q, rk7_q, c8_q, r8_q, rk8_q, r9_q, rk9_q;
	reg  [24:0] x0_7, x1_7;
	reg  [12:0] t0_7, t1_7;
	reg  [23:0] bm_8;
	reg         f7_q, f8_q, d7_q, d8_q, d9_q;
	always @(posedge clk_i) begin
		c7_q <= c6_q; r7_q <= r6_q; rk7_q <= rk6_q; f7_q <= f6_q; d7_q <= d6_q;
		x0_7 <= x0_6; x1_7 <= x1_6;
		t0_7 <= bq(x0_6); t1_7 <= bq(x1_6);
		c8_q <= c7_q; r8_q <= r7_q; rk8_q <= rk7_q; f8_q <= f7_q; d8_q <= d7_q;
		bm_8 <= {bc(x1_7, t1_7), bc(x0_7, t0_7)};
		d9_q <= d8_q; rk9_q <= rk8_q;
		if (k8_q == KN_BMUL)
			r9_q <= f8_q ? bm_8 : {addq(c8_q[23:12], bm_8[23:12]), addq(c8_q[11:0], bm_8[11:0])};
		else
			r9_q <= r8_q;
	end

	// valid, kind and write addresses down the stages
	always @(posedge clk_i) begin
		if (pl_kill)
			pv_q <= 10'd0;
		else
			pv_q <= {pv_q[8:0], iss};
		k2_q <= k1_q; k3_q <= k2_q; k4_q <= k3_q; k5_q <= k4_q;
		k6_q <= k5_q; k7_q <= k6_q; k8_q <= k7_q; k9_q <= k8_q;
		wa2_q <= wa1_q; wa3_q <= wa2_q; wa4_q <= wa3_q; wa5_q <= wa4_q;
		wa6_q <= wa5_q; wa7_q <= wa6_q; wa8_q <= wa7_q; wa9_q <= wa8_q;
		wb2_q <= wb1_q; wb3_q <= wb2_q; wb4_q <= wb3_q; wb5_q <= wb4_q;
		wb6_q <= wb5_q; wb7_q <= wb6_q; wb8_q <= wb7_q; wb9_q <= wb8_q;
	end
	wire        o_v = pv_q[9];
	wire        o_ntt = (k9_q == KN_NTT) || (k9_q == KN_INTT);
	wire        o_enc = (k9_q == KN_ENC);

	// ENC: the compressed pair of the item leaving stage 9, appended to the
	// bit accumulator
	wire [19:0] cv = d9_q ? {r9_q[21:12], r9_q[9:0]} : {12'd0, r9_q[15:12], r9_q[3:0]};
	wire [6:0]  nbn = nb_q + (d9_q ? 7'd20 : 7'd8);
	wire [63:0] accn = acc_q | ({44'd0, cv} << nb_q);

	// ---------------------------------------------------------------
	// Keccak port drive
	always @(*) begin
		k_cmd_valid = 1'b0; k_cmd = 2'd0; k_en = 1'b0; k_we = 1'b0;
		k_idx = si_q; k_wdata = sp_word;
		case (st_q)
		S_CLR: begin k_cmd_valid = 1'b1; k_cmd = 2'd1; end
		S_ABS: begin
			k_en = 1'b1; k_we = 1'b1;
			if (si_q == sp_rate - 6'd1) begin k_cmd_valid = 1'b1; k_cmd = 2'd2; end
		end
		S_RD: k_en = 1'b1;
		S_SQW: if (sq_word_done && !sq_finish && si_q == sp_rate - 6'd1) begin
			k_cmd_valid = 1'b1; k_cmd = 2'd2;
		end
		default: ;
		endcase
	end

	// Squeeze consumers: is the current word used up, is the op finished?
	always @(*) begin
		sq_word_done = 1'b1; sq_finish = 1'b0;
		case (p_op)
		OP_HASH_H: sq_finish = (si_q == 6'd7);
		OP_HASH_G: sq_finish = (si_q == 6'd15);
		OP_PRF: begin
			sq_word_done = (sub_q == 2'd3);
			sq_finish = (si_q == 6'd31) && (sub_q == 2'd3);
		end
		OP_XOF: begin
			sq_word_done = (sub_q == 2'd3);
			sq_finish = (tc_q == 2'd2) && (j2 == 9'd256);
		end
		default: ;
		endcase
	end

	assign busy_o = busy_q;

	// ---------------------------------------------------------------
	// Polynomial RAM write port: at most one word per cycle, one port, so
	// that synthesis can map pm to RAM (two write ports left it in flops:
	// 33.8 k FF). The pipeline writes the item leaving stage 9; an NTT
	// butterfly's word k follows one cycle later from bk_q (butterflies
	// issue every other cycle, so the port is free then).
	reg         nph_q;          // NTT: 0 = issue cycle, 1 = the cycle after
	reg         bkv_q;
	reg  [10:0] bka_q;
	reg  [23:0] bk_q;
	reg         pm_we;
	reg  [10:0] pm_wa;
	reg  [23:0] pm_wd;
	always @(*) begin
		pm_we = 1'b0; pm_wa = wa9_q; pm_wd = r9_q;
		if (rst_ni && !(busy_q && cyc_q >= WDOG)) begin
			if (o_v && !o_enc)
				pm_we = 1'b1;
			else if (bkv_q) begin
				pm_we = 1'b1; pm_wa = bka_q; pm_wd = bk_q;
			end else case (st_q)
			S_DEC: if (dv_q) begin pm_we = 1'b1; pm_wa = {2'd0, dw_q}; pm_wd = dpair; end
			S_SQW:
				if (p_op == OP_PRF) begin
					pm_we = 1'b1; pm_wa = {p_c, cw}; pm_wd = cout;
				end else if (p_op == OP_XOF && tc_q == 2'd2) begin
					// SampleNTT: the pair word j/2 once its second value is there
					pm_wa = {P_TMP, j_q[7:1]};
					if (acc1 && acc2) begin
						pm_we = 1'b1; pm_wd = j_q[0] ? {d1, ev_q} : {d2, d1};
					end else if (acc1 || acc2) begin
						pm_we = j_q[0]; pm_wd = {acc1 ? d1 : d2, ev_q};
					end
				end
			default: ;
			endcase
		end
	end
	always @(posedge clk_i) begin
		bkv_q <= o_v && o_ntt && !pl_kill;
		bka_q <= wb9_q;
		bk_q <= rk9_q;
	end
	always @(posedge clk_i)
		if (pm_we) pm[pm_wa] <= pm_wd;

	// ---------------------------------------------------------------
	// Sequencer
	always @(posedge clk_i) begin
		if (!rst_ni) begin
			st_q <= S_IDLE; busy_q <= 1'b0; done_o <= 1'b0; err_o <= ERR_NONE;
			cycles_o <= 32'd0; cyc_q <= 32'd0; ok_q <= 1'b0; step_q <= 6'd0;
			w_q <= 9'd0; lay_q <= 3'd0; sw_q <= 9'd0; si_q <= 6'd0; sub_q <= 2'd0;
			bad_q <= 1'b0; tb_q <= 16'd0; tc_q <= 2'd0; j_q <= 9'd0; ev_q <= 12'd0;
			acc_q <= 64'd0; nb_q <= 7'd0; ow_q <= 9'd0; nph_q <= 1'b0;
			drn_q <= 4'd0; dnt_q <= 1'b0;
		end else begin
			done_o <= 1'b0;
			// ENC write-back: the item leaving the pipeline
			if (o_v && o_enc) begin
				if (nbn >= 7'd32) begin
					ctw[ow_q] <= accn[31:0];
					acc_q <= accn >> 32;
					nb_q <= nbn - 7'd32;
					ow_q <= ow_q + 9'd1;
				end else begin
					acc_q <= accn;
					nb_q <= nbn;
				end
			end
			if (busy_q)
				cyc_q <= cyc_q + 32'd1;
			if (start_i) begin
				if (busy_q) begin
					err_o <= ERR_BUSY;
				end else if (level_i != 2'd1) begin
					err_o <= ERR_LEVEL; done_o <= 1'b1; ok_q <= 1'b0;
				end else begin
					err_o <= ERR_NONE; busy_q <= 1'b1; ok_q <= 1'b0;
					cyc_q <= 32'd1; step_q <= 6'd0; st_q <= S_FETCH0;
					acc_q <= 64'd0; nb_q <= 7'd0; ow_q <= 9'd0;
				end
			end
			if (busy_q && cyc_q >= WDOG) begin
				busy_q <= 1'b0; st_q <= S_IDLE; done_o <= 1'b1; err_o <= ERR_WDOG;
				cycles_o <= cyc_q;
			end else case (st_q)
			S_FETCH0: st_q <= S_FETCH;     // p_* follow step_q
			S_FETCH: begin
				w_q <= 9'd0; lay_q <= 3'd0; sw_q <= 9'd0; si_q <= 6'd0; sub_q <= 2'd0;
				bad_q <= 1'b0; tc_q <= 2'd0; j_q <= 9'd0; nph_q <= 1'b0;
				case (p_op)
				OP_DEC: st_q <= S_DEC;
				OP_HASH_H, OP_HASH_G, OP_PRF, OP_XOF: st_q <= S_CLR;
				OP_NTT, OP_INTT: st_q <= S_NTT;
				OP_BMUL: st_q <= S_BMUL;
				OP_MU: st_q <= S_MU;
				OP_ENC10, OP_ENC4: st_q <= S_ENC;
				default: begin
					busy_q <= 1'b0; st_q <= S_IDLE; done_o <= 1'b1; ok_q <= 1'b1;
					cycles_o <= cyc_q;
				end
				endcase
			end
			S_DEC: begin
				bad_q <= bad_q | dbad;
				w_q <= w_q + 9'd1;
				if (w_q == 9'd384) begin      // item 383 checked in this cycle
					if (bad_q | dbad) begin
						busy_q <= 1'b0; st_q <= S_IDLE; done_o <= 1'b1; err_o <= ERR_EK;
						cycles_o <= cyc_q;
					end else begin
						step_q <= step_q + 6'd1; st_q <= S_FETCH0;
					end
				end
			end
			S_CLR: st_q <= S_ABS;
			S_ABS: begin
				sw_q <= sw_q + 9'd1;
				if (si_q == sp_rate - 6'd1) begin
					si_q <= 6'd0; st_q <= S_APW;
				end else
					si_q <= si_q + 6'd1;
			end
			S_APW: if (k_done) st_q <= (sw_q == sp_total) ? S_RD : S_ABS;
			S_RD: begin sub_q <= 2'd0; st_q <= S_SQW; end
			S_SQW: begin
				sub_q <= sub_q + 2'd1;
				case (p_op)
				OP_HASH_H: hw[si_q[2:0]] <= k_rdata;
				OP_HASH_G: if (si_q < 6'd8) kw[si_q[2:0]] <= k_rdata;
				           else rw[si_q[2:0]] <= k_rdata;
				OP_XOF: begin
					if (tc_q != 2'd2) begin
						tb_q <= {sqb, tb_q[15:8]};
						tc_q <= tc_q + 2'd1;
					end else begin
						tc_q <= 2'd0;
						j_q <= j2;
						// the pair word itself is written by the pm port
						if (acc1 && acc2) begin
							if (j_q[0]) ev_q <= d2;
						end else if (acc1 || acc2) begin
							if (!j_q[0]) ev_q <= acc1 ? d1 : d2;
						end
					end
				end
				default: ;
				endcase
				if (sq_finish) begin
					step_q <= step_q + 6'd1; st_q <= S_FETCH0;
				end else if (sq_word_done) begin
					if (si_q == sp_rate - 6'd1) begin
						si_q <= 6'd0; st_q <= S_SPW;
					end else begin
						si_q <= si_q + 6'd1; st_q <= S_RD;
					end
				end
			end
			S_SPW: if (k_done) st_q <= S_RD;
			S_NTT: begin      // a butterfly issues in phase 0
				nph_q <= !nph_q;
				if (nph_q) begin
					w_q <= w_q + 9'd1;
					if (w_q[5:0] == 6'd63) begin
						w_q <= 9'd0; drn_q <= 4'd0; dnt_q <= 1'b1; st_q <= S_DRN;
					end
				end
			end
			S_SCALE, S_BMUL, S_MU, S_ENC: begin
				w_q <= w_q + 9'd1;
				if (w_q == 9'd127) begin
					w_q <= 9'd0; drn_q <= 4'd0; dnt_q <= 1'b0; st_q <= S_DRN;
				end
			end
			S_DRN: begin      // the pass's last item written back, then on
				drn_q <= drn_q + 4'd1;
				if (drn_q == DRN - 4'd1) begin
					if (dnt_q && lay_q != 3'd6) begin
						lay_q <= lay_q + 3'd1; st_q <= S_NTT;
					end else if (dnt_q && inv)
						st_q <= S_SCALE;
					else begin
						step_q <= step_q + 6'd1; st_q <= S_FETCH0;
					end
				end
			end
			default: ;
			endcase
		end
	end

	// ---------------------------------------------------------------
	// Host port
	wire in_ek = (h_addr_i < 10'h128);
	wire in_m = (h_addr_i >= 10'h128) && (h_addr_i < 10'h130);
	wire in_ct = (h_addr_i >= 10'h200) && (h_addr_i < 10'h310);
	wire in_k = (h_addr_i >= 10'h310) && (h_addr_i < 10'h318);
	wire [9:0] ct_i = h_addr_i - 10'h200;
	always @(posedge clk_i) begin
		if (!rst_ni) begin
			h_rdata_o <= 32'd0; h_err_o <= 1'b0;
		end else begin
			h_err_o <= 1'b0;
			if (h_en_i && h_we_i) begin
				if (busy_q || !(in_ek || in_m))
					h_err_o <= 1'b1;
				else if (in_ek)
					ekw[h_addr_i[8:0]] <= h_wdata_i;
				else
					mw[h_addr_i[2:0]] <= h_wdata_i;
			end else if (h_en_i) begin
				h_rdata_o <= 32'd0;
				if (in_ek) h_rdata_o <= ekw[h_addr_i[8:0]];
				else if (in_m) h_rdata_o <= mw[h_addr_i[2:0]];
				else if ((in_ct || in_k) && ok_q && !busy_q)
					h_rdata_o <= in_ct ? ctw[ct_i[8:0]] : kw[h_addr_i[2:0]];
				else
					h_err_o <= 1'b1;
			end
		end
	end
endmodule
`default_nettype wire
