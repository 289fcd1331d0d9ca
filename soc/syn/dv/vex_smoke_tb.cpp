/*
 * vex_smoke_tb.cpp -- Verilator harness for the synthesis SoC's core path:
 * soc_top as soc/syn reads it (VexRiscv_IMAC behind the ibex_top
 * stand-in, 256 KiB RAM map), without the accelerator (its AXI4-Lite port
 * never answers; the program does not touch it). Loads a flat binary into
 * the RAM through soc_ram's DPI export, releases reset, collects the UART
 * bytes, and stops when the program posts its verdict on the mailbox's
 * response registers (1 = pass) or after a cycle limit.
 *   usage: vex_smoke_tb PROGRAM.bin [MAX_CYCLES]
 * Exit 0 only if the verdict is 1 and the UART printed "VEX OK\n".
 */
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>
#include "Vsoc_top.h"
#include "Vsoc_top__Dpi.h"
#include "svdpi.h"
#include "verilated.h"

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: %s PROGRAM.bin [MAX_CYCLES]\n", argv[0]);
		return 2;
	}
	unsigned long max_cycles = argc > 2 ? strtoul(argv[2], nullptr, 0) : 400000;
	FILE *f = fopen(argv[1], "rb");
	if (!f) {
		perror(argv[1]);
		return 2;
	}
	std::vector<unsigned char> img;
	int c;
	while ((c = fgetc(f)) != EOF)
		img.push_back((unsigned char)c);
	fclose(f);
	while (img.size() % 4)
		img.push_back(0);

	VerilatedContext ctx;
	ctx.commandArgs(argc, argv);
	Vsoc_top top(&ctx);
	top.clk_i = 0;
	top.rst_ni = 0;
	top.eval();
	svSetScope(svGetScopeFromName("TOP.soc_top.u_ram"));
	for (size_t i = 0; i < img.size(); i += 4)
		soc_ram_load((unsigned)(i / 4), (unsigned)img[i] | (unsigned)img[i + 1] << 8 |
		             (unsigned)img[i + 2] << 16 | (unsigned)img[i + 3] << 24);

	std::string uart;
	unsigned long cyc;
	int verdict = -1;
	for (cyc = 0; cyc < max_cycles; cyc++) {
		if (cyc == 4)
			top.rst_ni = 1;
		top.clk_i = 1;
		top.eval();
		if (top.uart_tx_valid_o)
			uart.push_back((char)top.uart_tx_data_o);
		if (top.host_rsp_valid_o) {
			verdict = (int)top.host_rsp_len_o;
			break;
		}
		top.clk_i = 0;
		top.eval();
	}
	top.final();
	printf("cycles %lu, verdict %d, uart: %s", cyc, verdict, uart.c_str());
	if (uart.empty() || uart.back() != '\n')
		printf("\n");
	if (verdict != 1 || uart != "VEX OK\n") {
		fprintf(stderr, "vex smoke: FAIL (%s)\n", verdict < 0 ? "no verdict: cycle limit" : "bad verdict or output");
		return 1;
	}
	printf("vex smoke: pass\n");
	return 0;
}
