// ffsamp_host -- ffsamp_engine behind falcon_accel_top's host interface:
// the 32-bit stream path into and out of the engine's two memories, the
// FS_* registers, the op FFSAMPLING and the PRNG check
// (hw/top/doc/regmap.md; hw/ffsamp/doc/ffsamp.md, "Integration").
//
// Stream (targets FS_TREE and FS_WORK, 32-bit words): word w of a target
// is the low (w even) or high (w odd) half of the engine's 64-bit word
// w / 2 (an fpr as the library stores it: fpr u at words 2u, 2u + 1).
// str_rewind_i (a STREAM write naming one of these targets) sets both
// pointers to str_start_i (STREAM.START, even for writes); a word in moves
// the input pointer on, TLAST brings it back to START; a fetch moves the
// output pointer on; both wrap at the end of the memory. A low half is
// held until its high half arrives, then the 64-bit word is written (the
// engine memory has one 64-bit port). Fetch data is valid one cycle after
// fetch_i (as the other windows').
//
// Registers (reg_we_i / reg_addr_i / reg_wdata_i; reg_rdata_o combinational):
//   FS_TREE   write: commit the tree memory as the tree of degree
//             2^wdata[3:0] (the host has written TREESIZE words since);
//             read: {OK at bit 4, committed logn}. Any later tree write
//             clears OK (the engine's rule).
//   FS_WDOG   the command's cycle limit (0 = 2^32 - 1).
//   FS_RESULT ERR [2:0] (enum FSERR) and SAMPLES [31:16] of the last
//             FFSAMPLING.
//   FS_SZ_CYCLES  engine cycles of the last FFSAMPLING spent waiting for
//             SamplerZ (cycles_o: all of its engine cycles).
// Command: cmd_start_i with logn_i, sigma_min_i, max_trials_i. Without a
// loaded PRNG (prng_loaded_i = 0) the engine is not started: done_o the
// next cycle with FSERR NOSEED (4). Else done_o when the engine ends, with
// its code (FSERR 0..3, 5..7). The engine's PRNG byte port is rd_*; the
// top routes the shared sampler_prng to it while busy_o.
`default_nettype none
`include "fa_regs.vh"
module ffsamp_host #(
	parameter integer MAXLOGN = 10,
	parameter integer THREADS_LOG2 = 2      // ffsamp_engine's
) (
	input  wire        clk_i,
	input  wire        rst_ni,
	// stream path
	input  wire        tree_sel_i,      // 1: FS_TREE, 0: FS_WORK
	input  wire        str_rewind_i,
	input  wire [14:0] str_start_i,
	input  wire        str_we_i,
	input  wire        str_last_i,
	input  wire [31:0] str_wdata_i,
	input  wire        fetch_i,
	output wire [31:0] fetch_rdata_o,
	// registers
	input  wire        reg_we_i,
	input  wire [15:0] reg_addr_i,
	input  wire [31:0] reg_wdata_i,
	output reg  [31:0] reg_rdata_o,
	// command
	input  wire        cmd_start_i,
	input  wire [3:0]  logn_i,
	input  wire [63:0] sigma_min_i,
	input  wire [7:0]  max_trials_i,
	input  wire        prng_loaded_i,
	output wire        busy_o,
	output reg         done_o,
	output reg  [2:0]  err_o,
	output wire [31:0] cycles_o,
	// PRNG byte port (sampler_prng)
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
	localparam [15:0] TREE_W32 = 2 * TREE_WORDS;   // 32-bit words per target
	localparam [15:0] WORK_W32 = 2 * WORK_WORDS;
	localparam [2:0] ERR_NOSEED = 3'd4;

	// ------------------------------------------------------------ stream
	reg  [14:0] in_q, out_q;
	reg  [31:0] lo_q;
	reg         half_q;
	wire [15:0] limit = tree_sel_i ? TREE_W32 : WORK_W32;
	wire [15:0] in_nx = {1'b0, in_q} + 16'd1;
	wire [15:0] out_nx = {1'b0, out_q} + 16'd1;

	wire        e_we = str_we_i & in_q[0];
	wire [15:0] e_addr = str_we_i ? {2'b00, in_q[14:1]} : {2'b00, out_q[14:1]};
	wire [63:0] e_rdata;
	assign fetch_rdata_o = half_q ? e_rdata[63:32] : e_rdata[31:0];

	always @(posedge clk_i or negedge rst_ni) begin
		if (!rst_ni) begin
			in_q <= 15'd0; out_q <= 15'd0; lo_q <= 32'd0; half_q <= 1'b0;
		end else begin
			if (fetch_i) half_q <= out_q[0];
			if (str_rewind_i) begin
				in_q <= str_start_i; out_q <= str_start_i;
			end else begin
				if (str_we_i) begin
					if (!in_q[0]) lo_q <= str_wdata_i;
					in_q <= (str_last_i || in_nx >= limit) ? str_start_i : in_nx[14:0];
				end
				if (fetch_i)
					out_q <= (out_nx >= limit) ? 15'd0 : out_nx[14:0];
			end
		end
	end

	// --------------------------------------------------------- registers
	reg  [31:0] wdog_q;
	reg  [3:0]  tlogn_q;
	reg  [2:0]  res_err_q;
	reg  [15:0] res_samp_q;
	reg         commit_q;
	wire        tree_ok;
	always @(*) begin
		case (reg_addr_i)
		`FA_REG_FS_TREE:   reg_rdata_o = {27'd0, tree_ok, tlogn_q};
		`FA_REG_FS_WDOG:   reg_rdata_o = wdog_q;
		`FA_REG_FS_RESULT: reg_rdata_o = {res_samp_q, 13'd0, res_err_q};
		`FA_REG_FS_SZ_CYCLES: reg_rdata_o = e_szc;
		default:           reg_rdata_o = 32'd0;
		endcase
	end

	// ----------------------------------------------------------- engine
	wire        e_done, e_busy;
	wire [2:0]  e_err;
	wire [15:0] e_samples;
	wire [31:0] e_szc;
	reg         nos_q;                  // refused for want of a PRNG state
	ffsamp_engine #(.MAXLOGN(MAXLOGN), .THREADS_LOG2(THREADS_LOG2)) u_engine (
		.clk_i(clk_i), .rst_ni(rst_ni),
		.mem_we_i(e_we), .mem_sel_i(tree_sel_i), .mem_addr_i(e_addr),
		.mem_wdata_i({str_wdata_i, lo_q}), .mem_rdata_o(e_rdata),
		.tree_commit_i(commit_q), .tree_logn_i(tlogn_q), .tree_ok_o(tree_ok),
		.start_i(cmd_start_i & prng_loaded_i), .logn_i(logn_i),
		.sigma_min_i(sigma_min_i), .max_trials_i(max_trials_i), .wdog_i(wdog_q),
		.busy_o(e_busy), .done_o(e_done), .err_o(e_err), .cycles_o(cycles_o),
		.sz_cycles_o(e_szc),
		.samples_o(e_samples), .refused_o(),
		.rd_valid_o(rd_valid_o), .rd_align_o(rd_align_o), .rd_ready_i(rd_ready_i),
		.rd_byte_i(rd_byte_i), .prng_ptr_i(prng_ptr_i), .pk_addr_o(pk_addr_o),
		.pk_byte_i(pk_byte_i), .cm_valid_o(cm_valid_o), .cm_ptr_o(cm_ptr_o));
	assign busy_o = e_busy | nos_q;

	always @(posedge clk_i or negedge rst_ni) begin
		if (!rst_ni) begin
			wdog_q <= 32'd0; tlogn_q <= 4'd0; commit_q <= 1'b0; nos_q <= 1'b0;
			res_err_q <= 3'd0; res_samp_q <= 16'd0; done_o <= 1'b0; err_o <= 3'd0;
		end else begin
			commit_q <= 1'b0;
			done_o <= 1'b0;
			nos_q <= cmd_start_i & ~prng_loaded_i;
			if (reg_we_i && reg_addr_i == `FA_REG_FS_WDOG) wdog_q <= reg_wdata_i;
			if (reg_we_i && reg_addr_i == `FA_REG_FS_TREE) begin
				tlogn_q <= reg_wdata_i[3:0]; commit_q <= 1'b1;
			end
			if (nos_q) begin
				done_o <= 1'b1; err_o <= ERR_NOSEED;
				res_err_q <= ERR_NOSEED; res_samp_q <= 16'd0;
			end else if (e_done) begin
				done_o <= 1'b1; err_o <= e_err;
				res_err_q <= e_err; res_samp_q <= e_samples;
			end
		end
	end
endmodule
`default_nettype wire
