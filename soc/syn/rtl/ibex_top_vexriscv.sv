// ibex_top (synthesis stand-in) -- a module with the name, parameters and
// ports through which soc_top.sv instantiates its Ibex core, built around
// VexRiscv instead: the RV32IMAC "IMAC" configuration that
// pythondata-cpu-vexriscv ships as VexRiscv_IMAC.v (SpinalHDL-generated
// plain Verilog: 5-stage pipeline, single-cycle multiplier, 4 KiB
// instruction and data caches, Wishbone buses). Yosys' read_verilog -sv
// cannot parse Ibex (soc/doc/SYNTH.md lists what fails), so the synthesised
// SoC differs from the simulated one in its core; everything else (RAM,
// interconnect, UART, mailbox, DMA, AXI4-Lite bridge, accelerator) is the
// same RTL. Synthesis only.
//
// Differences a firmware for this core would have to follow: it starts at
// boot_addr_i + 0x80 like Ibex, but reaches the peripherals and the
// accelerator at soc_map + 0x8000_0000 (soc_syn_wb_obi: VexRiscv caches
// everything below 0x8000_0000), and DMA writes to RAM are not seen by the
// data cache (no coherence; the firmware would have to invalidate).
// The Ibex configuration parameters are accepted and not used.
`default_nettype none
module ibex_top #(
  // (plain integers: Yosys takes no enum-typed parameters)
  parameter int          RV32M           = ibex_pkg::RV32MFast,
  parameter int          RV32B           = ibex_pkg::RV32BNone,
  parameter int          RegFile         = ibex_pkg::RegFileFF,
  parameter int          BranchTargetALU = 0,
  parameter int          WritebackStage  = 0,
  parameter int          ICache          = 0,
  parameter int unsigned MHPMCounterNum  = 0
) (
  input  logic                         clk_i,
  input  logic                         rst_ni,
  input  logic                         test_en_i,
  input  logic [9:0]                   ram_cfg_i,
  input  logic [31:0]                  hart_id_i,
  input  logic [31:0]                  boot_addr_i,
  output logic                         instr_req_o,
  input  logic                         instr_gnt_i,
  input  logic                         instr_rvalid_i,
  output logic [31:0]                  instr_addr_o,
  input  logic [31:0]                  instr_rdata_i,
  input  logic [6:0]                   instr_rdata_intg_i,
  input  logic                         instr_err_i,
  output logic                         data_req_o,
  input  logic                         data_gnt_i,
  input  logic                         data_rvalid_i,
  output logic                         data_we_o,
  output logic [3:0]                   data_be_o,
  output logic [31:0]                  data_addr_o,
  output logic [31:0]                  data_wdata_o,
  output logic [6:0]                   data_wdata_intg_o,
  input  logic [31:0]                  data_rdata_i,
  input  logic [6:0]                   data_rdata_intg_i,
  input  logic                         data_err_i,
  input  logic                         irq_software_i,
  input  logic                         irq_timer_i,
  input  logic                         irq_external_i,
  input  logic [14:0]                  irq_fast_i,
  input  logic                         irq_nm_i,
  input  logic                         scramble_key_valid_i,
  input  logic [ibex_pkg::SCRAMBLE_KEY_W-1:0]  scramble_key_i,
  input  logic [ibex_pkg::SCRAMBLE_NONCE_W-1:0]  scramble_nonce_i,
  output logic                         scramble_req_o,
  input  logic                         debug_req_i,
  output logic [159:0]                 crash_dump_o,
  output logic                         double_fault_seen_o,
  input  logic [3:0]                   fetch_enable_i,
  output logic                         alert_minor_o,
  output logic                         alert_major_internal_o,
  output logic                         alert_major_bus_o,
  output logic                         core_sleep_o,
  input  logic                         scan_rst_ni
);
  // VexRiscv resets synchronously, active high; rst_ni is soc_top's
  // synchronised reset
  wire reset = !rst_ni;

  logic        i_cyc, i_stb, i_we, i_ack, i_err;
  logic [29:0] i_adr;
  logic [31:0] i_dat_mosi, i_dat_miso;
  logic [3:0]  i_sel;
  logic        d_cyc, d_stb, d_we, d_ack, d_err;
  logic [29:0] d_adr;
  logic [31:0] d_dat_mosi, d_dat_miso;
  logic [3:0]  d_sel;

  VexRiscv u_vex (
    .clk                    (clk_i),
    .reset                  (reset),
    .externalResetVector    (boot_addr_i + 32'h80),
    .timerInterrupt         (irq_timer_i),
    .softwareInterrupt      (irq_software_i),
    .externalInterruptArray ({31'd0, irq_external_i}),
    .iBusWishbone_CYC       (i_cyc),
    .iBusWishbone_STB       (i_stb),
    .iBusWishbone_ACK       (i_ack),
    .iBusWishbone_WE        (i_we),
    .iBusWishbone_ADR       (i_adr),
    .iBusWishbone_DAT_MISO  (i_dat_miso),
    .iBusWishbone_DAT_MOSI  (i_dat_mosi),
    .iBusWishbone_SEL       (i_sel),
    .iBusWishbone_ERR       (i_err),
    .iBusWishbone_CTI       (),
    .iBusWishbone_BTE       (),
    .dBusWishbone_CYC       (d_cyc),
    .dBusWishbone_STB       (d_stb),
    .dBusWishbone_ACK       (d_ack),
    .dBusWishbone_WE        (d_we),
    .dBusWishbone_ADR       (d_adr),
    .dBusWishbone_DAT_MISO  (d_dat_miso),
    .dBusWishbone_DAT_MOSI  (d_dat_mosi),
    .dBusWishbone_SEL       (d_sel),
    .dBusWishbone_ERR       (d_err),
    .dBusWishbone_CTI       (),
    .dBusWishbone_BTE       ()
  );

  logic        i_we_unused;
  logic [3:0]  i_be_unused;
  logic [31:0] i_wdata_unused;
  soc_syn_wb_obi u_ibus (
    .clk_i, .rst_ni,
    .wb_cyc_i (i_cyc), .wb_stb_i (i_stb), .wb_we_i (i_we), .wb_adr_i (i_adr),
    .wb_dat_i (i_dat_mosi), .wb_sel_i (i_sel), .wb_ack_o (i_ack), .wb_err_o (i_err),
    .wb_dat_o (i_dat_miso),
    .req_o (instr_req_o), .gnt_i (instr_gnt_i), .we_o (i_we_unused), .be_o (i_be_unused),
    .addr_o (instr_addr_o), .wdata_o (i_wdata_unused), .rvalid_i (instr_rvalid_i),
    .rdata_i (instr_rdata_i), .err_i (instr_err_i)
  );

  soc_syn_wb_obi u_dbus (
    .clk_i, .rst_ni,
    .wb_cyc_i (d_cyc), .wb_stb_i (d_stb), .wb_we_i (d_we), .wb_adr_i (d_adr),
    .wb_dat_i (d_dat_mosi), .wb_sel_i (d_sel), .wb_ack_o (d_ack), .wb_err_o (d_err),
    .wb_dat_o (d_dat_miso),
    .req_o (data_req_o), .gnt_i (data_gnt_i), .we_o (data_we_o), .be_o (data_be_o),
    .addr_o (data_addr_o), .wdata_o (data_wdata_o), .rvalid_i (data_rvalid_i),
    .rdata_i (data_rdata_i), .err_i (data_err_i)
  );

  assign data_wdata_intg_o      = '0;
  assign scramble_req_o         = 1'b0;
  assign crash_dump_o           = '0;
  assign double_fault_seen_o    = 1'b0;
  assign alert_minor_o          = 1'b0;
  assign alert_major_internal_o = 1'b0;
  assign alert_major_bus_o      = 1'b0;
  assign core_sleep_o           = 1'b0;

  logic unused;
  assign unused = ^{test_en_i, ram_cfg_i, hart_id_i, instr_rdata_intg_i, data_rdata_intg_i,
                    irq_fast_i, irq_nm_i, scramble_key_valid_i, scramble_key_i,
                    scramble_nonce_i, debug_req_i, fetch_enable_i, scan_rst_ni,
                    i_we_unused, i_be_unused, i_wdata_unused};
endmodule
`default_nettype wire
