// soc_syn_clk_gate (ECP5) -- the accelerator's clock gate of
// soc_system.sv as an FPGA clock buffer: DCCA, the ECP5's global clock
// buffer with a clock enable.
`default_nettype none
module soc_syn_clk_gate (
  input  logic clk_i,
  input  logic en_i,
  output logic clk_o
);
  DCCA u_dcca (.CLKI (clk_i), .CE (en_i), .CLKO (clk_o));
endmodule
`default_nettype wire
