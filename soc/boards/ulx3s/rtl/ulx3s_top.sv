// ulx3s_top -- the falcon-accel SoC on the ULX3S (Radiona, LFE5U-85F-6BG381C).
//
//   clk_25mhz (G2) -> EHXPLLL -> clk (CLK_HZ, the SoC clock)
//   reset: PLL lock, then a power-on counter of 2^RST_BITS cycles; the F1
//          button (btn_rst, active high) holds the SoC in reset while pressed
//   UART:  ftdi_txd (M1, the FT231X transmits) -> 2-FF synchroniser -> uart_rx_i
//          uart_tx_o -> register -> ftdi_rxd (L4, the FT231X receives):
//          the host link (soc/doc/soclink.md, UART link, 115200 8N1)
//   led[0] heartbeat (about 1 Hz: the clock and the reset are alive)
//   led[1] core asleep (WFI)          led[2] double fault (sticky to reset)
//   led[3] UART receive activity      led[4] UART transmit activity
//   led[5] PLL locked                 led[6] SoC out of reset
//   led[7] off
// Every output is a register; the inputs pass two synchronising registers.
//
// Parameters: the PLL's dividers (soc/boards/ecp5_pll.py computes them for a
// requested frequency; soc/boards/build_board.sh passes them with CLK_HZ,
// the frequency they give), the accelerator's configuration and the SoC's
// (RAM_KIB, MBOX, INIT_FILE: the firmware image) as soc_syn_top takes them.
`default_nettype none
module ulx3s_top #(
  // 25 MHz / CLKI_DIV * CLKFB_DIV = CLK_HZ (feedback from CLKOP);
  // VCO = CLK_HZ * CLKOP_DIV within 400..800 MHz. Default: 50 MHz, VCO 600 MHz.
  parameter int unsigned CLKI_DIV     = 1,
  parameter int unsigned CLKFB_DIV    = 2,
  parameter int unsigned CLKOP_DIV    = 12,
  parameter int unsigned CLKOP_CPHASE = 5,
  parameter int unsigned CLK_HZ       = 50000000,
  parameter int unsigned RST_BITS     = 16,
  parameter int unsigned P            = 1,
  parameter int unsigned LP           = 0,
  parameter int unsigned SAMPLER      = 0,
  parameter int unsigned KECCAK       = 1,
  parameter int unsigned FFSAMP       = 0,
  parameter int unsigned MLKEM        = 0,
  parameter int unsigned KEMENC       = 0,
  parameter int unsigned RAM_KIB      = 256,
  parameter int unsigned MBOX         = 0,
  parameter              RAM_INIT     = ""
) (
  input  wire       clk_25mhz,
  input  wire       btn_rst,
  input  wire       ftdi_txd,
  output wire       ftdi_rxd,
  output wire [7:0] led
);
  // ---- clock ----------------------------------------------------------
  wire clk, pll_lock;
  (* FREQUENCY_PIN_CLKI = "25" *)
  (* ICP_CURRENT = "12" *) (* LPF_RESISTOR = "8" *) (* MFG_ENABLE_FILTEROPAMP = "1" *) (* MFG_GMCREF_SEL = "2" *)
  EHXPLLL #(
    .PLLRST_ENA       ("DISABLED"),
    .INTFB_WAKE       ("DISABLED"),
    .STDBY_ENABLE     ("DISABLED"),
    .DPHASE_SOURCE    ("DISABLED"),
    .OUTDIVIDER_MUXA  ("DIVA"),
    .OUTDIVIDER_MUXB  ("DIVB"),
    .OUTDIVIDER_MUXC  ("DIVC"),
    .OUTDIVIDER_MUXD  ("DIVD"),
    .CLKI_DIV         (CLKI_DIV),
    .CLKOP_ENABLE     ("ENABLED"),
    .CLKOP_DIV        (CLKOP_DIV),
    .CLKOP_CPHASE     (CLKOP_CPHASE),
    .CLKOP_FPHASE     (0),
    .FEEDBK_PATH      ("CLKOP"),
    .CLKFB_DIV        (CLKFB_DIV)
  ) u_pll (
    .RST (1'b0), .STDBY (1'b0), .CLKI (clk_25mhz), .CLKOP (clk), .CLKFB (clk),
    .CLKINTFB (), .PHASESEL0 (1'b0), .PHASESEL1 (1'b0), .PHASEDIR (1'b1),
    .PHASESTEP (1'b1), .PHASELOADREG (1'b1), .PLLWAKESYNC (1'b0), .ENCLKOP (1'b0),
    .LOCK (pll_lock)
  );

  // ---- reset: lock and button synchronised, then the power-on counter --
  reg [1:0] lock_s = 2'b00, btn_s = 2'b00;
  always @(posedge clk) begin
    lock_s <= {lock_s[0], pll_lock};
    btn_s  <= {btn_s[0], btn_rst};
  end
  reg [RST_BITS:0] por = '0;    // MSB set: reset released
  reg              rst_n = 1'b0;
  always @(posedge clk) begin
    if (!lock_s[1] || btn_s[1]) por <= '0;
    else if (!por[RST_BITS]) por <= por + 1'b1;
    rst_n <= por[RST_BITS];
  end

  // ---- UART pins --------------------------------------------------------
  reg [1:0] rx_s = 2'b11;
  reg       tx_q = 1'b1;
  wire      uart_tx;
  always @(posedge clk) begin
    rx_s <= {rx_s[0], ftdi_txd};
    tx_q <= uart_tx;
  end
  assign ftdi_rxd = tx_q;

  // ---- the SoC ------------------------------------------------------------
  wire core_sleep, double_fault;
  wire host_rsp_valid_unused;
  wire [31:0] host_rsp_len_unused;
  soc_syn_top #(
    .P (P), .LP (LP), .SAMPLER (SAMPLER), .KECCAK (KECCAK), .FFSAMP (FFSAMP),
    .MLKEM (MLKEM), .KEMENC (KEMENC), .RAM_KIB (RAM_KIB), .MBOX (MBOX),
    .RAM_INIT (RAM_INIT), .CLK_HZ (CLK_HZ)
  ) u_soc (
    .clk_i (clk), .rst_ni (rst_n),
    .host_req_i (1'b0), .host_req_len_i (32'd0),
    .host_rsp_valid_o (host_rsp_valid_unused), .host_rsp_len_o (host_rsp_len_unused),
    .host_rsp_take_i (1'b0),
    .uart_tx_o (uart_tx), .uart_rx_i (rx_s[1]),
    .core_sleep_o (core_sleep), .double_fault_o (double_fault)
  );

  // ---- LEDs ---------------------------------------------------------------
  // heartbeat: toggles every CLK_HZ / 2 cycles
  localparam int unsigned HB_HALF = CLK_HZ / 2;
  reg [31:0] hb_cnt = '0;
  reg        hb = 1'b0;
  always @(posedge clk) begin
    if (hb_cnt == HB_HALF - 1) begin
      hb_cnt <= '0;
      hb     <= ~hb;
    end else begin
      hb_cnt <= hb_cnt + 1'b1;
    end
  end
  // activity: a low line bit (start bit, zeros) lights the LED for 2^22
  // cycles (84 ms at 50 MHz)
  reg [22:0] rx_act = '0, tx_act = '0;
  always @(posedge clk) begin
    if (!rx_s[1]) rx_act <= '1; else if (rx_act[22]) rx_act <= rx_act - 1'b1;
    if (!tx_q)    tx_act <= '1; else if (tx_act[22]) tx_act <= tx_act - 1'b1;
  end
  reg df_seen = 1'b0;
  always @(posedge clk) begin
    if (!rst_n) df_seen <= 1'b0;
    else if (double_fault) df_seen <= 1'b1;
  end
  reg [7:0] led_q = '0;
  always @(posedge clk)
    led_q <= {1'b0, rst_n, lock_s[1], tx_act[22], rx_act[22], df_seen,
              core_sleep & rst_n, hb};
  assign led = led_q;
endmodule
`default_nettype wire
