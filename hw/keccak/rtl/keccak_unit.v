// keccak_unit -- Keccak-f[1600] with the state resident in the unit, for
// sponges (SHAKE128/256, SHA3-256/512: the caller keeps the rate and the
// padding): absorb by XOR-writing 32-bit words, permute, squeeze by
// reading words.
//
// Architecture: one round per clock (keccak_round, combinational), so a
// permutation takes 24 cycles; the 1600-bit state is in flops (state_q).
// Round constants come from the degree-8 LFSR of FIPS 202 (rc(t),
// Algorithm 5) advanced seven steps per round, not from a table.
//
// Host word port (h_*): word w (0 <= w < 50) is bits [32w +: 32] of the
// state = bytes 4w..4w+3 of the sponge's byte stream, little-endian (lane
// w/2, low half for even w). A write XORs h_wdata_i into word h_idx_i; a
// read returns the word on h_rdata_o the next cycle (the latency of the
// engines' RAM ports). Indices >= 50 read 0 and are not written.
//
// Commands (cmd_valid_i with cmd_i, one at a time; done_o pulses once per
// accepted command):
//   CMD_CLEAR   (1): state <- 0 (one cycle);
//   CMD_PERMUTE (2): state <- Keccak-f[1600](state) (24 cycles).
// err_o pulses, and nothing happens, for a command while busy, an unknown
// command, or a host write while busy (the state being permuted is never
// corrupted). busy_o is high from the cycle after an accepted PERMUTE to
// its completion.
`default_nettype none
module keccak_unit (
	input  wire        clk_i,
	input  wire        rst_ni,
	input  wire        cmd_valid_i,
	input  wire [1:0]  cmd_i,
	output wire        busy_o,
	output reg         done_o,
	output reg         err_o,
	input  wire        h_en_i,
	input  wire        h_we_i,
	input  wire [5:0]  h_idx_i,
	input  wire [31:0] h_wdata_i,
	output reg  [31:0] h_rdata_o
);
	localparam [1:0] CMD_CLEAR = 2'd1, CMD_PERMUTE = 2'd2;
	localparam [5:0] NWORDS = 6'd50;

	reg  [1599:0] state_q;
	reg           busy_q;
	reg  [4:0]    round_q;
	reg  [7:0]    lfsr_q;

	// Round constant from the LFSR state: seven steps, step j giving bit
	// 2^j - 1 (FIPS 202, Algorithm 6 with rc of Algorithm 5: the LFSR
	// x^8 + x^6 + x^5 + x^4 + 1, output the low bit, state 0x01 at round 0).
	reg  [63:0]   rc;
	reg  [7:0]    lfsr_d;
	integer j;
	always @(*) begin
		rc = 64'd0;
		lfsr_d = lfsr_q;
		for (j = 0; j < 7; j = j + 1) begin
			rc[(1 << j) - 1] = lfsr_d[0];
			lfsr_d = lfsr_d[7] ? ({lfsr_d[6:0], 1'b0} ^ 8'h71) : {lfsr_d[6:0], 1'b0};
		end
	end

	wire [1599:0] state_next;
	keccak_round u_round (.state_i(state_q), .rc_i(rc), .state_o(state_next));

	wire cmd_ok = (cmd_i == CMD_CLEAR) || (cmd_i == CMD_PERMUTE);
	wire accept = cmd_valid_i && !busy_q && cmd_ok;
	wire wr = h_en_i && h_we_i && (h_idx_i < NWORDS);

	assign busy_o = busy_q;

	// Control: busy / round counter / LFSR, done and err pulses.
	always @(posedge clk_i) begin
		if (!rst_ni) begin
			busy_q <= 1'b0;
			round_q <= 5'd0;
			lfsr_q <= 8'h01;
			done_o <= 1'b0;
			err_o <= 1'b0;
		end else begin
			done_o <= 1'b0;
			err_o <= (cmd_valid_i && (busy_q || !cmd_ok)) || (h_en_i && h_we_i && busy_q);
			if (busy_q) begin
				lfsr_q <= lfsr_d;
				round_q <= round_q + 5'd1;
				if (round_q == 5'd23) begin
					busy_q <= 1'b0;
					done_o <= 1'b1;
				end
			end else if (accept && cmd_i == CMD_CLEAR) begin
				done_o <= 1'b1;
			end else if (accept) begin
				busy_q <= 1'b1;
				round_q <= 5'd0;
				lfsr_q <= 8'h01;
			end
		end
	end

	// State, word by word: one next-state choice per bit (a round while
	// busy; else zero on CLEAR, then the host's word: XORed in, or set
	// after a CLEAR of the same cycle, which lands first). A write in the
	// same cycle as an accepted PERMUTE lands before the first round.
	wire clear = accept && (cmd_i == CMD_CLEAR);
	genvar w;
	generate
		for (w = 0; w < 50; w = w + 1) begin : g_word
			wire hit = wr && (h_idx_i == w);
			always @(posedge clk_i) begin
				if (!rst_ni)
					state_q[32*w +: 32] <= 32'd0;
				else if (busy_q)
					state_q[32*w +: 32] <= state_next[32*w +: 32];
				else if (clear || hit)
					state_q[32*w +: 32] <= (hit ? h_wdata_i : 32'd0)
						^ (clear ? 32'd0 : state_q[32*w +: 32]);
			end
		end
	endgenerate

	// Host reads: one word per cycle, registered.
	always @(posedge clk_i) begin
		if (!rst_ni)
			h_rdata_o <= 32'd0;
		else if (h_en_i)
			h_rdata_o <= (h_idx_i < NWORDS) ? state_q[32*h_idx_i +: 32] : 32'd0;
	end
endmodule
`default_nettype wire
