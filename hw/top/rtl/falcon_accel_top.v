// falcon_accel_top -- the accelerator: an FFT/vector engine and an NTT
// engine (P lanes each) behind an AXI4-Lite slave (registers and memory
// windows, hw/top/doc/regmap.md, generated from hw/top/data/regmap.json)
// and a 32-bit AXI-Stream burst path (s_axis writes the STREAM target
// window word by word, m_axis reads it back).
//
// One operation runs at a time. While busy: START and STREAM_OUT are
// refused (STATUS.ERR = BUSY), memory-window accesses get SLVERR and
// s_axis is back-pressured (tready = 0). Bad LOGN / unknown OP: refused
// with STATUS.ERR set; nothing hangs. aresetn (synchronous, active low)
// aborts a running operation at any time.
//
// SAMPLER = 1 (default 0: the P = 4 build then still fits the XC7A100T;
// with the sampler it fits for P <= 2, hw/sampler/doc/synthesis.md) adds
// the SamplerZ unit (hw/sampler, sampler_unit): ops
// SZ_LOAD (PRNG state from the SZ_KEY*/SZ_CTR_*/SZ_PTR registers) and
// SAMPLERZ (SZ_Z = SamplerZ(SZ_MU, SZ_ISIGMA) with SZ_SMIN), bit-exact with
// the library; LOGN is not used by them. A sampler error ends the op with
// STATUS.ERR = SAMPLER and the code in SZ_RESULT.ERR. CONFIG.SAMPLER says
// whether the unit is built in.
//
// Always built in: the expanded-key checksum unit (hw/eksum, eksum_unit):
// register EKSUM seeds its eight lanes, every word streamed to target EKSUM
// updates one (the library's version-2 checksum, src/privkey_check.c),
// EKSUM.COUNT and EKSUM_H0..7 read them back; nothing is stored, and
// STREAM_OUT on that target is refused (SLVERR, ERR = ACCESS).
// CONFIG.EKSUM = 1 says it is there.
//
// With SAMPLER = 1, stream target SZ_BUF reads out the PRNG's current
// 512-byte buffer (STREAM_OUT, 128 words, the library's fa_prng buf), so
// that software need not recompute it (a ChaCha20 refill on the core).
//
// KECCAK = 1 (default 0: at P = 4 the top alone is at 96 % of the
// XC7A100T's LUTs, hw/keccak/doc/keccak.md) adds the Keccak-f[1600] unit
// (hw/keccak, keccak_unit): its state is the KECCAK window (writes XOR
// into the state, reads return it) and the stream target KECCAK (50 words;
// DMA absorbs a block by streaming it in); ops KECCAK_CLEAR (state = 0)
// and KECCAK_PERMUTE (24 cycles); LOGN is not used by them. CONFIG.KECCAK
// says whether it is built in; without it the ops are BAD_OP, the window
// and the target answer SLVERR / ERR = ACCESS.
//
// FFSAMP = 1 (default 0; needs SAMPLER = 1 for its PRNG; at P = 4 the top
// alone is at 97 % of the XC7A100T's LUTs; at P = 1 with the sampler and
// the engine one flattened synthesis counts 96.8 % without Yosys' per-flop
// reset inverters, hw/ffsamp/doc/ffsamp.md: it fits beside P = 1) adds the
// fast-Fourier sampling engine (hw/ffsamp, ffsamp_host around
// ffsamp_engine, FS_MAXLOGN = the largest logn it holds): op FFSAMPLING
// (src/sign.c's ffsamp_tree, bit-exact) with the tree memory (stream
// target FS_TREE, committed by FS_TREE) and the work memory (target
// FS_WORK: t0, t1 in, z0, z1 out; STREAM.START picks the first word),
// SamplerZ on sampler_unit's PRNG (SZ_LOAD before; SZ_STATE_* after),
// errors in FS_RESULT (STATUS.ERR = FFSAMP), the FS_WDOG cycle watchdog.
// FS_THREADS_LOG2 (default 2: four element threads) sets the engine's
// thread count; eight (3) are faster but do not fit the XC7A100T beside
// the NTT/FFT engine (hw/ffsamp/doc/ffsamp.md, Resources).
//
// MLKEM = 1 (default 0: the P = 4 top alone is at 96 % of the XC7A100T's
// LUTs; hw/ntt/doc/mlkem_mode.md has its cost) adds the ML-KEM (q = 3329)
// mode of the NTT unit (hw/ntt, kem_engine): one polynomial as 128 pair
// words in the KEM window / stream target KEM (A words 0..127, B words
// 128..255); ops KEM_NTT, KEM_INTT, KEM_INTT_MONT, KEM_BASEMUL,
// KEM_BASEMUL_MONT (LOGN not used). CONFIG.MLKEM says whether it is built
// in; without it the ops are BAD_OP, the window and target SLVERR.
//
// KEMENC = 1 (default 0) adds the ML-KEM-768 encapsulation sequencer
// (hw/mlkem, mlkem_encaps, with its own Keccak unit): ek and m written to
// the KEMENC window, op KEM_ENCAPS (CONST_LO = 768) runs the whole
// encapsulation, ct and K read back from the window; KEMENC_RESULT.ERR
// holds its error code (STATUS.ERR = KEMENC when not 0). CONFIG.KEMENC.
`default_nettype none
`include "fa_regs.vh"
module falcon_accel_top #(parameter P = 4, parameter LP = 2, parameter SAMPLER = 0,
	parameter KECCAK = 0, parameter FFSAMP = 0, parameter FS_MAXLOGN = 10,
	parameter FS_THREADS_LOG2 = 2,
	parameter MLKEM = 0, parameter KEMENC = 0) (
	input  wire        aclk,
	input  wire        aresetn,
	// AXI4-Lite slave
	input  wire [15:0] s_axil_awaddr,
	input  wire        s_axil_awvalid,
	output reg         s_axil_awready,
	input  wire [31:0] s_axil_wdata,
	input  wire [3:0]  s_axil_wstrb,
	input  wire        s_axil_wvalid,
	output reg         s_axil_wready,
	output reg  [1:0]  s_axil_bresp,
	output reg         s_axil_bvalid,
	input  wire        s_axil_bready,
	input  wire [15:0] s_axil_araddr,
	input  wire        s_axil_arvalid,
	output reg         s_axil_arready,
	output reg  [31:0] s_axil_rdata,
	output reg  [1:0]  s_axil_rresp,
	output reg         s_axil_rvalid,
	input  wire        s_axil_rready,
	// AXI-Stream in (to the STREAM target window)
	input  wire [31:0] s_axis_tdata,
	input  wire        s_axis_tvalid,
	output wire        s_axis_tready,
	input  wire        s_axis_tlast,
	// AXI-Stream out (from the STREAM target window)
	output wire [31:0] m_axis_tdata,
	output wire        m_axis_tvalid,
	input  wire        m_axis_tready,
	output wire        m_axis_tlast,
	output wire        irq              // STATUS.DONE
);
	wire rst = ~aresetn;
	localparam [7:0] PW = P;
	localparam [1:0] OKAY = 2'b00, SLVERR = 2'b10;

	// ------------------------------------------------------------ registers
	reg  [7:0]  r_op;
	reg  [3:0]  r_logn;
	reg  [63:0] r_const;
	reg  [31:0] r_cycles, clk_hi_latch;
	reg  [63:0] clock;
	reg         r_done;
	reg  [3:0]  r_err;
	reg  [3:0]  r_target;
	reg  [10:0] in_ptr, out_ptr;       // stream word pointers
	reg  [14:0] out_left;               // words still to send
	wire        f_busy, n_busy, f_done, n_done, f_sel, n_sel;
	// SamplerZ unit: operand registers and results
	reg  [383:0] r_sz_key;
	reg  [63:0] r_sz_ctr, r_sz_mu, r_sz_isig, r_sz_smin;
	reg  [8:0]  r_sz_ptr;
	reg  [7:0]  r_sz_maxt;
	reg         sz_busy;
	wire        sz_done, sz_loaded;
	wire [2:0]  sz_err;
	wire [31:0] sz_z;
	wire [31:0] eks_lane;
	wire [31:0] sz_buf_word;            // SZ_BUF read-out (sampler_unit)
	wire        sz_buf_ready;
	wire [23:0] eks_count;
	wire [7:0]  sz_trials;
	wire [63:0] sz_ctr;
	wire [8:0]  sz_ptr;
	wire        k_busy, k_done;
	wire [31:0] k_rdata;
	wire        fs_busy, fs_done;
	wire [2:0]  fs_err;
	wire [31:0] fs_rdata, fs_reg_rdata;
	wire        fs_rd_valid, fs_rd_align, fs_rd_ready;
	wire [7:0]  fs_rd_byte, fs_pk_byte;
	wire [8:0]  fs_pk_addr, fs_cm_ptr;
	wire        fs_cm_valid;
	wire        kem_busy, kem_done;
	wire [31:0] kem_rdata;
	wire        kenc_busy, kenc_done, kenc_herr;
	wire [2:0]  kenc_err;
	wire [31:0] kenc_rdata;
	wire        busy = f_busy | n_busy | sz_busy | k_busy | fs_busy | kem_busy | kenc_busy;
	reg         counting;

	// ---------------------------------------------------- start / dispatch
	reg         start_req;              // CTRL.START written this cycle
	wire        logn_ok = (r_logn >= 4'd1) && (r_logn <= 4'd10);
	wire        op_fft = (r_op == `FA_OP_FFT) || (r_op == `FA_OP_IFFT)
		|| (r_op >= `FA_OP_VADD && r_op <= `FA_OP_VMULCONST);
	wire        op_ntt = (r_op >= `FA_OP_NTT && r_op <= `FA_OP_NTT_MUL);
	wire        op_sz = (SAMPLER != 0) && ((r_op == `FA_OP_SZ_LOAD) || (r_op == `FA_OP_SAMPLERZ));
	wire        op_kec = (KECCAK != 0) && ((r_op == `FA_OP_KECCAK_CLEAR) || (r_op == `FA_OP_KECCAK_PERMUTE));
	wire        op_fs = (FFSAMP != 0) && (r_op == `FA_OP_FFSAMPLING);
	wire        op_kem = (MLKEM != 0) && (r_op >= `FA_OP_KEM_NTT) && (r_op <= `FA_OP_KEM_BASEMUL_MONT);
	wire        op_kenc = (KEMENC != 0) && (r_op == `FA_OP_KEM_ENCAPS);
	wire        go = start_req && !busy && (op_sz || op_kec || op_kem || op_kenc || (logn_ok && (op_fft || op_ntt || op_fs)));
	wire        kem_start = go && op_kem;
	wire        kenc_start = go && op_kenc;
	wire        fs_start = go && op_fs;
	wire        k_start = go && op_kec;
	wire        sz_start = go && op_sz;
	wire        f_start = go && op_fft;
	wire        n_start = go && op_ntt;
	wire [3:0]  f_L = r_logn - 4'd1;

	// --------------------------------------------------- memory host port
	// One access per cycle to either engine; users: AXI-Lite window access,
	// s_axis word, m_axis fetch (the streams have priority; the AXI-Lite
	// FSM waits for a free cycle).
	reg         m_en, m_we, m_ntt, m_buf, m_kec, m_kem, m_kenc;
	reg  [9:0]  m_idx;                  // fpr index (FFT) or coefficient (NTT)
	reg         m_half;                 // FFT: high 32-bit word
	reg  [31:0] m_wdata;
	wire [31:0] f_rdata, n_rdata;
	reg         m_ntt_q, m_kec_q, m_fs_q, m_kem_q, m_kenc_q, m_szb_q;
	reg  [31:0] szb_rdata_q;            // SZ_BUF word fetched in the last cycle
	wire [31:0] m_rdata = m_szb_q ? szb_rdata_q : m_kenc_q ? kenc_rdata : m_fs_q ? fs_rdata : m_kem_q ? kem_rdata : m_kec_q ? k_rdata
		: m_ntt_q ? n_rdata : f_rdata;
	// FFT: fpr u -> complex slot u mod n/2, re (u < n/2) or im; lanes of the
	// 128-bit word {re_hi, re_lo, im_hi, im_lo} = 3, 2, 1, 0
	wire [9:0]  hn_mask = (10'd1 << f_L) - 10'd1;
	wire        f_im = ((m_idx >> f_L) != 10'd0);
	wire [8:0]  f_slot = m_idx[8:0] & hn_mask[8:0];
	wire [1:0]  f_lane = {~f_im, m_half};

	fft_engine #(.P(P), .LP(LP)) u_fft (
		.clk(aclk), .rst(rst), .start(f_start),
		.c_inv(r_op == `FA_OP_IFFT), .c_vop(r_op >= `FA_OP_VADD),
		.c_vsel(r_op[2:0]), .c_L(f_L), .c_const(r_const),
		.busy(f_busy), .done(f_done), .sel(f_sel),
		.h_en(m_en && !m_ntt && !m_kec && !m_kem && !m_kenc), .h_we(m_we), .h_buf(m_buf), .h_slot(f_slot),
		.h_lane(f_lane), .h_wdata(m_wdata), .h_rdata(f_rdata));
	ntt_engine #(.P(P), .LP(LP)) u_ntt (
		.clk(aclk), .rst(rst), .start(n_start),
		.c_inv(r_op == `FA_OP_INTT), .c_vop(r_op == `FA_OP_NTT_MUL), .c_L(r_logn),
		.busy(n_busy), .done(n_done), .sel(n_sel),
		.h_en(m_en && m_ntt && !m_kec && !m_kem), .h_we(m_we), .h_buf(m_buf), .h_slot(m_idx),
		.h_wdata(m_wdata), .h_rdata(n_rdata));

	generate if (MLKEM != 0) begin : g_mlkem
		// ops 64..68: NTT, INTT, INTT_MONT, BASEMUL, BASEMUL_MONT
		kem_engine #(.P(P), .LP(LP)) u_kem (
			.clk(aclk), .rst(rst), .start(kem_start),
			.c_inv((r_op == `FA_OP_KEM_INTT) || (r_op == `FA_OP_KEM_INTT_MONT)),
			.c_vop((r_op == `FA_OP_KEM_BASEMUL) || (r_op == `FA_OP_KEM_BASEMUL_MONT)),
			.c_mont((r_op == `FA_OP_KEM_INTT_MONT) || (r_op == `FA_OP_KEM_BASEMUL_MONT)),
			.busy(kem_busy), .done(kem_done), .sel(),
			.h_en(m_en && m_kem), .h_we(m_we), .h_buf(m_idx[7]), .h_slot(m_idx[6:0]),
			.h_wdata(m_wdata), .h_rdata(kem_rdata));
	end else begin : g_no_mlkem
		assign kem_busy = 1'b0; assign kem_done = 1'b0; assign kem_rdata = 32'd0;
	end endgenerate

	generate if (KEMENC != 0) begin : g_kemenc
		// level_i: 1 = ML-KEM-768 (CONST_LO = 768); 0 = 512, 2 = 1024 and
		// anything else are refused by the block (KEMERR LEVEL)
		mlkem_encaps u_kemenc (
			.clk_i(aclk), .rst_ni(aresetn), .start_i(kenc_start),
			.level_i((r_const[31:0] == 32'd768) ? 2'd1 : (r_const[31:0] == 32'd512) ? 2'd0 : 2'd2),
			.busy_o(kenc_busy), .done_o(kenc_done), .err_o(kenc_err), .cycles_o(),
			.h_en_i(m_en && m_kenc), .h_we_i(m_we), .h_addr_i(m_idx), .h_wdata_i(m_wdata),
			.h_rdata_o(kenc_rdata), .h_err_o(kenc_herr));
	end else begin : g_no_kemenc
		assign kenc_busy = 1'b0; assign kenc_done = 1'b0; assign kenc_err = 3'd0;
		assign kenc_rdata = 32'd0; assign kenc_herr = 1'b0;
	end endgenerate

	generate if (KECCAK != 0) begin : g_keccak
		keccak_unit u_keccak (
			.clk_i(aclk), .rst_ni(aresetn),
			.cmd_valid_i(k_start), .cmd_i(r_op[1:0] + 2'd1),  // 48 -> CLEAR (1), 49 -> PERMUTE (2)
			.busy_o(k_busy), .done_o(k_done), .err_o(),
			.h_en_i(m_en && m_kec), .h_we_i(m_we), .h_idx_i(m_idx[5:0]),
			.h_wdata_i(m_wdata), .h_rdata_o(k_rdata));
	end else begin : g_no_keccak
		assign k_busy = 1'b0; assign k_done = 1'b0; assign k_rdata = 32'd0;
	end endgenerate

	generate if (SAMPLER != 0) begin : g_sampler
		sampler_unit u_sampler (
			.clk_i(aclk), .rst_ni(aresetn),
			.cmd_valid_i(sz_start), .cmd_i((r_op == `FA_OP_SZ_LOAD) ? 3'd1 : 3'd2),
			.cmd_ready_o(),
			.key_i(r_sz_key), .ctr_i(r_sz_ctr), .ptr_i(r_sz_ptr),
			.mu_i(r_sz_mu), .isigma_i(r_sz_isig), .sigma_min_i(r_sz_smin),
			.max_trials_i(r_sz_maxt), .nmu_i(64'd0), .nvalid_i(1'b0),
			.done_o(sz_done), .err_o(sz_err), .z_o(sz_z), .trials_o(sz_trials),
			.key_o(), .ctr_o(sz_ctr), .ptr_o(sz_ptr), .refills_o(), .loaded_o(sz_loaded),
			.ext_sel_i(fs_busy), .ext_rd_valid_i(fs_rd_valid), .ext_rd_align_i(fs_rd_align),
			.ext_rd_ready_o(fs_rd_ready), .ext_rd_byte_o(fs_rd_byte),
			.ext_pk_addr_i(fs_pk_addr), .ext_pk_byte_o(fs_pk_byte),
			.ext_cm_valid_i(fs_cm_valid), .ext_cm_ptr_i(fs_cm_ptr),
			.host_rd_i(can_fetch && tgt_szb), .host_word_i(out_ptr[6:0]),
			.buf_word_o(sz_buf_word), .buf_ready_o(sz_buf_ready));
	end else begin : g_no_sampler
		assign sz_done = 1'b0; assign sz_err = 3'd0; assign sz_z = 32'd0;
		assign sz_trials = 8'd0; assign sz_ctr = 64'd0; assign sz_ptr = 9'd0;
		assign sz_loaded = 1'b0;
		assign sz_buf_word = 32'd0; assign sz_buf_ready = 1'b0;
		assign fs_rd_ready = 1'b0; assign fs_rd_byte = 8'd0; assign fs_pk_byte = 8'd0;
	end endgenerate

	// index of a word of a window is legal for the current LOGN
	// 12 bits: at logn 10 the FFT window holds 2048 words (11 bits would wrap to 0)
	wire [11:0] nwords_f = (12'd2 << r_logn);      // FFT window: 2 words per fpr
	wire [11:0] nwords_n = (12'd1 << r_logn);

	// ------------------------------------------------------------ streams
	wire        tgt_kec = (r_target == `FA_TARGET_KECCAK);
	wire        tgt_fs = (r_target == `FA_TARGET_FS_TREE) || (r_target == `FA_TARGET_FS_WORK);
	wire        tgt_kem = (r_target == `FA_TARGET_KEM);
	wire        tgt_eks = (r_target == `FA_TARGET_EKSUM);
	wire        tgt_szb = (r_target == `FA_TARGET_SZ_BUF);
	wire        tgt_ntt = r_target[1] && !tgt_kem;
	wire        tgt_buf = r_target[0];
	wire [11:0] tgt_words = tgt_kec ? 12'd50 : tgt_kem ? 12'd256 : tgt_szb ? 12'd128
		: tgt_ntt ? nwords_n : nwords_f;
	assign s_axis_tready = !busy && aresetn && (out_left == 0);
	wire        s_fire = s_axis_tvalid && s_axis_tready;
	// m_axis: 2-entry FIFO fed by window reads (one cycle latency)
	reg  [31:0] fifo_d [0:1];
	reg         fifo_l [0:1];
	reg  [1:0]  fifo_n;
	reg         fifo_h;                 // head index
	reg         fetch_q, fetch_last_q;
	wire        fifo_pop = m_axis_tvalid && m_axis_tready;
	wire        can_fetch = (out_left != 0) && !s_fire && !busy && !(tgt_szb && !sz_buf_ready)
		&& ({1'b0, fifo_n} + {2'b0, fetch_q} - {2'b0, fifo_pop} < 3'd2);
	assign m_axis_tvalid = (fifo_n != 0);
	assign m_axis_tdata = fifo_d[fifo_h];
	assign m_axis_tlast = fifo_l[fifo_h];

	// ------------------------------------------------------- AXI4-Lite FSM
	localparam [2:0] S_IDLE = 0, S_WEXEC = 1, S_BRESP = 2, S_REXEC = 3, S_RWAIT = 4, S_RRESP = 5;
	reg  [2:0]  st;
	reg  [15:0] a_addr;
	reg  [31:0] a_wdata;
	// legal STREAM.TARGET values: FFT_A..NTT_B, and KECCAK when built in
	wire        target_ok = (a_wdata[3:0] <= 4'd3)
		|| (a_wdata[3:0] == `FA_TARGET_EKSUM)
		|| ((SAMPLER != 0) && (a_wdata[3:0] == `FA_TARGET_SZ_BUF))
		|| ((KECCAK != 0) && (a_wdata[3:0] == `FA_TARGET_KECCAK))
		|| ((MLKEM != 0) && (a_wdata[3:0] == `FA_TARGET_KEM))
		|| ((FFSAMP != 0) && ((a_wdata[3:0] == `FA_TARGET_FS_TREE)
		                      || (a_wdata[3:0] == `FA_TARGET_FS_WORK)));
	wire        port_free = !s_fire && !can_fetch;
	// decode of a_addr
	wire        win_f = (a_addr[15:14] == 2'b01);                 // 0x4000-0x7FFF
	wire        win_n = (a_addr[15:13] == 3'b100);                // 0x8000-0x9FFF
	wire        win_k = (KECCAK != 0) && (a_addr[15:8] == 8'hA0); // 0xA000-0xA0FF
	wire        win_m = (MLKEM != 0) && (a_addr[15:10] == 6'b101100); // 0xB000-0xB3FF
	wire        win_e = (KEMENC != 0) && (a_addr[15:12] == 4'hC);      // 0xC000-0xCFFF
	// KEMENC words: ek, m (read / write) below 0x130; ct, K (read) 0x200..0x317
	wire        win_e_ok = (a_addr[11:2] < 10'h130) || ((st == S_REXEC)
		&& (a_addr[11:2] >= 10'h200) && (a_addr[11:2] < 10'h318));
	wire        is_win = win_f | win_n | win_k | win_m | win_e;
	wire [10:0] win_word = win_f ? {1'b0, a_addr[12:3], a_addr[2]} : {1'b0, a_addr[11:2]};
	wire        win_ok = win_f ? ({a_addr[12:3], a_addr[2]} < nwords_f)
	                   : win_k ? (a_addr[7:2] < 6'd50)
	                   : win_m ? 1'b1
	                   : win_e ? win_e_ok
	                           : (a_addr[11:2] < nwords_n);
	reg  [31:0] reg_rdata;
	reg         reg_rok, reg_wok;
	always @(*) begin
		reg_rok = 1'b1;
		case (a_addr)
		`FA_REG_ID:        reg_rdata = `FA_ID_VALUE;
		`FA_REG_CONFIG:    reg_rdata = {10'd0, 1'b1, (KEMENC != 0), (MLKEM != 0), (FFSAMP != 0), (KECCAK != 0), (SAMPLER != 0), `FA_REGMAP_VERSION, PW};
		`FA_REG_STATUS:    reg_rdata = {24'd0, r_err, 2'b00, r_done, busy | counting};
		`FA_REG_OP:        reg_rdata = {24'd0, r_op};
		`FA_REG_LOGN:      reg_rdata = {28'd0, r_logn};
		`FA_REG_CONST_LO:  reg_rdata = r_const[31:0];
		`FA_REG_CONST_HI:  reg_rdata = r_const[63:32];
		`FA_REG_CYCLES:    reg_rdata = r_cycles;
		`FA_REG_CLOCK_LO:  reg_rdata = clock[31:0];
		`FA_REG_CLOCK_HI:  reg_rdata = clk_hi_latch;
		`FA_REG_STREAM:    reg_rdata = {28'd0, r_target};
		`FA_REG_EKSUM:     reg_rdata = {8'd0, eks_count};
		`FA_REG_EKSUM_H0, `FA_REG_EKSUM_H1, `FA_REG_EKSUM_H2, `FA_REG_EKSUM_H3,
		`FA_REG_EKSUM_H4, `FA_REG_EKSUM_H5, `FA_REG_EKSUM_H6, `FA_REG_EKSUM_H7:
		                   reg_rdata = eks_lane;
		`FA_REG_SZ_KEY0:   reg_rdata = r_sz_key[32*0 +: 32];
		`FA_REG_SZ_KEY1:   reg_rdata = r_sz_key[32*1 +: 32];
		`FA_REG_SZ_KEY2:   reg_rdata = r_sz_key[32*2 +: 32];
		`FA_REG_SZ_KEY3:   reg_rdata = r_sz_key[32*3 +: 32];
		`FA_REG_SZ_KEY4:   reg_rdata = r_sz_key[32*4 +: 32];
		`FA_REG_SZ_KEY5:   reg_rdata = r_sz_key[32*5 +: 32];
		`FA_REG_SZ_KEY6:   reg_rdata = r_sz_key[32*6 +: 32];
		`FA_REG_SZ_KEY7:   reg_rdata = r_sz_key[32*7 +: 32];
		`FA_REG_SZ_KEY8:   reg_rdata = r_sz_key[32*8 +: 32];
		`FA_REG_SZ_KEY9:   reg_rdata = r_sz_key[32*9 +: 32];
		`FA_REG_SZ_KEY10:  reg_rdata = r_sz_key[32*10 +: 32];
		`FA_REG_SZ_KEY11:  reg_rdata = r_sz_key[32*11 +: 32];
		`FA_REG_SZ_CTR_LO: reg_rdata = r_sz_ctr[31:0];
		`FA_REG_SZ_CTR_HI: reg_rdata = r_sz_ctr[63:32];
		`FA_REG_SZ_PTR:    reg_rdata = {23'd0, r_sz_ptr};
		`FA_REG_SZ_MU_LO:  reg_rdata = r_sz_mu[31:0];
		`FA_REG_SZ_MU_HI:  reg_rdata = r_sz_mu[63:32];
		`FA_REG_SZ_ISIGMA_LO: reg_rdata = r_sz_isig[31:0];
		`FA_REG_SZ_ISIGMA_HI: reg_rdata = r_sz_isig[63:32];
		`FA_REG_SZ_SMIN_LO: reg_rdata = r_sz_smin[31:0];
		`FA_REG_SZ_SMIN_HI: reg_rdata = r_sz_smin[63:32];
		`FA_REG_SZ_MAX_TRIALS: reg_rdata = {24'd0, r_sz_maxt};
		`FA_REG_SZ_Z:      reg_rdata = sz_z;
		`FA_REG_SZ_RESULT: reg_rdata = {19'd0, sz_loaded, 1'b0, sz_err, sz_trials};
		`FA_REG_SZ_STATE_CTR_LO: reg_rdata = sz_ctr[31:0];
		`FA_REG_SZ_STATE_CTR_HI: reg_rdata = sz_ctr[63:32];
		`FA_REG_SZ_STATE_PTR: reg_rdata = {23'd0, sz_ptr};
		`FA_REG_KEMENC_RESULT: begin reg_rdata = {29'd0, kenc_err}; reg_rok = (KEMENC != 0); end
		`FA_REG_FS_TREE, `FA_REG_FS_WDOG, `FA_REG_FS_RESULT, `FA_REG_FS_SZ_CYCLES: begin
			reg_rdata = fs_reg_rdata; reg_rok = (FFSAMP != 0);
		end
		default: begin     reg_rdata = 32'd0; reg_rok = 1'b0; end
		endcase
		case (a_addr)
		`FA_REG_CTRL, `FA_REG_OP, `FA_REG_LOGN, `FA_REG_CONST_LO, `FA_REG_CONST_HI,
		`FA_REG_STREAM, `FA_REG_STREAM_OUT, `FA_REG_EKSUM: reg_wok = 1'b1;
		`FA_REG_SZ_KEY0, `FA_REG_SZ_KEY1, `FA_REG_SZ_KEY2, `FA_REG_SZ_KEY3,
		`FA_REG_SZ_KEY4, `FA_REG_SZ_KEY5, `FA_REG_SZ_KEY6, `FA_REG_SZ_KEY7,
		`FA_REG_SZ_KEY8, `FA_REG_SZ_KEY9, `FA_REG_SZ_KEY10, `FA_REG_SZ_KEY11,
		`FA_REG_SZ_CTR_LO, `FA_REG_SZ_CTR_HI, `FA_REG_SZ_PTR,
		`FA_REG_SZ_MU_LO, `FA_REG_SZ_MU_HI, `FA_REG_SZ_ISIGMA_LO, `FA_REG_SZ_ISIGMA_HI,
		`FA_REG_SZ_SMIN_LO, `FA_REG_SZ_SMIN_HI, `FA_REG_SZ_MAX_TRIALS: reg_wok = 1'b1;
		`FA_REG_FS_TREE, `FA_REG_FS_WDOG: reg_wok = (FFSAMP != 0);
		default: reg_wok = 1'b0;
		endcase
	end

	// host port mux (combinational): stream in > stream out > AXI-Lite
	wire axil_mem = ((st == S_WEXEC) || (st == S_REXEC)) && is_win && win_ok && !busy && port_free;
	always @(*) begin
		m_en = 1'b0; m_we = 1'b0; m_ntt = 1'b0; m_buf = 1'b0; m_kec = 1'b0; m_kem = 1'b0; m_kenc = 1'b0; m_idx = 10'd0;
		m_half = 1'b0; m_wdata = 32'd0;
		if (s_fire && !tgt_fs && !tgt_eks && !tgt_szb) begin
			m_en = 1'b1; m_we = 1'b1; m_ntt = tgt_ntt; m_buf = tgt_buf; m_kec = tgt_kec; m_kem = tgt_kem;
			m_idx = (tgt_ntt || tgt_kec || tgt_kem) ? in_ptr[9:0] : in_ptr[10:1];
			m_half = in_ptr[0] & ~tgt_ntt & ~tgt_kec & ~tgt_kem;
			m_wdata = s_axis_tdata;
		end else if (can_fetch && !tgt_fs && !tgt_szb) begin
			m_en = 1'b1; m_ntt = tgt_ntt; m_buf = tgt_buf; m_kec = tgt_kec; m_kem = tgt_kem;
			m_idx = (tgt_ntt || tgt_kec || tgt_kem) ? out_ptr[9:0] : out_ptr[10:1];
			m_half = out_ptr[0] & ~tgt_ntt & ~tgt_kec & ~tgt_kem;
		end else if (axil_mem) begin
			m_en = 1'b1; m_we = (st == S_WEXEC); m_ntt = win_n; m_kec = win_k; m_kem = win_m; m_kenc = win_e;
			m_buf = win_f ? a_addr[13] : a_addr[12];
			m_idx = win_k ? {4'd0, a_addr[7:2]} : win_m ? {2'd0, a_addr[9:2]} : win_e ? a_addr[11:2]
				: win_word[10:0] >> (win_f ? 1 : 0);
			m_half = win_f & a_addr[2];
			m_wdata = a_wdata;
		end
	end

	always @(posedge aclk) begin
		m_ntt_q <= m_ntt;
		m_kec_q <= m_kec;
		m_kem_q <= m_kem;
		m_kenc_q <= m_kenc;
		m_fs_q <= can_fetch && tgt_fs;
		m_szb_q <= can_fetch && tgt_szb;
		szb_rdata_q <= sz_buf_word;
		clock <= rst ? 64'd0 : clock + 64'd1;
		start_req <= 1'b0;
		if (rst) begin
			st <= S_IDLE;
			s_axil_awready <= 1'b0; s_axil_wready <= 1'b0; s_axil_arready <= 1'b0;
			s_axil_bvalid <= 1'b0; s_axil_rvalid <= 1'b0;
			s_axil_bresp <= OKAY; s_axil_rresp <= OKAY; s_axil_rdata <= 32'd0;
			r_op <= 8'd0; r_logn <= 4'd0; r_const <= 64'd0; r_cycles <= 32'd0;
			r_done <= 1'b0; r_err <= 4'd0; r_target <= 4'd0;
			in_ptr <= 11'd0; out_ptr <= 11'd0; out_left <= 15'd0;
			fifo_n <= 2'd0; fifo_h <= 1'b0; fetch_q <= 1'b0; counting <= 1'b0;
			clk_hi_latch <= 32'd0;
			r_sz_key <= 384'd0; r_sz_ctr <= 64'd0; r_sz_ptr <= 9'd0; r_sz_mu <= 64'd0;
			r_sz_isig <= 64'd0; r_sz_smin <= 64'd0; r_sz_maxt <= 8'd0; sz_busy <= 1'b0;
		end else begin
			// ---- operation start / completion
			if (start_req) begin
				r_done <= 1'b0;         // DONE refers to the last START
				if (busy)
					r_err <= `FA_ERR_BUSY;
				else if (!op_sz && !op_kec && !op_kem && !op_kenc && !logn_ok)
					r_err <= `FA_ERR_BAD_LOGN;
				else if (!(op_fft || op_ntt || op_sz || op_kec || op_fs || op_kem || op_kenc))
					r_err <= `FA_ERR_BAD_OP;
				else begin
					r_err <= `FA_ERR_NONE;
					r_done <= 1'b0;
					r_cycles <= 32'd1;
					counting <= 1'b1;
				end
			end else if (counting) begin
				r_cycles <= r_cycles + 32'd1;
			end
			if (f_done || n_done || k_done || kem_done) begin
				r_done <= 1'b1;
				counting <= 1'b0;
			end
			if (kenc_done) begin
				r_done <= 1'b1;
				counting <= 1'b0;
				if (kenc_err != 3'd0) r_err <= `FA_ERR_KEMENC;
			end
			if (fs_done) begin
				r_done <= 1'b1;
				counting <= 1'b0;
				if (fs_err != 3'd0) r_err <= `FA_ERR_FFSAMP;
			end
			if (sz_start)
				sz_busy <= 1'b1;
			if (sz_done) begin
				sz_busy <= 1'b0;
				r_done <= 1'b1;
				counting <= 1'b0;
				if (sz_err != 3'd0) r_err <= `FA_ERR_SAMPLER;
			end

			// ---- stream pointers and output FIFO
			if (s_fire && tgt_szb)
				r_err <= `FA_ERR_ACCESS;    // SZ_BUF is read only
			if (s_fire)
				in_ptr <= (s_axis_tlast || in_ptr + 11'd1 == tgt_words) ? 11'd0 : in_ptr + 11'd1;
			fetch_q <= can_fetch;
			fetch_last_q <= can_fetch && (out_left == 15'd1);
			if (can_fetch) begin
				out_left <= out_left - 15'd1;
				out_ptr <= (out_ptr + 11'd1 == tgt_words) ? 11'd0 : out_ptr + 11'd1;
			end
			if (fetch_q) begin
				fifo_d[fifo_h ^ fifo_n[0]] <= m_rdata;
			end
			fifo_n <= fifo_n + {1'b0, fetch_q} - {1'b0, fifo_pop};
			if (fifo_pop)
				fifo_h <= ~fifo_h;

			// ---- AXI4-Lite
			case (st)
			S_IDLE: begin
				if (s_axil_awvalid && s_axil_wvalid && !s_axil_awready) begin
					s_axil_awready <= 1'b1; s_axil_wready <= 1'b1;
					a_addr <= s_axil_awaddr & 16'hFFFC; a_wdata <= s_axil_wdata;
					st <= S_WEXEC;
				end else if (s_axil_arvalid && !s_axil_arready) begin
					s_axil_arready <= 1'b1;
					a_addr <= s_axil_araddr & 16'hFFFC;
					st <= S_REXEC;
				end
			end
			S_WEXEC: begin
				s_axil_awready <= 1'b0; s_axil_wready <= 1'b0;
				if (is_win) begin
					if (busy || !win_ok) begin
						s_axil_bresp <= SLVERR; r_err <= `FA_ERR_ACCESS;
						s_axil_bvalid <= 1'b1; st <= S_BRESP;
					end else if (port_free) begin
						s_axil_bresp <= OKAY; s_axil_bvalid <= 1'b1; st <= S_BRESP;
					end
				end else begin
					s_axil_bvalid <= 1'b1; st <= S_BRESP;
					if (!reg_wok) begin
						s_axil_bresp <= SLVERR; r_err <= `FA_ERR_ACCESS;
					end else begin
						s_axil_bresp <= OKAY;
						case (a_addr)
						`FA_REG_CTRL: begin
							if (a_wdata[0]) start_req <= 1'b1;
							if (a_wdata[1]) begin r_err <= `FA_ERR_NONE; r_done <= 1'b0; end
						end
						`FA_REG_OP:       r_op <= a_wdata[7:0];
						`FA_REG_LOGN:     r_logn <= a_wdata[3:0];
						`FA_REG_CONST_LO: r_const[31:0] <= a_wdata;
						`FA_REG_CONST_HI: r_const[63:32] <= a_wdata;
						`FA_REG_SZ_KEY0:  r_sz_key[32*0 +: 32] <= a_wdata;
						`FA_REG_SZ_KEY1:  r_sz_key[32*1 +: 32] <= a_wdata;
						`FA_REG_SZ_KEY2:  r_sz_key[32*2 +: 32] <= a_wdata;
						`FA_REG_SZ_KEY3:  r_sz_key[32*3 +: 32] <= a_wdata;
						`FA_REG_SZ_KEY4:  r_sz_key[32*4 +: 32] <= a_wdata;
						`FA_REG_SZ_KEY5:  r_sz_key[32*5 +: 32] <= a_wdata;
						`FA_REG_SZ_KEY6:  r_sz_key[32*6 +: 32] <= a_wdata;
						`FA_REG_SZ_KEY7:  r_sz_key[32*7 +: 32] <= a_wdata;
						`FA_REG_SZ_KEY8:  r_sz_key[32*8 +: 32] <= a_wdata;
						`FA_REG_SZ_KEY9:  r_sz_key[32*9 +: 32] <= a_wdata;
						`FA_REG_SZ_KEY10: r_sz_key[32*10 +: 32] <= a_wdata;
						`FA_REG_SZ_KEY11: r_sz_key[32*11 +: 32] <= a_wdata;
						`FA_REG_SZ_CTR_LO: r_sz_ctr[31:0] <= a_wdata;
						`FA_REG_SZ_CTR_HI: r_sz_ctr[63:32] <= a_wdata;
						`FA_REG_SZ_PTR:   r_sz_ptr <= a_wdata[8:0];
						`FA_REG_SZ_MU_LO: r_sz_mu[31:0] <= a_wdata;
						`FA_REG_SZ_MU_HI: r_sz_mu[63:32] <= a_wdata;
						`FA_REG_SZ_ISIGMA_LO: r_sz_isig[31:0] <= a_wdata;
						`FA_REG_SZ_ISIGMA_HI: r_sz_isig[63:32] <= a_wdata;
						`FA_REG_SZ_SMIN_LO: r_sz_smin[31:0] <= a_wdata;
						`FA_REG_SZ_SMIN_HI: r_sz_smin[63:32] <= a_wdata;
						`FA_REG_SZ_MAX_TRIALS: r_sz_maxt <= a_wdata[7:0];
						`FA_REG_STREAM: begin
							if (target_ok) begin
								r_target <= a_wdata[3:0]; in_ptr <= 11'd0; out_ptr <= 11'd0;
							end else begin
								s_axil_bresp <= SLVERR; r_err <= `FA_ERR_ACCESS;
							end
						end
						`FA_REG_STREAM_OUT: begin
							if (busy) r_err <= `FA_ERR_BUSY;
							else if (tgt_eks || (tgt_szb && !sz_loaded)) begin
								// nothing to read back from the checksum unit
								s_axil_bresp <= SLVERR; r_err <= `FA_ERR_ACCESS;
							end else out_left <= a_wdata[14:0];
						end
						default: ;
						endcase
					end
				end
			end
			S_BRESP: if (s_axil_bready) begin s_axil_bvalid <= 1'b0; st <= S_IDLE; end
			S_REXEC: begin
				s_axil_arready <= 1'b0;
				if (is_win) begin
					if (busy || !win_ok) begin
						s_axil_rresp <= SLVERR; s_axil_rdata <= 32'd0; r_err <= `FA_ERR_ACCESS;
						s_axil_rvalid <= 1'b1; st <= S_RRESP;
					end else if (port_free) begin
						st <= S_RWAIT;
					end
				end else begin
					s_axil_rdata <= reg_rdata;
					s_axil_rresp <= reg_rok ? OKAY : SLVERR;
					if (!reg_rok) r_err <= `FA_ERR_ACCESS;
					if (a_addr == `FA_REG_CLOCK_LO) clk_hi_latch <= clock[63:32];
					s_axil_rvalid <= 1'b1; st <= S_RRESP;
				end
			end
			S_RWAIT: begin
				// the KEMENC block refuses ct/K reads before a result
				s_axil_rdata <= m_rdata; s_axil_rresp <= (m_kenc_q && kenc_herr) ? SLVERR : OKAY;
				if (m_kenc_q && kenc_herr) r_err <= `FA_ERR_ACCESS;
				s_axil_rvalid <= 1'b1; st <= S_RRESP;
			end
			S_RRESP: if (s_axil_rready) begin s_axil_rvalid <= 1'b0; st <= S_IDLE; end
			default: st <= S_IDLE;
			endcase
		end
	end
	always @(posedge aclk)
		if (fetch_q)
			fifo_l[fifo_h ^ fifo_n[0]] <= fetch_last_q;

	// ------------------------------- expanded-key checksum (hw/eksum, always)
	// EKSUM write: seed the lanes; words streamed to target EKSUM update them
	eksum_unit u_eksum (
		.clk_i(aclk), .rst_ni(aresetn),
		.clr_i((st == S_WEXEC) && !is_win && (a_addr == `FA_REG_EKSUM)),
		.logn_i(a_wdata[3:0]),
		.we_i(s_fire && tgt_eks), .wdata_i(s_axis_tdata),
		.lane_sel_i(a_addr[4:2] - 3'd5),     // EKSUM_H0 at 0xB4: (0xB4 >> 2) mod 8 = 5
		.lane_o(eks_lane), .count_o(eks_count));

	// ------------------------------------------- ffSampling engine (FFSAMP)
	// its register writes and STREAM rewinds as decoded in S_WEXEC above
	wire fs_reg_wr = (st == S_WEXEC) && !is_win && reg_wok;
	generate if (FFSAMP != 0) begin : g_ffsamp
		ffsamp_host #(.MAXLOGN(FS_MAXLOGN), .THREADS_LOG2(FS_THREADS_LOG2)) u_ffsamp (
			.clk_i(aclk), .rst_ni(aresetn),
			.tree_sel_i(r_target == `FA_TARGET_FS_TREE),
			.str_rewind_i(fs_reg_wr && (a_addr == `FA_REG_STREAM) && target_ok),
			.str_start_i(a_wdata[30:16]),
			.str_we_i(s_fire && tgt_fs), .str_last_i(s_axis_tlast),
			.str_wdata_i(s_axis_tdata),
			.fetch_i(can_fetch && tgt_fs), .fetch_rdata_o(fs_rdata),
			.reg_we_i(fs_reg_wr), .reg_addr_i(a_addr), .reg_wdata_i(a_wdata),
			.reg_rdata_o(fs_reg_rdata),
			.cmd_start_i(fs_start), .logn_i(r_logn), .sigma_min_i(r_sz_smin),
			.max_trials_i(r_sz_maxt), .prng_loaded_i(sz_loaded),
			.busy_o(fs_busy), .done_o(fs_done), .err_o(fs_err), .cycles_o(),
			.rd_valid_o(fs_rd_valid), .rd_align_o(fs_rd_align),
			.rd_ready_i(fs_rd_ready), .rd_byte_i(fs_rd_byte), .prng_ptr_i(sz_ptr),
			.pk_addr_o(fs_pk_addr), .pk_byte_i(fs_pk_byte), .cm_valid_o(fs_cm_valid),
			.cm_ptr_o(fs_cm_ptr));
	end else begin : g_no_ffsamp
		assign fs_busy = 1'b0; assign fs_done = 1'b0; assign fs_err = 3'd0;
		assign fs_rdata = 32'd0; assign fs_reg_rdata = 32'd0;
		assign fs_rd_valid = 1'b0; assign fs_rd_align = 1'b0;
		assign fs_pk_addr = 9'd0; assign fs_cm_valid = 1'b0; assign fs_cm_ptr = 9'd0;
	end endgenerate

	assign irq = r_done;
endmodule
`default_nettype wire
