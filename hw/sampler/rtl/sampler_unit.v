// sampler_unit -- the SamplerZ block: sampler_prng + samplerz behind one
// command port.
//
// Commands (cmd_valid_i & cmd_ready_o; one at a time, done_o pulses once
// per accepted command with err_o):
//   CMD_LOAD   (1): PRNG key (state bytes 0..47), block counter, ptr: the
//                   buffer is filled from blocks ctr_i..ctr_i+7 (one
//                   refill; 339 cycles) and ptr set. The host's SHAKE256
//                   seeding stays in software: it passes fa_prng's state after
//                   fa_prng_seed (ptr 0), or the state of a fa_prng in
//                   use (counter - 8, ptr).
//   CMD_SAMPLE (2): z_o = SamplerZ(mu_i, isigma_i) with sigma_min_i,
//                   trials_o = number of trials; the PRNG advances exactly
//                   as the library's.
// err_o: ERR_OK 0, ERR_ARG 1 (illegal mu/isigma/sigma_min), ERR_RANGE 2
//   (BerExp exponent negative), ERR_TRIALS 3 (watchdog: max_trials_i trials
//   without acceptance; 0 = 255), ERR_NOSEED 4 (SAMPLE before any LOAD),
//   ERR_CMD 5 (unknown command). Every command ends: a trial is bounded
//   (at most 2 refills and ~150 cycles), and trials are bounded.
// ctr_o / ptr_o / key_o: the PRNG state after the last command (the
//   counter is the one of the next refill, as fa_prng's state).
// ext_sel_i = 1 hands the PRNG's byte port to another consumer (ext_rd_*:
//   falcon_accel_top's ffSampling engine, hw/ffsamp) while the unit is
//   idle; the PRNG state then advances by what that consumer reads. Tie
//   ext_sel_i to 0 when unused.
`default_nettype none
module sampler_unit (
	input  wire         clk_i,
	input  wire         rst_ni,
	input  wire         cmd_valid_i,
	input  wire [2:0]   cmd_i,
	output wire         cmd_ready_o,
	input  wire [383:0] key_i,
	input  wire [63:0]  ctr_i,
	input  wire [8:0]   ptr_i,
	input  wire [63:0]  mu_i,
	input  wire [63:0]  isigma_i,
	input  wire [63:0]  sigma_min_i,
	input  wire [7:0]   max_trials_i,
	// CMD_SAMPLE with nvalid_i: the next SAMPLE is likely SamplerZ(nmu_i,
	// isigma_i) (samplerz's pair speculation; hold both during the
	// command; the top ties nvalid_i to 0)
	input  wire [63:0]  nmu_i,
	input  wire         nvalid_i,
	output reg          done_o,
	output reg  [2:0]   err_o,
	output wire [31:0]  z_o,
	output wire [7:0]   trials_o,
	output wire [383:0] key_o,
	output wire [63:0]  ctr_o,
	output wire [8:0]   ptr_o,
	output wire [31:0]  refills_o,
	output wire         loaded_o,
	input  wire         ext_sel_i,
	input  wire         ext_rd_valid_i,
	input  wire         ext_rd_align_i,
	output wire         ext_rd_ready_o,
	output wire [7:0]   ext_rd_byte_o,
	// the look-ahead / commit ports of sampler_prng, for the same consumer
	input  wire [8:0]   ext_pk_addr_i,
	output wire [7:0]   ext_pk_byte_o,
	input  wire         ext_cm_valid_i,
	input  wire [8:0]   ext_cm_ptr_i,
	// host read-out of the current PRNG buffer (the library's fa_prng buf:
	// blocks ctr_o - 8 .. ctr_o - 1), one 32-bit word per cycle on the
	// look-ahead port, only while the unit is idle (no command, ext_sel_i
	// low); buf_ready_o: a state was loaded and no refill is pending
	input  wire         host_rd_i,
	input  wire [6:0]   host_word_i,
	output wire [31:0]  buf_word_o,
	output wire         buf_ready_o
);
	localparam [2:0] CMD_LOAD = 3'd1, CMD_SAMPLE = 3'd2;
	localparam [2:0] ERR_OK = 3'd0, ERR_NOSEED = 3'd4, ERR_CMD = 3'd5;

	localparam [1:0] U_IDLE = 2'd0, U_LOAD = 2'd1, U_SAMPLE = 2'd2;
	reg  [1:0] st_q;

	wire        rd_valid, rd_align, rd_ready, prng_busy;
	wire [7:0]  rd_byte;
	wire        p_valid = ext_sel_i ? ext_rd_valid_i : rd_valid;
	wire        p_align = ext_sel_i ? ext_rd_align_i : rd_align;
	wire        p_ready;
	assign rd_ready = p_ready & ~ext_sel_i;
	assign ext_rd_ready_o = p_ready & ext_sel_i;
	assign ext_rd_byte_o = rd_byte;
	wire [8:0]  pk_addr, cm_ptr, z_pk_addr, z_cm_ptr;
	wire [7:0]  pk_byte;
	wire        cm_valid, z_cm_valid;
	assign pk_addr  = ext_sel_i ? ext_pk_addr_i : host_rd_i ? {host_word_i, 2'b00} : z_pk_addr;
	assign cm_valid = ext_sel_i ? ext_cm_valid_i : z_cm_valid;
	assign cm_ptr   = ext_sel_i ? ext_cm_ptr_i : z_cm_ptr;
	assign ext_pk_byte_o = pk_byte;
	wire        z_done, z_busy;
	wire [1:0]  z_err;

	wire accept = cmd_valid_i & (st_q == U_IDLE);
	assign cmd_ready_o = (st_q == U_IDLE);

	sampler_prng u_prng (
		.clk_i(clk_i), .rst_ni(rst_ni),
		.load_i(accept & (cmd_i == CMD_LOAD)),
		.key_i(key_i), .ctr_i(ctr_i), .ptr_i(ptr_i),
		.rd_valid_i(p_valid), .rd_align_i(p_align), .rd_ready_o(p_ready),
		.rd_byte_o(rd_byte), .key_o(key_o), .ctr_o(ctr_o), .ptr_o(ptr_o),
		.loaded_o(loaded_o), .busy_o(prng_busy), .refills_o(refills_o),
		.pk_addr_i(pk_addr), .pk_byte_o(pk_byte), .pk_word_o(buf_word_o),
		.cm_valid_i(cm_valid), .cm_ptr_i(cm_ptr));
	assign buf_ready_o = loaded_o & ~prng_busy;

	samplerz u_samplerz (
		.clk_i(clk_i), .rst_ni(rst_ni),
		.start_i(accept & (cmd_i == CMD_SAMPLE) & loaded_o),
		.mu_i(mu_i), .isigma_i(isigma_i), .sigma_min_i(sigma_min_i),
		.max_trials_i(max_trials_i), .nmu_i(nmu_i), .nvalid_i(nvalid_i),
		.done_o(z_done), .z_o(z_o), .err_o(z_err), .trials_o(trials_o),
		.busy_o(z_busy),
		.rd_valid_o(rd_valid), .rd_align_o(rd_align), .rd_ready_i(rd_ready),
		.rd_byte_i(rd_byte), .ptr_i(ptr_o), .pk_addr_o(z_pk_addr), .pk_byte_i(pk_byte),
		.cm_valid_o(z_cm_valid), .cm_ptr_o(z_cm_ptr));

	always @(posedge clk_i or negedge rst_ni) begin
		if (!rst_ni) begin
			st_q <= U_IDLE; done_o <= 1'b0; err_o <= ERR_OK;
		end else begin
			done_o <= 1'b0;
			case (st_q)
			U_IDLE: if (cmd_valid_i) begin
				if (cmd_i == CMD_LOAD) st_q <= U_LOAD;
				else if (cmd_i == CMD_SAMPLE && loaded_o) st_q <= U_SAMPLE;
				else begin
					done_o <= 1'b1;
					err_o <= (cmd_i == CMD_SAMPLE) ? ERR_NOSEED : ERR_CMD;
				end
			end
			U_LOAD: if (!prng_busy) begin
				done_o <= 1'b1; err_o <= ERR_OK; st_q <= U_IDLE;
			end
			U_SAMPLE: if (z_done) begin
				done_o <= 1'b1; err_o <= {1'b0, z_err}; st_q <= U_IDLE;
			end
			default: st_q <= U_IDLE;
			endcase
		end
	end
endmodule
`default_nettype wire
