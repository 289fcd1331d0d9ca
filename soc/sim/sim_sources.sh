# Sourced by soc/sim/build_sim.sh: the SoC's RTL for Verilator. Needs HW
# (the hw/ directory) and IBEX (pythondata_cpu_ibex.data_location).
# Ibex: the core as ibex_core.f lists it plus ibex_top, with the lowRISC
# primitives (vendor/lowrisc_ip/ip/prim) and the generic implementations
# selected by the wrappers in dv/uvm/core_ibex/common/prim.
PRIM=$IBEX/vendor/lowrisc_ip/ip/prim/rtl
PRIM_GEN=$IBEX/vendor/lowrisc_ip/ip/prim_generic/rtl
PRIM_DV=$IBEX/dv/uvm/core_ibex/common/prim
SOC_IBEX_SRCS="$PRIM/prim_util_pkg.sv $PRIM/prim_mubi_pkg.sv $PRIM/prim_ram_1p_pkg.sv
 $PRIM/prim_secded_pkg.sv $PRIM/prim_cipher_pkg.sv $PRIM/prim_count_pkg.sv
 $PRIM_DV/prim_pkg.sv $IBEX/rtl/ibex_pkg.sv
 $PRIM_GEN/prim_generic_buf.sv $PRIM_GEN/prim_generic_flop.sv $PRIM_GEN/prim_generic_and2.sv
 $PRIM_GEN/prim_generic_clock_gating.sv $PRIM_GEN/prim_generic_clock_mux2.sv
 $PRIM_DV/prim_buf.sv $PRIM_DV/prim_flop.sv $PRIM_DV/prim_and2.sv
 $PRIM_DV/prim_clock_gating.sv $PRIM_DV/prim_clock_mux2.sv
 $PRIM/prim_secded_inv_39_32_dec.sv $PRIM/prim_secded_inv_39_32_enc.sv
 $PRIM/prim_onehot_check.sv $PRIM/prim_count.sv $PRIM/prim_lfsr.sv
 $IBEX/rtl/ibex_alu.sv $IBEX/rtl/ibex_compressed_decoder.sv $IBEX/rtl/ibex_controller.sv
 $IBEX/rtl/ibex_counter.sv $IBEX/rtl/ibex_cs_registers.sv $IBEX/rtl/ibex_csr.sv
 $IBEX/rtl/ibex_decoder.sv $IBEX/rtl/ibex_ex_block.sv $IBEX/rtl/ibex_id_stage.sv
 $IBEX/rtl/ibex_if_stage.sv $IBEX/rtl/ibex_load_store_unit.sv $IBEX/rtl/ibex_multdiv_slow.sv
 $IBEX/rtl/ibex_multdiv_fast.sv $IBEX/rtl/ibex_prefetch_buffer.sv $IBEX/rtl/ibex_fetch_fifo.sv
 $IBEX/rtl/ibex_register_file_ff.sv $IBEX/rtl/ibex_wb_stage.sv $IBEX/rtl/ibex_pmp.sv
 $IBEX/rtl/ibex_dummy_instr.sv $IBEX/rtl/ibex_branch_predict.sv
 $IBEX/rtl/ibex_core.sv $IBEX/rtl/ibex_lockstep.sv $IBEX/rtl/ibex_top.sv"
SOC_INCDIRS="-I$PRIM -I$IBEX/rtl -I$IBEX/vendor/lowrisc_ip/dv/sv/dv_utils"
# The SoC's own RTL: the manifest soc/data/soc.f (new SoC files go there).
SOC_OWN_SRCS=$(python3 "$HW/common/util/rtl_manifest.py" soc/data/soc.f) \
  || { echo "sim_sources.sh: cannot read soc/data/soc.f" >&2; exit 1; }
