/*
 * transport_sim.cpp -- the simulated transport: the Verilated
 * falcon_accel_top, driven cycle by cycle through its AXI4-Lite slave and
 * its AXI-Stream ports exactly as a bus master would. cycles() counts the
 * simulated clock cycles, so transfer costs are those of a 32-bit bus at
 * one word per cycle (stream) or one AXI4-Lite transaction per word.
 */
#include <cstdint>
#include <cstring>

#include "Vfalcon_accel_top.h"
#include "verilated.h"

extern "C" {
#include "fa_rtl.h"
#include "fa_rtl_regs.h"
}

namespace {

struct Sim {
	VerilatedContext ctx;
	Vfalcon_accel_top *top;
	uint64_t cyc;

	Sim() : top(nullptr), cyc(0)
	{
		top = new Vfalcon_accel_top(&ctx);
		top->aclk = 0;
		top->aresetn = 0;
		top->s_axil_awvalid = 0;
		top->s_axil_wvalid = 0;
		top->s_axil_arvalid = 0;
		top->s_axil_bready = 1;
		top->s_axil_rready = 1;
		top->s_axil_wstrb = 0xF;
		top->s_axis_tvalid = 0;
		top->s_axis_tlast = 0;
		top->m_axis_tready = 0;
		for (int i = 0; i < 4; i ++) {
			tick();
		}
		top->aresetn = 1;
		tick();
	}

	/* One clock cycle: inputs set before the call are sampled at the
	   rising edge; outputs read after it are the new register values. */
	void tick()
	{
		top->aclk = 1;
		top->eval();
		top->aclk = 0;
		top->eval();
		cyc ++;
	}

	int write(uint32_t off, uint32_t v)
	{
		top->s_axil_awaddr = (uint16_t)off;
		top->s_axil_wdata = v;
		top->s_axil_awvalid = 1;
		top->s_axil_wvalid = 1;
		top->eval();
		for (int k = 0; !top->s_axil_awready; k ++) {
			tick();
			if (k > 1000) return -1;
		}
		tick();                         /* handshake cycle */
		top->s_axil_awvalid = 0;
		top->s_axil_wvalid = 0;
		top->eval();
		for (int k = 0; !top->s_axil_bvalid; k ++) {
			tick();
			if (k > 1000) return -1;
		}
		int resp = top->s_axil_bresp;
		tick();                         /* B handshake (bready = 1) */
		return resp == 0 ? 0 : -1;
	}

	int read(uint32_t off, uint32_t *v)
	{
		top->s_axil_araddr = (uint16_t)off;
		top->s_axil_arvalid = 1;
		top->eval();
		for (int k = 0; !top->s_axil_arready; k ++) {
			tick();
			if (k > 1000) return -1;
		}
		tick();
		top->s_axil_arvalid = 0;
		top->eval();
		for (int k = 0; !top->s_axil_rvalid; k ++) {
			tick();
			if (k > 1000) return -1;
		}
		*v = top->s_axil_rdata;
		int resp = top->s_axil_rresp;
		tick();
		return resp == 0 ? 0 : -1;
	}

	int burst_wr(unsigned target, const uint32_t *w, size_t n)
	{
		if (write(FA_RTL_REG_STREAM, target) != 0) return -1;
		size_t i = 0;
		int idle = 0;
		while (i < n) {
			top->s_axis_tdata = w[i];
			top->s_axis_tvalid = 1;
			top->s_axis_tlast = (i + 1 == n);
			top->eval();
			bool fire = top->s_axis_tready;
			tick();
			if (fire) {
				i ++;
				idle = 0;
			} else if (++ idle > 1000) {
				top->s_axis_tvalid = 0;
				return -1;
			}
		}
		top->s_axis_tvalid = 0;
		top->s_axis_tlast = 0;
		top->eval();
		return 0;
	}

	int burst_rd(unsigned target, uint32_t *w, size_t n)
	{
		if (write(FA_RTL_REG_STREAM, target) != 0) return -1;
		if (write(FA_RTL_REG_STREAM_OUT, (uint32_t)n) != 0) return -1;
		size_t i = 0;
		int idle = 0;
		top->m_axis_tready = 1;
		while (i < n) {
			top->eval();
			if (top->m_axis_tvalid) {
				w[i ++] = top->m_axis_tdata;
				idle = 0;
			} else if (++ idle > 1000) {
				top->m_axis_tready = 0;
				return -1;
			}
			tick();
		}
		top->m_axis_tready = 0;
		top->eval();
		return 0;
	}
};

Sim *g_sim = nullptr;

int t_wr(void *c, uint32_t off, uint32_t v) { return static_cast<Sim *>(c)->write(off, v); }
int t_rd(void *c, uint32_t off, uint32_t *v) { return static_cast<Sim *>(c)->read(off, v); }
int t_bwr(void *c, unsigned tg, const uint32_t *w, size_t n) { return static_cast<Sim *>(c)->burst_wr(tg, w, n); }
int t_brd(void *c, unsigned tg, uint32_t *w, size_t n) { return static_cast<Sim *>(c)->burst_rd(tg, w, n); }
uint64_t t_cyc(void *c) { return static_cast<Sim *>(c)->cyc; }

}  // namespace

extern "C" int fa_rtl_sim_open(fa_rtl_transport *t)
{
	if (g_sim == nullptr) {
		g_sim = new Sim();
	}
	t->ctx = g_sim;
	t->wr = t_wr;
	t->rd = t_rd;
	t->burst_wr = t_bwr;
	t->burst_rd = t_brd;
	t->cycles = t_cyc;
	t->name = "sim";
	return 0;
}
