// eksum_unit -- the lanes of the library's version-2 expanded-key checksum
// (src/privkey_check.c, fa_expanded_key_checksum32), fed one 32-bit word
// per cycle from the accelerator's stream path (target EKSUM).
//
// Word j of the stream goes to lane j mod 8:
//     h = (h ^ w) * 0x9E3779B1 mod 2^32;  h = h ^ (h >> 16)
// clr_i seeds the lanes with the first 32-bit words of the fraction of pi
// (lane 0 xored with logn), as the library does. The fold of the eight
// lanes and the word count into the 32-bit checksum (nine more steps) and
// the library's rule for a count that is not a multiple of 8 (the tail
// goes to lane 0) are left to software: expanded-key bodies are always a
// multiple of 8 words (2 (logn + 5) 2^logn words).
//
// Pipeline (a lane is read again 8 words later, so no hazard):
//   s0: x = h[lane] ^ w                       (the word's cycle)
//   s1: pl = x * K[15:0], ph = x[15:0] * K[31:16]   (32- and 16-bit products)
//   s2: p = pl + (ph << 16)                   (= x * K mod 2^32)
//   s3: h[lane] = p ^ (p >> 16); count_o + 1
// count_o counts words whose lane holds the result: software reads it until
// it equals the words it sent, then reads the lanes.
//
// Constant time: the same operations for every value; no state but the
// lanes, the counter and the pipeline registers.
`default_nettype none
module eksum_unit (
	input  wire        clk_i,
	input  wire        rst_ni,
	input  wire        clr_i,       // seed the lanes, count = 0
	input  wire [3:0]  logn_i,
	input  wire        we_i,        // one stream word
	input  wire [31:0] wdata_i,
	input  wire [2:0]  lane_sel_i,
	output wire [31:0] lane_o,
	output wire [23:0] count_o
);
	localparam [31:0] K = 32'h9E3779B1;
	localparam [255:0] SEEDS = {32'hEC4E6C89, 32'h082EFA98, 32'h299F31D0, 32'hA4093822,
	                            32'h03707344, 32'h13198A2E, 32'h85A308D3, 32'h243F6A88};

	reg  [31:0] h_q [0:7];
	reg  [2:0]  in_lane_q;          // lane of the next word
	reg  [23:0] count_q;
	reg         v1_q, v2_q, v3_q;
	reg  [2:0]  l1_q, l2_q, l3_q;
	reg  [31:0] x_q, pl_q, ph_q, p_q;
	integer i;

	assign lane_o = h_q[lane_sel_i];
	assign count_o = count_q;

	always @(posedge clk_i or negedge rst_ni) begin
		if (!rst_ni) begin
			for (i = 0; i < 8; i = i + 1) h_q[i] <= 32'd0;
			in_lane_q <= 3'd0; count_q <= 24'd0;
			v1_q <= 1'b0; v2_q <= 1'b0; v3_q <= 1'b0;
			l1_q <= 3'd0; l2_q <= 3'd0; l3_q <= 3'd0;
			x_q <= 32'd0; pl_q <= 32'd0; ph_q <= 32'd0; p_q <= 32'd0;
		end else if (clr_i) begin
			// words in flight are dropped with the old lanes
			for (i = 0; i < 8; i = i + 1) h_q[i] <= SEEDS[32 * i +: 32];
			h_q[0] <= SEEDS[31:0] ^ {28'd0, logn_i};
			in_lane_q <= 3'd0; count_q <= 24'd0;
			v1_q <= 1'b0; v2_q <= 1'b0; v3_q <= 1'b0;
		end else begin
			// s0
			v1_q <= we_i;
			if (we_i) begin
				x_q <= h_q[in_lane_q] ^ wdata_i;
				l1_q <= in_lane_q;
				in_lane_q <= in_lane_q + 3'd1;
			end
			// s1: the two partial products of x * K mod 2^32
			v2_q <= v1_q; l2_q <= l1_q;
			pl_q <= x_q * {16'd0, K[15:0]};
			ph_q <= {16'd0, x_q[15:0] * K[31:16]};
			// s2
			v3_q <= v2_q; l3_q <= l2_q;
			p_q <= pl_q + {ph_q[15:0], 16'd0};
			// s3
			if (v3_q) begin
				h_q[l3_q] <= p_q ^ {16'd0, p_q[31:16]};
				count_q <= count_q + 24'd1;
			end
		end
	end
endmodule
`default_nettype wire
