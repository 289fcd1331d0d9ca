// soc_ram -- the SoC's main memory: one read/write port (byte enables)
// answering one cycle after the request (rvalid_o registered), one block
// RAM copy on an FPGA (soc_top shares the port between the DMA engine, the
// core's data and instruction buses). InitFile, when not empty, is read
// with $readmemh at start (32-bit words, one per line, from word 0): the
// firmware image of a bitstream. In simulation the harness loads the
// firmware through the DPI export soc_ram_load (word index, value) before
// reset is released.
`default_nettype none
module soc_ram #(
  parameter int unsigned Words    = 262144,
  parameter              InitFile = ""
) (
  input  logic        clk_i,
  input  logic        req_i,
  input  logic        we_i,
  input  logic [3:0]  be_i,
  input  logic [31:0] addr_i,
  input  logic [31:0] wdata_i,
  output logic        rvalid_o,
  output logic [31:0] rdata_o
);
  localparam int unsigned AW = $clog2(Words);
  logic [31:0] mem [Words];

  initial begin
    if (InitFile != "") $readmemh(InitFile, mem);
  end

  wire [AW-1:0] idx = addr_i[AW+1:2];

  always_ff @(posedge clk_i) begin
    rvalid_o <= req_i;
    if (req_i) begin
      if (we_i) begin
        if (be_i[0]) mem[idx][7:0]   <= wdata_i[7:0];
        if (be_i[1]) mem[idx][15:8]  <= wdata_i[15:8];
        if (be_i[2]) mem[idx][23:16] <= wdata_i[23:16];
        if (be_i[3]) mem[idx][31:24] <= wdata_i[31:24];
      end else begin
        rdata_o <= mem[idx];
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
