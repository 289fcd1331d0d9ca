// soc_wb_obi -- one classic Wishbone master port (VexRiscv's iBus or dBus:
// CYC/STB held until ACK or ERR) onto a request/grant/rvalid port of
// soc_top (a request is taken on req && gnt, its answer comes with rvalid,
// with err on a fault).
//
// One access at a time: req_o is raised while the master holds STB and no
// taken access is awaiting its answer; the answer is returned to the master
// as ACK (or ERR) in the cycle rvalid_i arrives, with the read data passed
// through, when it answers the address the master presents then. A single
// access costs two cycles with one-cycle slaves. In a read burst (cache
// refill: CTI 3'b010, incrementing, the last beat 3'b111) the next word is
// requested in the cycle its predecessor is acknowledged, so the beats
// that follow cost one cycle each; a prefetched answer whose address the
// master does not present is dropped and the master's address requested
// again (RAM reads only: I/O accesses are single, CTI 3'b000).
//
// Address: the byte address {wb_adr_i, 2'b00}, unchanged. The SoC map
// (soc/data/socmap.json) puts RAM below 0x8000_0000 (cached by VexRiscv)
// and every peripheral and the accelerator above (VexRiscv's uncached I/O
// range: bit 31 set).
`default_nettype none
module soc_wb_obi (
  input  logic        clk_i,
  input  logic        rst_ni,
  // Wishbone slave side (from the core)
  input  logic        wb_cyc_i,
  input  logic        wb_stb_i,
  input  logic        wb_we_i,
  input  logic [29:0] wb_adr_i,
  input  logic [31:0] wb_dat_i,
  input  logic [3:0]  wb_sel_i,
  input  logic [2:0]  wb_cti_i,
  output logic        wb_ack_o,
  output logic        wb_err_o,
  output logic [31:0] wb_dat_o,
  // request/grant/rvalid master side (to soc_top)
  output logic        req_o,
  input  logic        gnt_i,
  output logic        we_o,
  output logic [3:0]  be_o,
  output logic [31:0] addr_o,
  output logic [31:0] wdata_o,
  input  logic        rvalid_i,
  input  logic [31:0] rdata_i,
  input  logic        err_i
);
  logic        pend_q;               // an access was granted, its answer is due
  logic [29:0] pend_adr_q;           // the word address it asked for
  wire         stb = wb_cyc_i && wb_stb_i;
  // the answer due now is for the master's current address
  wire         hit = pend_q && rvalid_i && stb && pend_adr_q == wb_adr_i;
  wire         next_pf = hit && !wb_we_i && wb_cti_i == 3'b010;
  wire         fresh = stb && (!pend_q || (rvalid_i && !hit));

  assign req_o   = next_pf || fresh;
  assign addr_o  = {next_pf ? wb_adr_i + 30'd1 : wb_adr_i, 2'b00};
  assign we_o    = wb_we_i && !next_pf;
  assign be_o    = wb_sel_i;
  assign wdata_o = wb_dat_i;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      pend_q <= 1'b0; pend_adr_q <= '0;
    end else if (req_o && gnt_i) begin
      pend_q <= 1'b1; pend_adr_q <= addr_o[31:2];
    end else if (rvalid_i) begin
      pend_q <= 1'b0;
    end
  end

  assign wb_ack_o = hit && !err_i;
  assign wb_err_o = hit && err_i;
  assign wb_dat_o = rdata_i;
endmodule
`default_nettype wire
