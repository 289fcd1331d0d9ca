// ffsamp_unit -- the fast-Fourier sampling engine with its PRNG: one
// sampler_prng (hw/sampler) feeding ffsamp_engine's SamplerZ. The unit the
// cocotb testbench drives (hw/ffsamp/dv); in the accelerator top the engine
// shares the top's sampler_prng instead.
//
// prng_load_i: key (fa_prng state bytes 0..47), block counter, ptr, as
// sampler_prng's load (the buffer is filled from blocks ctr_i..ctr_i+7);
// prng_busy_o is high while it refills. key_o/ctr_o/ptr_o: the PRNG state
// after the last command (fa_prng's fields). The other ports are
// ffsamp_engine's.
`default_nettype none
module ffsamp_unit #(
	parameter integer MAXLOGN = 10,
	parameter integer THREADS_LOG2 = 2      // ffsamp_engine's
) (
	input  wire         clk_i,
	input  wire         rst_ni,
	input  wire         prng_load_i,
	input  wire [383:0] key_i,
	input  wire [63:0]  ctr_i,
	input  wire [8:0]   ptr_i,
	output wire [383:0] key_o,
	output wire [63:0]  ctr_o,
	output wire [8:0]   ptr_o,
	output wire         prng_busy_o,
	output wire [31:0]  refills_o,
	input  wire         mem_we_i,
	input  wire         mem_sel_i,
	input  wire [15:0]  mem_addr_i,
	input  wire [63:0]  mem_wdata_i,
	output wire [63:0]  mem_rdata_o,
	input  wire         tree_commit_i,
	input  wire [3:0]   tree_logn_i,
	output wire         tree_ok_o,
	input  wire         start_i,
	input  wire [3:0]   logn_i,
	input  wire [63:0]  sigma_min_i,
	input  wire [7:0]   max_trials_i,
	input  wire [31:0]  wdog_i,
	output wire         busy_o,
	output wire         done_o,
	output wire [2:0]   err_o,
	output wire [31:0]  cycles_o,
	output wire [15:0]  samples_o,
	output wire         refused_o
);
	wire       rd_valid, rd_align, rd_ready, loaded;
	wire [7:0] rd_byte, pk_byte;
	wire [8:0] pk_addr, cm_ptr;
	wire       cm_valid;

	sampler_prng u_prng (
		.clk_i(clk_i), .rst_ni(rst_ni), .load_i(prng_load_i),
		.key_i(key_i), .ctr_i(ctr_i), .ptr_i(ptr_i),
		.rd_valid_i(rd_valid), .rd_align_i(rd_align), .rd_ready_o(rd_ready),
		.rd_byte_o(rd_byte), .key_o(key_o), .ctr_o(ctr_o), .ptr_o(ptr_o),
		.loaded_o(loaded), .busy_o(prng_busy_o), .refills_o(refills_o),
		.pk_addr_i(pk_addr), .pk_byte_o(pk_byte), .cm_valid_i(cm_valid), .cm_ptr_i(cm_ptr));

	ffsamp_engine #(.MAXLOGN(MAXLOGN), .THREADS_LOG2(THREADS_LOG2)) u_engine (
		.clk_i(clk_i), .rst_ni(rst_ni),
		.mem_we_i(mem_we_i), .mem_sel_i(mem_sel_i), .mem_addr_i(mem_addr_i),
		.mem_wdata_i(mem_wdata_i), .mem_rdata_o(mem_rdata_o),
		.tree_commit_i(tree_commit_i), .tree_logn_i(tree_logn_i), .tree_ok_o(tree_ok_o),
		.start_i(start_i), .logn_i(logn_i), .sigma_min_i(sigma_min_i),
		.max_trials_i(max_trials_i), .wdog_i(wdog_i), .busy_o(busy_o),
		.done_o(done_o), .err_o(err_o), .cycles_o(cycles_o), .samples_o(samples_o),
		.refused_o(refused_o),
		.rd_valid_o(rd_valid), .rd_align_o(rd_align), .rd_ready_i(rd_ready),
		.rd_byte_i(rd_byte), .prng_ptr_i(ptr_o), .pk_addr_o(pk_addr), .pk_byte_i(pk_byte),
		.cm_valid_o(cm_valid), .cm_ptr_o(cm_ptr));
endmodule
`default_nettype wire
