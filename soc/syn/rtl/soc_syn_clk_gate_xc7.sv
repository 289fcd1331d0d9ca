// soc_syn_clk_gate (7-series) -- the accelerator's clock gate of
// soc_system.sv as an FPGA clock buffer: BUFGCE, a global clock buffer
// whose enable is sampled glitch-free by the buffer itself.
`default_nettype none
module soc_syn_clk_gate (
  input  logic clk_i,
  input  logic en_i,
  output logic clk_o
);
  BUFGCE u_bufgce (.I (clk_i), .CE (en_i), .O (clk_o));
endmodule
`default_nettype wire
