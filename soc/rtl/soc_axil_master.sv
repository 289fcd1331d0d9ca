// soc_axil_master -- one 32-bit access of a request/grant bus master (the
// Ibex data port protocol: req/gnt, then rvalid with rdata/err) turned
// into one AXI4-Lite transaction: AW and W together (the accelerator's
// slave takes them in the same cycle), or AR; then B or R. One
// transaction at a time: gnt_o only while idle. err_o is set on a SLVERR
// or DECERR response.
`default_nettype none
module soc_axil_master #(
  parameter int unsigned AW = 16
) (
  input  logic          clk_i,
  input  logic          rst_ni,
  input  logic          req_i,
  output logic          gnt_o,
  input  logic          we_i,
  input  logic [3:0]    be_i,
  input  logic [AW-1:0] addr_i,
  input  logic [31:0]   wdata_i,
  output logic          rvalid_o,
  output logic [31:0]   rdata_o,
  output logic          err_o,
  output logic          busy_o,
  // AXI4-Lite master
  output logic [AW-1:0] m_awaddr_o,
  output logic          m_awvalid_o,
  input  logic          m_awready_i,
  output logic [31:0]   m_wdata_o,
  output logic [3:0]    m_wstrb_o,
  output logic          m_wvalid_o,
  input  logic          m_wready_i,
  input  logic [1:0]    m_bresp_i,
  input  logic          m_bvalid_i,
  output logic          m_bready_o,
  output logic [AW-1:0] m_araddr_o,
  output logic          m_arvalid_o,
  input  logic          m_arready_i,
  input  logic [31:0]   m_rdata_i,
  input  logic [1:0]    m_rresp_i,
  input  logic          m_rvalid_i,
  output logic          m_rready_o
);
  typedef enum logic [2:0] {Idle, WrAddr, WrResp, RdAddr, RdResp} state_e;
  state_e st_q;

  assign gnt_o = (st_q == Idle);
  assign busy_o = (st_q != Idle);
  assign m_bready_o = (st_q == WrResp);
  assign m_rready_o = (st_q == RdResp);
  assign m_awvalid_o = (st_q == WrAddr);
  assign m_wvalid_o = (st_q == WrAddr);
  assign m_arvalid_o = (st_q == RdAddr);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      st_q <= Idle;
      m_awaddr_o <= '0; m_araddr_o <= '0; m_wdata_o <= '0; m_wstrb_o <= '0;
      rvalid_o <= 1'b0; rdata_o <= '0; err_o <= 1'b0;
    end else begin
      rvalid_o <= 1'b0;
      unique case (st_q)
        Idle: if (req_i) begin
          m_awaddr_o <= addr_i;
          m_araddr_o <= addr_i;
          m_wdata_o <= wdata_i;
          m_wstrb_o <= be_i;
          st_q <= we_i ? WrAddr : RdAddr;
        end
        // the slave raises awready and wready together
        WrAddr: if (m_awready_i && m_wready_i) st_q <= WrResp;
        WrResp: if (m_bvalid_i) begin
          rvalid_o <= 1'b1; rdata_o <= '0; err_o <= m_bresp_i[1];
          st_q <= Idle;
        end
        RdAddr: if (m_arready_i) st_q <= RdResp;
        RdResp: if (m_rvalid_i) begin
          rvalid_o <= 1'b1; rdata_o <= m_rdata_i; err_o <= m_rresp_i[1];
          st_q <= Idle;
        end
        default: st_q <= Idle;
      endcase
    end
  end
endmodule
`default_nettype wire
