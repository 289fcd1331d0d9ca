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
// addresses and a phase), one per level. A node of logn >= 2 runs
//   0 split(t1 -> z1 | z1 + n/2)   1 right child (tree1) into tmp
//   2 merge(tmp -> z1)             3 tmp = (t1 - z1) * l10 + t0
//   4 split(tmp -> z0 | z0 + n/2)  5 left child (tree0) into tmp
//   6 merge(tmp -> z0)             7 return
// A node of logn 1 (n = 2) is one kernel, K_NODE1: its split and merge
// are copies of two words (fa_poly_split_fft at logn 1), so it reads t1,
// runs the right leaf (samp_pair: z1 = (SamplerZ(t1_re, s1),
// SamplerZ(t1_im, s1))), phase 3 on its one slot, and the left leaf on tmp,
// writing z1 and z0 where the copies would have put them. The n = 2 and
// n = 4 nodes that sign.c writes out perform these same operations. A
// node of logn 2 (n = 4) is one kernel too, K_NODE2: thread 0 runs the
// whole node (split, right child as K_NODE1, merge, phase 3, split, left
// child, merge) on all 32 registers, storing only the node's z1 and z0
// (the generic kernels' operations in their order; util/node2_ucode.py
// allocates its registers and checks it against them). A node of logn 3
// runs its phases 2, 3 and 4 as one kernel, K_MPS (two threads of 16
// registers, element k = pair k: the merge of pair k writes the two slots
// that phase 3 then computes in registers, and the split of pair k reads
// exactly those; util/mps_ucode.py). Phase
// 3 fuses poly_sub, poly_mul_fft and poly_add per complex slot u (each
// slot's operations are independent of the other slots', so the values
// are those of the three passes).
// Each phase is a microprogram per element (split / merge: a pair k of
// the n/4; phase 3: a slot u of the n/2) run by NT = 4 element threads:
// thread t owns registers R(8t) .. R(8t + 7), issues its microprogram in
// order and takes the next element index when it issues its last
// instruction. Each cycle every unit -- the work memory's read port, the
// tree memory's read port, the work memory's write port, the twiddle ROM,
// one binary64 adder and one multiplier (hw/fp64, fully pipelined) --
// takes at most one instruction, from the lowest-numbered thread whose
// instruction is ready (its operands and destination not waiting for a
// result: a scoreboard of pending registers). The elements of a kernel
// touch disjoint words (reads and writes in different regions), so their
// order does not matter; the operations and their rounding are those of
// src/fft.c (split, merge, CMUL, poly_sub/add). Issue is two stages:
// the grant (each thread's current instruction is registered, decoded into
// absolute registers and a one-hot destination mask; readiness from the
// pending bits and registered one-hot masks of the results that arrive
// in this or the next cycle), then the read stage a cycle later (memory
// and ROM addresses, register file read with forwarding of that cycle's
// write-backs, the units' inputs). Results are written back 6 cycles after
// the read stage (adder), 5 (multiplier), 1 (memories, ROM); a value that
// arrives in the read stage's cycle is forwarded, so a dependent
// instruction is granted as many cycles after its producer's grant as
// with operands at grant. SamplerZ starts in its grant cycle. The
// schedule is a function of the kernel and its element count only. See
// hw/ffsamp/doc/ffsamp.md for the cycle counts.
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
//   command goes on. sz_cycles_o: the cycles of the last command in which
//   a SamplerZ sample ran (thread 0 may issue independent instructions
//   meanwhile; the rest is the vector work and the recursion,
//   data-independent). cycles_o / samples_o: cycles and SamplerZ calls of the
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
	parameter integer MAXLOGN = 10,
	// log2 of the element threads (2: four, the default; 3: eight, faster
	// on the throughput-bound levels, larger: hw/ffsamp/doc/ffsamp.md)
	parameter integer THREADS_LOG2 = 2
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
	input  wire [7:0]  rd_byte_i,
	// look-ahead / commit ports of sampler_prng (samplerz's speculative
	// trials) and its byte pointer
	input  wire [8:0]  prng_ptr_i,
	output wire [8:0]  pk_addr_o,
	input  wire [7:0]  pk_byte_i,
	output wire        cm_valid_o,
	output wire [8:0]  cm_ptr_o
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
	                 O_SZ = 4'd8, O_ADDH = 4'd9, O_SUBH = 4'd10, O_LDT = 4'd11;
	localparam [2:0] K_SPLIT = 3'd0, K_MERGE = 3'd1, K_NODE1 = 3'd2, K_T0 = 3'd3,
	                 K_NODE2 = 3'd4, K_MPS = 3'd5;

	// an instruction: op [22:19], rd [18:14], ra [13:9], rb [8:4], port
	// [3:0]; registers are thread-relative (0..7) in the element kernels,
	// absolute (0..31, thread 0 only) in K_NODE2
	function [22:0] I(input [3:0] op, input [4:0] rd, input [4:0] ra,
		input [4:0] rb, input [3:0] port);
		I = {op, rd, ra, rb, port};
	endfunction

	function [22:0] ucode(input [2:0] kind, input [6:0] pc);
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
				5: ucode = I(O_SUBH, 6, 0, 2, 0);  // d_re
				6: ucode = I(O_SUBH, 7, 1, 3, 0);  // d_im
				7: ucode = I(O_ADDH, 0, 0, 2, 0);
				8: ucode = I(O_ADDH, 1, 1, 3, 0);
				9: ucode = I(O_MUL, 2, 6, 4, 0);   // d_re w_re
				10: ucode = I(O_MULN, 3, 7, 5, 0); // d_im (-w_im)
				11: ucode = I(O_MULN, 6, 6, 5, 0); // d_re (-w_im)
				12: ucode = I(O_MUL, 7, 7, 4, 0);  // d_im w_re
				13: ucode = I(O_ST, 0, 0, 0, 4);   // f0[k]
				14: ucode = I(O_ST, 0, 1, 0, 5);   // f0[k + qn]
				15: ucode = I(O_SUB, 2, 2, 3, 0);
				16: ucode = I(O_ADD, 6, 6, 7, 0);
				17: ucode = I(O_ST, 0, 2, 0, 6);   // f1[k]
				18: ucode = I(O_ST, 0, 6, 0, 7);   // f1[k + qn]
				default: ;
			endcase
			// t = f1 * w: CMUL(f1_re, f1_im, w_re, w_im); f = f0 +- t
			K_MERGE: case (pc)
				0: ucode = I(O_LDW, 4, 0, 0, 0);   // R4, R5 = root[hn + k]
				1: ucode = I(O_LD, 2, 0, 0, 2);    // f1[k]
				2: ucode = I(O_LD, 3, 0, 0, 3);    // f1[k + qn]
				3: ucode = I(O_LD, 0, 0, 0, 0);    // a_re = f0[k]
				4: ucode = I(O_LD, 1, 0, 0, 1);    // a_im = f0[k + qn]
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
				4: ucode = I(O_LDT, 4, 0, 0, 4);   // l10[u]
				5: ucode = I(O_LDT, 5, 0, 0, 5);   // l10[u + hn]
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
			// a whole node of logn 1 (n = 2, one complex slot; its split and
			// merge are copies): the right leaf z1 = (SamplerZ(t1_re, s1),
			// SamplerZ(t1_im, s1)); tmp = (t1 - z1) * l10 + t0 as K_T0;
			// the left leaf z0 = (SamplerZ(tmp_re, s0), SamplerZ(tmp_im, s0))
			K_NODE1: case (pc)
				0: ucode = I(O_LD, 0, 0, 0, 0);    // t1_re
				1: ucode = I(O_LD, 1, 0, 0, 1);    // t1_im
				2: ucode = I(O_LDT, 2, 0, 0, 2);   // s1 = 1/sigma' (right leaf)
				3: ucode = I(O_SZ, 3, 0, 2, 0);    // z1_re
				4: ucode = I(O_SZ, 4, 1, 2, 0);    // z1_im
				5: ucode = I(O_ST, 0, 3, 0, 8);    // z1[0]
				6: ucode = I(O_ST, 0, 4, 0, 9);    // z1[1]
				7: ucode = I(O_SUB, 0, 0, 3, 0);   // d_re
				8: ucode = I(O_SUB, 1, 1, 4, 0);   // d_im
				9: ucode = I(O_LDT, 2, 0, 0, 3);   // l10_re
				10: ucode = I(O_LDT, 3, 0, 0, 4);  // l10_im
				11: ucode = I(O_MUL, 4, 0, 2, 0);  // d_re l_re
				12: ucode = I(O_MUL, 5, 1, 3, 0);  // d_im l_im
				13: ucode = I(O_MUL, 6, 0, 3, 0);  // d_re l_im
				14: ucode = I(O_MUL, 7, 1, 2, 0);  // d_im l_re
				15: ucode = I(O_LD, 0, 0, 0, 5);   // t0_re
				16: ucode = I(O_LD, 1, 0, 0, 6);   // t0_im
				17: ucode = I(O_LDT, 2, 0, 0, 7);  // s0 (left leaf)
				18: ucode = I(O_SUB, 4, 4, 5, 0);  // a_re
				19: ucode = I(O_ADD, 6, 6, 7, 0);  // a_im
				20: ucode = I(O_ADD, 4, 4, 0, 0);  // tmp_re
				21: ucode = I(O_ADD, 6, 6, 1, 0);  // tmp_im
				22: ucode = I(O_SZ, 3, 4, 2, 0);   // z0_re
				23: ucode = I(O_SZ, 5, 6, 2, 0);   // z0_im
				24: ucode = I(O_ST, 0, 3, 0, 10);  // z0[0]
				25: ucode = I(O_ST, 0, 5, 0, 11);  // z0[1]
				default: ;
			endcase
			// a whole node of logn 2 (n = 4) on thread 0 with all 32
			// registers: split t1, the right child (as K_NODE1), merge -> z1
			// (stored), phase 3 on the two slots, split, the left child,
			// merge -> z0 (stored); the intermediate values stay in
			// registers. Register allocation and order: util/node2_ucode.py
			// (which checks these operations against the generic kernels').
			// Ports: work reads 0..3 t1, 4..7 t0; writes 8..11 z1, 12..15
			// z0; tree reads tree + port.
			K_NODE2: case (pc)
			// BEGIN K_NODE2 (generated by hw/ffsamp/util/node2_ucode.py --verilog)
			0: ucode = I(O_LD, 0, 0, 0, 0);  // LD a0 @0
			1: ucode = I(O_LD, 1, 0, 0, 1);  // LD b0 @1
			2: ucode = I(O_LD, 2, 0, 0, 2);  // LD a1 @2
			3: ucode = I(O_LD, 3, 0, 0, 3);  // LD b1 @3
			4: ucode = I(O_SUBH, 4, 0, 1, 0);  // SUBH s_dr, a0, b0
			5: ucode = I(O_SUBH, 5, 2, 3, 0);  // SUBH s_di, a1, b1
			6: ucode = I(O_LDW, 6, 0, 0, 0);  // LDW w
			7: ucode = I(O_LDT, 8, 0, 0, 11);  // LDT R_s1 @11
			8: ucode = I(O_LDT, 9, 0, 0, 8);  // LDT R_lr @8
			9: ucode = I(O_LDT, 10, 0, 0, 9);  // LDT R_li @9
			10: ucode = I(O_MUL, 11, 4, 6, 0);  // MUL s_p0, s_dr, w.re
			11: ucode = I(O_MULN, 12, 5, 7, 0);  // MULN s_p1, s_di, w.im
			12: ucode = I(O_MULN, 4, 4, 7, 0);  // MULN s_p2, s_dr, w.im
			13: ucode = I(O_MUL, 5, 5, 6, 0);  // MUL s_p3, s_di, w.re
			14: ucode = I(O_ADDH, 13, 0, 1, 0);  // ADDH rc0r, a0, b0
			15: ucode = I(O_LDT, 14, 0, 0, 10);  // LDT R_s0 @10
			16: ucode = I(O_SUB, 11, 11, 12, 0);  // SUB rc1r, s_p0, s_p1
			17: ucode = I(O_ADDH, 12, 2, 3, 0);  // ADDH rc0i, a1, b1
			18: ucode = I(O_ADD, 4, 4, 5, 0);  // ADD rc1i, s_p2, s_p3
			19: ucode = I(O_LDT, 5, 0, 0, 0);  // LDT l0 @0
			20: ucode = I(O_LDT, 15, 0, 0, 1);  // LDT l1 @1
			21: ucode = I(O_LDT, 16, 0, 0, 2);  // LDT l2 @2
			22: ucode = I(O_LDT, 17, 0, 0, 3);  // LDT l3 @3
			23: ucode = I(O_LD, 18, 0, 0, 4);  // LD t00 @4
			24: ucode = I(O_SZ, 19, 11, 8, 0);  // SZ rz1r, rc1r, R_s1
			25: ucode = I(O_SZ, 8, 4, 8, 0);  // SZ rz1i, rc1i, R_s1
			26: ucode = I(O_SUB, 11, 11, 19, 0);  // SUB R_ddr, rc1r, rz1r
			27: ucode = I(O_MUL, 20, 19, 6, 0);  // MUL R_q0, rz1r, w.re
			28: ucode = I(O_MUL, 19, 19, 7, 0);  // MUL R_q2, rz1r, w.im
			29: ucode = I(O_LD, 21, 0, 0, 5);  // LD t01 @5
			30: ucode = I(O_LD, 22, 0, 0, 6);  // LD t02 @6
			31: ucode = I(O_LD, 23, 0, 0, 7);  // LD t03 @7
			32: ucode = I(O_MUL, 24, 11, 9, 0);  // MUL R_m0, R_ddr, R_lr
			33: ucode = I(O_MUL, 11, 11, 10, 0);  // MUL R_m2, R_ddr, R_li
			34: ucode = I(O_LDT, 25, 0, 0, 7);  // LDT L_s1 @7
			35: ucode = I(O_LDT, 26, 0, 0, 4);  // LDT L_lr @4
			36: ucode = I(O_LDT, 27, 0, 0, 5);  // LDT L_li @5
			37: ucode = I(O_SUB, 4, 4, 8, 0);  // SUB R_ddi, rc1i, rz1i
			38: ucode = I(O_MUL, 28, 8, 7, 0);  // MUL R_q1, rz1i, w.im
			39: ucode = I(O_MUL, 8, 8, 6, 0);  // MUL R_q3, rz1i, w.re
			40: ucode = I(O_LDT, 29, 0, 0, 6);  // LDT L_s0 @6
			41: ucode = I(O_MUL, 10, 4, 10, 0);  // MUL R_m1, R_ddi, R_li
			42: ucode = I(O_MUL, 4, 4, 9, 0);  // MUL R_m3, R_ddi, R_lr
			43: ucode = I(O_SUB, 9, 20, 28, 0);  // SUB R_tr, R_q0, R_q1
			44: ucode = I(O_ADD, 8, 19, 8, 0);  // ADD R_ti, R_q2, R_q3
			45: ucode = I(O_SUB, 10, 24, 10, 0);  // SUB R_ar, R_m0, R_m1
			46: ucode = I(O_ADD, 4, 11, 4, 0);  // ADD R_ai, R_m2, R_m3
			47: ucode = I(O_ADD, 10, 10, 13, 0);  // ADD R_xr, R_ar, rc0r
			48: ucode = I(O_ADD, 4, 4, 12, 0);  // ADD R_xi, R_ai, rc0i
			49: ucode = I(O_SZ, 10, 10, 14, 0);  // SZ rz0r, R_xr, R_s0
			50: ucode = I(O_SZ, 4, 4, 14, 0);  // SZ rz0i, R_xi, R_s0
			51: ucode = I(O_ADD, 11, 10, 9, 0);  // ADD z10, rz0r, R_tr
			52: ucode = I(O_SUB, 9, 10, 9, 0);  // SUB z11, rz0r, R_tr
			53: ucode = I(O_SUB, 0, 0, 11, 0);  // SUB e0r, a0, z10
			54: ucode = I(O_SUB, 1, 1, 9, 0);  // SUB e1r, b0, z11
			55: ucode = I(O_ST, 0, 11, 0, 8);  // ST z10 @8
			56: ucode = I(O_ST, 0, 9, 0, 9);  // ST z11 @9
			57: ucode = I(O_ADD, 9, 4, 8, 0);  // ADD z12, rz0i, R_ti
			58: ucode = I(O_SUB, 4, 4, 8, 0);  // SUB z13, rz0i, R_ti
			59: ucode = I(O_MUL, 8, 0, 5, 0);  // MUL n1_0, e0r, l0
			60: ucode = I(O_MUL, 10, 1, 15, 0);  // MUL n1_1, e1r, l1
			61: ucode = I(O_MUL, 0, 0, 16, 0);  // MUL n0_0, e0r, l2
			62: ucode = I(O_MUL, 1, 1, 17, 0);  // MUL n0_1, e1r, l3
			63: ucode = I(O_SUB, 2, 2, 9, 0);  // SUB e0i, a1, z12
			64: ucode = I(O_SUB, 3, 3, 4, 0);  // SUB e1i, b1, z13
			65: ucode = I(O_ST, 0, 9, 0, 10);  // ST z12 @10
			66: ucode = I(O_ST, 0, 4, 0, 11);  // ST z13 @11
			67: ucode = I(O_MUL, 4, 2, 16, 0);  // MUL n3_0, e0i, l2
			68: ucode = I(O_MUL, 9, 3, 17, 0);  // MUL n3_1, e1i, l3
			69: ucode = I(O_MUL, 2, 2, 5, 0);  // MUL n2_0, e0i, l0
			70: ucode = I(O_MUL, 3, 3, 15, 0);  // MUL n2_1, e1i, l1
			71: ucode = I(O_SUB, 4, 8, 4, 0);  // SUB g_r0, n1_0, n3_0
			72: ucode = I(O_SUB, 5, 10, 9, 0);  // SUB g_r1, n1_1, n3_1
			73: ucode = I(O_ADD, 0, 0, 2, 0);  // ADD g_i0, n0_0, n2_0
			74: ucode = I(O_ADD, 1, 1, 3, 0);  // ADD g_i1, n0_1, n2_1
			75: ucode = I(O_ADD, 2, 4, 18, 0);  // ADD h_r0, g_r0, t00
			76: ucode = I(O_ADD, 3, 5, 21, 0);  // ADD h_r1, g_r1, t01
			77: ucode = I(O_ADD, 0, 0, 22, 0);  // ADD h_i0, g_i0, t02
			78: ucode = I(O_ADD, 1, 1, 23, 0);  // ADD h_i1, g_i1, t03
			79: ucode = I(O_SUBH, 4, 2, 3, 0);  // SUBH s2_dr, h_r0, h_r1
			80: ucode = I(O_ADDH, 2, 2, 3, 0);  // ADDH lc0r, h_r0, h_r1
			81: ucode = I(O_SUBH, 3, 0, 1, 0);  // SUBH s2_di, h_i0, h_i1
			82: ucode = I(O_ADDH, 0, 0, 1, 0);  // ADDH lc0i, h_i0, h_i1
			83: ucode = I(O_MUL, 1, 4, 6, 0);  // MUL s2_p0, s2_dr, w.re
			84: ucode = I(O_MULN, 4, 4, 7, 0);  // MULN s2_p2, s2_dr, w.im
			85: ucode = I(O_MULN, 5, 3, 7, 0);  // MULN s2_p1, s2_di, w.im
			86: ucode = I(O_MUL, 3, 3, 6, 0);  // MUL s2_p3, s2_di, w.re
			87: ucode = I(O_SUB, 1, 1, 5, 0);  // SUB lc1r, s2_p0, s2_p1
			88: ucode = I(O_ADD, 3, 4, 3, 0);  // ADD lc1i, s2_p2, s2_p3
			89: ucode = I(O_SZ, 4, 1, 25, 0);  // SZ lz1r, lc1r, L_s1
			90: ucode = I(O_SZ, 5, 3, 25, 0);  // SZ lz1i, lc1i, L_s1
			91: ucode = I(O_SUB, 1, 1, 4, 0);  // SUB L_ddr, lc1r, lz1r
			92: ucode = I(O_MUL, 8, 4, 6, 0);  // MUL L_q0, lz1r, w.re
			93: ucode = I(O_MUL, 4, 4, 7, 0);  // MUL L_q2, lz1r, w.im
			94: ucode = I(O_MUL, 9, 1, 26, 0);  // MUL L_m0, L_ddr, L_lr
			95: ucode = I(O_MUL, 1, 1, 27, 0);  // MUL L_m2, L_ddr, L_li
			96: ucode = I(O_SUB, 3, 3, 5, 0);  // SUB L_ddi, lc1i, lz1i
			97: ucode = I(O_MUL, 7, 5, 7, 0);  // MUL L_q1, lz1i, w.im
			98: ucode = I(O_MUL, 5, 5, 6, 0);  // MUL L_q3, lz1i, w.re
			99: ucode = I(O_MUL, 6, 3, 27, 0);  // MUL L_m1, L_ddi, L_li
			100: ucode = I(O_MUL, 3, 3, 26, 0);  // MUL L_m3, L_ddi, L_lr
			101: ucode = I(O_SUB, 7, 8, 7, 0);  // SUB L_tr, L_q0, L_q1
			102: ucode = I(O_ADD, 4, 4, 5, 0);  // ADD L_ti, L_q2, L_q3
			103: ucode = I(O_SUB, 5, 9, 6, 0);  // SUB L_ar, L_m0, L_m1
			104: ucode = I(O_ADD, 1, 1, 3, 0);  // ADD L_ai, L_m2, L_m3
			105: ucode = I(O_ADD, 2, 5, 2, 0);  // ADD L_xr, L_ar, lc0r
			106: ucode = I(O_ADD, 0, 1, 0, 0);  // ADD L_xi, L_ai, lc0i
			107: ucode = I(O_SZ, 1, 2, 29, 0);  // SZ lz0r, L_xr, L_s0
			108: ucode = I(O_SZ, 0, 0, 29, 0);  // SZ lz0i, L_xi, L_s0
			109: ucode = I(O_ADD, 2, 1, 7, 0);  // ADD z00, lz0r, L_tr
			110: ucode = I(O_SUB, 1, 1, 7, 0);  // SUB z01, lz0r, L_tr
			111: ucode = I(O_ST, 0, 2, 0, 12);  // ST z00 @12
			112: ucode = I(O_ST, 0, 1, 0, 13);  // ST z01 @13
			113: ucode = I(O_ADD, 1, 0, 4, 0);  // ADD z02, lz0i, L_ti
			114: ucode = I(O_SUB, 0, 0, 4, 0);  // SUB z03, lz0i, L_ti
			115: ucode = I(O_ST, 0, 1, 0, 14);  // ST z02 @14
			116: ucode = I(O_ST, 0, 0, 0, 15);  // ST z03 @15
			// END K_NODE2
				default: ;
			endcase
			// phases 2, 3 and 4 of a node of logn >= 3 fused, element k =
			// pair k on two threads of 16 registers (R(16t + f)): merge of
			// the right child's output (tmp) into z1 (stored), phase 3 on
			// the slots 2k, 2k + 1 that the merge produced, the split of
			// those two slots into z0 (the left child's inputs); phase 3's
			// result stays in registers. Register allocation and order:
			// util/mps_ucode.py (checks these operations against K_MERGE,
			// K_T0, K_SPLIT). Ports: see mps_addr.
			K_MPS: case (pc)
			// BEGIN K_MPS (generated by hw/ffsamp/util/mps_ucode.py --verilog)
				0: ucode = I(O_LDW, 0, 0, 0, 0);  // LDW w
				1: ucode = I(O_LD, 2, 0, 0, 2);  // LD f1r @2
				2: ucode = I(O_LD, 3, 0, 0, 3);  // LD f1i @3
				3: ucode = I(O_MUL, 4, 2, 0, 0);  // MUL q0, f1r, w.re
				4: ucode = I(O_MUL, 5, 3, 1, 0);  // MUL q1, f1i, w.im
				5: ucode = I(O_MUL, 2, 2, 1, 0);  // MUL q2, f1r, w.im
				6: ucode = I(O_MUL, 3, 3, 0, 0);  // MUL q3, f1i, w.re
				7: ucode = I(O_LD, 6, 0, 0, 0);  // LD f0r @0
				8: ucode = I(O_LD, 7, 0, 0, 1);  // LD f0i @1
				9: ucode = I(O_LD, 8, 0, 0, 4);  // LD a0 @4
				10: ucode = I(O_LD, 9, 0, 0, 5);  // LD b0 @5
				11: ucode = I(O_SUB, 4, 4, 5, 0);  // SUB tr, q0, q1
				12: ucode = I(O_ADD, 2, 2, 3, 0);  // ADD ti, q2, q3
				13: ucode = I(O_LD, 3, 0, 0, 6);  // LD a1 @6
				14: ucode = I(O_LD, 5, 0, 0, 7);  // LD b1 @7
				15: ucode = I(O_LDT, 10, 0, 0, 0);  // LDT l0 @0
				16: ucode = I(O_LDT, 11, 0, 0, 1);  // LDT l1 @1
				17: ucode = I(O_LDT, 12, 0, 0, 2);  // LDT l2 @2
				18: ucode = I(O_LDT, 13, 0, 0, 3);  // LDT l3 @3
				19: ucode = I(O_ADD, 14, 6, 4, 0);  // ADD z10, f0r, tr
				20: ucode = I(O_SUB, 4, 6, 4, 0);  // SUB z11, f0r, tr
				21: ucode = I(O_ADD, 6, 7, 2, 0);  // ADD z12, f0i, ti
				22: ucode = I(O_SUB, 2, 7, 2, 0);  // SUB z13, f0i, ti
				23: ucode = I(O_SUB, 7, 8, 14, 0);  // SUB e0r, a0, z10
				24: ucode = I(O_SUB, 8, 9, 4, 0);  // SUB e1r, b0, z11
				25: ucode = I(O_SUB, 3, 3, 6, 0);  // SUB e0i, a1, z12
				26: ucode = I(O_SUB, 5, 5, 2, 0);  // SUB e1i, b1, z13
				27: ucode = I(O_ST, 0, 14, 0, 0);  // ST z10 @0
				28: ucode = I(O_ST, 0, 4, 0, 1);  // ST z11 @1
				29: ucode = I(O_ST, 0, 6, 0, 2);  // ST z12 @2
				30: ucode = I(O_ST, 0, 2, 0, 3);  // ST z13 @3
				31: ucode = I(O_LD, 2, 0, 0, 8);  // LD t00 @8
				32: ucode = I(O_LD, 4, 0, 0, 9);  // LD t01 @9
				33: ucode = I(O_LD, 6, 0, 0, 10);  // LD t02 @10
				34: ucode = I(O_LD, 9, 0, 0, 11);  // LD t03 @11
				35: ucode = I(O_MUL, 14, 7, 10, 0);  // MUL n1_0, e0r, l0
				36: ucode = I(O_MUL, 7, 7, 12, 0);  // MUL n0_0, e0r, l2
				37: ucode = I(O_MUL, 12, 3, 12, 0);  // MUL n3_0, e0i, l2
				38: ucode = I(O_MUL, 3, 3, 10, 0);  // MUL n2_0, e0i, l0
				39: ucode = I(O_MUL, 10, 8, 11, 0);  // MUL n1_1, e1r, l1
				40: ucode = I(O_MUL, 8, 8, 13, 0);  // MUL n0_1, e1r, l3
				41: ucode = I(O_MUL, 13, 5, 13, 0);  // MUL n3_1, e1i, l3
				42: ucode = I(O_MUL, 5, 5, 11, 0);  // MUL n2_1, e1i, l1
				43: ucode = I(O_SUB, 11, 14, 12, 0);  // SUB g_r0, n1_0, n3_0
				44: ucode = I(O_SUB, 10, 10, 13, 0);  // SUB g_r1, n1_1, n3_1
				45: ucode = I(O_ADD, 3, 7, 3, 0);  // ADD g_i0, n0_0, n2_0
				46: ucode = I(O_ADD, 5, 8, 5, 0);  // ADD g_i1, n0_1, n2_1
				47: ucode = I(O_ADD, 2, 11, 2, 0);  // ADD h_r0, g_r0, t00
				48: ucode = I(O_ADD, 4, 10, 4, 0);  // ADD h_r1, g_r1, t01
				49: ucode = I(O_ADD, 3, 3, 6, 0);  // ADD h_i0, g_i0, t02
				50: ucode = I(O_ADD, 5, 5, 9, 0);  // ADD h_i1, g_i1, t03
				51: ucode = I(O_SUBH, 6, 2, 4, 0);  // SUBH dr, h_r0, h_r1
				52: ucode = I(O_SUBH, 7, 3, 5, 0);  // SUBH di, h_i0, h_i1
				53: ucode = I(O_ADDH, 2, 2, 4, 0);  // ADDH c0r, h_r0, h_r1
				54: ucode = I(O_ADDH, 3, 3, 5, 0);  // ADDH c0i, h_i0, h_i1
				55: ucode = I(O_MUL, 4, 6, 0, 0);  // MUL p0, dr, w.re
				56: ucode = I(O_MULN, 5, 6, 1, 0);  // MULN p2, dr, w.im
				57: ucode = I(O_MULN, 1, 7, 1, 0);  // MULN p1, di, w.im
				58: ucode = I(O_MUL, 0, 7, 0, 0);  // MUL p3, di, w.re
				59: ucode = I(O_ST, 0, 2, 0, 4);  // ST c0r @4
				60: ucode = I(O_ST, 0, 3, 0, 5);  // ST c0i @5
				61: ucode = I(O_SUB, 1, 4, 1, 0);  // SUB c1r, p0, p1
				62: ucode = I(O_ADD, 0, 5, 0, 0);  // ADD c1i, p2, p3
				63: ucode = I(O_ST, 0, 1, 0, 6);  // ST c1r @6
				64: ucode = I(O_ST, 0, 0, 0, 7);  // ST c1i @7
			// END K_MPS
				default: ;
			endcase
			default: ;
			endcase
		end
	endfunction

	// ---------------------------------------------------------------
	// state
	localparam [3:0] S_IDLE = 4'd0, S_NODE = 4'd1, S_ISSUE = 4'd2,
	                 S_DONE = 4'd9, S_ABORT = 4'd10;
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

	// running kernel: NT element threads, thread t on registers
	// R(8t) .. R(8t + 7); each runs the kernel's microprogram on one
	// element at a time, in order, and takes the next element index when
	// it reaches END
	localparam integer TW = THREADS_LOG2;    // log2 of the thread count
	localparam integer NT = 1 << TW;
	localparam integer RW = TW + 3;          // register index width
	localparam integer NR = 8 << TW;
	reg  [2:0]  kind_q;
	reg  [10:0] kcnt_q, kn_q;    // element count, next element to hand out
	reg  [15:0] ba_q, bb_q, bc_q, bd_q, be_q, bf_q;
	reg  [10:0] hn_q, qn_q;
	reg  [NT-1:0] act_q;         // thread has an element
	reg  [6:0]  tpc_q [0:NT-1];  // thread's microprogram counter
	// thread's current instruction, decoded into absolute registers (op,
	// rd, rd + 1, ra, rb, port; last: the next one is END), and its next
	// instruction (raw): both registered, so the microcode lookup is off
	// the grant path
	localparam integer DW = 8 + 4 * RW;
	reg  [DW-1:0] tid_q [0:NT-1];     // {op, rd, rd + 1, ra, rb, port}
	reg  [NR:0] tdd_q [0:NT-1];       // {destination registers (one-hot; LDW:
	                                  // two), is a memory or ROM read}
	reg  [NT-1:0] ti_last_q;
	reg  [22:0] tnx_q [0:NT-1];
	// their fields
	reg  [3:0]  ti_op_q [0:NT-1];
	reg  [RW-1:0] ti_rd_q [0:NT-1], ti_rd1_q [0:NT-1], ti_ra_q [0:NT-1], ti_rb_q [0:NT-1];
	reg  [3:0]  ti_port_q [0:NT-1];
	reg  [NR-1:0] ti_doh_q [0:NT-1];
	reg  [NT-1:0] ti_ld_q;
	always @(*) begin : tfields
		integer t;
		for (t = 0; t < NT; t = t + 1) begin
			{ti_op_q[t], ti_rd_q[t], ti_rd1_q[t], ti_ra_q[t], ti_rb_q[t], ti_port_q[t]} = tid_q[t];
			{ti_doh_q[t], ti_ld_q[t]} = tdd_q[t];
		end
	end
	reg         nleft_q;         // every element of the kernel is handed out
	reg  [10:0] tk_q  [0:NT-1];  // thread's element
	reg  [63:0] rf_q [0:NR-1];
	reg  [NR-1:0] pend_q;        // register waiting for a result
	reg  [NR-1:0] rearm_q;       // granted again while its result arrives next
	// write-back tags {valid, register, half} of the adder / multiplier
	// pipelines, {valid, register} of the memory and ROM reads
	localparam integer LA = 6, LM = 5;    // adder / multiplier: issue to result
	reg  [RW+1:0] wba_q [0:LA-1];  // the adder's result: LA cycles after the read stage
	reg  [RW:0]   wbm_q [0:LM-1];  // the multiplier's: LM cycles after the read stage
	reg  [RW:0]   wbl_q, wbt_q, wbr_q;  // work / tree / ROM read: 1 cycle
	// read stage (below): the instruction granted in the previous cycle
	reg  [RW:0]   rs_rd_q, rs_rt_q, rs_rom_q;   // {valid, destination}
	reg  [RW+1:0] rs_add_q;                     // {valid, destination, half}
	reg  [RW:0]   rs_mul_q;
	reg           rs_wr_q;                      // a store
	reg  [RW-1:0] rs_wsrc_q, rs_ara_q, rs_arb_q, rs_mra_q, rs_mrb_q;
	reg           rs_asub_q, rs_mneg_q;
	reg  [3:0]    rs_rdp_q, rs_rtp_q, rs_wrp_q; // ports
	reg  [10:0]   rs_rdk_q, rs_rtk_q, rs_wrk_q, rs_romk_q;  // elements
	wire        wdog_hit;        // the command's cycle limit is reached

	// SamplerZ (thread 0's SZ instructions) is a unit of its own: one
	// sample at a time; the thread goes on issuing what does not need the
	// sample while it runs
	reg         szf_q;           // a sample runs
	reg  [RW-1:0] szd_q, szb_q;  // its destination and 1/sigma registers
	wire        sz_done;
	wire [1:0]  sz_err;
	// the next SZ may issue in the cycle the running sample ends (not
	// after an error: the command stops)
	wire        sz_free = ~szf_q | (sz_done & (sz_err == 2'd0));

	wire [3:0]  nl = logn_q - d_q;                 // node logn
	wire [10:0] nn = 11'd1 << nl;                  // node size
	wire [10:0] nh = nn >> 1;
	wire [15:0] sub_tree = {12'd0, nl} << (nl - 4'd1);  // TREESIZE(nl - 1)
	// element count of the kernel that S_NODE starts (leaf: 1; phase 3:
	// the n/2 complex slots; split / merge: the n/4 pairs)
	// threads of that kernel: K_MPS runs on two (16 registers each)
	wire [TW:0] node_nt = (nl == 4'd3 && fr_ph[d_q] == 3'd2) ? 2 : NT;
	wire [10:0] node_kcnt = (nl <= 4'd2) ? 11'd1 :
	                        (fr_ph[d_q] == 3'd3) ? nh : {1'b0, nh[10:1]};
	// kind of that kernel (S_NODE's case below; phases 1, 5, 7 start none)
	wire [2:0]  node_kind = (nl == 4'd1) ? K_NODE1 : (nl == 4'd2) ? K_NODE2 :
	                        (fr_ph[d_q] == 3'd3) ? K_T0 :
	                        (fr_ph[d_q] == 3'd2 && nl == 4'd3) ? K_MPS :
	                        (fr_ph[d_q] == 3'd2 || fr_ph[d_q] == 3'd6) ? K_MERGE : K_SPLIT;

	// element addresses of a kernel for (port, element k); the kernel's
	// kind and bases are arguments (a continuous assignment is evaluated
	// again when its arguments change)
	function [15:0] paddr(input [2:0] kind, input [3:0] port, input [10:0] k,
		input [15:0] ba_q, input [15:0] bb_q, input [15:0] bc_q, input [15:0] bd_q,
		input [15:0] be_q, input [10:0] hn, input [10:0] qn);
		reg [15:0] k16, hn16, qn16;
		begin
			k16 = {5'd0, k}; hn16 = {5'd0, hn}; qn16 = {5'd0, qn};
			paddr = 16'd0;
			case (kind)
			K_SPLIT: case (port)
				4'd0: paddr = ba_q + (k16 << 1);
				4'd1: paddr = ba_q + (k16 << 1) + hn16;
				4'd2: paddr = ba_q + (k16 << 1) + 16'd1;
				4'd3: paddr = ba_q + (k16 << 1) + 16'd1 + hn16;
				4'd4: paddr = bc_q + k16;
				4'd5: paddr = bc_q + k16 + qn16;
				4'd6: paddr = bc_q + hn16 + k16;
				default: paddr = bc_q + hn16 + k16 + qn16;
			endcase
			K_MERGE: case (port)
				4'd0: paddr = ba_q + k16;
				4'd1: paddr = ba_q + k16 + qn16;
				4'd2: paddr = ba_q + hn16 + k16;
				4'd3: paddr = ba_q + hn16 + k16 + qn16;
				4'd4: paddr = bc_q + (k16 << 1);
				4'd5: paddr = bc_q + (k16 << 1) + hn16;
				4'd6: paddr = bc_q + (k16 << 1) + 16'd1;
				default: paddr = bc_q + (k16 << 1) + 16'd1 + hn16;
			endcase
			K_T0: case (port)   // ba t1, bb z1, bc tmp, bd tree, be t0
				4'd0: paddr = ba_q + k16;
				4'd1: paddr = bb_q + k16;
				4'd2: paddr = ba_q + k16 + hn16;
				4'd3: paddr = bb_q + k16 + hn16;
				4'd4: paddr = bd_q + k16;
				4'd5: paddr = bd_q + k16 + hn16;
				4'd6: paddr = be_q + k16;
				4'd7: paddr = be_q + k16 + hn16;
				4'd8: paddr = bc_q + k16;
				default: paddr = bc_q + k16 + hn16;
			endcase
			K_NODE2: case (port[3:2])   // ba t1, bb t0, bd z1, be z0
				2'd0: paddr = ba_q + {14'd0, port[1:0]};
				2'd1: paddr = bb_q + {14'd0, port[1:0]};
				2'd2: paddr = bd_q + {14'd0, port[1:0]};
				default: paddr = be_q + {14'd0, port[1:0]};
			endcase
			default: case (port)   // K_NODE1: ba t1, bb t0, bc tree, bd z1, be z0
				4'd0: paddr = ba_q;
				4'd1: paddr = ba_q + 16'd1;
				4'd2: paddr = bc_q + 16'd3;     // right leaf: tree + 2 + TREESIZE(0)
				4'd3: paddr = bc_q;
				4'd4: paddr = bc_q + 16'd1;
				4'd5: paddr = bb_q;
				4'd6: paddr = bb_q + 16'd1;
				4'd7: paddr = bc_q + 16'd2;     // left leaf: tree + 2
				4'd8: paddr = bd_q;
				4'd9: paddr = bd_q + 16'd1;
				4'd10: paddr = be_q;
				default: paddr = be_q + 16'd1;
			endcase
			endcase
		end
	endfunction

	// K_MPS's addresses for pair k: pair_a: base + k, k + qn, hn + k,
	// hn + k + qn (a merge's input, a split's output); pair_b: base + 2k,
	// 2k + 1, 2k + hn, 2k + 1 + hn (a merge's output, phase 3's slots).
	// Work reads (wr = 0): 0..3 pair_a(tmp), 4..7 pair_b(t1), 8..11
	// pair_b(t0); writes (wr = 1): 0..3 pair_b(z1), 4..7 pair_a(z0); tree
	// reads: pair_b(tree). Bases: ba tmp, bb t1, bc z1, bd tree, be t0,
	// bf z0.
	// (every signal a function reads is an argument: a continuous
	// assignment is evaluated again only when its arguments change)
	function [15:0] pair_a(input [15:0] base, input [1:0] j, input [10:0] k,
		input [10:0] hn, input [10:0] qn);
		pair_a = base + {5'd0, k} + (j[0] ? {5'd0, qn} : 16'd0) +
			(j[1] ? {5'd0, hn} : 16'd0);
	endfunction
	function [15:0] pair_b(input [15:0] base, input [1:0] j, input [10:0] k,
		input [10:0] hn);
		pair_b = base + {4'd0, k, 1'b0} + {15'd0, j[0]} +
			(j[1] ? {5'd0, hn} : 16'd0);
	endfunction
	function [15:0] mps_addr(input wr, input [3:0] port, input [10:0] k,
		input [15:0] ba, input [15:0] bb, input [15:0] bc, input [15:0] be,
		input [15:0] bf, input [10:0] hn, input [10:0] qn);
		if (wr) mps_addr = port[2] ? pair_a(bf, port[1:0], k, hn, qn) :
			pair_b(bc, port[1:0], k, hn);
		else case (port[3:2])
			2'd0: mps_addr = pair_a(ba, port[1:0], k, hn, qn);
			2'd1: mps_addr = pair_b(bb, port[1:0], k, hn);
			default: mps_addr = pair_b(be, port[1:0], k, hn);
		endcase
	endfunction

	// fpr_half (src/fpr.h): exponent field minus one, zero below field 2
	function [63:0] fhalf(input [63:0] x);
		fhalf = (x[62:52] >= 11'd2) ? (x - 64'h0010000000000000) : (x & SIGN);
	endfunction

	// results of the binary64 units, the memories' and the twiddle ROM's
	// read data
	wire [63:0] add_y, mul_y;
	reg  [63:0] w_rdata, t_rdata;
	wire [127:0] root;

	// write-back of this cycle: the registers whose result arrives now
	// (their pending bits clear at the end of the cycle); the read stage
	// takes an arriving value as its operand (forwarding), so an
	// instruction may be granted on a register whose result arrives in the
	// next cycle
	wire [63:0] wb_add = wba_q[LA-1][0] ? fhalf(add_y) : add_y;
	// Which registers arrive, as one-hot masks registered a cycle ahead so
	// that the grant does not compare tags: now_q (tags at the pipelines' last
	// stage, loads and ROM reads in their write-back cycle) and the
	// arrivals of the next cycle, nxtp_q (the adder's and multiplier's
	// second-to-last stage) and ldn_q (loads and ROM reads in the read
	// stage), plus a sample that ends now (written to the register file
	// at the end of this cycle; after a SamplerZ error the command ends).
	reg  [NR-1:0] now_q, nxtp_q, ldn_q, szoh_q;
	wire [NR-1:0] wb_now = now_q;
	wire [NR-1:0] wb_nxt = nxtp_q | ldn_q | ((szf_q && sz_done) ? szoh_q : {NR{1'b0}});
	function [NR-1:0] oh(input v, input [RW-1:0] r);
		oh = v ? ({{(NR-1){1'b0}}, 1'b1} << r) : {NR{1'b0}};
	endfunction
	// an instruction granted now reads its operands in the next cycle: a
	// register is ready for it if its result is in the register file by
	// then or arrives then (forwarded); likewise a destination may be
	// granted again when its result arrives now or next (re-armed below)
	wire [NR-1:0] pend_f = pend_q & ~wb_now;
	// the pending bits after this cycle's arrivals (a re-armed register
	// keeps its bit: its new result is still to come)
	wire [NR-1:0] pend_base = pend_q & ~(wb_now & ~rearm_q) &
		~((szf_q && sz_done) ? szoh_q : {NR{1'b0}});
	wire [NR-1:0] pend_s = pend_f & ~wb_nxt;
	// register idx as the read stage reads it (rf: its value in the
	// register file; the other arguments: this cycle's write-backs). At
	// most one write-back targets a register in a cycle (an instruction is
	// granted only when its destination's previous result arrives in this
	// or the next cycle, and its own result comes two or more cycles
	// later), so the sources are one-hot: an AND-OR, not a priority chain
	function [63:0] opnd(input [RW-1:0] idx, input [63:0] rf,
		input [RW+1:0] ta, input [63:0] va, input [RW:0] tm, input [63:0] vm,
		input [RW:0] tl, input [63:0] vl, input [RW:0] tt, input [63:0] vt,
		input [RW:0] tr, input [127:0] vr);
		reg sa, sm, sl, st, sr0, sr1;
		begin
			sa = ta[RW+1] && ta[RW:1] == idx;
			sm = tm[RW] && tm[RW-1:0] == idx;
			sl = tl[RW] && tl[RW-1:0] == idx;
			st = tt[RW] && tt[RW-1:0] == idx;
			sr0 = tr[RW] && tr[RW-1:0] == idx;
			sr1 = tr[RW] && tr[RW-1:0] + 1'b1 == idx;
			opnd = ({64{sa}} & va) | ({64{sm}} & vm) | ({64{sl}} & vl) | ({64{st}} & vt)
				| ({64{sr0}} & vr[127:64]) | ({64{sr1}} & vr[63:0])
				| ({64{~(sa | sm | sl | st | sr0 | sr1)}} & rf);
		end
	endfunction

	// register of thread t's instruction field f: R(8t + f) in the element
	// kernels (f < 8), R(f) in K_NODE2 (thread 0), R(16t + f) in K_MPS
	// (threads 0 and 1, f < 16)
	wire kmps = (kind_q == K_MPS);
	function [RW-1:0] rix(input m, input [TW-1:0] t, input [4:0] f);
		rix = m ? {t[0], f[3:0]} : ({t, 3'b000} | f);
	endfunction
	// an instruction of thread t decoded: {op, rd, rd + 1, ra, rb, port}
	function [DW-1:0] tdec(input m, input [TW-1:0] t, input [22:0] ins);
		tdec = {ins[22:19], rix(m, t, ins[18:14]), rix(m, t, ins[18:14] + 5'd1),
			rix(m, t, ins[13:9]), rix(m, t, ins[8:4]), ins[3:0]};
	endfunction
	// {destination registers, is a read} of an instruction of thread t
	function [NR:0] tdst(input m, input [TW-1:0] t, input [22:0] ins);
		case (ins[22:19])
		O_END, O_ST: tdst = {NR+1{1'b0}};
		O_LDW: tdst = {oh(1'b1, rix(m, t, ins[18:14])) | oh(1'b1, rix(m, t, ins[18:14] + 5'd1)), 1'b1};
		O_LD, O_LDT: tdst = {oh(1'b1, rix(m, t, ins[18:14])), 1'b1};
		default: tdst = {oh(1'b1, rix(m, t, ins[18:14])), 1'b0};
		endcase
	endfunction

	// per thread: the current instruction, whether it may issue (its
	// operands and its destination are not waiting for a result), and the
	// unit it asks for
	localparam integer U_RD = 0, U_RT = 1, U_WR = 2, U_ADD = 3, U_MUL = 4,
	                   U_ROM = 5, U_END = 6, U_SZ = 7, NU = 8;
	reg  [NT-1:0] want [0:NU-1];
	wire [NT-1:0] tlast = ti_last_q;   // the thread's instruction is its last
	always @(*) begin : decode
		reg  [3:0]  op_t;
		reg  [RW-1:0] rd_t, ra_t, rb_t, rd1_t;
		reg         ok_t;
		integer t, u;
		for (u = 0; u < NU; u = u + 1) want[u] = {NT{1'b0}};
		for (t = 0; t < NT; t = t + 1) begin
			op_t = ti_op_q[t];
			rd_t = ti_rd_q[t];
			rd1_t = ti_rd1_q[t];
			ra_t = ti_ra_q[t];
			rb_t = ti_rb_q[t];
			case (op_t)
			O_END: ok_t = 1'b1;
			O_LD, O_LDT: ok_t = ~pend_s[rd_t];
			O_ST:  ok_t = ~pend_s[ra_t];
			O_LDW: ok_t = ~pend_s[rd_t] & ~pend_s[rd1_t];
			// SamplerZ starts in its grant cycle: operands from the
			// register file, one sample at a time (the unit is free, or
			// its sample ends in this cycle)
			O_SZ:  ok_t = ~pend_q[ra_t] & ~pend_q[rb_t] & ~pend_s[rd_t] & sz_free;
			default: ok_t = ~pend_s[ra_t] & ~pend_s[rb_t] & ~pend_s[rd_t];
			endcase
			ok_t = ok_t & act_q[t] & (st_q == S_ISSUE);
			case (op_t)
			O_END: want[U_END][t] = ok_t;
			O_LD:  want[U_RD][t] = ok_t;
			O_LDT: want[U_RT][t] = ok_t;
			O_ST:  want[U_WR][t] = ok_t;
			O_LDW: want[U_ROM][t] = ok_t;
			O_SZ:  want[U_SZ][t] = ok_t;
			O_MUL, O_MULN: want[U_MUL][t] = ok_t;
			default: want[U_ADD][t] = ok_t;
			endcase
		end
	end

	// a thread's next decoded instruction: at a kernel's start (S_NODE,
	// the kernel it starts), at an element's start (pc 0) and when it moves
	// on (its registered next instruction; the one after from pc + 2)
	reg  [DW-1:0] s_dec [0:NT-1], r_dec [0:NT-1], a_dec [0:NT-1];
	reg  [NR:0]   s_dst [0:NT-1], r_dst [0:NT-1], a_dst [0:NT-1];
	reg  [22:0]   a_nx [0:NT-1];
	wire [22:0]   s_nx = ucode(node_kind, 7'd1), r_nx = ucode(kind_q, 7'd1);
	always @(*) begin : tnext
		integer t;
		for (t = 0; t < NT; t = t + 1) begin
			s_dec[t] = tdec(node_kind == K_MPS, t, ucode(node_kind, 7'd0));
			s_dst[t] = tdst(node_kind == K_MPS, t, ucode(node_kind, 7'd0));
			r_dec[t] = tdec(kmps, t, ucode(kind_q, 7'd0));
			r_dst[t] = tdst(kmps, t, ucode(kind_q, 7'd0));
			a_dec[t] = tdec(kmps, t, tnx_q[t]);
			a_dst[t] = tdst(kmps, t, tnx_q[t]);
			a_nx[t] = ucode(kind_q, tpc_q[t] + 7'd2);
		end
	end

	// one instruction per unit and cycle: the lowest-numbered thread that
	// asks gets it (fixed priority: the schedule is a function of the
	// kernel and its element count only)
	reg  [NT-1:0] gnt [0:NU-1];
	reg  [TW-1:0] gix [0:NU-1];
	reg  [NU-1:0] gany;
	always @(*) begin : grant
		integer u, v;
		for (u = 0; u < NU; u = u + 1) begin
			gnt[u] = want[u] & (~want[u] + {{(NT-1){1'b0}}, 1'b1});
			gany[u] = (want[u] != {NT{1'b0}});
			gix[u] = {TW{1'b0}};
			for (v = NT - 1; v >= 0; v = v - 1)
				if (want[u][v]) gix[u] = v;
		end
	end
	wire [NT-1:0] gthr = gnt[U_RD] | gnt[U_RT] | gnt[U_WR] | gnt[U_ADD] |
	                     gnt[U_MUL] | gnt[U_ROM] | gnt[U_SZ];
	// a thread that issues the last instruction of its element takes the
	// next element in the same cycle (the END itself takes no cycle). The
	// last instruction of every kernel's element is a store, so at most
	// one thread ends an element per cycle (one store per cycle)
	wire [NT-1:0] gend = gnt[U_WR] & tlast;
	// the destinations of this cycle's grants, and those of its reads
	reg  [NR-1:0] dset, lset;
	always @(*) begin : dsets
		integer t;
		dset = {NR{1'b0}}; lset = {NR{1'b0}};
		for (t = 0; t < NT; t = t + 1) begin
			if (gthr[t]) dset = dset | ti_doh_q[t];
			if (gthr[t] & ti_ld_q[t]) lset = lset | ti_doh_q[t];
		end
	end

	// the granted instruction of each unit, its element and registers
	wire [3:0]  add_op = ti_op_q[gix[U_ADD]], mul_op = ti_op_q[gix[U_MUL]];
	wire [RW-1:0] wr_src = ti_ra_q[gix[U_WR]];
	wire [RW-1:0] add_ra = ti_ra_q[gix[U_ADD]], add_rb = ti_rb_q[gix[U_ADD]];
	wire [RW-1:0] mul_ra = ti_ra_q[gix[U_MUL]], mul_rb = ti_rb_q[gix[U_MUL]];
	wire [RW-1:0] rd_rd = ti_rd_q[gix[U_RD]], rt_rd = ti_rd_q[gix[U_RT]],
	              rom_rd = ti_rd_q[gix[U_ROM]], rom_rd1 = ti_rd1_q[gix[U_ROM]],
	              add_rd = ti_rd_q[gix[U_ADD]], mul_rd = ti_rd_q[gix[U_MUL]];

	// ---------------------------------------------------------------
	// read stage: the instruction granted in the previous cycle, per
	// unit (valid, registers, port and element). Its memory and ROM
	// addresses, its operands (register file, or this cycle's
	// write-backs) and the units' inputs come from these registers; its
	// result tag enters the write-back pipelines here, so results arrive
	// one cycle after the read stage (memories, ROM), six (adder), five
	// (multiplier). SamplerZ is not staged: an SZ starts in its grant
	// cycle with its operands from the register file.
	always @(posedge clk_i or negedge rst_ni) begin
		if (!rst_ni) begin
			rs_rd_q <= {(RW+1){1'b0}}; rs_rt_q <= {(RW+1){1'b0}}; rs_rom_q <= {(RW+1){1'b0}};
			rs_add_q <= {(RW+2){1'b0}}; rs_mul_q <= {(RW+1){1'b0}}; rs_wr_q <= 1'b0;
		end else begin
			rs_rd_q <= {gany[U_RD] & ~wdog_hit, rd_rd};
			rs_rt_q <= {gany[U_RT] & ~wdog_hit, rt_rd};
			rs_rom_q <= {gany[U_ROM] & ~wdog_hit, rom_rd};
			rs_add_q <= {gany[U_ADD] & ~wdog_hit, add_rd, (add_op == O_ADDH || add_op == O_SUBH)};
			rs_mul_q <= {gany[U_MUL] & ~wdog_hit, mul_rd};
			rs_wr_q <= gany[U_WR];
		end
	end
	always @(posedge clk_i) begin
		rs_wsrc_q <= wr_src;
		rs_ara_q <= add_ra; rs_arb_q <= add_rb; rs_mra_q <= mul_ra; rs_mrb_q <= mul_rb;
		rs_asub_q <= (add_op == O_SUB || add_op == O_SUBH);
		rs_mneg_q <= (mul_op == O_MULN);
		rs_rdp_q <= ti_port_q[gix[U_RD]]; rs_rtp_q <= ti_port_q[gix[U_RT]];
		rs_wrp_q <= ti_port_q[gix[U_WR]];
		rs_rdk_q <= tk_q[gix[U_RD]]; rs_rtk_q <= tk_q[gix[U_RT]];
		rs_wrk_q <= tk_q[gix[U_WR]]; rs_romk_q <= tk_q[gix[U_ROM]];
	end
	// the kernel's kind and bases are those of the granted instruction in
	// the read stage too (they change in S_NODE, after the kernel's last
	// grant)
	wire [15:0] rd_addr = kmps ? mps_addr(1'b0, rs_rdp_q, rs_rdk_q,
		ba_q, bb_q, bc_q, be_q, bf_q, hn_q, qn_q) :
		paddr(kind_q, rs_rdp_q, rs_rdk_q,
		ba_q, bb_q, bc_q, bd_q, be_q, hn_q, qn_q);
	wire [15:0] rt_addr = (kind_q == K_NODE2) ? bc_q + {12'd0, rs_rtp_q} :
		kmps ? pair_b(bd_q, rs_rtp_q[1:0], rs_rtk_q, hn_q) :
		paddr(kind_q, rs_rtp_q, rs_rtk_q,
		ba_q, bb_q, bc_q, bd_q, be_q, hn_q, qn_q);
	wire [15:0] wr_addr = kmps ? mps_addr(1'b1, rs_wrp_q, rs_wrk_q,
		ba_q, bb_q, bc_q, be_q, bf_q, hn_q, qn_q) :
		paddr(kind_q, rs_wrp_q, rs_wrk_q,
		ba_q, bb_q, bc_q, bd_q, be_q, hn_q, qn_q);
	wire [63:0] add_a_v = opnd(rs_ara_q, rf_q[rs_ara_q], wba_q[LA-1], wb_add, wbm_q[LM-1], mul_y,
		wbl_q, w_rdata, wbt_q, t_rdata, wbr_q, root);
	wire [63:0] add_b_v = opnd(rs_arb_q, rf_q[rs_arb_q], wba_q[LA-1], wb_add, wbm_q[LM-1], mul_y,
		wbl_q, w_rdata, wbt_q, t_rdata, wbr_q, root);
	wire [63:0] mul_a_v = opnd(rs_mra_q, rf_q[rs_mra_q], wba_q[LA-1], wb_add, wbm_q[LM-1], mul_y,
		wbl_q, w_rdata, wbt_q, t_rdata, wbr_q, root);
	wire [63:0] mul_b_v = opnd(rs_mrb_q, rf_q[rs_mrb_q], wba_q[LA-1], wb_add, wbm_q[LM-1], mul_y,
		wbl_q, w_rdata, wbt_q, t_rdata, wbr_q, root);

	// ---------------------------------------------------------------
	// memories: one write port and one read port each (simple dual-port
	// RAM); the host has them while the engine is idle
	wire        busy = (st_q != S_IDLE);
	wire        eng_wr = rs_wr_q;

	wire        w_we = busy ? eng_wr : (mem_we_i & ~mem_sel_i);
	wire        t_we = ~busy & mem_we_i & mem_sel_i;
	wire [15:0] w_waddr = busy ? wr_addr : mem_addr_i;
	wire [15:0] w_raddr = busy ? rd_addr : mem_addr_i;
	wire [15:0] t_raddr = busy ? rt_addr : mem_addr_i;
	wire [63:0] st_v = opnd(rs_wsrc_q, rf_q[rs_wsrc_q], wba_q[LA-1], wb_add, wbm_q[LM-1], mul_y,
		wbl_q, w_rdata, wbt_q, t_rdata, wbr_q, root);
	wire [63:0] w_wdata = busy ? st_v : mem_wdata_i;

	reg  [63:0] wram [0:WORK_WORDS-1];
	reg  [63:0] tram [0:TREE_WORDS-1];
	reg         rsel_q;
	always @(posedge clk_i) begin
		if (w_we) wram[w_waddr[14:0]] <= w_wdata;
		w_rdata <= wram[w_raddr[14:0]];
	end
	always @(posedge clk_i) begin
		if (t_we) tram[mem_addr_i[14:0]] <= mem_wdata_i;
		t_rdata <= tram[t_raddr[14:0]];
	end
	always @(posedge clk_i) rsel_q <= mem_sel_i;
	assign mem_rdata_o = rsel_q ? t_rdata : w_rdata;

	// twiddles: root[hn + k] = {re, im} of the granted LDW's element
	// (registered ROM: the value one cycle after the address)
	wire [9:0]   rom_addr = hn_q[9:0] + rs_romk_q[9:0];
	fft_roots_rom u_roots (.clk(clk_i), .addr(rom_addr), .data(root));

	// ---------------------------------------------------------------
	// binary64 units, fed in the issue cycle with the granted instruction's
	// operands (a subtraction's second operand and MULN's with the sign
	// flipped); in a cycle without an issue their input is not used
	wire [63:0] add_b_i = rs_asub_q ? (add_b_v ^ SIGN) : add_b_v;
	wire [63:0] mul_b_i = rs_mneg_q ? (mul_b_v ^ SIGN) : mul_b_v;
	fp64_add u_add (.clk(clk_i), .a(add_a_v), .b(add_b_i), .y(add_y));
	fp64_mul u_mul (.clk(clk_i), .a(mul_a_v), .b(mul_b_i), .y(mul_y));

	// SamplerZ at the leaves (thread 0: a leaf is one element)
	reg         sz_start;
	wire        sz_busy;
	wire [31:0] sz_z;
	wire [7:0]  sz_trials;
	wire [63:0] sz_f;
	wire [RW-1:0] sz_ra = ti_ra_q[0], sz_rb = ti_rb_q[0], sz_rd = ti_rd_q[0];
	// The leaves sample in pairs: two consecutive SZ instructions with the
	// same 1/sigma register. samplerz reads nvalid_i / nmu_i two cycles
	// after a start: thread 0 then waits at its next instruction (the SZ
	// unit is busy). If that is an SZ with the running sample's 1/sigma
	// register whose mu register is ready (and is not the running sample's
	// destination), samplerz is told the next sample's mu and speculates
	// its first trial (hw/sampler/doc/sampler.md, "Pair speculation"); it
	// checks that the next start asks for exactly that sample.
	wire        sz_nvalid = szf_q && (ti_op_q[0] == O_SZ) && (sz_rb == szb_q)
		&& (sz_ra != szd_q) && ~pend_q[sz_ra];
	samplerz u_samplerz (.clk_i(clk_i), .rst_ni(rst_ni), .start_i(sz_start),
		.mu_i(rf_q[sz_ra]), .isigma_i(rf_q[sz_rb]), .sigma_min_i(smin_q),
		.max_trials_i(maxt_q), .nmu_i(rf_q[sz_ra]), .nvalid_i(sz_nvalid),
		.done_o(sz_done), .z_o(sz_z), .err_o(sz_err),
		.trials_o(sz_trials), .busy_o(sz_busy), .rd_valid_o(rd_valid_o),
		.rd_align_o(rd_align_o), .rd_ready_i(rd_ready_i), .rd_byte_i(rd_byte_i),
		.ptr_i(prng_ptr_i), .pk_addr_o(pk_addr_o), .pk_byte_i(pk_byte_i),
		.cm_valid_o(cm_valid_o), .cm_ptr_o(cm_ptr_o));
	sampler_i2f u_i2f (.i_i(sz_z), .f_o(sz_f));

	assign busy_o = busy;
	assign tree_ok_o = tree_ok_q;

	wire logn_bad = (logn_i == 4'd0) || (logn_i > MAXL) || (logn_i != tree_logn_q);
	assign wdog_hit = (st_q != S_IDLE) && (st_q != S_DONE) && (st_q != S_ABORT) &&
	                (cyc_q == wdog_q);
	// SamplerZ starts when its instruction issues (operands from the
	// register file: an SZ does not take forwarded values)
	always @(*) sz_start = gany[U_SZ] & ~wdog_hit;

	integer j;
	always @(posedge clk_i or negedge rst_ni) begin
		if (!rst_ni) begin
			st_q <= S_IDLE; logn_q <= 4'd1; d_q <= 4'd0; tree_logn_q <= 4'd0;
			tree_ok_q <= 1'b0; smin_q <= 64'd0; maxt_q <= 8'd0; wdog_q <= 32'd0;
			cyc_q <= 32'd0; err_q <= ERR_OK; nsamp_q <= 16'd0; szc_q <= 32'd0;
			sz_cycles_o <= 32'd0; szf_q <= 1'b0; szd_q <= {RW{1'b0}}; szb_q <= {RW{1'b0}};
			kind_q <= K_SPLIT; kcnt_q <= 11'd0; kn_q <= 11'd0; act_q <= {NT{1'b0}};
			ba_q <= 16'd0; bb_q <= 16'd0; bc_q <= 16'd0; bd_q <= 16'd0; be_q <= 16'd0;
			bf_q <= 16'd0;
			hn_q <= 11'd0; qn_q <= 11'd0; pend_q <= {NR{1'b0}}; rearm_q <= {NR{1'b0}};
			wbl_q <= {(RW+1){1'b0}}; wbt_q <= {(RW+1){1'b0}}; wbr_q <= {(RW+1){1'b0}};
			done_o <= 1'b0; refused_o <= 1'b0; err_o <= ERR_OK; cycles_o <= 32'd0;
			samples_o <= 16'd0;
			for (j = 0; j < NR; j = j + 1) rf_q[j] <= 64'd0;
			for (j = 0; j < NT; j = j + 1) begin
				tpc_q[j] <= 7'd0; tk_q[j] <= 11'd0;
				tid_q[j] <= {DW{1'b0}}; tdd_q[j] <= {(NR+1){1'b0}};
				tnx_q[j] <= 23'd0;
			end
			ti_last_q <= {NT{1'b0}}; nleft_q <= 1'b0;
			now_q <= {NR{1'b0}}; nxtp_q <= {NR{1'b0}}; ldn_q <= {NR{1'b0}}; szoh_q <= {NR{1'b0}};
			for (j = 0; j < LA; j = j + 1) wba_q[j] <= {(RW+2){1'b0}};
			for (j = 0; j < LM; j = j + 1) wbm_q[j] <= {(RW+1){1'b0}};
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
			if (szf_q) szc_q <= szc_q + 32'd1;

			// write-back: pipelines move on every cycle; a result clears
			// its register's pending bit (an issue below may set another)
			wba_q[0] <= rs_add_q; wbm_q[0] <= rs_mul_q;
			wbl_q <= rs_rd_q; wbt_q <= rs_rt_q; wbr_q <= rs_rom_q;
			for (j = 1; j < LA; j = j + 1) wba_q[j] <= wba_q[j - 1];
			for (j = 1; j < LM; j = j + 1) wbm_q[j] <= wbm_q[j - 1];
			if (wba_q[LA-1][RW+1]) rf_q[wba_q[LA-1][RW:1]] <= wba_q[LA-1][0] ? fhalf(add_y) : add_y;
			if (wbm_q[LM-1][RW]) rf_q[wbm_q[LM-1][RW-1:0]] <= mul_y;
			if (wbl_q[RW]) rf_q[wbl_q[RW-1:0]] <= w_rdata;
			if (wbt_q[RW]) rf_q[wbt_q[RW-1:0]] <= t_rdata;
			if (wbr_q[RW]) begin
				rf_q[wbr_q[RW-1:0]] <= root[127:64];
				rf_q[wbr_q[RW-1:0] + 1'b1] <= root[63:0];
			end
			// a register granted again while its previous result arrives
			// in the next cycle (re-armed) keeps its pending bit then; a
			// sample's end clears its register's
			pend_q <= pend_base;
			rearm_q <= {NR{1'b0}};
			// arrival masks (above)
			nxtp_q <= oh(wba_q[LA-3][RW+1], wba_q[LA-3][RW:1]) | oh(wbm_q[LM-3][RW], wbm_q[LM-3][RW-1:0]);
			ldn_q <= wdog_hit ? {NR{1'b0}} : lset;
			now_q <= nxtp_q | ldn_q;
			// the running sample's end: its value (binary64) into its
			// register, read from the next cycle on (not forwarded)
			if (szf_q && sz_done) begin
				szf_q <= 1'b0;
				nsamp_q <= nsamp_q + 16'd1;
				if (sz_err == 2'd0) rf_q[szd_q] <= sz_f;
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
				act_q <= {NT{1'b0}};
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
				hn_q <= nh; qn_q <= nh >> 1;
				// the threads of a kernel started here: thread t takes
				// element t (those beyond the element count stay idle)
				kcnt_q <= node_kcnt;
				kn_q <= (node_kcnt < node_nt) ? node_kcnt : node_nt;
				nleft_q <= (node_kcnt <= node_nt);
				for (j = 0; j < NT; j = j + 1) begin
					act_q[j] <= (j < node_kcnt) && (j < node_nt);
					tpc_q[j] <= 7'd0;
					tk_q[j] <= j;
					tid_q[j] <= s_dec[j]; tdd_q[j] <= s_dst[j];
					tnx_q[j] <= s_nx;
					ti_last_q[j] <= (s_nx[22:19] == O_END);
				end
				if (nl <= 4'd2) begin
					// a node of logn 1 or 2 is one kernel (K_NODE1, K_NODE2);
					// the kernel's end returns to the parent
					kind_q <= (nl == 4'd1) ? K_NODE1 : K_NODE2;
					ba_q <= fr_t1[d_q]; bb_q <= fr_t0[d_q]; bc_q <= fr_tree[d_q];
					bd_q <= fr_z1[d_q]; be_q <= fr_z0[d_q];
					st_q <= S_ISSUE;
				end else case (fr_ph[d_q])
				3'd0, 3'd4: begin   // split
					kind_q <= K_SPLIT;
					ba_q <= (fr_ph[d_q] == 3'd0) ? fr_t1[d_q] : fr_tmp[d_q];
					bc_q <= (fr_ph[d_q] == 3'd0) ? fr_z1[d_q] : fr_z0[d_q];
					st_q <= S_ISSUE;
				end
				// logn 3: merge, phase 3, split as one kernel (K_MPS; at
				// logn 4 and above the two-thread kernel is not faster than
				// the three four-thread ones: measured at logn 4)
				3'd2: if (nl == 4'd3) begin
					kind_q <= K_MPS;
					ba_q <= fr_tmp[d_q]; bb_q <= fr_t1[d_q]; bc_q <= fr_z1[d_q];
					bd_q <= fr_tree[d_q]; be_q <= fr_t0[d_q]; bf_q <= fr_z0[d_q];
					st_q <= S_ISSUE;
				end else begin
					kind_q <= K_MERGE;
					ba_q <= fr_tmp[d_q]; bc_q <= fr_z1[d_q];
					st_q <= S_ISSUE;
				end
				3'd6: begin         // merge
					kind_q <= K_MERGE;
					ba_q <= fr_tmp[d_q];
					bc_q <= fr_z0[d_q];
					st_q <= S_ISSUE;
				end
				3'd1, 3'd5: begin   // child: right (z1) then left (z0); the
					// phase moves on when the child returns
					fr_tree[d_q + 4'd1] <= fr_tree[d_q] + {5'd0, nn} +
						((fr_ph[d_q] == 3'd1) ? sub_tree : 16'd0);
					fr_z0[d_q + 4'd1] <= fr_tmp[d_q];
					fr_z1[d_q + 4'd1] <= fr_tmp[d_q] + {5'd0, nh};
					fr_t0[d_q + 4'd1] <= (fr_ph[d_q] == 3'd1) ? fr_z1[d_q] : fr_z0[d_q];
					fr_t1[d_q + 4'd1] <= ((fr_ph[d_q] == 3'd1) ? fr_z1[d_q] : fr_z0[d_q]) +
						{5'd0, nh};
					fr_tmp[d_q + 4'd1] <= fr_tmp[d_q] + {5'd0, nn};
					fr_ph[d_q + 4'd1] <= 3'd0;
					d_q <= d_q + 4'd1;
				end
				3'd3: begin         // tmp = (t1 - z1) * l10 + t0
					kind_q <= K_T0;
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
			// issue: at most one instruction per unit (and per thread);
			// the kernel ends when every thread is idle and nothing is in
			// flight
			S_ISSUE: begin
				// a thread that issues moves to its next instruction; the
				// thread that ends an element (at most one per cycle)
				// takes the next element, or goes idle if none is left
				for (j = 0; j < NT; j = j + 1) begin
					if (gend[j]) begin
						tpc_q[j] <= 7'd0;
						tid_q[j] <= r_dec[j]; tdd_q[j] <= r_dst[j];
						tnx_q[j] <= r_nx;
						ti_last_q[j] <= (r_nx[22:19] == O_END);
						if (!nleft_q) tk_q[j] <= kn_q;
					end else if (gthr[j]) begin
						tpc_q[j] <= tpc_q[j] + 7'd1;
						tid_q[j] <= a_dec[j]; tdd_q[j] <= a_dst[j];
						tnx_q[j] <= a_nx[j];
						ti_last_q[j] <= (a_nx[j][22:19] == O_END);
					end
				end
				if (gend != {NT{1'b0}}) begin
					if (nleft_q) act_q <= act_q & ~gend;
					else begin
						kn_q <= kn_q + 11'd1;
						nleft_q <= (kn_q + 11'd1 == kcnt_q);
					end
				end
				// the granted instructions' destinations become pending
				// (their tags enter the read stage, above)
				if (gany[U_SZ]) begin    // thread 0 (K_NODE1, K_NODE2)
					szf_q <= 1'b1; szd_q <= sz_rd; szb_q <= sz_rb;
					szoh_q <= ti_doh_q[0];
				end
				pend_q <= pend_base | dset;
				rearm_q <= dset & wb_nxt;
				// the kernel ends when its last element's last instruction
				// is granted (a store) with no result still to come after
				// this cycle (every thread idle after this cycle: then no
				// instruction but that store is granted, the threads' only
				// one, and it sets nothing pending; the results that arrive
				// now are in the register file before the next kernel's
				// first read, and the store's read stage in the next cycle
				// still sees this kernel's kind and bases: S_NODE changes
				// them at its end)
				if (nleft_q && (act_q & ~gend) == {NT{1'b0}} && pend_base == {NR{1'b0}}) begin
					st_q <= S_NODE;
					if (kind_q == K_MPS)      // phases 2, 3, 4 done
						fr_ph[d_q] <= 3'd5;
					else if (kind_q != K_NODE1 && kind_q != K_NODE2)
						fr_ph[d_q] <= fr_ph[d_q] + 3'd1;
					else if (d_q == 4'd0) st_q <= S_DONE;   // logn 1 or 2 command
					else begin                              // return
						d_q <= d_q - 4'd1;
						fr_ph[d_q - 4'd1] <= fr_ph[d_q - 4'd1] + 3'd1;
					end
				end
				// SamplerZ's error ends the command once what is in
				// flight is back (the next SZ does not issue: sz_free)
				if (szf_q && sz_done && sz_err != 2'd0) begin
					err_q <= 3'd4 + {1'b0, sz_err}; st_q <= S_ABORT;
				end
			end
			// watchdog or SamplerZ's error: wait for SamplerZ (bounded by
			// its trial limit) and for the results in flight
			S_ABORT: if (!sz_busy && pend_q == {NR{1'b0}}) st_q <= S_DONE;
			S_DONE: begin
				done_o <= 1'b1; err_o <= err_q;
				cycles_o <= cyc_q; samples_o <= nsamp_q; sz_cycles_o <= szc_q;
				pend_q <= {NR{1'b0}};
				act_q <= {NT{1'b0}};
				st_q <= S_IDLE;
			end
			default: st_q <= S_IDLE;
			endcase
		end
	end
endmodule
`default_nettype wire
