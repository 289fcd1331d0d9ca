// Lint-only model of the ECP5 PLL (EHXPLLL) for soc/boards/check_board.sh:
// the ports and parameters the board tops use, so that Verilator can
// elaborate a top. Not a model of the PLL's behaviour (CLKOP follows CLKI);
// synthesis takes Yosys' cell.
`default_nettype none
module EHXPLLL #(
  parameter PLLRST_ENA = "DISABLED", parameter INTFB_WAKE = "DISABLED",
  parameter STDBY_ENABLE = "DISABLED", parameter DPHASE_SOURCE = "DISABLED",
  parameter OUTDIVIDER_MUXA = "DIVA", parameter OUTDIVIDER_MUXB = "DIVB",
  parameter OUTDIVIDER_MUXC = "DIVC", parameter OUTDIVIDER_MUXD = "DIVD",
  parameter integer CLKI_DIV = 1, parameter CLKOP_ENABLE = "ENABLED",
  parameter integer CLKOP_DIV = 8, parameter integer CLKOP_CPHASE = 0,
  parameter integer CLKOP_FPHASE = 0, parameter FEEDBK_PATH = "CLKOP",
  parameter integer CLKFB_DIV = 1
) (
  input  wire CLKI, CLKFB, RST, STDBY, PHASESEL0, PHASESEL1, PHASEDIR,
  input  wire PHASESTEP, PHASELOADREG, PLLWAKESYNC, ENCLKOP,
  output wire CLKOP, CLKINTFB, LOCK
);
  assign CLKOP = CLKI;
  assign CLKINTFB = CLKI;
  assign LOCK = 1'b1;
  wire unused = &{1'b0, CLKFB, RST, STDBY, PHASESEL0, PHASESEL1, PHASEDIR,
                  PHASESTEP, PHASELOADREG, PLLWAKESYNC, ENCLKOP};
endmodule
`default_nettype wire
