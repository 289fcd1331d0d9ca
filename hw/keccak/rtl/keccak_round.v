// keccak_round -- one round of Keccak-f[1600] (FIPS 202, section 3.3:
// Rnd = iota o chi o pi o rho o theta), purely combinational.
//
// State layout (as src/keccak_f1600.c): lane (x, y), 0 <= x, y < 5, is
// bits [64*(x + 5y) +: 64] of state_i / state_o; bit z of a lane is bit z of
// that 64-bit field (the byte stream maps onto lanes little-endian).
//
//   theta: a[x][y] ^= c[x-1] ^ rotl(c[x+1], 1), c[x] = parity of column x
//   rho:   lane (x, y) rotated left by rho_off(x, y) (computed below from
//          the (x, y) -> (y, 2x + 3y) walk, not from a table)
//   pi:    lane (x, y) moves to (y, 2x + 3y mod 5)
//   chi:   a[x][y] = b[x][y] ^ (~b[x+1][y] & b[x+2][y])
//   iota:  a[0][0] ^= rc_i (the round constant, from keccak_unit's LFSR)
//
// Logic depth: theta's column parity (5-input XOR), the 11-input XOR of a
// theta-corrected lane bit, then chi (3 inputs) and iota: about three LUT6
// levels on a 7-series part.
`default_nettype none
module keccak_round (
	input  wire [1599:0] state_i,
	input  wire [63:0]   rc_i,
	output wire [1599:0] state_o
);
	// rho offset of lane (x, y): the lanes visited by (x, y) -> (y, 2x+3y)
	// from (1, 0) get offsets (t+1)(t+2)/2 mod 64, t = 0..23; (0, 0) gets 0.
	function integer rho_off(input integer x, input integer y);
		integer t, cx, cy, nx;
		begin
			rho_off = 0;
			cx = 1; cy = 0;
			for (t = 0; t < 24; t = t + 1) begin
				if (cx == x && cy == y)
					rho_off = ((t + 1) * (t + 2) / 2) % 64;
				nx = cy;
				cy = (2 * cx + 3 * cy) % 5;
				cx = nx;
			end
		end
	endfunction

	wire [63:0] c [0:4];
	wire [63:0] d [0:4];
	wire [63:0] b [0:24];

	genvar x, y;
	generate
		for (x = 0; x < 5; x = x + 1) begin : g_col
			assign c[x] = state_i[64*x +: 64] ^ state_i[64*(x+5) +: 64]
				^ state_i[64*(x+10) +: 64] ^ state_i[64*(x+15) +: 64]
				^ state_i[64*(x+20) +: 64];
		end
		for (x = 0; x < 5; x = x + 1) begin : g_d
			// c[x-1] ^ rotl(c[x+1], 1)
			assign d[x] = c[(x+4)%5] ^ {c[(x+1)%5][62:0], c[(x+1)%5][63]};
		end
		for (y = 0; y < 5; y = y + 1) begin : g_rho_y
			for (x = 0; x < 5; x = x + 1) begin : g_rho_x
				localparam integer R = rho_off(x, y);
				wire [63:0] t = state_i[64*(x+5*y) +: 64] ^ d[x];
				wire [127:0] tt = {t, t};
				// rotl(t, R) = bits [127-R -: 64] of {t, t}; pi: (x, y) -> (y, 2x+3y)
				assign b[y + 5*((2*x + 3*y) % 5)] = tt[127-R -: 64];
			end
		end
		for (y = 0; y < 5; y = y + 1) begin : g_chi_y
			for (x = 0; x < 5; x = x + 1) begin : g_chi_x
				wire [63:0] v = b[x + 5*y] ^ (~b[(x+1)%5 + 5*y] & b[(x+2)%5 + 5*y]);
				if (x == 0 && y == 0) begin : g_iota
					assign state_o[63:0] = v ^ rc_i;
				end else begin : g_plain
					assign state_o[64*(x+5*y) +: 64] = v;
				end
			end
		end
	endgenerate
endmodule
`default_nettype wire
