// Lint-only model of the one 7-series primitive the synthesis SoC
// instantiates (BUFGCE), so that Verilator can elaborate soc_syn_top
// (soc/syn/check.sh). Not used by synthesis, which takes Yosys' cell.
`default_nettype none
module BUFGCE (
  input  wire I,
  input  wire CE,
  output wire O
);
  assign O = I & CE;
endmodule
`default_nettype wire
