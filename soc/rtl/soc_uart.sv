// soc_uart -- console output: a write to TXDATA hands the byte to the
// harness (tx_valid_o / tx_data_o for one cycle). STATUS bit 0 (ready) is
// always 1: the simulated line never back-pressures.
`default_nettype none
module soc_uart import soc_map_pkg::*; (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        req_i,
  input  logic        we_i,
  input  logic [11:0] addr_i,
  input  logic [31:0] wdata_i,
  output logic        rvalid_o,
  output logic [31:0] rdata_o,
  output logic        err_o,
  output logic        tx_valid_o,
  output logic [7:0]  tx_data_o
);
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rvalid_o <= 1'b0; rdata_o <= '0; err_o <= 1'b0;
      tx_valid_o <= 1'b0; tx_data_o <= '0;
    end else begin
      rvalid_o <= req_i;
      err_o <= 1'b0;
      rdata_o <= '0;
      tx_valid_o <= 1'b0;
      if (req_i) begin
        unique case ({we_i, addr_i})
          {1'b1, UART_TXDATA}: begin tx_valid_o <= 1'b1; tx_data_o <= wdata_i[7:0]; end
          {1'b0, UART_STATUS}: rdata_o <= 32'd1;
          default: err_o <= 1'b1;
        endcase
      end
    end
  end
endmodule
`default_nettype wire
