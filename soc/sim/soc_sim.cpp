/*
 * soc_sim.cpp -- simulation harness of the falcon-accel SoC: two Verilated
 * models, soc_top and falcon_accel_top, joined on soc_top's accelerator
 * port as soc_system.sv joins them; the accelerator model is clocked (and
 * evaluated) only in cycles where the SoC's clock enable is set, as the
 * clock gate does in hardware. The harness loads the firmware ELF into RAM through the DPI export
 * soc_ram_load, releases reset and runs the clock; the host link is the
 * SoC mailbox (configurations with one, soc/data/configs.json mbox),
 * which the harness feeds from stdin and drains to stdout in
 * frames (u32 FA_SOC_FRAME_MAGIC, u32 length, bytes; soc/fw/soc_proto.h).
 * The UART's line (uart_tx_o) is decoded at the bit time the firmware set
 * (the UART's DIV register, soc/sim/uart_line.h); with the mailbox link its
 * bytes are the console and go to stderr (or --console FILE).
 *
 *   soc_sim --fw FW.elf [--timeout-cycles N] [--console FILE]
 *           [--flash FILE --flash-base ADDR --flash-size N] [--uart-pty]
 *
 * --uart-pty: the host link is the UART, as on a board (strap mbox_link_i
 * = 0: the firmware serves UART link frames, soc/doc/soclink.md). The
 * harness opens a pseudo-terminal, prints "soc_sim: uart pty PATH" on
 * stdout (one line) and joins the UART to it: bytes the host writes to
 * PATH become start, data and stop bits on uart_rx_i, bits from uart_tx_o
 * become bytes for PATH, both at the UART's DIV bit time. stdin is not
 * read; the simulation ends when the host, after sending something,
 * closes PATH (or on SIGTERM). --timeout-cycles does not apply (the
 * harness sees no requests: the host keeps its own timeout); a double
 * fault ends it. The flash image is written back when the firmware starts
 * to send (replies, console frames) and at the end.
 *
 * --flash: a RAM region that stands for the firmware's flash (the FIDO2
 * firmware, apps/fido2/fw/fido2_main.c) is loaded from FILE at start (filled with
 * 0xFF, erased flash, when FILE does not exist) and written back to FILE
 * (temporary file, fsync, rename) whenever it changed, before the reply
 * that follows the change is sent: what the firmware acknowledged
 * survives a restart of the simulator.
 * A request that the firmware does not answer within N cycles (default
 * 4e10) gets an FA_SOC_ST_SIM_TIMEOUT reply from the harness, which then
 * exits; a core double fault is reported the same way. End of stdin ends
 * the simulation (exit 0).
 */
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <termios.h>
#include <unistd.h>

#include "Vfalcon_accel_top.h"
#include "Vsoc_top.h"
#include "Vsoc_top__Dpi.h"
#include "svdpi.h"
#include "verilated.h"
#if VM_TRACE
#include "verilated_vcd_c.h"
#endif

#include "soc_map.h"
#include "soc_proto.h"
#include "uart_line.h"

/* SOC_MBOX (build_sim.sh, from the configuration): 1 when soc_top has the
   host mailbox (soc_top's Mbox parameter) */
#ifndef SOC_MBOX
#define SOC_MBOX 1
#endif

namespace {

struct Harness {
	VerilatedContext ctx;
	Vsoc_top *top = nullptr;
	Vfalcon_accel_top *acc = nullptr;
	uint64_t cyc = 0, acc_cyc = 0;
	int dbg = getenv("SOC_DEBUG") ? atoi(getenv("SOC_DEBUG")) : 0;
	FILE *console = stderr;
	svScope ram_scope = nullptr, mbox_scope = nullptr, uart_scope = nullptr;
	/* the far end of the UART line */
	UartLineRx line_rx;              /* uart_tx_o -> bytes */
	UartLineTx line_tx;              /* bytes -> uart_rx_i */
	bool uart_link = false;          /* --uart-pty: the bytes are the host link */
	std::vector<uint8_t> to_host;    /* (uart_link) bytes from the SoC not yet written */
	uint64_t tx_bytes = 0, rx_bytes = 0, tx_bursts = 0, tx_idle = 1ull << 40;
	bool tx_burst_start = false;     /* a byte began after an idle line */
#if VM_TRACE
	VerilatedVcdC *vcd = nullptr;    /* SOC_VCD=file.vcd (trace builds only) */
#endif

	Harness()
	{
		top = new Vsoc_top(&ctx);
		acc = new Vfalcon_accel_top(&ctx);
		ram_scope = svGetScopeFromName("TOP.soc_top.u_ram");
#if SOC_MBOX
		mbox_scope = svGetScopeFromName("TOP.soc_top.g_mbox.u_mbox");
#endif
		uart_scope = svGetScopeFromName("TOP.soc_top.u_uart");
		if (ram_scope == nullptr || (SOC_MBOX && mbox_scope == nullptr) || uart_scope == nullptr) {
			fprintf(stderr, "soc_sim: DPI scopes not found\n");
			exit(2);
		}
		top->clk_i = 0;
		top->rst_ni = 0;
		top->host_req_i = 0;
		top->host_req_len_i = 0;
		top->host_rsp_take_i = 0;
		top->mbox_link_i = SOC_MBOX;
		top->uart_rx_i = 1;
		acc->aclk = 0;
		acc->aresetn = 0;
		to_soc();
		top->eval();
#if VM_TRACE
		if (getenv("SOC_VCD") != nullptr) {
			ctx.traceEverOn(true);
			vcd = new VerilatedVcdC;
			top->trace(vcd, 99);
			vcd->open(getenv("SOC_VCD"));
		}
#endif
	}

	/* accelerator port: SoC outputs -> accelerator inputs */
	void to_acc()
	{
		acc->aresetn = top->acc_rst_no;
		acc->s_axil_awaddr = top->m_axil_awaddr_o;
		acc->s_axil_awvalid = top->m_axil_awvalid_o;
		acc->s_axil_wdata = top->m_axil_wdata_o;
		acc->s_axil_wstrb = top->m_axil_wstrb_o;
		acc->s_axil_wvalid = top->m_axil_wvalid_o;
		acc->s_axil_bready = top->m_axil_bready_o;
		acc->s_axil_araddr = top->m_axil_araddr_o;
		acc->s_axil_arvalid = top->m_axil_arvalid_o;
		acc->s_axil_rready = top->m_axil_rready_o;
		acc->s_axis_tdata = top->acc_s_axis_tdata_o;
		acc->s_axis_tvalid = top->acc_s_axis_tvalid_o;
		acc->s_axis_tlast = top->acc_s_axis_tlast_o;
		acc->m_axis_tready = top->acc_m_axis_tready_o;
	}

	/* accelerator outputs -> SoC inputs */
	void to_soc()
	{
		top->m_axil_awready_i = acc->s_axil_awready;
		top->m_axil_wready_i = acc->s_axil_wready;
		top->m_axil_bresp_i = acc->s_axil_bresp;
		top->m_axil_bvalid_i = acc->s_axil_bvalid;
		top->m_axil_arready_i = acc->s_axil_arready;
		top->m_axil_rdata_i = acc->s_axil_rdata;
		top->m_axil_rresp_i = acc->s_axil_rresp;
		top->m_axil_rvalid_i = acc->s_axil_rvalid;
		top->acc_s_axis_tready_i = acc->s_axis_tready;
		top->acc_m_axis_tdata_i = acc->m_axis_tdata;
		top->acc_m_axis_tvalid_i = acc->m_axis_tvalid;
		top->acc_irq_i = acc->irq;
	}

	/* One clock cycle. Both models see their inputs as they were before
	   the edge (the port's SoC-side outputs are registers; the
	   accelerator's comb outputs are settled with its inputs first). */
	void tick()
	{
		bool en = top->acc_clk_en_o;
		if (dbg > 0 && en) {
			dbg --;
			fprintf(stderr, "cyc %llu en arv %d arr %d rv %d rd %08x awv %d awr %d bv %d rst %d\n",
				(unsigned long long)cyc, top->m_axil_arvalid_o, acc->s_axil_arready,
				acc->s_axil_rvalid, acc->s_axil_rdata, top->m_axil_awvalid_o,
				acc->s_axil_awready, acc->s_axil_bvalid, top->acc_rst_no);
		}
		if (en) {
			to_acc();
			acc->eval();
			to_soc();
		}
		top->clk_i = 1;
		top->eval();
		if (en) {
			acc->aclk = 1;
			acc->eval();
			acc_cyc ++;
		}
#if VM_TRACE
		if (vcd != nullptr) vcd->dump(2 * cyc + 1);
#endif
		top->clk_i = 0;
		top->eval();
		if (en) {
			acc->aclk = 0;
			acc->eval();
			to_soc();
			top->eval();    /* the enable and the port see the new outputs */
		}
#if VM_TRACE
		if (vcd != nullptr) { vcd->dump(2 * cyc + 2); if (cyc > 400000) { vcd->close(); vcd = nullptr; } }
#endif
		cyc ++;
		line();
	}

	/* The far end of the UART line, once per cycle (after the edge). */
	void line()
	{
		svSetScope(uart_scope);
		unsigned div = soc_uart_bit_cycles();
		if (line_rx.st == UartLineRx::Idle && top->uart_tx_o == 0 && tx_idle > 20u * div) {
			tx_burst_start = true;   /* a start bit after a quiet line */
			tx_bursts ++;
		}
		tx_idle = top->uart_tx_o && line_rx.st == UartLineRx::Idle ? tx_idle + 1 : 0;
		int b = line_rx.tick(top->uart_tx_o, div);
		if (b >= 0) {
			tx_bytes ++;
			if (uart_link) {
				to_host.push_back((uint8_t)b);
			} else {
				fputc(b, console);
				if (b == '\n') fflush(console);
			}
		}
		top->uart_rx_i = (uint8_t)line_tx.tick(div);
	}

	void reset()
	{
		/* run the reset synchroniser to 1 first, so that rst_ni low
		   makes a falling edge on the internal reset too */
		top->rst_ni = 1;
		top->eval();
		for (int i = 0; i < 3; i ++) tick();
		top->rst_ni = 0;
		top->eval();
		for (int i = 0; i < 8; i ++) tick();
		top->rst_ni = 1;
		top->eval();
		/* the synchroniser releases the internal reset two edges later */
		for (int i = 0; i < 4; i ++) tick();
	}

	void ram_load(uint32_t addr, const uint8_t *p, size_t len)
	{
		svSetScope(ram_scope);
		for (size_t i = 0; i < len; i ++) {
			uint32_t a = addr + (uint32_t)i;
			uint32_t idx = (a - FA_SOC_RAM_BASE) >> 2;
			uint32_t w = soc_ram_peek(idx);
			unsigned sh = 8 * (a & 3);
			w = (w & ~(0xFFu << sh)) | ((uint32_t)p[i] << sh);
			soc_ram_load(idx, w);
		}
	}

	void ram_read(uint32_t addr, uint8_t *p, size_t len)    /* word aligned */
	{
		svSetScope(ram_scope);
		for (size_t i = 0; i < len; i += 4) {
			uint32_t w = soc_ram_peek((addr + (uint32_t)i - FA_SOC_RAM_BASE) >> 2);
			for (size_t j = 0; j < 4 && i + j < len; j ++) {
				p[i + j] = (uint8_t)(w >> (8 * j));
			}
		}
	}

#if SOC_MBOX
	void mbuf_write(uint32_t off, const uint8_t *p, size_t len)
	{
		svSetScope(mbox_scope);
		for (size_t i = 0; i < len; i += 4) {
			uint32_t w = 0;
			for (size_t j = 0; j < 4 && i + j < len; j ++) {
				w |= (uint32_t)p[i + j] << (8 * j);
			}
			soc_mbuf_write((off + (uint32_t)i) >> 2, w);
		}
	}

	void mbuf_read(uint32_t off, uint8_t *p, size_t len)
	{
		svSetScope(mbox_scope);
		for (size_t i = 0; i < len; i += 4) {
			uint32_t w = soc_mbuf_read((off + (uint32_t)i) >> 2);
			for (size_t j = 0; j < 4 && i + j < len; j ++) {
				p[i + j] = (uint8_t)(w >> (8 * j));
			}
		}
	}
#endif
};

int load_elf(Harness &h, const char *path)
{
	FILE *f = fopen(path, "rb");
	if (f == nullptr) {
		fprintf(stderr, "soc_sim: cannot open %s: %s\n", path, strerror(errno));
		return -1;
	}
	std::vector<uint8_t> img;
	uint8_t buf[65536];
	size_t n;
	while ((n = fread(buf, 1, sizeof buf, f)) > 0) img.insert(img.end(), buf, buf + n);
	fclose(f);
	auto u16 = [&](size_t o) { return (uint32_t)img[o] | ((uint32_t)img[o + 1] << 8); };
	auto u32 = [&](size_t o) { return u16(o) | (u16(o + 2) << 16); };
	if (img.size() < 52 || memcmp(img.data(), "\x7f" "ELF", 4) != 0 || img[4] != 1
		|| img[5] != 1 || u16(18) != 243)
	{
		fprintf(stderr, "soc_sim: %s is not a little-endian ELF32 RISC-V file\n", path);
		return -1;
	}
	uint32_t phoff = u32(28), phentsize = u16(42), phnum = u16(44);
	for (uint32_t i = 0; i < phnum; i ++) {
		size_t ph = phoff + (size_t)i * phentsize;
		if (ph + 32 > img.size()) return -1;
		if (u32(ph) != 1) continue;            /* PT_LOAD */
		uint32_t off = u32(ph + 4), paddr = u32(ph + 12);
		uint32_t filesz = u32(ph + 16), memsz = u32(ph + 20);
		if ((uint64_t)off + filesz > img.size() || paddr < FA_SOC_RAM_BASE
			|| (uint64_t)paddr + memsz > (uint64_t)FA_SOC_RAM_BASE + FA_SOC_RAM_SIZE)
		{
			fprintf(stderr, "soc_sim: segment %u at 0x%08x (+%u) outside RAM\n",
				i, paddr, memsz);
			return -1;
		}
		h.ram_load(paddr, img.data() + off, filesz);
		std::vector<uint8_t> zero(memsz - filesz, 0);
		h.ram_load(paddr + filesz, zero.data(), zero.size());
	}
	return 0;
}

/* The flash image (--flash): RAM region <-> FILE. */
struct Flash {
	const char *path = nullptr;
	uint32_t base = 0, size = 0;
	std::vector<uint8_t> saved;

	int load(Harness &h)
	{
		if ((base & 3) != 0 || (size & 3) != 0 || size == 0 || base < FA_SOC_RAM_BASE
			|| (uint64_t)base + size > (uint64_t)FA_SOC_RAM_BASE + FA_SOC_RAM_SIZE)
		{
			fprintf(stderr, "soc_sim: --flash region 0x%08x+0x%x is not word-aligned "
				"RAM\n", base, size);
			return -1;
		}
		saved.assign(size, 0xFF);
		FILE *f = fopen(path, "rb");
		if (f != nullptr) {
			size_t n = fread(saved.data(), 1, size, f);
			int extra = fgetc(f);
			fclose(f);
			if (n != size || extra != EOF) {
				fprintf(stderr, "soc_sim: flash image %s is not %u bytes\n", path, size);
				return -1;
			}
		} else if (errno != ENOENT) {
			fprintf(stderr, "soc_sim: cannot read %s: %s\n", path, strerror(errno));
			return -1;
		}
		h.ram_load(base, saved.data(), size);
		return 0;
	}

	/* Writes the region back if it changed; -1 on an I/O error. */
	int sync(Harness &h)
	{
		std::vector<uint8_t> now(size);
		h.ram_read(base, now.data(), size);
		if (now == saved) return 0;
		std::string tmp = std::string(path) + ".tmp";
		FILE *f = fopen(tmp.c_str(), "wb");
		if (f == nullptr || fwrite(now.data(), 1, size, f) != size || fflush(f) != 0
			|| fsync(fileno(f)) != 0 || fclose(f) != 0
			|| rename(tmp.c_str(), path) != 0)
		{
			fprintf(stderr, "soc_sim: cannot write the flash image %s: %s\n", path,
				strerror(errno));
			return -1;
		}
		std::string dir(path);
		size_t sl = dir.rfind('/');
		dir = sl == std::string::npos ? "." : sl == 0 ? "/" : dir.substr(0, sl);
		int dfd = open(dir.c_str(), O_RDONLY);
		if (dfd >= 0) {
			fsync(dfd);
			close(dfd);
		}
		saved.swap(now);
		return 0;
	}
};

bool read_full(void *p, size_t len)
{
	return fread(p, 1, len, stdin) == len;
}

void write_frame(const uint8_t *p, uint32_t len)
{
	uint32_t hdr[2] = { FA_SOC_FRAME_MAGIC, len };
	fwrite(hdr, 1, sizeof hdr, stdout);
	fwrite(p, 1, len, stdout);
	fflush(stdout);
}

void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i ++) p[i] = (uint8_t)(v >> (8 * i));
}

/* A reply made by the harness itself (the firmware did not answer). */
void harness_error(const uint8_t *req, uint32_t req_len, unsigned status, uint64_t aux)
{
	uint8_t r[FA_SOC_RSP_HDR];
	memset(r, 0, sizeof r);
	put32(r + FA_SOC_RSP_MAGIC_OFF, FA_SOC_RSP_MAGIC);
	if (req_len >= FA_SOC_REQ_HDR) {
		r[FA_SOC_RSP_OP_OFF] = req[4];
		r[FA_SOC_RSP_OP_OFF + 1] = req[5];
		memcpy(r + FA_SOC_RSP_SEQ_OFF, req + 8, 4);
	}
	r[FA_SOC_RSP_STATUS_OFF] = (uint8_t)status;
	put32(r + FA_SOC_RSP_AUX_OFF, (uint32_t)aux);
	put32(r + FA_SOC_RSP_AUX_OFF + 4, (uint32_t)(aux >> 32));
	write_frame(r, sizeof r);
}

volatile sig_atomic_t stop_sim = 0;

void on_term(int)
{
	stop_sim = 1;
}

/*
 * --uart-pty: the host link through a pseudo-terminal joined to the UART.
 * Returns the exit status.
 */
int run_uart_pty(Harness &h, Flash &flash)
{
	int m = posix_openpt(O_RDWR | O_NOCTTY);
	if (m < 0 || grantpt(m) != 0 || unlockpt(m) != 0 || ptsname(m) == nullptr) {
		fprintf(stderr, "soc_sim: cannot open a pseudo-terminal: %s\n", strerror(errno));
		return 2;
	}
	/* raw bytes both ways (on Linux the master's termios calls set the
	   slave's); the host sets its side again when it opens PATH */
	struct termios t;
	if (tcgetattr(m, &t) == 0) {
		cfmakeraw(&t);
		tcsetattr(m, TCSANOW, &t);
	}
	fcntl(m, F_SETFL, fcntl(m, F_GETFL) | O_NONBLOCK);
	printf("soc_sim: uart pty %s\n", ptsname(m));
	fflush(stdout);
	signal(SIGTERM, on_term);
	signal(SIGINT, on_term);
	signal(SIGPIPE, SIG_IGN);
	bool connected = false;     /* the host has sent something */
	int rc = 0;
	uint8_t buf[4096];
	while (!stop_sim) {
		/* a few cycles between looks at the pseudo-terminal */
		for (int i = 0; i < 256; i ++) h.tick();
		if (h.top->double_fault_o) {
			fprintf(stderr, "soc_sim: core double fault at cycle %llu\n",
				(unsigned long long)h.cyc);
			rc = 3;
			break;
		}
		if (h.tx_burst_start) {
			h.tx_burst_start = false;
			if (flash.path != nullptr && flash.sync(h) != 0) {
				rc = 3;
				break;
			}
		}
		while (!h.to_host.empty()) {
			ssize_t w = write(m, h.to_host.data(), h.to_host.size());
			if (w <= 0) break;  /* EAGAIN (the host is not reading), or no host yet */
			h.to_host.erase(h.to_host.begin(), h.to_host.begin() + w);
		}
		if (h.line_tx.q.size() >= 64) continue;
		struct pollfd pf = { m, POLLIN, 0 };
		if (poll(&pf, 1, 0) <= 0) continue;
		if (pf.revents & POLLIN) {
			ssize_t r = read(m, buf, sizeof buf);
			if (r > 0) {
				connected = true;
				h.rx_bytes += (uint64_t)r;
				h.line_tx.q.insert(h.line_tx.q.end(), buf, buf + r);
				continue;
			}
		}
		if ((pf.revents & (POLLHUP | POLLERR)) && connected) {
			break;              /* the host closed PATH */
		}
	}
	if (flash.path != nullptr && flash.sync(h) != 0) rc = 3;
	close(m);
	return rc;
}

}  // namespace

int main(int argc, char **argv)
{
	const char *fw = nullptr, *console = nullptr;
	uint64_t timeout = 40000000000ull;
	Flash flash;
	bool uart_pty = false;
	for (int i = 1; i < argc; i ++) {
		if (strcmp(argv[i], "--fw") == 0 && i + 1 < argc) {
			fw = argv[++ i];
		} else if (strcmp(argv[i], "--timeout-cycles") == 0 && i + 1 < argc) {
			timeout = strtoull(argv[++ i], nullptr, 0);
		} else if (strcmp(argv[i], "--console") == 0 && i + 1 < argc) {
			console = argv[++ i];
		} else if (strcmp(argv[i], "--flash") == 0 && i + 1 < argc) {
			flash.path = argv[++ i];
		} else if (strcmp(argv[i], "--flash-base") == 0 && i + 1 < argc) {
			flash.base = (uint32_t)strtoul(argv[++ i], nullptr, 0);
		} else if (strcmp(argv[i], "--flash-size") == 0 && i + 1 < argc) {
			flash.size = (uint32_t)strtoul(argv[++ i], nullptr, 0);
		} else if (strcmp(argv[i], "--uart-pty") == 0) {
			uart_pty = true;
		} else {
			fprintf(stderr, "usage: soc_sim --fw FW.elf [--timeout-cycles N] [--console FILE]"
				" [--flash FILE --flash-base ADDR --flash-size N] [--uart-pty]\n");
			return 2;
		}
	}
	if (fw == nullptr) {
		fprintf(stderr, "soc_sim: --fw is required\n");
		return 2;
	}
	Harness h;
	if (console != nullptr) {
		h.console = fopen(console, "w");
		if (h.console == nullptr) {
			fprintf(stderr, "soc_sim: cannot create %s\n", console);
			return 2;
		}
	}
	if (load_elf(h, fw) != 0) return 2;
	if (flash.path != nullptr && flash.load(h) != 0) return 2;
	if (uart_pty) {
		h.uart_link = true;
		h.top->mbox_link_i = 0;
	}
	h.reset();
	if (uart_pty) {
		int rc = run_uart_pty(h, flash);
		fflush(h.console);
		fprintf(stderr, "soc_sim: %llu cycles simulated (accelerator clocked in %llu); "
			"UART link: %llu bytes in, %llu out (%llu bursts), %llu framing errors\n",
			(unsigned long long)h.cyc, (unsigned long long)h.acc_cyc,
			(unsigned long long)h.rx_bytes, (unsigned long long)h.tx_bytes,
			(unsigned long long)h.tx_bursts, (unsigned long long)h.line_rx.framing_errors);
		h.top->final();
		h.acc->final();
		delete h.top;
		delete h.acc;
		return rc;
	}

#if !SOC_MBOX
	fprintf(stderr, "soc_sim: this configuration has no host mailbox (soc/data/configs.json mbox 0): "
		"the host link is the UART, --uart-pty\n");
	return 2;
#else
	std::vector<uint8_t> req(FA_SOC_MAX_MSG), rsp(FA_SOC_MAX_MSG);
	for (;;) {
		uint32_t hdr[2];
		if (!read_full(hdr, sizeof hdr)) break;         /* host closed the link */
		if (hdr[0] != FA_SOC_FRAME_MAGIC || hdr[1] > FA_SOC_MAX_MSG) {
			fprintf(stderr, "soc_sim: bad frame from the host (magic 0x%08x, length %u)\n",
				hdr[0], hdr[1]);
			return 2;
		}
		if (!read_full(req.data(), hdr[1])) break;
		h.mbuf_write(0, req.data(), hdr[1]);
		h.top->host_req_len_i = hdr[1];
		h.top->host_req_i = 1;
		h.tick();
		h.top->host_req_i = 0;
		uint64_t start = h.cyc;
		while (!h.top->host_rsp_valid_o) {
			h.tick();
			if (h.top->double_fault_o) {
				fprintf(stderr, "soc_sim: core double fault at cycle %llu\n",
					(unsigned long long)h.cyc);
				harness_error(req.data(), hdr[1], FA_SOC_ST_TRAP, h.cyc);
				return 3;
			}
			if (h.cyc - start > timeout) {
				fprintf(stderr, "soc_sim: no reply after %llu cycles\n",
					(unsigned long long)timeout);
				harness_error(req.data(), hdr[1], FA_SOC_ST_SIM_TIMEOUT, h.cyc - start);
				return 3;
			}
		}
		uint32_t len = h.top->host_rsp_len_o;
		if (len > FA_SOC_MAX_MSG) len = FA_SOC_MAX_MSG;
		h.mbuf_read(0x8000, rsp.data(), len);
		h.top->host_rsp_take_i = 1;
		h.tick();
		h.top->host_rsp_take_i = 0;
		if (flash.path != nullptr && flash.sync(h) != 0) {
			harness_error(req.data(), hdr[1], FA_SOC_ST_SIM_TIMEOUT, 0);
			return 3;
		}
		write_frame(rsp.data(), len);
	}
#endif
	fflush(h.console);
	fprintf(stderr, "soc_sim: %llu cycles simulated (accelerator clocked in %llu)\n",
		(unsigned long long)h.cyc, (unsigned long long)h.acc_cyc);
	h.top->final();
	h.acc->final();
	delete h.top;
	delete h.acc;
	return 0;
}
