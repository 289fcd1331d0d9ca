// ibex_pkg (synthesis stand-in) -- the few names of Ibex's ibex_pkg that
// soc_top.sv uses to configure its core (RV32M, RV32B, RegFile enums, the
// multi-bit fetch enable), with Ibex's values. Yosys' read_verilog -sv
// cannot parse the real package (assignment patterns '{name: value},
// `return`, `inside`), nor the rest of Ibex, so the synthesised SoC runs a
// VexRiscv core behind an ibex_top-shaped adapter
// (ibex_top_vexriscv.sv); see soc/doc/SYNTH.md. Synthesis only.
package ibex_pkg;
  typedef enum integer {
    RegFileFF    = 0,
    RegFileFPGA  = 1,
    RegFileLatch = 2
  } regfile_e;
  typedef enum integer {
    RV32MNone        = 0,
    RV32MSlow        = 1,
    RV32MFast        = 2,
    RV32MSingleCycle = 3
  } rv32m_e;
  typedef enum integer {
    RV32BNone       = 0,
    RV32BBalanced   = 1,
    RV32BOTEarlGrey = 2,
    RV32BFull       = 3
  } rv32b_e;
  typedef logic [3:0] ibex_mubi_t;
  parameter ibex_mubi_t IbexMuBiOn  = 4'b0101;
  parameter ibex_mubi_t IbexMuBiOff = 4'b1010;
  parameter int SCRAMBLE_KEY_W   = 128;
  parameter int SCRAMBLE_NONCE_W = 64;
endpackage
