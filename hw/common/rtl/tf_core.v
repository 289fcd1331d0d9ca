// tf_core -- the transform / vector engine shared by the FFT (KIND = 0) and
// NTT (KIND = 1) units: P butterfly lanes, two ping-pong buffers of
// NB = 2P banks each, the level sequencer and the host access port.
//
// Data: N = 2^L words (FFT: complex values {re, im}, N = n/2; NTT: values
// mod q, N = n). A transform level makes N/2 butterflies, P per cycle, in
// the constant-geometry (Pease) order: butterfly p of a forward level reads
// positions p and p + N/2 and writes 2p and 2p+1; an inverse level reads
// 2p, 2p+1 and writes p, p + N/2. Each level rotates the position bits by
// one, so after the L levels of a transform the data are back in natural
// order. The butterflies (pairs, twiddles, formulas) are exactly those of
// the in-place Cooley-Tukey / Gentleman-Sande networks of src/fft.c and
// the NTT (see hw/doc/architecture.md): at level k butterfly p uses the
// twiddle index base_k + (p mod 2^k), base_k = 2^(k+1) (FFT) or 2^k (NTT).
//
// Banking: position a lives in bank {a[LP] ^ a[L-1], a[LP-1:0]} at word
// a >> (LP+1) (N > 2P), or in bank a (N <= 2P). The P butterflies of one
// cycle then touch each bank of the source buffer at most once and each
// bank of the destination buffer at most once, for both the p / p + N/2
// and the 2p / 2p+1 patterns, so every bank is a simple 1R1W RAM.
//
// A vector op reads A[i] (buffer `sel`) and B[i] (the other buffer) and
// writes A[i]. A transform leaves its result in buffer `sel` (the
// pointer flips after every level); B is scratch for transforms.
`default_nettype none
module tf_core #(
	parameter KIND = 0,          // 0 = FFT (binary64 complex), 1 = NTT
	parameter P = 4,             // butterfly lanes (power of two)
	parameter LP = 2,            // log2(P)
	parameter W = 128,           // word width
	parameter MAXL = 9,          // log2 of the largest N
	parameter LAT = 10           // lane latency
) (
	input  wire          clk,
	input  wire          rst,
	// control (sampled on start)
	input  wire          start,
	input  wire          c_inv,
	input  wire          c_vop,
	input  wire [2:0]    c_vsel,
	input  wire [3:0]    c_L,
	input  wire [63:0]   c_const,
	output reg           busy,
	output reg           done,
	output reg           sel,
	// host port (only while !busy): 32-bit lane h_lane of word h_slot of
	// buffer A (h_buf = 0) or B (h_buf = 1); read data one cycle later
	input  wire          h_en,
	input  wire          h_we,
	input  wire          h_buf,
	input  wire [MAXL-1:0] h_slot,
	input  wire [1:0]    h_lane,
	input  wire [31:0]   h_wdata,
	output wire [31:0]   h_rdata
);
	localparam NB = 2 * P;
	localparam LNB = LP + 1;
	localparam AW = MAXL - LNB;
	localparam DEPTH = 1 << AW;
	localparam NL = (W >= 32) ? W / 32 : 1;
	localparam CW = MAXL + 1;    // counters

	// ---------------------------------------------------------------- map
	function [LNB-1:0] bank_of(input [MAXL-1:0] a, input [3:0] L);
		reg [MAXL-1:0] t;
		begin
			if (L <= LNB) begin
				bank_of = a[LNB-1:0];
			end else begin
				t = (a >> LP) ^ (a >> (L - 1));
				bank_of = (a & (P - 1)) | ({{(LNB-1){1'b0}}, t[0]} << LP);
			end
		end
	endfunction
	function [AW-1:0] loc_of(input [MAXL-1:0] a, input [3:0] L);
		reg [MAXL-1:0] t;
		begin
			t = a >> LNB;
			loc_of = (L <= LNB) ? {AW{1'b0}} : t[AW-1:0];
		end
	endfunction

	// ---------------------------------------------------------- sequencer
	reg          r_inv, r_vop;
	reg  [2:0]   r_vsel;
	reg  [3:0]   r_L, r_k;
	reg  [63:0]  r_const;
	reg  [CW-1:0] r_c;
	reg          issuing, last_level;
	wire [CW-1:0] nN = {{(CW-1){1'b0}}, 1'b1} << r_L;          // N
	wire [CW-1:0] count = r_vop ? nN : (nN >> 1);              // items per level
	wire [CW-1:0] ncyc = ((count >> LP) == 0) ? 1 : (count >> LP);
	reg  [LAT:0] vpipe;                                       // valid of each stage
	reg  [CW-1:0] cpipe [0:LAT];
	wire         drained = (vpipe == 0);
	integer       s;

	always @(posedge clk) begin
		done <= 1'b0;
		if (rst) begin
			busy <= 1'b0;
			issuing <= 1'b0;
			sel <= 1'b0;
			vpipe <= 0;
		end else begin
			vpipe <= {vpipe[LAT-1:0], issuing};
			cpipe[0] <= r_c;
			for (s = 1; s <= LAT; s = s + 1)
				cpipe[s] <= cpipe[s-1];
			if (!busy) begin
				if (start) begin
					r_inv <= c_inv;
					r_vop <= c_vop;
					r_vsel <= c_vsel;
					r_L <= c_L;
					r_const <= c_const;
					r_c <= 0;
					r_k <= (c_inv && !c_vop) ? c_L - 4'd1 : 4'd0;
					if (!c_vop && c_L == 0) begin
						done <= 1'b1;       // nothing to do (FFT, n = 2)
					end else begin
						busy <= 1'b1;
						issuing <= 1'b1;
					end
				end
			end else if (issuing) begin
				if (r_c == ncyc - 1)
					issuing <= 1'b0;
				r_c <= r_c + 1'b1;
			end else if (drained && vpipe == 0 && !issuing) begin
				// level finished (its last write happened last cycle)
				if (!r_vop)
					sel <= ~sel;
				if (r_vop || (r_inv ? (r_k == 0) : (r_k == r_L - 1))) begin
					busy <= 1'b0;
					done <= 1'b1;
				end else begin
					r_k <= r_inv ? r_k - 1'b1 : r_k + 1'b1;
					r_c <= 0;
					issuing <= 1'b1;
				end
			end
		end
	end

	// ------------------------------------------------ per-lane addresses
	// read side (issue cycle)
	reg  [MAXL-1:0] ra0 [0:P-1], ra1 [0:P-1];
	reg  [P-1:0]    ract;
	reg  [MAXL-1:0] wa0 [0:P-1], wa1 [0:P-1];
	reg  [P-1:0]    wact;
	reg  [9:0]      twi [0:P-1];
	wire [CW-1:0]   cw = cpipe[LAT];
	wire [CW-1:0]   half = nN >> 1;
	integer l;
	reg  [CW-1:0]   p, pw;
	always @(*) begin
		for (l = 0; l < P; l = l + 1) begin
			p = (r_c << LP) + l;
			ract[l] = issuing && (p < count);
			if (r_vop) begin
				ra0[l] = p; ra1[l] = p;
			end else if (!r_inv) begin
				ra0[l] = p; ra1[l] = p + half;
			end else begin
				ra0[l] = p << 1; ra1[l] = (p << 1) | 1'b1;
			end
			// twiddle index base_k + (p mod 2^k)
			twi[l] = ((KIND == 0) ? (10'd2 << r_k) : (10'd1 << r_k))
				| (p[9:0] & ((10'd1 << r_k) - 10'd1));
			pw = (cw << LP) + l;
			wact[l] = vpipe[LAT] && (pw < count);
			if (r_vop) begin
				wa0[l] = pw; wa1[l] = pw;
			end else if (!r_inv) begin
				wa0[l] = pw << 1; wa1[l] = (pw << 1) | 1'b1;
			end else begin
				wa0[l] = pw; wa1[l] = pw + half;
			end
		end
	end

	// ------------------------------------------------------------- banks
	// Flattened arrays: (buffer bf, bank b) is entry bf*NB + b.
	// Read port k = 2*l + s (s = 0: ra0, s = 1: ra1) of lane l.
	wire [2*NB*W-1:0]  rd_f;
	reg  [2*NB*AW-1:0] raddr_f, waddr_f;
	reg  [2*NB*W-1:0]  wdat_f;
	reg  [2*NB*NL-1:0] wen_f;
	wire [P*W-1:0]     o0_f, o1_f;
	reg  [2*P*(LNB+1)-1:0] pidx, pidx_q;   // {buffer, bank} of each read port
	integer bf, b, k, e;
	reg [MAXL-1:0] a_t;
	reg [LNB-1:0]  bk;
	reg [LNB-1:0]  hb;
	wire hphys = h_buf ^ sel;
	wire nsel = ~sel;           // 1-bit (no widening inside integer context)
	always @(*) begin
		raddr_f = 0; waddr_f = 0; wdat_f = 0; wen_f = 0; pidx = 0;
		for (k = 0; k < 2 * P; k = k + 1) begin
			a_t = (k & 1) ? ra1[k >> 1] : ra0[k >> 1];
			bk = bank_of(a_t, r_L);
			bf = (r_vop && (k & 1)) ? nsel : sel;
			pidx[k*(LNB+1) +: LNB+1] = {bf[0], bk};
			e = bf * NB + bk;
			if (ract[k >> 1])
				raddr_f[e*AW +: AW] = loc_of(a_t, r_L);
		end
		for (k = 0; k < 2 * P; k = k + 1) begin
			a_t = (k & 1) ? wa1[k >> 1] : wa0[k >> 1];
			if (wact[k >> 1] && !(r_vop && (k & 1))) begin
				bk = bank_of(a_t, r_L);
				bf = r_vop ? sel : nsel;
				e = bf * NB + bk;
				waddr_f[e*AW +: AW] = loc_of(a_t, r_L);
				wdat_f[e*W +: W] = (k & 1) ? o1_f[(k >> 1)*W +: W] : o0_f[(k >> 1)*W +: W];
				wen_f[e*NL +: NL] = {NL{1'b1}};
			end
		end
		// host access (the sequencer is idle)
		hb = bank_of(h_slot, c_L);
		if (!busy && h_en) begin
			e = hphys * NB + hb;
			raddr_f[e*AW +: AW] = loc_of(h_slot, c_L);
			if (h_we) begin
				waddr_f[e*AW +: AW] = loc_of(h_slot, c_L);
				wdat_f[e*W +: W] = {NL{h_wdata[((W < 32) ? W : 32)-1:0]}};
				wen_f[e*NL +: NL] = (NL == 1) ? 1'b1 : ({{(NL-1){1'b0}}, 1'b1} << h_lane);
			end
		end
	end

	genvar ge;
	generate
		for (ge = 0; ge < 2 * NB; ge = ge + 1) begin : g_ram
			fa_ram #(.W(W), .DEPTH(DEPTH), .AW(AW), .NL(NL)) ram (
				.clk(clk), .raddr(raddr_f[ge*AW +: AW]), .rdata(rd_f[ge*W +: W]),
				.we(wen_f[ge*NL +: NL]), .waddr(waddr_f[ge*AW +: AW]),
				.wdata(wdat_f[ge*W +: W]));
		end
	endgenerate

	// read data back to the ports (one cycle after the address)
	reg  [LNB:0] hsel_q;
	reg  [1:0]   hlane_q;
	always @(posedge clk) begin
		pidx_q <= pidx;
		hsel_q <= {hphys, hb};
		hlane_q <= h_lane;
	end
	wire [W-1:0] hword = rd_f[hsel_q * W +: W];
	generate
		if (W >= 32) begin : g_hr32
			assign h_rdata = hword[hlane_q * 32 +: 32];
		end else begin : g_hrs
			assign h_rdata = {{(32-W){1'b0}}, hword};
		end
	endgenerate

	// ------------------------------------------------------------- lanes
	genvar gl;
	generate
		for (gl = 0; gl < P; gl = gl + 1) begin : g_lane
			wire [LNB:0] ix = pidx_q[(2*gl)*(LNB+1) +: LNB+1];
			wire [LNB:0] iy = pidx_q[(2*gl+1)*(LNB+1) +: LNB+1];
			wire [W-1:0] lx = rd_f[ix * W +: W];
			wire [W-1:0] ly = rd_f[iy * W +: W];
			if (KIND == 0) begin : g_fft
				wire [127:0] tw;
				fft_roots_rom rom (.clk(clk), .addr(twi[gl]), .data(tw));
				fft_bf bf (.clk(clk), .inv(r_inv), .vop(r_vop), .vsel(r_vsel),
					.scale(r_inv && !r_vop && r_k == 0), .scale_k(r_L),
					.x(lx), .y((r_vop && r_vsel == 3'd7) ? {r_const, r_const} : ly),
					.w(tw), .o0(o0_f[gl*W +: W]), .o1(o1_f[gl*W +: W]));
			end else begin : g_ntt
				wire [13:0] tw;
				ntt_tw_rom rom (.clk(clk), .addr({r_inv, twi[gl]}), .data(tw));
				ntt_bf bf (.clk(clk), .inv(r_inv), .vop(r_vop),
					.last(r_inv && !r_vop && r_k == 0), .logn(r_L),
					.x(lx[13:0]), .y(ly[13:0]), .w(tw),
					.o0(o0_f[gl*W +: 14]), .o1(o1_f[gl*W +: 14]));
				assign o0_f[gl*W+14 +: W-14] = 0;
				assign o1_f[gl*W+14 +: W-14] = 0;
			end
		end
	endgenerate
endmodule
`default_nettype wire
