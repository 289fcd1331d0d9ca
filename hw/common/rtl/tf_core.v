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
	parameter KIND = 0,          // 0 = FFT (binary64 complex), 1 = NTT,
	                             // 2 = ML-KEM NTT (q = 3329, pair words)
	parameter P = 4,             // butterfly lanes (power of two)
	parameter LP = 2,            // log2(P)
	parameter W = 128,           // word width
	parameter MAXL = 9,          // log2 of the largest N
	parameter LAT = 10           // butterfly (fft_bf / ntt_bf) latency
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
	// A lane = one register stage on the butterfly inputs (cuts the path
	// bank RAM -> read crossbar -> butterfly) + the butterfly: LT cycles
	// from the RAM read data to the results.
	localparam LT = LAT + 1;

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

	// pick(v, i): word i of the 2*NB words of W bits in v; pick_a(v, i):
	// word i of the NB words of AW bits in v. Both are trees of 2:1 muxes
	// on the bits of i, so every part-select has a constant index.
	function [W-1:0] pick(input [2*NB*W-1:0] v, input [LNB:0] i);
		reg [2*NB*W-1:0] t;
		integer lv, j;
		begin
			t = v;
			for (lv = 0; lv <= LNB; lv = lv + 1)
				for (j = 0; j < ((2 * NB) >> (lv + 1)); j = j + 1)
					t[j*W +: W] = i[lv] ? t[(2*j+1)*W +: W] : t[(2*j)*W +: W];
			pick = t[0 +: W];
		end
	endfunction
	function [AW-1:0] pick_a(input [NB*AW-1:0] v, input [LNB-1:0] i);
		reg [NB*AW-1:0] t;
		integer lv, j;
		begin
			t = v;
			for (lv = 0; lv < LNB; lv = lv + 1)
				for (j = 0; j < (NB >> (lv + 1)); j = j + 1)
					t[j*AW +: AW] = i[lv] ? t[(2*j+1)*AW +: AW] : t[(2*j)*AW +: AW];
			pick_a = t[0 +: AW];
		end
	endfunction

	// ---------------------------------------------------------- sequencer
	reg          r_inv, r_vop;
	reg  [2:0]   r_vsel;
	reg  [3:0]   r_L, r_k;
	reg  [63:0]  r_const;
	reg  [CW-1:0] r_c;
	reg          issuing;
	wire [CW-1:0] nN = {{(CW-1){1'b0}}, 1'b1} << r_L;          // N
	wire [CW-1:0] count = r_vop ? nN : (nN >> 1);              // items per level
	wire [CW-1:0] ncyc = ((count >> LP) == 0) ? 1 : (count >> LP);
	reg  [LT:0] vpipe;                                       // valid of each stage
	reg  [CW-1:0] cpipe [0:LT];
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
			vpipe <= {vpipe[LT-1:0], issuing};
			cpipe[0] <= r_c;
			for (s = 1; s <= LT; s = s + 1)
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
	wire [CW-1:0]   cw = cpipe[LT];
	wire [CW-1:0]   half = nN >> 1;
	integer l;
	reg  [CW-1:0]   p, pw;
	reg  [9:0]      p10;
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
			// twiddle index base_k + (p mod 2^k); ML-KEM vector op (base
			// multiplication): gamma index = the word p
			p10 = p;
			twi[l] = (KIND == 2 && r_vop) ? p10 :
				((KIND == 0) ? (10'd2 << r_k) : (10'd1 << r_k))
				| (p10 & ((10'd1 << r_k) - 10'd1));
			pw = (cw << LP) + l;
			wact[l] = vpipe[LT] && (pw < count);
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
	// Entry e = bf*NB + b is bank b of buffer bf (2*NB RAMs). Port k = 2*l + s
	// of lane l: s = 0 reads ra0 / writes wa0 with o0, s = 1 reads ra1 /
	// writes wa1 with o1 (vector ops write only s = 0).
	//
	// The crossbars are written per RAM (read side) and per bank (write
	// side), so every index into a wide vector is a constant: each entry
	// compares the {buffer, bank} computed by every port with its own
	// number and selects the hitting port's word. (Writing it per port, as
	// `vec[e*W +: W] = ...` with e computed from the address, makes the
	// synthesis tool build a full-width shifter per port.) In a real
	// schedule at most one port hits an entry (see the banking above); where
	// several would, the highest port number wins and the host port wins
	// over all of them, as in a sequential loop over the ports.
	//
	// Write side: in any cycle at most one buffer of a bank is written -- a
	// transform level writes only buffer ~sel, a vector op only buffer sel,
	// and the host writes only while the engine is idle (no level in
	// flight: !busy implies !issuing and no valid pipeline stage). So both
	// buffers of bank b share one write word and data (g_bank[b]); each
	// buffer has its own write enable.
	localparam NP = 2 * P;      // ports
	localparam TW = LNB + 1;    // {buffer, bank}
	wire [2*NB*W-1:0]  rd_f;    // RAM outputs, entry e at [e*W +: W]
	wire [NP*TW-1:0]   pidx;    // {buffer, bank} read by port k
	reg  [NP*TW-1:0]   pidx_q;
	wire [NP*AW-1:0]   rword;   // word read by port k
	wire [NP-1:0]      ron;     // read port k active
	wire [NP*LNB-1:0]  wbank;   // bank written by port k
	wire [NP*AW-1:0]   wword;   // word written by port k
	wire [NP-1:0]      won;     // write port k active
	wire [NP*W-1:0]    wsrc;    // data written by port k
	wire [P*W-1:0]     o0_f, o1_f;
	wire [NB*AW-1:0]   bwaddr;  // write word of bank b (both buffers)
	wire [NB*W-1:0]    bwdata;  // write data of bank b
	wire [NB-1:0]      bweng;   // the engine writes bank b (buffer ebuf)
	wire [NB-1:0]      bwhost;  // the host writes bank b (buffer hphys)
	wire nsel = ~sel;
	wire ebuf = r_vop ? sel : nsel;      // buffer the engine writes
	// host access (only while the sequencer is idle)
	wire [LNB-1:0] hb = bank_of(h_slot, c_L);
	wire [AW-1:0]  hword_a = loc_of(h_slot, c_L);
	wire hphys = h_buf ^ sel;
	wire hrd = !busy && h_en;            // host addresses entry {hphys, hb}
	wire hwr = hrd && h_we;              // ... and writes it
	wire [W-1:0] hdata = {NL{h_wdata[((W < 32) ? W : 32)-1:0]}};
	wire [NL-1:0] hmask;
	generate
		if (NL == 1) begin : g_hm1
			assign hmask = 1'b1;
		end else begin : g_hmn
			assign hmask = {{(NL-1){1'b0}}, 1'b1} << h_lane;
		end
	endgenerate

	genvar gk, ge, gb;
	generate
		for (gk = 0; gk < NP; gk = gk + 1) begin : g_port
			wire [MAXL-1:0] ra = (gk % 2) ? ra1[gk / 2] : ra0[gk / 2];
			wire [MAXL-1:0] wa = (gk % 2) ? wa1[gk / 2] : wa0[gk / 2];
			// a vector op reads B[i] (buffer ~sel) on the s = 1 port
			wire rbf = (r_vop && (gk % 2)) ? nsel : sel;
			assign pidx[gk*TW +: TW] = {rbf, bank_of(ra, r_L)};
			assign rword[gk*AW +: AW] = loc_of(ra, r_L);
			assign ron[gk] = ract[gk / 2];
			assign wbank[gk*LNB +: LNB] = bank_of(wa, r_L);
			assign wword[gk*AW +: AW] = loc_of(wa, r_L);
			assign won[gk] = wact[gk / 2] && !(r_vop && (gk % 2));
			assign wsrc[gk*W +: W] = (gk % 2) ? o1_f[(gk/2)*W +: W] : o0_f[(gk/2)*W +: W];
		end

		// write side: one word / data per bank, shared by both buffers
		for (gb = 0; gb < NB; gb = gb + 1) begin : g_bank
			wire [NP-1:0] hit;          // engine ports writing bank gb
			for (gk = 0; gk < NP; gk = gk + 1) begin : g_hit
				assign hit[gk] = won[gk] && (wbank[gk*LNB +: LNB] == gb);
			end
			wire hhit = hwr && (hb == gb);
			reg [LP:0]   kw;            // highest port writing bank gb
			reg [AW-1:0] waddr;
			reg [W-1:0]  wdata;
			integer i;
			always @(*) begin
				kw = 0;
				for (i = 1; i < NP; i = i + 1)
					if (hit[i])
						kw = i;
				waddr = hhit ? hword_a : pick_a(wword, kw);
				// wsrc holds NP = NB words: the upper half of pick's input is 0
				wdata = hhit ? hdata : pick({{(NB*W){1'b0}}, wsrc}, {1'b0, kw});
			end
			assign bweng[gb] = |hit;
			assign bwhost[gb] = hhit;
			assign bwaddr[gb*AW +: AW] = waddr;
			assign bwdata[gb*W +: W] = wdata;
		end

		// read side and write enables: one per RAM
		for (ge = 0; ge < 2 * NB; ge = ge + 1) begin : g_ram
			wire [NP-1:0] hit;          // read ports addressing entry ge
			for (gk = 0; gk < NP; gk = gk + 1) begin : g_hit
				assign hit[gk] = ron[gk] && (pidx[gk*TW +: TW] == ge);
			end
			reg [AW-1:0] raddr;
			integer i;
			always @(*) begin
				raddr = 0;
				for (i = 0; i < NP; i = i + 1)
					if (hit[i] && (hit >> (i + 1)) == 0)
						raddr = raddr | rword[i*AW +: AW];
				if (hrd && {hphys, hb} == ge)
					raddr = hword_a;
			end
			wire mine = ((ge / NB) != 0) == ebuf;
			wire hmine = ((ge / NB) != 0) == hphys;
			wire [NL-1:0] we =
				(bwhost[ge % NB] && hmine) ? hmask :
				(bweng[ge % NB] && mine) ? {NL{1'b1}} : {NL{1'b0}};
			fa_ram #(.W(W), .DEPTH(DEPTH), .AW(AW), .NL(NL)) ram (
				.clk(clk), .raddr(raddr), .rdata(rd_f[ge*W +: W]),
				.we(we), .waddr(bwaddr[(ge % NB)*AW +: AW]),
				.wdata(bwdata[(ge % NB)*W +: W]));
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
	wire [W-1:0] hword = pick(rd_f, hsel_q);
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
			wire [LNB:0] ix = pidx_q[(2*gl)*TW +: TW];
			wire [LNB:0] iy = pidx_q[(2*gl+1)*TW +: TW];
			wire [W-1:0] lx = pick(rd_f, ix);
			wire [W-1:0] ly = pick(rd_f, iy);
			// lane input register (the mode inputs are static during a
			// level: the sequencer drains the lanes before changing r_k)
			reg  [W-1:0] lx_q, ly_q;
			if (KIND == 0) begin : g_fft
				wire [127:0] tw;
				reg  [127:0] tw_q;
				fft_roots_rom rom (.clk(clk), .addr(twi[gl]), .data(tw));
				always @(posedge clk) begin
					lx_q <= lx;
					ly_q <= (r_vop && r_vsel == 3'd7) ? {r_const, r_const} : ly;
					tw_q <= tw;
				end
				fft_bf bf (.clk(clk), .inv(r_inv), .vop(r_vop), .vsel(r_vsel),
					.scale(r_inv && !r_vop && r_k == 0), .scale_k(r_L),
					.x(lx_q), .y(ly_q),
					.w(tw_q), .o0(o0_f[gl*W +: W]), .o1(o1_f[gl*W +: W]));
			end else if (KIND == 2) begin : g_kem
				// ROM sel: 0 zeta, 1 zeta^-1, 2 gamma, 3 gamma 2^-16
				wire [11:0] tw;
				reg  [11:0] tw_q;
				wire [1:0] tsel = r_vop ? {1'b1, r_vsel[0]} : {1'b0, r_inv};
				kem_tw_rom rom (.clk(clk), .addr({tsel, twi[gl][6:0]}), .data(tw));
				always @(posedge clk) begin
					lx_q <= lx;
					ly_q <= ly;
					tw_q <= tw;
				end
				kem_bf bf (.clk(clk), .inv(r_inv), .vop(r_vop),
					.last(r_inv && !r_vop && r_k == 0), .mont(r_vsel[0]),
					.x(lx_q[23:0]), .y(ly_q[23:0]), .w(tw_q),
					.o0(o0_f[gl*W +: 24]), .o1(o1_f[gl*W +: 24]));
				if (W > 24) begin : g_pad
					assign o0_f[gl*W+24 +: W-24] = 0;
					assign o1_f[gl*W+24 +: W-24] = 0;
				end
			end else begin : g_ntt
				wire [13:0] tw;
				reg  [13:0] tw_q;
				ntt_tw_rom rom (.clk(clk), .addr({r_inv, twi[gl]}), .data(tw));
				always @(posedge clk) begin
					lx_q <= lx;
					ly_q <= ly;
					tw_q <= tw;
				end
				ntt_bf bf (.clk(clk), .inv(r_inv), .vop(r_vop),
					.last(r_inv && !r_vop && r_k == 0), .logn(r_L),
					.x(lx_q[13:0]), .y(ly_q[13:0]), .w(tw_q),
					.o0(o0_f[gl*W +: 14]), .o1(o1_f[gl*W +: 14]));
				assign o0_f[gl*W+14 +: W-14] = 0;
				assign o1_f[gl*W+14 +: W-14] = 0;
			end
		end
	endgenerate
endmodule
`default_nettype wire
