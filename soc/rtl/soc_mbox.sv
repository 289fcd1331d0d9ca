// soc_mbox -- the host link: doorbell registers and a 64 KiB buffer shared
// by the CPU (bus port) and the host (the harness: the host_* ports and
// the DPI exports soc_mbuf_write / soc_mbuf_read on the buffer).
//   host -> firmware: the host writes the request at buffer offset 0, then
//     pulses host_req_i with host_req_len_i; REQ_STATUS bit 0 rises; the
//     firmware reads REQ_LEN and the request, writes REQ_ACK.
//   firmware -> host: the firmware writes the reply at offset 0x8000,
//     RSP_LEN, then RSP_SEND; host_rsp_valid_o rises until host_rsp_take_i.
`default_nettype none
module soc_mbox import soc_map_pkg::*; (
  input  logic        clk_i,
  input  logic        rst_ni,
  // register port (MBOX region)
  input  logic        reg_req_i,
  input  logic        reg_we_i,
  input  logic [11:0] reg_addr_i,
  input  logic [31:0] reg_wdata_i,
  output logic        reg_rvalid_o,
  output logic [31:0] reg_rdata_o,
  output logic        reg_err_o,
  // buffer port (MBOX_BUF region)
  input  logic        buf_req_i,
  input  logic        buf_we_i,
  input  logic [3:0]  buf_be_i,
  input  logic [15:0] buf_addr_i,
  input  logic [31:0] buf_wdata_i,
  output logic        buf_rvalid_o,
  output logic [31:0] buf_rdata_o,
  // host side
  input  logic        host_req_i,
  input  logic [31:0] host_req_len_i,
  output logic        host_rsp_valid_o,
  output logic [31:0] host_rsp_len_o,
  input  logic        host_rsp_take_i,
  output logic        req_pending_o
);
  localparam int unsigned Words = (MboxBufMask + 1) / 4;
  logic [31:0] mem [Words];
  logic        req_q;
  logic [31:0] req_len_q, rsp_len_q;
  logic        rsp_q;

  assign host_rsp_valid_o = rsp_q;
  assign host_rsp_len_o = rsp_len_q;
  assign req_pending_o = req_q;

  always_ff @(posedge clk_i) begin
    buf_rvalid_o <= buf_req_i;
    if (buf_req_i) begin
      if (buf_we_i) begin
        if (buf_be_i[0]) mem[buf_addr_i[15:2]][7:0]   <= buf_wdata_i[7:0];
        if (buf_be_i[1]) mem[buf_addr_i[15:2]][15:8]  <= buf_wdata_i[15:8];
        if (buf_be_i[2]) mem[buf_addr_i[15:2]][23:16] <= buf_wdata_i[23:16];
        if (buf_be_i[3]) mem[buf_addr_i[15:2]][31:24] <= buf_wdata_i[31:24];
      end else begin
        buf_rdata_o <= mem[buf_addr_i[15:2]];
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      req_q <= 1'b0; req_len_q <= '0; rsp_q <= 1'b0; rsp_len_q <= '0;
      reg_rvalid_o <= 1'b0; reg_rdata_o <= '0; reg_err_o <= 1'b0;
    end else begin
      reg_rvalid_o <= reg_req_i;
      reg_err_o <= 1'b0;
      reg_rdata_o <= '0;
      if (host_req_i) begin
        req_q <= 1'b1;
        req_len_q <= host_req_len_i;
      end
      if (host_rsp_take_i) rsp_q <= 1'b0;
      if (reg_req_i) begin
        unique case ({reg_we_i, reg_addr_i})
          {1'b0, MBOX_REQ_STATUS}: reg_rdata_o <= {31'd0, req_q};
          {1'b0, MBOX_REQ_LEN}:    reg_rdata_o <= req_len_q;
          {1'b1, MBOX_REQ_ACK}:    if (reg_wdata_i[0]) req_q <= 1'b0;
          {1'b0, MBOX_RSP_LEN}:    reg_rdata_o <= rsp_len_q;
          {1'b1, MBOX_RSP_LEN}:    rsp_len_q <= reg_wdata_i;
          {1'b1, MBOX_RSP_SEND}:   if (reg_wdata_i[0]) rsp_q <= 1'b1;
          {1'b0, MBOX_RSP_STATUS}: reg_rdata_o <= {31'd0, rsp_q};
          default: reg_err_o <= 1'b1;
        endcase
      end
    end
  end

`ifdef VERILATOR
  export "DPI-C" function soc_mbuf_write;
  function automatic void soc_mbuf_write(input int unsigned idx, input int unsigned val);
    if (idx < Words) mem[idx[13:0]] = val;
  endfunction
  export "DPI-C" function soc_mbuf_read;
  function automatic int unsigned soc_mbuf_read(input int unsigned idx);
    return idx < Words ? mem[idx[13:0]] : 32'd0;
  endfunction
`endif
endmodule
`default_nettype wire
