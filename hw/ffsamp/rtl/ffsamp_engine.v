// ffsamp_engine -- the fast-Fourier sampling core of a Falcon signature
// (src/sign.c, ffsamp_tree), bit for bit: (t0, t1) in, (z0, z1) out, with
// the expanded key's LDL tree resident in the engine's tree memory and
// SamplerZ (hw/sampler's samplerz) at the leaves.
//
// Memories (64-bit words, binary64 bit patterns; one synchronous port
// each, shared between the host and the engine):
//   tree  TREE_WORDS = (MAXLOGN + 1) 2^MAXLOGN: the library's layout
//         (fa_expand_privkey after b00..b11): a node of size n is l10 (n
//         words, FFT form), then the left subtree (used for z0) at + n,
//         then the right subtree (used for z1) at + n + (logn) 2^(logn-1);
//         a leaf holds 1/sigma' of its pair.
//   work  WORK_WORDS = 6 2^MAXLOGN; for a command of degree n = 2^logn:
//         t0 at 0, t1 at n (in), z0 at 2n, z1 at 3n (out), the recursion's
//         scratch at 4n .. 6n (as ffsamp_tree's tmp).
// Host port (only while the engine is idle; ignored while busy): mem_sel_i
//   0 = work, 1 = tree; mem_rdata_o one cycle after the address. Any tree
//   write clears the "tree loaded" flag; tree_commit_i with tree_logn_i
//   sets it (the host has written TREESIZE(tree_logn_i) words).
//
// Recursion: an explicit stack of frames (tree, t0, t1, z0, z1, tmp
// addresses and a phase), one per level. A node of logn >= 1 runs
//   0 split(t1 -> z1 | z1 + n/2)   1 right child (tree1) into tmp
//   2 merge(tmp -> z1)             3 tmp = (t1 - z1) * l10 + t0
//   4 split(tmp -> z0 | z0 + n/2)  5 left child (tree0) into tmp
//   6 merge(tmp -> z0)             7 return
// (logn 1: split and merge are copies of two words, as fa_poly_split_fft
// at logn 1; the engine skips them and its leaves read the copies' sources
// and write their destinations), a node of logn 0 is samp_pair: z0 = SamplerZ(t0, tree[0]), then z1 =
// SamplerZ(t1, tree[0]). The n = 2 and n = 4 nodes that sign.c writes out
// perform these same operations. Phase 3 fuses poly_sub, poly_mul_fft and
// poly_add per complex slot u (each slot's operations are independent of
// the other slots', so the values are those of the three passes).
// Each phase is a microprogram per element on 8 registers; with two or
// more elements, elements k and k + 1 run it interleaved on two banks,
// one binary64 adder and one multiplier (hw/fp64, fully pipelined), the
// operations and their rounding those of src/fft.c (split, merge, CMUL,
// poly_sub/add). Instructions issue in order, one per cycle, and wait
// only for their operands (a scoreboard of pending registers); results
// are written back when they leave the adder (7 cycles after issue) or
// the multiplier (6 cycles) or the memory (1 cycle). See hw/ffsamp/doc/ffsamp.md for
// the cycle counts.
//
// Command: start_i with logn_i, sigma_min_i (fa_sigma_min[logn]),
//   max_trials_i (SamplerZ's trial watchdog, 0 = 255), wdog_i (cycle limit
//   of the command, 0 = 2^32 - 1). done_o pulses once per start with err_o:
//   ERR_OK 0; ERR_NOTREE 1 (no committed tree); ERR_LOGN 2 (logn_i outside
//   1..MAXLOGN or not the committed tree's); ERR_WDOG 3 (the cycle limit
//   was reached: the command stops, after SamplerZ, itself bounded, ends);
//   5/6/7 SamplerZ's ERR_ARG/ERR_RANGE/ERR_TRIALS (illegal
//   sigma_min or leaf, BerExp range, trial watchdog). On an error z0/z1
//   are unspecified and the PRNG has advanced by what was consumed.
//   start_i while busy is an illegal request: refused_o pulses, the running
//   command goes on. sz_cycles_o: the cycles of the last command spent
//   waiting for SamplerZ (state S_SZW; the rest is the vector work and the
//   recursion, data-independent). cycles_o / samples_o: cycles and SamplerZ calls of the
//   last command.
// The PRNG is outside (sampler_prng's byte port), so that the engine can
// share the accelerator's generator; its state after a command is the
// library's state after ffsamp_tree.
//
// Timing: the microprograms, the recursion and the scoreboard's stalls
// (fixed latencies) are fixed for a logn; the cycle count depends on the
// data only through SamplerZ (trial counts, BerExp bytes, refills at fixed
// stream positions).
`default_nettype none
module ffsamp_engine #(
	parameter integer MAXLOGN = 10
) (
	input  wire        clk_i,
	input  wire        rst_ni,
	// host memory port
	input  wire        mem_we_i,
	input  wire        mem_sel_i,
	input  wire [15:0] mem_addr_i,
	input  wire [63:0] mem_wdata_i,
	output wire [63:0] mem_rdata_o,
	input  wire        tree_commit_i,
	input  wire [3:0]  tree_logn_i,
	output wire        tree_ok_o,
	// command
	input  wire        start_i,
	input  wire [3:0]  logn_i,
	input  wire [63:0] sigma_min_i,
	input  wire [7:0]  max_trials_i,
	input  wire [31:0] wdog_i,
	output wire        busy_o,
	output reg         done_o,
	output reg  [2:0]  err_o,
	output reg  [31:0] cycles_o,
	output reg  [31:0] sz_cycles_o,
	output reg  [15:0] samples_o,
	output reg         refused_o,
	// byte port of sampler_prng
	output wire        rd_valid_o,
	output wire        rd_align_o,
	input  wire        rd_ready_i,
	input  wire [7:0]  rd_byte_i
);
	localparam integer TREE_WORDS = (MAXLOGN + 1) << MAXLOGN;
	localparam integer WORK_WORDS = 6 << MAXLOGN;
	localparam [63:0] SIGN = 64'h8000000000000000;
	localparam [15:0] TSEL = 16'h8000;   // address bit 15: tree memory
	localparam [2:0] ERR_OK = 3'd0, ERR_NOTREE = 3'd1, ERR_LOGN = 3'd2,
	                 ERR_WDOG = 3'd3;
	localparam [3:0] MAXL = MAXLOGN;

	// ---------------------------------------------------------------
	// microprograms: {op, rd, ra, rb, port}
	localparam [3:0] O_END = 4'd0, O_LD = 4'd1, O_ST = 4'd2, O_ADD = 4'd3,
	                 O_SUB = 4'd4, O_MUL = 4'd5, O_MULN = 4'd6, O_LDW = 4'd7,
	                 O_SZ = 4'd8, O_ADDH = 4'd9, O_SUBH = 4'd10;
	localparam [2:0] K_SPLIT = 3'd0, K_MERGE = 3'd1, K_T0 = 3'd3,
	                 K_LEAF = 3'd4;

	function [16:0] I(input [3:0] op, input [2:0] rd, input [2:0] ra,
		input [2:0] rb, input [3:0] port);
		I = {op, rd, ra, rb, port};
	endfunction

	function [16:0] ucode(input [2:0] kind, input [4:0] pc);
		begin
			ucode = I(O_END, 0, 0, 0, 0);
			case (kind)
			// f0[k] = (a + b)/2, f0[k+qn] likewise on the imaginary parts;
			// d = (a - b)/2; f1 = d * conj(w): CMUL(d_re, d_im, w_re, -w_im)
			K_SPLIT: case (pc)
				0: ucode = I(O_LD, 0, 0, 0, 0);    // a_re = f[2k]
				1: ucode = I(O_LD, 1, 0, 0, 1);    // a_im = f[2k + hn]
				2: ucode = I(O_LD, 2, 0, 0, 2);    // b_re = f[2k + 1]
				3: ucode = I(O_LD, 3, 0, 0, 3);    // b_im = f[2k + 1 + hn]
				4: ucode = I(O_LDW, 4, 0, 0, 0);   // R4, R5 = root[hn + k]
				5: ucode = I(O_ADDH, 6, 0, 2, 0);
				6: ucode = I(O_ADDH, 7, 1, 3, 0);
				7: ucode = I(O_SUBH, 0, 0, 2, 0);  // d_re
				8: ucode = I(O_SUBH, 1, 1, 3, 0);  // d_im
				9: ucode = I(O_ST, 0, 6, 0, 4);    // f0[k]
				10: ucode = I(O_ST, 0, 7, 0, 5);   // f0[k + qn]
				11: ucode = I(O_MUL, 2, 0, 4, 0);  // d_re w_re
				12: ucode = I(O_MULN, 3, 1, 5, 0); // d_im (-w_im)
				13: ucode = I(O_MULN, 0, 0, 5, 0); // d_re (-w_im)
				14: ucode = I(O_MUL, 1, 1, 4, 0);  // d_im w_re
				15: ucode = I(O_SUB, 2, 2, 3, 0);
				16: ucode = I(O_ADD, 0, 0, 1, 0);
				17: ucode = I(O_ST, 0, 2, 0, 6);   // f1[k]
				18: ucode = I(O_ST, 0, 0, 0, 7);   // f1[k + qn]
				default: ;
			endcase
			// t = f1 * w: CMUL(f1_re, f1_im, w_re, w_im); f = f0 +- t
			K_MERGE: case (pc)
				0: ucode = I(O_LD, 0, 0, 0, 0);    // a_re = f0[k]
				1: ucode = I(O_LD, 1, 0, 0, 1);    // a_im = f0[k + qn]
				2: ucode = I(O_LD, 2, 0, 0, 2);    // f1[k]
				3: ucode = I(O_LD, 3, 0, 0, 3);    // f1[k + qn]
				4: ucode = I(O_LDW, 4, 0, 0, 0);
				5: ucode = I(O_MUL, 6, 2, 4, 0);   // f1_re w_re
				6: ucode = I(O_MUL, 7, 3, 5, 0);   // f1_im w_im
				7: ucode = I(O_MUL, 2, 2, 5, 0);   // f1_re w_im
				8: ucode = I(O_MUL, 3, 3, 4, 0);   // f1_im w_re
				9: ucode = I(O_SUB, 6, 6, 7, 0);   // t_re
				10: ucode = I(O_ADD, 7, 2, 3, 0);  // t_im
				11: ucode = I(O_ADD, 2, 0, 6, 0);
				12: ucode = I(O_SUB, 4, 0, 6, 0);
				13: ucode = I(O_ADD, 3, 1, 7, 0);
				14: ucode = I(O_SUB, 5, 1, 7, 0);
				15: ucode = I(O_ST, 0, 2, 0, 4);   // f[2k]
				16: ucode = I(O_ST, 0, 4, 0, 6);   // f[2k + 1]
				17: ucode = I(O_ST, 0, 3, 0, 5);   // f[2k + hn]
				18: ucode = I(O_ST, 0, 5, 0, 7);   // f[2k + 1 + hn]
				default: ;
			endcase
			// slot u: d = t1 - z1 (poly_sub); a = CMUL(d, l10) (poly_mul_fft);
			// tmp = a + t0 (poly_add)
			K_T0: case (pc)
				0: ucode = I(O_LD, 0, 0, 0, 0);    // t1[u]
				1: ucode = I(O_LD, 1, 0, 0, 1);    // z1[u]
				2: ucode = I(O_LD, 2, 0, 0, 2);    // t1[u + hn]
				3: ucode = I(O_LD, 3, 0, 0, 3);    // z1[u + hn]
				4: ucode = I(O_LD, 4, 0, 0, 4);    // l10[u]
				5: ucode = I(O_LD, 5, 0, 0, 5);    // l10[u + hn]
				6: ucode = I(O_SUB, 0, 0, 1, 0);   // d_re
				7: ucode = I(O_SUB, 2, 2, 3, 0);   // d_im
				8: ucode = I(O_LD, 6, 0, 0, 6);    // t0[u]
				9: ucode = I(O_LD, 7, 0, 0, 7);    // t0[u + hn]
				10: ucode = I(O_MUL, 1, 0, 4, 0);  // d_re l_re
				11: ucode = I(O_MUL, 3, 2, 5, 0);  // d_im l_im
				12: ucode = I(O_MUL, 0, 0, 5, 0);  // d_re l_im
				13: ucode = I(O_MUL, 2, 2, 4, 0);  // d_im l_re
				14: ucode = I(O_SUB, 1, 1, 3, 0);  // a_re
				15: ucode = I(O_ADD, 0, 0, 2, 0);  // a_im
				16: ucode = I(O_ADD, 1, 1, 6, 0);
				17: ucode = I(O_ADD, 0, 0, 7, 0);
				18: ucode = I(O_ST, 0, 1, 0, 8);   // tmp[u]
				19: ucode = I(O_ST, 0, 0, 0, 9);   // tmp[u + hn]
				default: ;
			endcase
			// samp_pair: z0 = SamplerZ(t0, s), z1 = SamplerZ(t1, s)
			K_LEAF: case (pc)
				0: ucode = I(O_LD, 0, 0, 0, 0);
				1: ucode = I(O_LD, 1, 0, 0, 1);
				2: ucode = I(O_LD, 2, 0, 0, 2);
				3: ucode = I(O_SZ, 3, 0, 2, 0);
				4: ucode = I(O_SZ, 4, 1, 2, 0);
				5: ucode = I(O_ST, 0, 3, 0, 4);
				6: ucode = I(O_ST, 0, 4, 0, 5);
				default: ;
			endcase
			default: ;
			endcase
		end
	endfunction

	// ---------------------------------------------------------------
	// state
	localparam [3:0] S_IDLE = 4'd0, S_NODE = 4'd1, S_ISSUE = 4'd2,
	                 S_SZ = 4'd7, S_SZW = 4'd8, S_DONE = 4'd9, S_ABORT = 4'd10;
	reg  [3:0]  st_q;
	reg  [3:0]  logn_q;          // degree of the command
	reg  [3:0]  d_q;             // stack depth (node logn = logn_q - d_q)
	reg  [3:0]  tree_logn_q;
	reg         tree_ok_q;
	reg  [63:0] smin_q;
	reg  [7:0]  maxt_q;
	reg  [31:0] wdog_q, cyc_q, szc_q;
	reg  [2:0]  err_q;
	reg  [15:0] nsamp_q;

	// stack of frames (work addresses; tree addresses with bit 15 set)
	reg  [15:0] fr_tree [0:MAXLOGN];
	reg  [15:0] fr_t0   [0:MAXLOGN];
	reg  [15:0] fr_t1   [0:MAXLOGN];
	reg  [15:0] fr_z0   [0:MAXLOGN];
	reg  [15:0] fr_z1   [0:MAXLOGN];
	reg  [15:0] fr_tmp  [0:MAXLOGN];
	reg  [2:0]  fr_ph   [0:MAXLOGN];

	// running kernel
	reg  [2:0]  kind_q;
	reg  [5:0]  pc_q;            // {microprogram pc, bank} in dual mode
	reg  [10:0] k_q, kcnt_q;     // element index, element count
	reg  [15:0] ba_q, bb_q, bc_q, bd_q, be_q;
	reg  [10:0] hn_q, qn_q;
	reg  [63:0] rf_q [0:15];     // bank 0: R0..R7, bank 1: R8..R15
	reg  [15:0] pend_q;          // register waiting for a result
	// write-back tags {valid, rd, half} of the adder / multiplier pipelines
	reg  [5:0]  wba_q [0:6];     // the adder's result: 7 cycles after issue
	reg  [4:0]  wbm_q [0:5];     // the multiplier's: 6 cycles after issue
	reg  [4:0]  wbl_q;           // {valid, rd} of a memory load

	wire [3:0]  nl = logn_q - d_q;                 // node logn
	wire [10:0] nn = 11'd1 << nl;                  // node size
	wire [10:0] nh = nn >> 1;
	wire [15:0] sub_tree = {12'd0, nl} << (nl - 4'd1);  // TREESIZE(nl - 1)

	// dual mode (an even element count of at least 2): elements k and k + 1
	// run the same microprogram interleaved instruction by instruction,
	// k on register bank 0, k + 1 on bank 1, so that one element's
	// instructions issue while the other's wait for results
	wire        dual = (kcnt_q >= 11'd2);
	wire        bank = dual & pc_q[0];
	wire [4:0]  upc = dual ? pc_q[5:1] : pc_q[4:0];
	wire [16:0] ins = ucode(kind_q, upc);
	wire [3:0]  i_op = ins[16:13];
	wire [3:0]  i_rd = {bank, ins[12:10]}, i_ra = {bank, ins[9:7]}, i_rb = {bank, ins[6:4]};
	wire [3:0]  i_rd1 = {bank, ins[12:10] + 3'd1};
	wire [3:0]  i_port = ins[3:0];
	wire [10:0] k_el = k_q + {10'd0, bank};       // this instruction's element
	wire [5:0]  pc_step = 6'd1;

	// element addresses of the running kernel
	reg  [15:0] port_addr;
	wire [15:0] k16 = {5'd0, k_el}, hn16 = {5'd0, hn_q}, qn16 = {5'd0, qn_q};
	always @(*) begin
		port_addr = 16'd0;
		case (kind_q)
		K_SPLIT: case (i_port)
			4'd0: port_addr = ba_q + (k16 << 1);
			4'd1: port_addr = ba_q + (k16 << 1) + hn16;
			4'd2: port_addr = ba_q + (k16 << 1) + 16'd1;
			4'd3: port_addr = ba_q + (k16 << 1) + 16'd1 + hn16;
			4'd4: port_addr = bc_q + k16;
			4'd5: port_addr = bc_q + k16 + qn16;
			4'd6: port_addr = bc_q + hn16 + k16;
			default: port_addr = bc_q + hn16 + k16 + qn16;
		endcase
		K_MERGE: case (i_port)
			4'd0: port_addr = ba_q + k16;
			4'd1: port_addr = ba_q + k16 + qn16;
			4'd2: port_addr = ba_q + hn16 + k16;
			4'd3: port_addr = ba_q + hn16 + k16 + qn16;
			4'd4: port_addr = bc_q + (k16 << 1);
			4'd5: port_addr = bc_q + (k16 << 1) + hn16;
			4'd6: port_addr = bc_q + (k16 << 1) + 16'd1;
			default: port_addr = bc_q + (k16 << 1) + 16'd1 + hn16;
		endcase
		K_T0: case (i_port)   // ba t1, bb z1, bc tmp, bd tree, be t0
			4'd0: port_addr = ba_q + k16;
			4'd1: port_addr = bb_q + k16;
			4'd2: port_addr = ba_q + k16 + hn16;
			4'd3: port_addr = bb_q + k16 + hn16;
			4'd4: port_addr = bd_q + k16;
			4'd5: port_addr = bd_q + k16 + hn16;
			4'd6: port_addr = be_q + k16;
			4'd7: port_addr = be_q + k16 + hn16;
			4'd8: port_addr = bc_q + k16;
			default: port_addr = bc_q + k16 + hn16;
		endcase
		default: case (i_port)   // K_LEAF
			4'd0: port_addr = ba_q;
			4'd1: port_addr = bb_q;
			4'd2: port_addr = bc_q;
			4'd4: port_addr = bd_q;
			default: port_addr = be_q;
		endcase
		endcase
	end

	// issue condition of the current instruction: its operands and its
	// destination are not waiting for a result
	reg  can_issue;
	always @(*) begin
		case (i_op)
		O_END: can_issue = (dual & ~bank) | (pend_q == 16'd0);
		O_LD:  can_issue = ~pend_q[i_rd];
		O_ST:  can_issue = ~pend_q[i_ra];
		O_LDW: can_issue = ~pend_q[i_rd] & ~pend_q[i_rd1];
		default: can_issue = ~pend_q[i_ra] & ~pend_q[i_rb] & ~pend_q[i_rd];
		endcase
	end
	wire issue = (st_q == S_ISSUE) & can_issue;

	// ---------------------------------------------------------------
	// memories
	wire        busy = (st_q != S_IDLE);
	wire        eng_wr = issue & (i_op == O_ST);
	wire [15:0] eng_addr = port_addr;
	wire [63:0] eng_wdata = rf_q[i_ra];

	wire        w_we = busy ? (eng_wr & ~eng_addr[15]) : (mem_we_i & ~mem_sel_i);
	wire        t_we = busy ? 1'b0 : (mem_we_i & mem_sel_i);
	wire [15:0] w_addr = busy ? eng_addr : mem_addr_i;
	wire [15:0] t_addr = busy ? eng_addr : mem_addr_i;
	wire [63:0] w_wdata = busy ? eng_wdata : mem_wdata_i;

	reg  [63:0] wram [0:WORK_WORDS-1];
	reg  [63:0] tram [0:TREE_WORDS-1];
	reg  [63:0] w_rdata, t_rdata;
	reg         rsel_q;
	always @(posedge clk_i) begin
		if (w_we) wram[w_addr[14:0]] <= w_wdata;
		w_rdata <= wram[w_addr[14:0]];
	end
	always @(posedge clk_i) begin
		if (t_we) tram[t_addr[14:0]] <= mem_wdata_i;
		t_rdata <= tram[t_addr[14:0]];
	end
	always @(posedge clk_i) rsel_q <= busy ? eng_addr[15] : mem_sel_i;
	assign mem_rdata_o = rsel_q ? t_rdata : w_rdata;
	wire [63:0] rdata = rsel_q ? t_rdata : w_rdata;

	// twiddles: root[hn + k] = {re, im} and root[hn + k + 1] for bank 1
	// (registered ROMs; k is stable for many cycles before an LDW)
	wire [127:0] root0, root1;
	fft_roots_rom u_roots0 (.clk(clk_i), .addr(hn_q[9:0] + k_q[9:0]), .data(root0));
	fft_roots_rom u_roots1 (.clk(clk_i), .addr(hn_q[9:0] + k_q[9:0] + 10'd1), .data(root1));
	wire [127:0] root = bank ? root1 : root0;

	// ---------------------------------------------------------------
	// binary64 units, operands registered (results held while operands are)
	reg  [63:0] add_a_q, add_b_q, mul_a_q, mul_b_q;
	wire [63:0] add_y, mul_y;
	fp64_add u_add (.clk(clk_i), .a(add_a_q), .b(add_b_q), .y(add_y));
	fp64_mul u_mul (.clk(clk_i), .a(mul_a_q), .b(mul_b_q), .y(mul_y));

	// fpr_half (src/fpr.h): exponent field minus one, zero below field 2
	function [63:0] fhalf(input [63:0] x);
		fhalf = (x[62:52] >= 11'd2) ? (x - 64'h0010000000000000) : (x & SIGN);
	endfunction

	// SamplerZ at the leaves
	reg         sz_start;
	wire        sz_done, sz_busy;
	wire [31:0] sz_z;
	wire [1:0]  sz_err;
	wire [7:0]  sz_trials;
	wire [63:0] sz_f;
	samplerz u_samplerz (.clk_i(clk_i), .rst_ni(rst_ni), .start_i(sz_start),
		.mu_i(rf_q[i_ra]), .isigma_i(rf_q[i_rb]), .sigma_min_i(smin_q),
		.max_trials_i(maxt_q), .done_o(sz_done), .z_o(sz_z), .err_o(sz_err),
		.trials_o(sz_trials), .busy_o(sz_busy), .rd_valid_o(rd_valid_o),
		.rd_align_o(rd_align_o), .rd_ready_i(rd_ready_i), .rd_byte_i(rd_byte_i));
	sampler_i2f u_i2f (.i_i(sz_z), .f_o(sz_f));
	always @(*) sz_start = (st_q == S_SZ);

	assign busy_o = busy;
	assign tree_ok_o = tree_ok_q;

	wire logn_bad = (logn_i == 4'd0) || (logn_i > MAXL) || (logn_i != tree_logn_q);
	wire wdog_hit = (st_q != S_IDLE) && (st_q != S_DONE) && (st_q != S_ABORT) &&
	                (cyc_q == wdog_q);

	integer j;
	always @(posedge clk_i or negedge rst_ni) begin
		if (!rst_ni) begin
			st_q <= S_IDLE; logn_q <= 4'd1; d_q <= 4'd0; tree_logn_q <= 4'd0;
			tree_ok_q <= 1'b0; smin_q <= 64'd0; maxt_q <= 8'd0; wdog_q <= 32'd0;
			cyc_q <= 32'd0; err_q <= ERR_OK; nsamp_q <= 16'd0; szc_q <= 32'd0;
			sz_cycles_o <= 32'd0;
			kind_q <= K_SPLIT; pc_q <= 6'd0; k_q <= 11'd0; kcnt_q <= 11'd0;
			ba_q <= 16'd0; bb_q <= 16'd0; bc_q <= 16'd0; bd_q <= 16'd0; be_q <= 16'd0;
			hn_q <= 11'd0; qn_q <= 11'd0; pend_q <= 16'd0; wbl_q <= 5'd0;
			add_a_q <= 64'd0; add_b_q <= 64'd0; mul_a_q <= 64'd0; mul_b_q <= 64'd0;
			done_o <= 1'b0; refused_o <= 1'b0; err_o <= ERR_OK; cycles_o <= 32'd0;
			samples_o <= 16'd0;
			for (j = 0; j < 16; j = j + 1) rf_q[j] <= 64'd0;
			for (j = 0; j < 7; j = j + 1) wba_q[j] <= 6'd0;
			for (j = 0; j < 6; j = j + 1) wbm_q[j] <= 5'd0;
			for (j = 0; j <= MAXLOGN; j = j + 1) begin
				fr_tree[j] <= 16'd0; fr_t0[j] <= 16'd0; fr_t1[j] <= 16'd0;
				fr_z0[j] <= 16'd0; fr_z1[j] <= 16'd0; fr_tmp[j] <= 16'd0;
				fr_ph[j] <= 3'd0;
			end
		end else begin
			done_o <= 1'b0;
			refused_o <= start_i & busy;
			if (!busy) begin
				if (mem_we_i & mem_sel_i) tree_ok_q <= 1'b0;
				if (tree_commit_i) begin
					tree_ok_q <= 1'b1; tree_logn_q <= tree_logn_i;
				end
			end
			if (busy) cyc_q <= cyc_q + 32'd1;
			if (st_q == S_SZW) szc_q <= szc_q + 32'd1;

			// write-back: pipelines move on every cycle; a result clears
			// its register's pending bit (issue below may set another)
			wba_q[0] <= 6'd0; wbm_q[0] <= 5'd0; wbl_q <= 5'd0;
			for (j = 1; j < 7; j = j + 1) wba_q[j] <= wba_q[j - 1];
			for (j = 1; j < 6; j = j + 1) wbm_q[j] <= wbm_q[j - 1];
			if (wba_q[6][5]) rf_q[wba_q[6][4:1]] <= wba_q[6][0] ? fhalf(add_y) : add_y;
			if (wbm_q[5][4]) rf_q[wbm_q[5][3:0]] <= mul_y;
			if (wbl_q[4]) rf_q[wbl_q[3:0]] <= rdata;
			for (j = 0; j < 16; j = j + 1) begin
				if ((wba_q[6][5] && wba_q[6][4:1] == j) ||
				    (wbm_q[5][4] && wbm_q[5][3:0] == j) ||
				    (wbl_q[4] && wbl_q[3:0] == j))
					pend_q[j] <= 1'b0;
			end

			if (wdog_hit) begin
				err_q <= ERR_WDOG; st_q <= S_ABORT;
			end else
			case (st_q)
			S_IDLE: if (start_i) begin
				cyc_q <= 32'd0; nsamp_q <= 16'd0; szc_q <= 32'd0;
				wdog_q <= (wdog_i == 32'd0) ? 32'hFFFFFFFF : wdog_i;
				smin_q <= sigma_min_i; maxt_q <= max_trials_i;
				logn_q <= logn_i; d_q <= 4'd0; err_q <= ERR_OK;
				if (!tree_ok_q) begin
					err_q <= ERR_NOTREE; st_q <= S_DONE;
				end else if (logn_bad) begin
					err_q <= ERR_LOGN; st_q <= S_DONE;
				end else begin
					// root frame: t0 0, t1 n, z0 2n, z1 3n, tmp 4n
					fr_tree[0] <= TSEL;
					fr_t0[0] <= 16'd0;
					fr_t1[0] <= 16'd1 << logn_i;
					fr_z0[0] <= 16'd2 << logn_i;
					fr_z1[0] <= 16'd3 << logn_i;
					fr_tmp[0] <= 16'd4 << logn_i;
					fr_ph[0] <= 3'd0;
					st_q <= S_NODE;
				end
			end
			// the next phase of the node on top of the stack
			S_NODE: begin
				pc_q <= 6'd0; k_q <= 11'd0;
				hn_q <= nh; qn_q <= nh >> 1;
				if (nl == 4'd0) begin
					if (fr_ph[d_q] == 3'd0) begin
						kind_q <= K_LEAF; kcnt_q <= 11'd1;
						ba_q <= fr_t0[d_q]; bb_q <= fr_t1[d_q]; bc_q <= fr_tree[d_q];
						bd_q <= fr_z0[d_q]; be_q <= fr_z1[d_q];
						st_q <= S_ISSUE;
					end else begin
						d_q <= d_q - 4'd1;
						fr_ph[d_q - 4'd1] <= fr_ph[d_q - 4'd1] + 3'd1;
					end
				end else case (fr_ph[d_q])
				// logn 1: split and merge are copies of two words (z1 = t1,
				// z1 = tmp, z0 = tmp, z0 = tmp); they are skipped and the leaf
				// reads and writes the copies' sources and destinations
				// (below), the same values in the same places
				3'd0, 3'd4: if (nl == 4'd1) begin
					fr_ph[d_q] <= fr_ph[d_q] + 3'd1;
				end else begin      // split
					kind_q <= K_SPLIT;
					kcnt_q <= {1'b0, nh[10:1]};
					ba_q <= (fr_ph[d_q] == 3'd0) ? fr_t1[d_q] : fr_tmp[d_q];
					bc_q <= (fr_ph[d_q] == 3'd0) ? fr_z1[d_q] : fr_z0[d_q];
					st_q <= S_ISSUE;
				end
				3'd2, 3'd6: if (nl == 4'd1) begin
					fr_ph[d_q] <= fr_ph[d_q] + 3'd1;
				end else begin      // merge
					kind_q <= K_MERGE;
					kcnt_q <= {1'b0, nh[10:1]};
					ba_q <= fr_tmp[d_q];
					bc_q <= (fr_ph[d_q] == 3'd2) ? fr_z1[d_q] : fr_z0[d_q];
					st_q <= S_ISSUE;
				end
				3'd1, 3'd5: begin   // child: right (z1) then left (z0); the
					// phase moves on when the child returns
					fr_tree[d_q + 4'd1] <= fr_tree[d_q] + {5'd0, nn} +
						((fr_ph[d_q] == 3'd1) ? sub_tree : 16'd0);
					if (nl == 4'd1) begin
						// the leaf: (t1 | tmp) in, (z1 | z0) out
						fr_t0[d_q + 4'd1] <= (fr_ph[d_q] == 3'd1) ? fr_t1[d_q] : fr_tmp[d_q];
						fr_t1[d_q + 4'd1] <= ((fr_ph[d_q] == 3'd1) ? fr_t1[d_q] : fr_tmp[d_q]) +
							16'd1;
						fr_z0[d_q + 4'd1] <= (fr_ph[d_q] == 3'd1) ? fr_z1[d_q] : fr_z0[d_q];
						fr_z1[d_q + 4'd1] <= ((fr_ph[d_q] == 3'd1) ? fr_z1[d_q] : fr_z0[d_q]) +
							16'd1;
					end else begin
						fr_z0[d_q + 4'd1] <= fr_tmp[d_q];
						fr_z1[d_q + 4'd1] <= fr_tmp[d_q] + {5'd0, nh};
						fr_t0[d_q + 4'd1] <= (fr_ph[d_q] == 3'd1) ? fr_z1[d_q] : fr_z0[d_q];
						fr_t1[d_q + 4'd1] <= ((fr_ph[d_q] == 3'd1) ? fr_z1[d_q] : fr_z0[d_q]) +
							{5'd0, nh};
					end
					fr_tmp[d_q + 4'd1] <= fr_tmp[d_q] + {5'd0, nn};
					fr_ph[d_q + 4'd1] <= 3'd0;
					d_q <= d_q + 4'd1;
				end
				3'd3: begin         // tmp = (t1 - z1) * l10 + t0
					kind_q <= K_T0; kcnt_q <= nh;
					ba_q <= fr_t1[d_q]; bb_q <= fr_z1[d_q]; bc_q <= fr_tmp[d_q];
					bd_q <= fr_tree[d_q]; be_q <= fr_t0[d_q];
					st_q <= S_ISSUE;
				end
				default: begin      // 7: return
					if (d_q == 4'd0) st_q <= S_DONE;
					else begin
						d_q <= d_q - 4'd1;
						fr_ph[d_q - 4'd1] <= fr_ph[d_q - 4'd1] + 3'd1;
					end
				end
				endcase
			end
			// issue the current instruction when its registers are ready
			S_ISSUE: if (issue) begin
				pc_q <= pc_q + pc_step;
				case (i_op)
				O_END: if (!(dual & ~bank)) begin   // bank 0's END: no-op
					pc_q <= 6'd0;
					if (k_q + (dual ? 11'd2 : 11'd1) == kcnt_q) begin
						fr_ph[d_q] <= fr_ph[d_q] + 3'd1;
						st_q <= S_NODE;
					end else begin
						k_q <= k_q + (dual ? 11'd2 : 11'd1);
					end
				end
				O_LD: begin   // address presented this cycle, data next
					wbl_q <= {1'b1, i_rd}; pend_q[i_rd] <= 1'b1;
				end
				O_LDW: begin  // ROM output (address hn + k) is stable
					rf_q[i_rd] <= root[127:64];
					rf_q[i_rd1] <= root[63:0];
				end
				O_ST: ;       // written this cycle
				O_SZ: begin
					pc_q <= pc_q; st_q <= S_SZ;
				end
				O_ADD, O_SUB, O_ADDH, O_SUBH: begin
					add_a_q <= rf_q[i_ra];
					add_b_q <= (i_op == O_SUB || i_op == O_SUBH) ? (rf_q[i_rb] ^ SIGN) : rf_q[i_rb];
					wba_q[0] <= {1'b1, i_rd, (i_op == O_ADDH || i_op == O_SUBH)};
					pend_q[i_rd] <= 1'b1;
				end
				default: begin   // O_MUL, O_MULN
					mul_a_q <= rf_q[i_ra];
					mul_b_q <= (i_op == O_MULN) ? (rf_q[i_rb] ^ SIGN) : rf_q[i_rb];
					wbm_q[0] <= {1'b1, i_rd};
					pend_q[i_rd] <= 1'b1;
				end
				endcase
			end
			S_SZ: st_q <= S_SZW;   // samplerz takes start in this cycle
			S_SZW: if (sz_done) begin
				nsamp_q <= nsamp_q + 16'd1;
				if (sz_err != 2'd0) begin
					err_q <= 3'd4 + {1'b0, sz_err}; st_q <= S_DONE;
				end else begin
					rf_q[i_rd] <= sz_f;
					pc_q <= pc_q + 6'd1; st_q <= S_ISSUE;
				end
			end
			// watchdog: wait for SamplerZ (bounded by its trial limit)
			// (and for the results in flight)
			S_ABORT: if (!sz_busy && pend_q == 16'd0) st_q <= S_DONE;
			S_DONE: begin
				done_o <= 1'b1; err_o <= err_q;
				cycles_o <= cyc_q; samples_o <= nsamp_q; sz_cycles_o <= szc_q;
				pend_q <= 16'd0;
				st_q <= S_IDLE;
			end
			default: st_q <= S_IDLE;
			endcase
		end
	end
endmodule
`default_nettype wire
