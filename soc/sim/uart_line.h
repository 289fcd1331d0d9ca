/*
 * uart_line.h -- the far end of the SoC's UART line in the Verilator
 * harnesses (soc/sim/soc_sim.cpp, soc/syn/dv/vex_smoke_tb.cpp): 8N1 bit
 * streams turned into bytes and back, one call per clock cycle, at a bit
 * time in cycles given on every call (the harness reads the UART's DIV
 * register, so it follows what the firmware configured).
 *
 *   UartLineRx: samples uart_tx_o once per cycle; a byte when its stop bit
 *               was high (bits sampled in the middle), else a framing error.
 *   UartLineTx: drives uart_rx_i from a queue of bytes, back to back.
 */
#ifndef SOC_UART_LINE_H
#define SOC_UART_LINE_H

#include <cstdint>
#include <deque>

struct UartLineRx {
	enum { Idle, Start, Data, Stop, Break } st = Idle;
	unsigned cnt = 0, nbit = 0, shift = 0;
	uint64_t framing_errors = 0;

	/* One cycle with the line at `line`; returns a byte (0..255) or -1. */
	int tick(int line, unsigned div)
	{
		if (div < 4) div = 4;
		switch (st) {
		case Idle:
			if (line == 0) {
				st = Start;
				cnt = div / 2 - 1;
			}
			return -1;
		case Start:
			if (cnt > 0) { cnt --; return -1; }
			if (line != 0) { st = Idle; return -1; }
			st = Data; nbit = 0; shift = 0; cnt = div - 1;
			return -1;
		case Data:
			if (cnt > 0) { cnt --; return -1; }
			shift |= (unsigned)(line & 1) << nbit;
			cnt = div - 1;
			if (++ nbit == 8) st = Stop;
			return -1;
		case Stop:
			if (cnt > 0) { cnt --; return -1; }
			if (line != 0) { st = Idle; return (int)shift; }
			framing_errors ++;
			st = Break;
			return -1;
		case Break:
			if (line != 0) st = Idle;
			return -1;
		}
		return -1;
	}
};

struct UartLineTx {
	std::deque<uint8_t> q;
	unsigned cnt = 0, nbit = 0;    /* nbit: 0 idle, 1..10 start, data, stop */
	unsigned frame = 0;            /* the 10 bits of the byte being sent, LSB first */

	bool busy() const { return nbit != 0 || !q.empty(); }

	/* The line level for this cycle. */
	int tick(unsigned div)
	{
		if (div < 4) div = 4;
		if (nbit == 0) {
			if (q.empty()) return 1;
			frame = ((unsigned)q.front() << 1) | 0x200u;   /* start 0, data, stop 1 */
			q.pop_front();
			nbit = 1;
			cnt = div;
		}
		int line = (int)((frame >> (nbit - 1)) & 1u);
		if (-- cnt == 0) {
			cnt = div;
			if (++ nbit > 10) nbit = 0;
		}
		return line;
	}
};

#endif
