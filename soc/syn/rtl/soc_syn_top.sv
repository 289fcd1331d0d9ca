// soc_syn_top -- the SoC for FPGA synthesis: soc_top (core, RAM,
// interconnect, UART, mailbox, DMA, AXI4-Lite bridge) with falcon_accel_top
// on its accelerator port, wired as soc_system.sv wires them, but with the
// accelerator's clock gate as the FPGA's clock-enable buffer
// (soc_syn_clk_gate: BUFGCE on the 7-series, DCCA on the ECP5; the flow
// reads one of the two) instead of soc_system's latch and AND gate.
// Parameters: the accelerator's configuration (lane count P = 2^LP, and
// which optional units it has), the RAM (RAM_KIB; RAM_INIT: a $readmemh
// file with the firmware), whether the host mailbox exists (MBOX) and the
// clock: a configuration of soc/data/configs.json. The host link of a
// board is the UART (uart_tx_o / uart_rx_i to the board's USB-serial
// bridge; strap mbox_link_i = 0: soc/doc/soclink.md, UART link); with
// MBOX = 1 the mailbox ports serve a host bridge of one's own.
`default_nettype none
module soc_syn_top #(
  parameter int unsigned P       = 1,
  parameter int unsigned LP      = 0,
  parameter int unsigned SAMPLER = 0,
  parameter int unsigned KECCAK  = 1,
  parameter int unsigned FFSAMP  = 0,
  parameter int unsigned MLKEM   = 0,
  parameter int unsigned KEMENC  = 0,
  parameter int unsigned RAM_KIB = 256,
  parameter int unsigned MBOX    = 0,
  parameter              RAM_INIT = "",
  // clk_i in Hz: the firmware sets the UART's bit time from it (SOCCTL.CLK_HZ,
  // soc/doc/soclink.md UART link); set it to the board's SoC clock
  parameter int unsigned CLK_HZ  = 50000000
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        host_req_i,
  input  logic [31:0] host_req_len_i,
  output logic        host_rsp_valid_o,
  output logic [31:0] host_rsp_len_o,
  input  logic        host_rsp_take_i,
  output logic        uart_tx_o,
  input  logic        uart_rx_i,
  output logic        core_sleep_o,
  output logic        double_fault_o
);
  logic        en, acc_clk, acc_rst_n, irq;
  logic [15:0] awaddr, araddr;
  logic        awvalid, awready, wvalid, wready, bvalid, bready, arvalid, arready, rvalid, rready;
  logic [31:0] wdata, rdata, s_tdata, m_tdata;
  logic [3:0]  wstrb;
  logic [1:0]  bresp, rresp;
  logic        s_tvalid, s_tready, s_tlast, m_tvalid, m_tready, m_tlast;

  soc_top #(.P(P), .ClkHz(CLK_HZ), .RamKib(RAM_KIB), .Mbox(MBOX), .RamInit(RAM_INIT)) u_soc (
    .clk_i, .rst_ni, .acc_clk_en_o (en), .acc_rst_no (acc_rst_n),
    .m_axil_awaddr_o (awaddr), .m_axil_awvalid_o (awvalid), .m_axil_awready_i (awready),
    .m_axil_wdata_o (wdata), .m_axil_wstrb_o (wstrb), .m_axil_wvalid_o (wvalid),
    .m_axil_wready_i (wready), .m_axil_bresp_i (bresp), .m_axil_bvalid_i (bvalid),
    .m_axil_bready_o (bready), .m_axil_araddr_o (araddr), .m_axil_arvalid_o (arvalid),
    .m_axil_arready_i (arready), .m_axil_rdata_i (rdata), .m_axil_rresp_i (rresp),
    .m_axil_rvalid_i (rvalid), .m_axil_rready_o (rready),
    .acc_s_axis_tdata_o (s_tdata), .acc_s_axis_tvalid_o (s_tvalid),
    .acc_s_axis_tready_i (s_tready), .acc_s_axis_tlast_o (s_tlast),
    .acc_m_axis_tdata_i (m_tdata), .acc_m_axis_tvalid_i (m_tvalid),
    .acc_m_axis_tready_o (m_tready), .acc_irq_i (irq),
    .host_req_i, .host_req_len_i, .host_rsp_valid_o, .host_rsp_len_o, .host_rsp_take_i,
    .mbox_link_i (1'b0), .uart_tx_o, .uart_rx_i, .core_sleep_o, .double_fault_o
  );

  soc_syn_clk_gate u_acc_clk_gate (.clk_i, .en_i (en), .clk_o (acc_clk));

  falcon_accel_top #(.P(P), .LP(LP), .SAMPLER(SAMPLER), .KECCAK(KECCAK), .FFSAMP(FFSAMP),
    .MLKEM(MLKEM), .KEMENC(KEMENC)) u_accel (
    .aclk (acc_clk), .aresetn (acc_rst_n),
    .s_axil_awaddr (awaddr), .s_axil_awvalid (awvalid), .s_axil_awready (awready),
    .s_axil_wdata (wdata), .s_axil_wstrb (wstrb), .s_axil_wvalid (wvalid), .s_axil_wready (wready),
    .s_axil_bresp (bresp), .s_axil_bvalid (bvalid), .s_axil_bready (bready),
    .s_axil_araddr (araddr), .s_axil_arvalid (arvalid), .s_axil_arready (arready),
    .s_axil_rdata (rdata), .s_axil_rresp (rresp), .s_axil_rvalid (rvalid), .s_axil_rready (rready),
    .s_axis_tdata (s_tdata), .s_axis_tvalid (s_tvalid), .s_axis_tready (s_tready), .s_axis_tlast (s_tlast),
    .m_axis_tdata (m_tdata), .m_axis_tvalid (m_tvalid), .m_axis_tready (m_tready), .m_axis_tlast (m_tlast),
    .irq (irq)
  );

  logic unused;
  assign unused = m_tlast;
endmodule
`default_nettype wire
