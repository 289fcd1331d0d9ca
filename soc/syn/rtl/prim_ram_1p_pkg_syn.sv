// prim_ram_1p_pkg (synthesis stand-in) -- the RAM configuration word that
// soc_top.sv passes to its core (all zero: RAM_1P_CFG_DEFAULT), 10 bits as
// in lowRISC's package (two {enable, 4-bit cfg} fields). Synthesis only;
// the VexRiscv adapter ignores it.
package prim_ram_1p_pkg;
  typedef logic [9:0] ram_1p_cfg_t;
  parameter ram_1p_cfg_t RAM_1P_CFG_DEFAULT = 10'd0;
endpackage
