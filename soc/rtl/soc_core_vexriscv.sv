// soc_core -- the SoC's CPU: VexRiscv in the RV32IMAC "IMAC" configuration
// that pythondata-cpu-vexriscv ships as VexRiscv_IMAC.v (SpinalHDL-generated
// plain Verilog, read unchanged by Verilator and Yosys alike: 5-stage
// pipeline, single-cycle multiplier, 4 KiB instruction and data caches
// with 32-byte lines, machine mode, Wishbone buses), with each Wishbone bus
// turned into a request/grant/rvalid port of soc_top by soc_wb_obi
// (cache-line refills at one word a cycle after the first).
//
// What the firmware follows (soc/fw):
// - reset enters at boot_addr_i + 0x80; traps go to mtvec (direct mode),
//   which the start-up code sets;
// - addresses with bit 31 set are uncached I/O: the SoC map puts every
//   peripheral and the accelerator there, RAM below;
// - the data cache is write-through (the DMA engine reading RAM sees every
//   store) but not coherent with writes by the DMA engine into RAM: after
//   such a transfer the firmware invalidates the data cache (the custom
//   instruction 0x0000500F, VexRiscv's data-cache flush; for a write-through
//   cache it discards every line);
// - misaligned loads and stores trap (the compiler emits none for C code
//   that does not type-pun).
`default_nettype none
module soc_core (
  input  logic        clk_i,
  input  logic        rst_ni,          // synchronous to clk_i
  input  logic [31:0] boot_addr_i,
  // instruction port (cache-line refills, one word per beat)
  output logic        instr_req_o,
  input  logic        instr_gnt_i,
  input  logic        instr_rvalid_i,
  output logic [31:0] instr_addr_o,
  input  logic [31:0] instr_rdata_i,
  input  logic        instr_err_i,
  // data port
  output logic        data_req_o,
  input  logic        data_gnt_i,
  input  logic        data_rvalid_i,
  output logic        data_we_o,
  output logic [3:0]  data_be_o,
  output logic [31:0] data_addr_o,
  output logic [31:0] data_wdata_o,
  input  logic [31:0] data_rdata_i,
  input  logic        data_err_i
);
  // VexRiscv resets synchronously, active high
  wire reset = !rst_ni;

  logic        i_cyc, i_stb, i_we, i_ack, i_err;
  logic [29:0] i_adr;
  logic [31:0] i_dat_mosi, i_dat_miso;
  logic [3:0]  i_sel;
  logic [2:0]  i_cti, d_cti;
  logic        d_cyc, d_stb, d_we, d_ack, d_err;
  logic [29:0] d_adr;
  logic [31:0] d_dat_mosi, d_dat_miso;
  logic [3:0]  d_sel;

  VexRiscv u_vex (
    .clk                    (clk_i),
    .reset                  (reset),
    .externalResetVector    (boot_addr_i + 32'h80),
    .timerInterrupt         (1'b0),
    .softwareInterrupt      (1'b0),
    .externalInterruptArray (32'd0),
    .iBusWishbone_CYC       (i_cyc),
    .iBusWishbone_STB       (i_stb),
    .iBusWishbone_ACK       (i_ack),
    .iBusWishbone_WE        (i_we),
    .iBusWishbone_ADR       (i_adr),
    .iBusWishbone_DAT_MISO  (i_dat_miso),
    .iBusWishbone_DAT_MOSI  (i_dat_mosi),
    .iBusWishbone_SEL       (i_sel),
    .iBusWishbone_ERR       (i_err),
    .iBusWishbone_CTI       (i_cti),
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
    .dBusWishbone_CTI       (d_cti),
    .dBusWishbone_BTE       ()
  );

  logic        i_we_unused;
  logic [3:0]  i_be_unused;
  logic [31:0] i_wdata_unused;
  soc_wb_obi u_ibus (
    .clk_i, .rst_ni,
    .wb_cyc_i (i_cyc), .wb_stb_i (i_stb), .wb_we_i (i_we), .wb_adr_i (i_adr),
    .wb_dat_i (i_dat_mosi), .wb_sel_i (i_sel), .wb_cti_i (i_cti), .wb_ack_o (i_ack), .wb_err_o (i_err),
    .wb_dat_o (i_dat_miso),
    .req_o (instr_req_o), .gnt_i (instr_gnt_i), .we_o (i_we_unused), .be_o (i_be_unused),
    .addr_o (instr_addr_o), .wdata_o (i_wdata_unused), .rvalid_i (instr_rvalid_i),
    .rdata_i (instr_rdata_i), .err_i (instr_err_i)
  );

  soc_wb_obi u_dbus (
    .clk_i, .rst_ni,
    .wb_cyc_i (d_cyc), .wb_stb_i (d_stb), .wb_we_i (d_we), .wb_adr_i (d_adr),
    .wb_dat_i (d_dat_mosi), .wb_sel_i (d_sel), .wb_cti_i (d_cti), .wb_ack_o (d_ack), .wb_err_o (d_err),
    .wb_dat_o (d_dat_miso),
    .req_o (data_req_o), .gnt_i (data_gnt_i), .we_o (data_we_o), .be_o (data_be_o),
    .addr_o (data_addr_o), .wdata_o (data_wdata_o), .rvalid_i (data_rvalid_i),
    .rdata_i (data_rdata_i), .err_i (data_err_i)
  );

  logic unused;
  assign unused = ^{i_we_unused, i_be_unused, i_wdata_unused};
endmodule
`default_nettype wire
