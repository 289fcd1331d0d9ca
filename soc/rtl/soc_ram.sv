// soc_ram -- the SoC's main memory: one instruction read port and one data
// read/write port (byte enables), both answering one cycle after the
// request (rvalid_o registered), like a true dual-port block RAM. In
// simulation the harness loads the firmware image through the DPI export
// soc_ram_load (word index, value) before reset is released.
`default_nettype none
module soc_ram #(
  parameter int unsigned Words = 262144
) (
  input  logic        clk_i,
  // instruction port (read only)
  input  logic        i_req_i,
  input  logic [31:0] i_addr_i,
  output logic        i_rvalid_o,
  output logic [31:0] i_rdata_o,
  // data port
  input  logic        d_req_i,
  input  logic        d_we_i,
  input  logic [3:0]  d_be_i,
  input  logic [31:0] d_addr_i,
  input  logic [31:0] d_wdata_i,
  output logic        d_rvalid_o,
  output logic [31:0] d_rdata_o
);
  localparam int unsigned AW = $clog2(Words);
  logic [31:0] mem [Words];

  wire [AW-1:0] i_idx = i_addr_i[AW+1:2];
  wire [AW-1:0] d_idx = d_addr_i[AW+1:2];

  always_ff @(posedge clk_i) begin
    i_rvalid_o <= i_req_i;
    if (i_req_i) i_rdata_o <= mem[i_idx];
    d_rvalid_o <= d_req_i;
    if (d_req_i) begin
      if (d_we_i) begin
        if (d_be_i[0]) mem[d_idx][7:0]   <= d_wdata_i[7:0];
        if (d_be_i[1]) mem[d_idx][15:8]  <= d_wdata_i[15:8];
        if (d_be_i[2]) mem[d_idx][23:16] <= d_wdata_i[23:16];
        if (d_be_i[3]) mem[d_idx][31:24] <= d_wdata_i[31:24];
      end else begin
        d_rdata_o <= mem[d_idx];
      end
    end
  end

`ifdef VERILATOR
  export "DPI-C" function soc_ram_load;
  function automatic void soc_ram_load(input int unsigned idx, input int unsigned val);
    if (idx < Words) mem[idx[AW-1:0]] = val;
  endfunction
  export "DPI-C" function soc_ram_peek;
  function automatic int unsigned soc_ram_peek(input int unsigned idx);
    return idx < Words ? mem[idx[AW-1:0]] : 32'd0;
  endfunction
`endif
endmodule
`default_nettype wire
