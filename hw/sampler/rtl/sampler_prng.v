// sampler_prng -- the SamplerZ pseudo-random generator of the library
// (src/prng.c): ChaCha20 over eight blocks with consecutive counters, the
// blocks interleaved word by word in a 512-byte buffer, read one byte at a
// time with the library's refill rules (src/sampler.c).
//
// State, as fa_prng: key_q = ChaCha20 words 4..15 (state bytes 0..47,
// little-endian words), ctr_q = the 64-bit block counter (bytes 48..55).
// A refill computes blocks ctr, ctr+1, .., ctr+7 (the counter XORed into
// words 14 and 15, feed-forward of that input block), writes word v of
// block u at buffer word 8v + u (byte 32v + 4u), then ctr += 8, ptr = 0.
//
// Read port (valid/ready; ready = the current buffer is valid):
//   rd_align_i = 0: return buf[ptr], ptr += 1; when ptr reaches 512 the
//                   buffer is refilled at once (prng_u8).
//   rd_align_i = 1: no byte; refill if ptr >= 503 (fewer than 9 bytes
//                   left), as prng_u64 does before reading 8 bytes.
// Look-ahead port (speculative SamplerZ trials): pk_byte_o = buf[pk_addr_i]
//   of the buffer being read, combinational (a second read port on the
//   buffer RAM); the state does not move. pk_word_o is the whole 32-bit
//   word (buffer bytes 4k..4k+3, little-endian, k = pk_addr_i / 4): the
//   host reads the buffer out through it (target SZ_BUF of the top). Commit port: cm_valid_i sets
//   ptr = cm_ptr_i (the reader guarantees it is in the current buffer, at
//   or after ptr, and that no refill rule would have fired on the way).
// load_i: key, counter, ptr from the host; the buffer is filled from
// blocks ctr_i..ctr_i+7 and ptr set to ptr_i (so a host that hands over a
// fa_prng passes its counter minus 8 and its ptr).
//
// Double buffering: while one 512-byte buffer is read, the next one
// (blocks ctr .. ctr+7, ctr = the counter of the next refill) is computed
// into the other; a refill then only swaps the two (no wait), or waits for
// the rest of that computation if it is not finished (only possible within
// 8 * 40 + 18 cycles of a load or of the previous refill). The bytes
// returned and the state (ctr, ptr) are those of the single-buffer
// library generator: a refill still moves ctr_o/ptr_o to (ctr + 8, 0) at
// once. busy_o = the reader must wait (a load or a refill whose buffer is
// not ready yet): the only cycles a refill costs.
//
// ChaCha20 datapath: one half quarter-round on all four columns (or
// diagonals) per cycle, 40 cycles per block; the finished block is copied
// to out_q and written to the buffer one word per cycle while the next
// block runs. A buffer takes 8 * 40 + 18 cycles, independent of the data.
`default_nettype none
module sampler_prng (
	input  wire         clk_i,
	input  wire         rst_ni,
	input  wire         load_i,
	input  wire [383:0] key_i,
	input  wire [63:0]  ctr_i,
	input  wire [8:0]   ptr_i,
	input  wire         rd_valid_i,
	input  wire         rd_align_i,
	output wire         rd_ready_o,
	output wire [7:0]   rd_byte_o,
	output wire [383:0] key_o,
	output wire [63:0]  ctr_o,
	output wire [8:0]   ptr_o,
	output wire         loaded_o,
	output wire         busy_o,
	output wire [31:0]  refills_o,
	// look-ahead: a byte of the current buffer at any position, no state
	// change; commit: ptr = cm_ptr_i (within the current buffer, never in
	// a cycle with a read or a load)
	input  wire [8:0]   pk_addr_i,
	output wire [7:0]   pk_byte_o,
	output wire [31:0]  pk_word_o,   // the whole 32-bit word of pk_addr_i
	input  wire         cm_valid_i,
	input  wire [8:0]   cm_ptr_i
);
	localparam [127:0] SIGMA = {32'h6b206574, 32'h79622d32, 32'h3320646e, 32'h61707865};

	reg  [31:0]  buf_q [0:255];  // two buffers: word {bank, index}
	reg  [383:0] key_q;
	reg  [63:0]  ctr_q;         // counter of the next refill (as fa_prng)
	reg  [63:0]  base_q;        // counter of block 0 of the running refill
	reg  [8:0]   ptr_q;
	reg          loaded_q, busy_q;  // busy_q: the current buffer is not valid
	reg          cur_q;         // bank being read
	reg          tgt_q;         // bank being computed
	reg          gen_q;         // a buffer is being computed (into tgt_q)
	reg          nxt_q;         // the other bank holds the next buffer
	reg  [31:0]  refills_q;
	reg  [2:0]   blk_q;         // block being computed
	reg  [6:0]   step_q;        // half quarter-round step 0..39
	reg          run_q;         // a block is being computed
	reg  [511:0] s_q;           // working state, word i at [32i +: 32]
	reg  [511:0] x_q;           // input block of the running block
	reg  [511:0] out_q;         // finished block being written out
	reg          wr_q;
	reg  [3:0]   wr_v_q;
	reg  [2:0]   wr_blk_q;

	assign rd_ready_o = ~busy_q;
	assign rd_byte_o  = buf_q[{cur_q, ptr_q[8:2]}][8 * ptr_q[1:0] +: 8];
	assign pk_byte_o  = buf_q[{cur_q, pk_addr_i[8:2]}][8 * pk_addr_i[1:0] +: 8];
	assign pk_word_o  = buf_q[{cur_q, pk_addr_i[8:2]}];
	assign key_o      = key_q;
	assign ctr_o      = ctr_q;
	assign ptr_o      = ptr_q;
	assign loaded_o   = loaded_q;
	assign busy_o     = busy_q;
	assign refills_o  = refills_q;

	// half quarter-round: first half (16, 12) or second half (8, 7)
	function [127:0] hqr(input [31:0] a, input [31:0] b, input [31:0] c,
	                     input [31:0] d, input second);
		reg [31:0] a1, b1, c1, d1, t;
		begin
			a1 = a + b;
			t  = d ^ a1;
			d1 = second ? {t[23:0], t[31:24]} : {t[15:0], t[31:16]};
			c1 = c + d1;
			t  = b ^ c1;
			b1 = second ? {t[24:0], t[31:25]} : {t[19:0], t[31:20]};
			hqr = {d1, c1, b1, a1};
		end
	endfunction

	function [31:0] w(input [511:0] s, input integer i);
		w = s[32 * i +: 32];
	endfunction

	// one step on s_q: column round (step[1] = 0) or diagonal round
	reg [511:0] s_next;
	reg [127:0] q0, q1, q2, q3;
	always @(*) begin
		s_next = s_q;
		if (!step_q[1]) begin
			q0 = hqr(w(s_q, 0), w(s_q, 4), w(s_q, 8),  w(s_q, 12), step_q[0]);
			q1 = hqr(w(s_q, 1), w(s_q, 5), w(s_q, 9),  w(s_q, 13), step_q[0]);
			q2 = hqr(w(s_q, 2), w(s_q, 6), w(s_q, 10), w(s_q, 14), step_q[0]);
			q3 = hqr(w(s_q, 3), w(s_q, 7), w(s_q, 11), w(s_q, 15), step_q[0]);
			{s_next[32*12 +: 32], s_next[32*8 +: 32], s_next[32*4 +: 32], s_next[32*0 +: 32]} = q0;
			{s_next[32*13 +: 32], s_next[32*9 +: 32], s_next[32*5 +: 32], s_next[32*1 +: 32]} = q1;
			{s_next[32*14 +: 32], s_next[32*10 +: 32], s_next[32*6 +: 32], s_next[32*2 +: 32]} = q2;
			{s_next[32*15 +: 32], s_next[32*11 +: 32], s_next[32*7 +: 32], s_next[32*3 +: 32]} = q3;
		end else begin
			q0 = hqr(w(s_q, 0), w(s_q, 5), w(s_q, 10), w(s_q, 15), step_q[0]);
			q1 = hqr(w(s_q, 1), w(s_q, 6), w(s_q, 11), w(s_q, 12), step_q[0]);
			q2 = hqr(w(s_q, 2), w(s_q, 7), w(s_q, 8),  w(s_q, 13), step_q[0]);
			q3 = hqr(w(s_q, 3), w(s_q, 4), w(s_q, 9),  w(s_q, 14), step_q[0]);
			{s_next[32*15 +: 32], s_next[32*10 +: 32], s_next[32*5 +: 32], s_next[32*0 +: 32]} = q0;
			{s_next[32*12 +: 32], s_next[32*11 +: 32], s_next[32*6 +: 32], s_next[32*1 +: 32]} = q1;
			{s_next[32*13 +: 32], s_next[32*8 +: 32],  s_next[32*7 +: 32], s_next[32*2 +: 32]} = q2;
			{s_next[32*14 +: 32], s_next[32*9 +: 32],  s_next[32*4 +: 32], s_next[32*3 +: 32]} = q3;
		end
	end

	// input block of block `blk` from a key and a base counter
	function [511:0] block_in(input [383:0] key, input [63:0] ctr, input [2:0] blk);
		reg [63:0] cc;
		begin
			cc = ctr + {61'd0, blk};
			block_in = {key, SIGMA};
			block_in[32*14 +: 32] = key[32*10 +: 32] ^ cc[31:0];
			block_in[32*15 +: 32] = key[32*11 +: 32] ^ cc[63:32];
		end
	endfunction

	// feed-forward: out = rounds(x) + x, word by word
	reg [511:0] ff;
	integer i;
	always @(*) begin
		for (i = 0; i < 16; i = i + 1)
			ff[32 * i +: 32] = s_next[32 * i +: 32] + x_q[32 * i +: 32];
	end

	wire rd_fire = rd_valid_i & ~busy_q;
	wire [383:0] key_base = load_i ? key_i : key_q;
	// a refill requested by the reader
	wire refill = rd_fire & (rd_align_i ? (ptr_q >= 9'd503) : (ptr_q == 9'd511));
	wire gen_done = gen_q & ~run_q & ~wr_q;     // one cycle, at the end
	// the next buffer is ready (or is completed in this cycle)
	wire nxt_eff = nxt_q | (gen_done & ~busy_q);
	// start computing a buffer: on a load (the one to read), after a swap
	// (the one after it, into the bank just left), when the reader waited
	// for a buffer (then the one after it), or when a refill finds neither
	// a next buffer nor one under way (never after a load: only on a
	// never-loaded generator, which then does not hang)
	wire swap = ~busy_q & refill & nxt_eff;
	wire start = load_i | swap | (~busy_q & refill & ~nxt_eff & ~gen_q) |
	             (busy_q & gen_done);
	wire [63:0] gen_base = load_i ? ctr_i : (swap ? ctr_q + 64'd8 : ctr_q);
	wire        gen_tgt  = load_i ? cur_q : (swap ? cur_q : (busy_q ? ~tgt_q : ~cur_q));

	always @(posedge clk_i) begin
		if (wr_q) begin
			buf_q[{tgt_q, wr_v_q, wr_blk_q}] <= out_q[32 * wr_v_q +: 32];
		end
	end

	always @(posedge clk_i or negedge rst_ni) begin
		if (!rst_ni) begin
			key_q <= 384'd0; ctr_q <= 64'd0; base_q <= 64'd0; ptr_q <= 9'd0;
			loaded_q <= 1'b0; busy_q <= 1'b0; refills_q <= 32'd0;
			cur_q <= 1'b0; tgt_q <= 1'b0; gen_q <= 1'b0; nxt_q <= 1'b0;
			blk_q <= 3'd0; step_q <= 7'd0; run_q <= 1'b0;
			s_q <= 512'd0; x_q <= 512'd0; out_q <= 512'd0;
			wr_q <= 1'b0; wr_v_q <= 4'd0; wr_blk_q <= 3'd0;
		end else begin
			if (wr_q) begin
				wr_v_q <= wr_v_q + 4'd1;
				if (wr_v_q == 4'd15) wr_q <= 1'b0;
			end
			// the reader: bytes, and the refills it asks for
			if (load_i) begin
				key_q    <= key_i;
				ctr_q    <= ctr_i + 64'd8;   // committed at once, as the library
				ptr_q    <= ptr_i;
				busy_q   <= 1'b1;
				loaded_q <= 1'b0;
				nxt_q    <= 1'b0;
			end else if (busy_q) begin
				if (gen_done) begin
					// the buffer the reader waited for
					cur_q     <= tgt_q;
					busy_q    <= 1'b0;
					loaded_q  <= 1'b1;
					refills_q <= refills_q + 32'd1;
				end
			end else if (refill) begin
				ctr_q <= ctr_q + 64'd8;
				ptr_q <= 9'd0;
				if (nxt_eff) begin
					cur_q     <= tgt_q;    // the next buffer, no wait
					nxt_q     <= 1'b0;
					refills_q <= refills_q + 32'd1;
				end else begin
					busy_q <= 1'b1;        // wait for the buffer under way
				end
			end else begin
				if (cm_valid_i) ptr_q <= cm_ptr_i;
				else if (rd_fire & ~rd_align_i) ptr_q <= ptr_q + 9'd1;
				if (gen_done) nxt_q <= 1'b1;
			end
			// the generator: a buffer from (key, base) into bank tgt
			if (start) begin
				// a load during a computation restarts it
				base_q  <= gen_base;
				tgt_q   <= gen_tgt;
				gen_q   <= 1'b1;
				run_q   <= 1'b1;
				blk_q   <= 3'd0;
				step_q  <= 7'd0;
				s_q     <= block_in(key_base, gen_base, 3'd0);
				x_q     <= block_in(key_base, gen_base, 3'd0);
				wr_q    <= 1'b0;
			end else if (gen_q) begin
				if (run_q) begin
					if (step_q == 7'd39) begin
						out_q    <= ff;
						wr_q     <= 1'b1;
						wr_v_q   <= 4'd0;
						wr_blk_q <= blk_q;
						step_q   <= 7'd0;
						if (blk_q == 3'd7) begin
							run_q <= 1'b0;
						end else begin
							blk_q <= blk_q + 3'd1;
							s_q   <= block_in(key_q, base_q, blk_q + 3'd1);
							x_q   <= block_in(key_q, base_q, blk_q + 3'd1);
						end
					end else begin
						step_q <= step_q + 7'd1;
						s_q    <= s_next;
					end
				end else if (!wr_q) begin
					gen_q <= 1'b0;       // last block written: gen_done
				end
			end
		end
	end
endmodule
`default_nettype wire
