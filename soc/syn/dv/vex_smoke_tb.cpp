/*
 * vex_smoke_tb.cpp -- Verilator harness for the synthesis SoC's core path:
 * soc_top as soc/syn reads it (VexRiscv_IMAC behind the ibex_top
 * stand-in, 256 KiB RAM map), without the accelerator (its AXI4-Lite port
 * never answers; the program does not touch it). Loads a flat binary into
 * the RAM through soc_ram's DPI export, releases reset, decodes the bytes
 * on the UART's line (uart_tx_o, 8N1 at the UART's reset bit time:
 * soc/sim/uart_line.h), and stops when the program has posted its verdict
 * on the mailbox's response registers (1 = pass) and the UART has sent
 * what it holds, or after a cycle limit.
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

#include "soc_map.h"
#include "uart_line.h"

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
	UartLineRx line;
	unsigned long cyc, idle = 0;
	/* the program does not change DIV: the line runs at its reset value */
	const unsigned div = FA_SOC_UART_DIV_VALUE;
	int verdict = -1;
	top.mbox_link_i = 1;
	top.uart_rx_i = 1;
	for (cyc = 0; cyc < max_cycles; cyc++) {
		if (cyc == 4)
			top.rst_ni = 1;
		top.clk_i = 1;
		top.eval();
		int b = line.tick(top.uart_tx_o, div);
		if (b >= 0)
			uart.push_back((char)b);
		if (top.host_rsp_valid_o && verdict < 0)
			verdict = (int)top.host_rsp_len_o;
		/* after the verdict: until the line has been idle for two bytes */
		idle = top.uart_tx_o && line.st == UartLineRx::Idle ? idle + 1 : 0;
		if (verdict >= 0 && idle > 20 * div)
			break;
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
