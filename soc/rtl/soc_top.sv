// soc_top -- the falcon-accel SoC around its accelerator port: the
// VexRiscv RV32IMAC core with 4 KiB instruction and data caches
// (soc_core, soc_core_vexriscv.sv), RamKib KiB of RAM (one port, one cycle,
// shared by the DMA engine, the data bus and the instruction bus in that
// order of priority), a UART (the console, and the host link on a board),
// optionally the host mailbox (Mbox = 1: the simulation's fast host link),
// the DMA engine, and the
// port to falcon_accel_top (AXI4-Lite master soc_axil_master, AXI-Stream
// on the DMA engine, a clock enable). soc_system.sv puts the two
// together with a clock gate; the simulation harness runs the
// accelerator as a second Verilated model on the same port, clocked only
// while enabled. Address map: soc_map_pkg (soc/data/socmap.json).
//
// Data bus: one transaction at a time (soc_wb_obi never has two
// outstanding); one-cycle slaves answer the cycle after the grant, the
// accelerator when its AXI response arrives. The DMA engine has priority
// on the RAM data port and on the accelerator's AXI4-Lite port.
// Unmapped addresses answer with an error (an access fault in the core).
`default_nettype none
module soc_top import soc_map_pkg::*; #(
  parameter int unsigned P      = 4,    // accelerator lanes (SOCCTL.CONFIG)
  parameter int unsigned ClkHz  = 0,    // clk_i in Hz (SOCCTL.CLK_HZ; 0: simulation)
  // RAM in KiB, a power of two no larger than the map's RAM region
  parameter int unsigned RamKib = (RamMask + 1) / 1024,
  parameter int unsigned Mbox   = 1,    // 1: the host mailbox (MBOX, MBOX_BUF) exists
  parameter              RamInit = ""   // soc_ram InitFile (a bitstream's firmware)
) (
  input  logic        clk_i,
  input  logic        rst_ni,          // asynchronous assert, synchronised release
  // accelerator port (falcon_accel_top, instantiated beside the SoC by
  // soc_system, or a separate model in simulation): its clock enable and
  // reset, AXI4-Lite master, AXI-Stream to and from it, its IRQ (DONE)
  output logic        acc_clk_en_o,
  output logic        acc_rst_no,
  output logic [15:0] m_axil_awaddr_o,
  output logic        m_axil_awvalid_o,
  input  logic        m_axil_awready_i,
  output logic [31:0] m_axil_wdata_o,
  output logic [3:0]  m_axil_wstrb_o,
  output logic        m_axil_wvalid_o,
  input  logic        m_axil_wready_i,
  input  logic [1:0]  m_axil_bresp_i,
  input  logic        m_axil_bvalid_i,
  output logic        m_axil_bready_o,
  output logic [15:0] m_axil_araddr_o,
  output logic        m_axil_arvalid_o,
  input  logic        m_axil_arready_i,
  input  logic [31:0] m_axil_rdata_i,
  input  logic [1:0]  m_axil_rresp_i,
  input  logic        m_axil_rvalid_i,
  output logic        m_axil_rready_o,
  output logic [31:0] acc_s_axis_tdata_o,
  output logic        acc_s_axis_tvalid_o,
  input  logic        acc_s_axis_tready_i,
  output logic        acc_s_axis_tlast_o,
  input  logic [31:0] acc_m_axis_tdata_i,
  input  logic        acc_m_axis_tvalid_i,
  output logic        acc_m_axis_tready_o,
  input  logic        acc_irq_i,
  // host mailbox (the simulation harness's host link)
  input  logic        host_req_i,
  input  logic [31:0] host_req_len_i,
  output logic        host_rsp_valid_o,
  output logic [31:0] host_rsp_len_o,
  input  logic        host_rsp_take_i,
  // strap: 1 = the host link is the mailbox, 0 = the UART (SOCCTL.CONFIG)
  input  logic        mbox_link_i,
  // UART (8N1; idle high)
  output logic        uart_tx_o,
  input  logic        uart_rx_i,
  // core state (for the harness)
  output logic        core_sleep_o,
  output logic        double_fault_o
);
  // ------------------------------------------------------------- reset
  // Two-flop synchroniser: asserts with rst_ni, releases on clk_i. Also
  // the accelerator's (synchronous, active-low) reset.
  logic [1:0] rst_sync_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) rst_sync_q <= 2'b00;
    else rst_sync_q <= {rst_sync_q[0], 1'b1};
  end
  wire rst_n = rst_sync_q[1];
  assign acc_rst_no = rst_n;

  // ------------------------------------------------------------------ core
  logic        instr_req, instr_gnt, instr_rvalid, instr_err;
  logic [31:0] instr_addr, instr_rdata;
  logic        data_req, data_gnt, data_rvalid, data_we, data_err;
  logic [3:0]  data_be;
  logic [31:0] data_addr, data_wdata, data_rdata;

  soc_core u_core (
    .clk_i, .rst_ni (rst_n),
    .boot_addr_i    (BootAddr),
    .instr_req_o    (instr_req),
    .instr_gnt_i    (instr_gnt),
    .instr_rvalid_i (instr_rvalid),
    .instr_addr_o   (instr_addr),
    .instr_rdata_i  (instr_rdata),
    .instr_err_i    (instr_err),
    .data_req_o     (data_req),
    .data_gnt_i     (data_gnt),
    .data_rvalid_i  (data_rvalid),
    .data_we_o      (data_we),
    .data_be_o      (data_be),
    .data_addr_o    (data_addr),
    .data_wdata_o   (data_wdata),
    .data_rdata_i   (data_rdata),
    .data_err_i     (data_err)
  );
  // (no sleep or double-fault signal on this core)
  assign core_sleep_o = 1'b0;
  assign double_fault_o = 1'b0;

  // --------------------------------------------------------------- decode
  typedef enum logic [2:0] {SelNone, SelRam, SelUart, SelMbox, SelDma, SelCtl, SelMbuf, SelAcc} sel_e;
  // (assignments to the function name, not `return`: Yosys' SystemVerilog
  // reader, used by soc/syn, has no return statement)
  localparam logic [31:0] RamSizeMask = RamKib * 1024 - 1;
  function automatic sel_e decode(input logic [31:0] a);
    if ((a & ~RamSizeMask) == RamBase)          decode = SelRam;
    else if ((a & ~UartMask) == UartBase)       decode = SelUart;
    else if (Mbox != 0 && (a & ~MboxMask) == MboxBase) decode = SelMbox;
    else if ((a & ~DmaMask) == DmaBase)         decode = SelDma;
    else if ((a & ~SocctlMask) == SocctlBase)   decode = SelCtl;
    else if (Mbox != 0 && (a & ~MboxBufMask) == MboxBufBase) decode = SelMbuf;
    else if ((a & ~AccelMask) == AccelBase)     decode = SelAcc;
    else                                        decode = SelNone;
  endfunction

  sel_e        d_sel, rsp_sel_q;
  logic        pend_q;                 // a granted data access awaits rvalid
  assign d_sel = decode(data_addr);

  // slave responses
  logic        uart_rvalid, mbox_rvalid, dma_rvalid, mbuf_rvalid, acc_rvalid;
  logic [31:0] uart_rdata, mbox_rdata, dma_rdata, mbuf_rdata, acc_rdata;
  logic        uart_err, mbox_err, dma_err, acc_err;
  logic        ctl_rvalid_q, ctl_err_q, none_rvalid_q;
  logic [31:0] ctl_rdata_q;

  // DMA priority
  logic        dma_ram_req, dma_ram_we, dma_acc_req, dma_busy;
  logic [31:0] dma_ram_addr, dma_ram_wdata, dma_acc_wdata;
  logic [15:0] dma_acc_addr;
  typedef enum logic [1:0] {RamByDma, RamByData, RamByInstr} ram_owner_e;
  ram_owner_e  ram_owner_q;            // whose request the RAM answers this cycle
  logic        ram_rvalid;
  logic [31:0] ram_rdata;

  // the accelerator port (shared by the CPU and the DMA engine)
  logic        acc_gnt, acc_owner_dma_q, acc_busy;
  wire         cpu_acc_req = data_req && (d_sel == SelAcc) && !dma_acc_req;

  always_comb begin
    data_rvalid = 1'b0;
    data_rdata = '0;
    data_err = 1'b0;
    if (pend_q) begin
      unique case (rsp_sel_q)
        SelRam:  begin data_rvalid = ram_rvalid && ram_owner_q == RamByData; data_rdata = ram_rdata; end
        SelUart: begin data_rvalid = uart_rvalid; data_rdata = uart_rdata; data_err = uart_err; end
        SelMbox: begin data_rvalid = mbox_rvalid; data_rdata = mbox_rdata; data_err = mbox_err; end
        SelDma:  begin data_rvalid = dma_rvalid; data_rdata = dma_rdata; data_err = dma_err; end
        SelCtl:  begin data_rvalid = ctl_rvalid_q; data_rdata = ctl_rdata_q; data_err = ctl_err_q; end
        SelMbuf: begin data_rvalid = mbuf_rvalid; data_rdata = mbuf_rdata; end
        SelAcc:  begin data_rvalid = acc_rvalid && !acc_owner_dma_q; data_rdata = acc_rdata; data_err = acc_err; end
        default: begin data_rvalid = none_rvalid_q; data_err = 1'b1; end
      endcase
    end
  end

  // a new access is granted when none is pending (or the pending one
  // completes this cycle) and its slave can take it
  wire free = !pend_q || data_rvalid;
  always_comb begin
    unique case (d_sel)
      SelRam:  data_gnt = data_req && free && !dma_ram_req;
      SelAcc:  data_gnt = cpu_acc_req && free && acc_gnt;
      default: data_gnt = data_req && free;
    endcase
  end
  wire g = data_req && data_gnt;

  always_ff @(posedge clk_i or negedge rst_n) begin
    if (!rst_n) begin
      pend_q <= 1'b0; rsp_sel_q <= SelNone; none_rvalid_q <= 1'b0;
    end else begin
      if (g) begin
        pend_q <= 1'b1; rsp_sel_q <= d_sel;
      end else if (data_rvalid) begin
        pend_q <= 1'b0;
      end
      none_rvalid_q <= g && (d_sel == SelNone);
    end
  end

  // ------------------------------------------------------------------ RAM
  // One port: the DMA engine first, then a granted data access, then an
  // instruction fetch (VexRiscv's cache refills). A fetch outside the RAM
  // is answered the next cycle with an error.
  wire         d_ram = g && d_sel == SelRam;
  wire         i_ok = (instr_addr & ~RamSizeMask) == RamBase;
  wire         i_ram = instr_req && i_ok && !dma_ram_req && !d_ram;
  logic        i_err_q;
  assign instr_gnt = instr_req && (!i_ok || i_ram);
  always_ff @(posedge clk_i or negedge rst_n) begin
    if (!rst_n) begin
      i_err_q <= 1'b0; ram_owner_q <= RamByDma;
    end else begin
      i_err_q <= instr_req && !i_ok;
      ram_owner_q <= dma_ram_req ? RamByDma : d_ram ? RamByData : RamByInstr;
    end
  end
  assign instr_rvalid = (ram_rvalid && ram_owner_q == RamByInstr) || i_err_q;
  assign instr_rdata = ram_rdata;
  assign instr_err = i_err_q;

  soc_ram #(.Words(RamKib * 256), .InitFile(RamInit)) u_ram (
    .clk_i,
    .req_i    (dma_ram_req || d_ram || i_ram),
    .we_i     (dma_ram_req ? dma_ram_we : d_ram && data_we),
    .be_i     (dma_ram_req ? 4'hF : data_be),
    .addr_i   (dma_ram_req ? dma_ram_addr : d_ram ? data_addr : instr_addr),
    .wdata_i  (dma_ram_req ? dma_ram_wdata : data_wdata),
    .rvalid_o (ram_rvalid),
    .rdata_o  (ram_rdata)
  );

  // ----------------------------------------------------------- peripherals
  soc_uart u_uart (
    .clk_i, .rst_ni (rst_n),
    .req_i (g && d_sel == SelUart), .we_i (data_we), .addr_i (data_addr[11:0]),
    .wdata_i (data_wdata), .rvalid_o (uart_rvalid), .rdata_o (uart_rdata), .err_o (uart_err),
    .uart_tx_o, .uart_rx_i
  );

  if (Mbox != 0) begin : g_mbox
    soc_mbox u_mbox (
      .clk_i, .rst_ni (rst_n),
      .reg_req_i (g && d_sel == SelMbox), .reg_we_i (data_we), .reg_addr_i (data_addr[11:0]),
      .reg_wdata_i (data_wdata), .reg_rvalid_o (mbox_rvalid), .reg_rdata_o (mbox_rdata),
      .reg_err_o (mbox_err),
      .buf_req_i (g && d_sel == SelMbuf), .buf_we_i (data_we), .buf_be_i (data_be),
      .buf_addr_i (data_addr[15:0]), .buf_wdata_i (data_wdata), .buf_rvalid_o (mbuf_rvalid),
      .buf_rdata_o (mbuf_rdata),
      .host_req_i, .host_req_len_i, .host_rsp_valid_o, .host_rsp_len_o, .host_rsp_take_i,
      .req_pending_o ()
    );
  end else begin : g_no_mbox
    // (decode never selects MBOX or MBOX_BUF: those addresses fault)
    assign mbox_rvalid = 1'b0; assign mbox_rdata = '0; assign mbox_err = 1'b0;
    assign mbuf_rvalid = 1'b0; assign mbuf_rdata = '0;
    assign host_rsp_valid_o = 1'b0; assign host_rsp_len_o = '0;
  end

  // ----------------------------------------------------------- accelerator
  logic [15:0] awaddr, araddr;
  logic        awvalid, awready, wvalid, wready, bvalid, bready, arvalid, arready, rvalid, rready;
  logic [31:0] wdata, rdata;
  logic [3:0]  wstrb;
  logic [1:0]  bresp, rresp;
  logic [31:0] s_tdata, m_tdata;
  logic        s_tvalid, s_tready, s_tlast, m_tvalid, m_tready, m_tlast;

  // DMA register accesses win the port when both ask in the same cycle
  wire         acc_req = dma_acc_req || cpu_acc_req;
  always_ff @(posedge clk_i or negedge rst_n) begin
    if (!rst_n) acc_owner_dma_q <= 1'b0;
    else if (acc_req && acc_gnt) acc_owner_dma_q <= dma_acc_req;
  end

  soc_axil_master #(.AW(16)) u_acc_master (
    .clk_i, .rst_ni (rst_n),
    .req_i    (acc_req),
    .gnt_o    (acc_gnt),
    .we_i     (dma_acc_req ? 1'b1 : data_we),
    .be_i     (dma_acc_req ? 4'hF : data_be),
    .addr_i   (dma_acc_req ? dma_acc_addr : data_addr[15:0]),
    .wdata_i  (dma_acc_req ? dma_acc_wdata : data_wdata),
    .rvalid_o (acc_rvalid),
    .rdata_o  (acc_rdata),
    .err_o    (acc_err),
    .busy_o   (acc_busy),
    .m_awaddr_o (awaddr), .m_awvalid_o (awvalid), .m_awready_i (awready),
    .m_wdata_o (wdata), .m_wstrb_o (wstrb), .m_wvalid_o (wvalid), .m_wready_i (wready),
    .m_bresp_i (bresp), .m_bvalid_i (bvalid), .m_bready_o (bready),
    .m_araddr_o (araddr), .m_arvalid_o (arvalid), .m_arready_i (arready),
    .m_rdata_i (rdata), .m_rresp_i (rresp), .m_rvalid_i (rvalid), .m_rready_o (rready)
  );

  // Clock enable of the accelerator: its clock runs while it has work (an
  // AXI transaction, a DMA transfer, or an operation started by a CTRL
  // write and not yet seen finished: DONE (irq) rising or a STATUS read
  // with BUSY = 0), and during reset. acc_clk_en_o is a function of
  // registers only; the clock source applies it to the next rising edge
  // (a latch clock gate in soc_system, a BUFGCE on an FPGA; the
  // simulation harness clocks the accelerator model only then). An idle accelerator
  // does not change state, so gating changes no result and no SoC cycle
  // count; it saves power, and simulation time (the accelerator's wide
  // datapaths are most of the model's evaluation cost). The accelerator's
  // free-running CLOCK register counts enabled cycles only; CYCLES (start
  // to completion) is exact.
  logic        acc_run_q, irq, irq_q;
  wire         ctrl_wr = awvalid && awready && (awaddr == 16'h0008);
  wire         status_idle_rd = rvalid && rready && (araddr == 16'h000C) && !rdata[0];
  always_ff @(posedge clk_i or negedge rst_n) begin
    if (!rst_n) begin
      acc_run_q <= 1'b0; irq_q <= 1'b0;
    end else begin
      irq_q <= irq;
      if (ctrl_wr) acc_run_q <= 1'b1;
      else if ((irq && !irq_q) || status_idle_rd) acc_run_q <= 1'b0;
    end
  end
  assign acc_clk_en_o = !rst_n || acc_run_q || acc_busy || dma_busy || ctrl_wr;

  // the accelerator port
  assign m_axil_awaddr_o = awaddr;   assign m_axil_awvalid_o = awvalid;  assign awready = m_axil_awready_i;
  assign m_axil_wdata_o = wdata;     assign m_axil_wstrb_o = wstrb;      assign m_axil_wvalid_o = wvalid;
  assign wready = m_axil_wready_i;   assign bresp = m_axil_bresp_i;      assign bvalid = m_axil_bvalid_i;
  assign m_axil_bready_o = bready;   assign m_axil_araddr_o = araddr;    assign m_axil_arvalid_o = arvalid;
  assign arready = m_axil_arready_i; assign rdata = m_axil_rdata_i;      assign rresp = m_axil_rresp_i;
  assign rvalid = m_axil_rvalid_i;   assign m_axil_rready_o = rready;
  assign acc_s_axis_tdata_o = s_tdata; assign acc_s_axis_tvalid_o = s_tvalid; assign acc_s_axis_tlast_o = s_tlast;
  assign s_tready = acc_s_axis_tready_i;
  assign m_tdata = acc_m_axis_tdata_i; assign m_tvalid = acc_m_axis_tvalid_i; assign acc_m_axis_tready_o = m_tready;
  assign irq = acc_irq_i;
  assign m_tlast = 1'b0;

  soc_dma u_dma (
    .clk_i, .rst_ni (rst_n),
    .reg_req_i (g && d_sel == SelDma), .reg_we_i (data_we), .reg_addr_i (data_addr[11:0]),
    .reg_wdata_i (data_wdata), .reg_rvalid_o (dma_rvalid), .reg_rdata_o (dma_rdata),
    .reg_err_o (dma_err),
    .ram_req_o (dma_ram_req), .ram_we_o (dma_ram_we), .ram_addr_o (dma_ram_addr),
    .ram_wdata_o (dma_ram_wdata), .ram_rvalid_i (ram_rvalid && ram_owner_q == RamByDma), .ram_rdata_i (ram_rdata),
    .acc_req_o (dma_acc_req), .acc_gnt_i (acc_gnt), .acc_addr_o (dma_acc_addr),
    .acc_wdata_o (dma_acc_wdata), .acc_rvalid_i (acc_rvalid && acc_owner_dma_q),
    .acc_err_i (acc_err),
    .s_axis_tdata_o (s_tdata), .s_axis_tvalid_o (s_tvalid), .s_axis_tready_i (s_tready),
    .s_axis_tlast_o (s_tlast), .m_axis_tdata_i (m_tdata), .m_axis_tvalid_i (m_tvalid),
    .m_axis_tready_o (m_tready), .busy_o (dma_busy)
  );

  // ----------------------------------------------------- SoC control block
  logic [31:0] acc_bus_cyc_q, dma_cyc_q;
  always_ff @(posedge clk_i or negedge rst_n) begin
    if (!rst_n) begin
      acc_bus_cyc_q <= '0; dma_cyc_q <= '0;
      ctl_rvalid_q <= 1'b0; ctl_rdata_q <= '0; ctl_err_q <= 1'b0;
    end else begin
      if (pend_q && rsp_sel_q == SelAcc) acc_bus_cyc_q <= acc_bus_cyc_q + 32'd1;
      if (dma_busy) dma_cyc_q <= dma_cyc_q + 32'd1;
      ctl_rvalid_q <= g && d_sel == SelCtl;
      ctl_err_q <= 1'b0;
      ctl_rdata_q <= '0;
      if (g && d_sel == SelCtl) begin
        unique case ({data_we, data_addr[11:0]})
          {1'b0, SOCCTL_ID}:             ctl_rdata_q <= SOCCTL_ID_VALUE;
          {1'b0, SOCCTL_CONFIG}:         ctl_rdata_q <= {14'd0, mbox_link_i && Mbox != 0, 1'b1, SocMapVersion[7:0], P[7:0]};
          {1'b0, SOCCTL_ACC_BUS_CYCLES}: ctl_rdata_q <= acc_bus_cyc_q;
          {1'b0, SOCCTL_DMA_CYCLES}:     ctl_rdata_q <= dma_cyc_q;
          {1'b0, SOCCTL_CLK_HZ}:         ctl_rdata_q <= ClkHz;
          default: ctl_err_q <= 1'b1;
        endcase
      end
    end
  end

  logic unused;
  assign unused = ^{m_tlast, host_req_i, host_req_len_i, host_rsp_take_i};
endmodule
`default_nettype wire
