// Lint-only model of the one ECP5 primitive the synthesis SoC instantiates
// (DCCA), so that Verilator can elaborate soc_syn_top (soc/syn/check.sh).
// Not used by synthesis, which takes Yosys' cell.
`default_nettype none
module DCCA (
  input  wire CLKI,
  input  wire CE,
  output wire CLKO
);
  assign CLKO = CLKI & CE;
endmodule
`default_nettype wire
