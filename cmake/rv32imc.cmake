# CMake toolchain file: the core library for a 32-bit RISC-V core without
# FPU (rv32imc, ilp32), freestanding, with Debian's bare-metal cross compiler
# (package gcc-riscv64-unknown-elf; its multilib includes rv32imc/ilp32).
#
#   cmake -S . -B build-rv32 -DCMAKE_TOOLCHAIN_FILE=cmake/rv32imc.cmake
#   cmake --build build-rv32
#
# Builds only libfalcon_accel.a, with integer-only floating point
# (FA_FPEMU), no OS services (FA_FREESTANDING) and no tests; scripts/
# build_rv32.sh does this and checks the symbols the library needs.
# There is no C library: <string.h> comes from cmake/rv32imc-include/
# (memcpy, memmove, memset, memcmp only); GCC itself provides <stdint.h>,
# <stddef.h>, <limits.h>, <stdbool.h>.

set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR riscv32)

set(FA_RV32_PREFIX riscv64-unknown-elf- CACHE STRING "Cross tool prefix")
find_program(FA_RV32_GCC ${FA_RV32_PREFIX}gcc REQUIRED)
set(CMAKE_C_COMPILER ${FA_RV32_GCC})
find_program(FA_RV32_GXX ${FA_RV32_PREFIX}g++)
if(FA_RV32_GXX)
  set(CMAKE_CXX_COMPILER ${FA_RV32_GXX})
endif()
find_program(CMAKE_AR ${FA_RV32_PREFIX}ar REQUIRED)
find_program(CMAKE_RANLIB ${FA_RV32_PREFIX}ranlib REQUIRED)
find_program(CMAKE_NM ${FA_RV32_PREFIX}nm REQUIRED)
find_program(CMAKE_OBJDUMP ${FA_RV32_PREFIX}objdump)

# No C library and no startup files: compiler checks build a static
# library instead of linking an executable.
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)

set(FA_RV32_FLAGS "-march=rv32imc -mabi=ilp32 -ffreestanding -fno-common")
string(APPEND FA_RV32_FLAGS " -isystem ${CMAKE_CURRENT_LIST_DIR}/rv32imc-include")
set(CMAKE_C_FLAGS_INIT "${FA_RV32_FLAGS}")
set(CMAKE_CXX_FLAGS_INIT "${FA_RV32_FLAGS}")
set(CMAKE_ASM_FLAGS_INIT "${FA_RV32_FLAGS}")

set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# Project options for this target (defaults; -D on the command line wins).
set(FA_FPEMU ON CACHE BOOL "Integer-only emulated floating point (no FPU use)")
set(FA_FREESTANDING ON CACHE BOOL "Core library only, no OS (no getrandom, no getenv)")
set(FA_BUILD_TESTS OFF CACHE BOOL "Build the tests")
# fpr add/add_sub/mul in RV32IMC assembly (src/fpr_emu_rv32.S); OFF: the C code
set(FA_FPR_ASM ON CACHE BOOL "rv32 emulated FP: add/add_sub/mul in RV32IMC assembly")
