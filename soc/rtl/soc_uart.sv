// soc_uart -- the SoC's UART: 8N1 on uart_tx_o / uart_rx_i with a
// programmable bit time (DIV, clock cycles per bit), a transmit FIFO and a
// receive FIFO with sticky overrun and framing-error flags (registers:
// soc_map_pkg, soc/data/socmap.json). It carries the firmware's console,
// and on a board (or soc_sim --uart-pty) the host link
// (soc/doc/soclink.md, UART link).
//   TX: TXDATA pushes a byte; the shifter sends start bit, 8 data bits
//       LSB first, stop bit, each DIV cycles, back to back while the FIFO
//       has bytes. uart_tx_o is a flop (high when idle).
//   RX: uart_rx_i through a two-flop synchroniser; a low level while idle
//       starts a byte, confirmed low half a bit later (else a glitch), data
//       sampled in the middle of each bit, the stop bit must be high: else
//       RX_FRAME_ERR and the byte is dropped, and the receiver waits for
//       the line to go high (a break) before the next start bit. A byte
//       that finds the FIFO full is dropped and sets RX_OVERRUN.
//   RXDATA: a read pops the oldest byte (bit 31 set when there was none).
`default_nettype none
module soc_uart import soc_map_pkg::*; #(
  parameter int RxDepth = 32,   // receive FIFO, bytes (a power of two)
  parameter int TxDepth = 16    // transmit FIFO, bytes (a power of two)
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        req_i,
  input  logic        we_i,
  input  logic [11:0] addr_i,
  input  logic [31:0] wdata_i,
  output logic        rvalid_o,
  output logic [31:0] rdata_o,
  output logic        err_o,
  output logic        uart_tx_o,
  input  logic        uart_rx_i
);
  localparam logic [15:0] MinDiv = 16'd4;
  localparam int RxLW = $clog2(RxDepth + 1);
  localparam int TxLW = $clog2(TxDepth + 1);

  // ------------------------------------------------------------ registers
  logic [15:0] div_q;
  logic [15:0] bit_cycles;               // the bit time in use
  assign bit_cycles = (div_q < MinDiv) ? MinDiv : div_q;

  wire wr_tx   = req_i && we_i && addr_i == UART_TXDATA;
  wire rd_rx   = req_i && !we_i && addr_i == UART_RXDATA;
  wire wr_ctrl = req_i && we_i && addr_i == UART_CTRL;

  // ------------------------------------------------------------ FIFOs
  logic            tx_pop, tx_full, tx_empty;
  logic [7:0]      tx_head;
  logic [TxLW-1:0] tx_level;
  logic            rx_push, rx_full, rx_empty;
  logic [7:0]      rx_byte, rx_head;
  logic [RxLW-1:0] rx_level;

  soc_fifo #(.Width(8), .Depth(TxDepth)) u_tx_fifo (
    .clk_i, .rst_ni, .clr_i (1'b0),
    .push_i (wr_tx), .wdata_i (wdata_i[7:0]), .pop_i (tx_pop),
    .rdata_o (tx_head), .full_o (tx_full), .empty_o (tx_empty), .level_o (tx_level)
  );

  soc_fifo #(.Width(8), .Depth(RxDepth)) u_rx_fifo (
    .clk_i, .rst_ni, .clr_i (wr_ctrl && wdata_i[UART_CTRL_RX_FLUSH_BIT]),
    .push_i (rx_push), .wdata_i (rx_byte), .pop_i (rd_rx),
    .rdata_o (rx_head), .full_o (rx_full), .empty_o (rx_empty), .level_o (rx_level)
  );

  // ------------------------------------------------------------ transmitter
  logic        tx_busy_q, tx_q;
  logic [8:0]  tx_shift_q;               // data bits then the stop bit
  logic [3:0]  tx_bits_q;                // bits left after the current one
  logic [15:0] tx_cnt_q;                 // cycles left in the current bit

  assign tx_pop = !tx_busy_q && !tx_empty;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      tx_busy_q <= 1'b0; tx_q <= 1'b1; tx_shift_q <= '1; tx_bits_q <= '0; tx_cnt_q <= '0;
    end else if (tx_pop) begin
      // start bit now, then 8 data bits and the stop bit
      tx_busy_q <= 1'b1;
      tx_q <= 1'b0;
      tx_shift_q <= {1'b1, tx_head};
      tx_bits_q <= 4'd9;
      tx_cnt_q <= bit_cycles - 16'd1;
    end else if (tx_busy_q) begin
      if (tx_cnt_q != '0) begin
        tx_cnt_q <= tx_cnt_q - 16'd1;
      end else if (tx_bits_q != '0) begin
        tx_q <= tx_shift_q[0];
        tx_shift_q <= {1'b1, tx_shift_q[8:1]};
        tx_bits_q <= tx_bits_q - 4'd1;
        tx_cnt_q <= bit_cycles - 16'd1;
      end else begin
        tx_busy_q <= 1'b0;               // the stop bit is over; the line stays high
      end
    end
  end
  assign uart_tx_o = tx_q;

  // ------------------------------------------------------------ receiver
  typedef enum logic [2:0] {RxIdle, RxStart, RxData, RxStop, RxBreak} rx_state_e;
  rx_state_e   rx_state_q;
  logic [1:0]  rx_sync_q;
  logic [7:0]  rx_shift_q;
  logic [2:0]  rx_bit_q;
  logic [15:0] rx_cnt_q;
  logic        overrun_q, frame_err_q, rx_push_q;
  wire         rx_in = rx_sync_q[1];

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) rx_sync_q <= 2'b11;
    else rx_sync_q <= {rx_sync_q[0], uart_rx_i};
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rx_state_q <= RxIdle; rx_shift_q <= '0; rx_bit_q <= '0; rx_cnt_q <= '0;
      rx_push_q <= 1'b0;
    end else begin
      rx_push_q <= 1'b0;
      unique case (rx_state_q)
        RxIdle: if (!rx_in) begin
          rx_state_q <= RxStart;
          rx_cnt_q <= (bit_cycles >> 1) - 16'd1;
        end
        RxStart: if (rx_cnt_q != '0) begin
          rx_cnt_q <= rx_cnt_q - 16'd1;
        end else if (rx_in) begin
          rx_state_q <= RxIdle;          // shorter than half a bit: a glitch
        end else begin
          rx_state_q <= RxData;
          rx_bit_q <= '0;
          rx_cnt_q <= bit_cycles - 16'd1;
        end
        RxData: if (rx_cnt_q != '0) begin
          rx_cnt_q <= rx_cnt_q - 16'd1;
        end else begin
          rx_shift_q <= {rx_in, rx_shift_q[7:1]};
          rx_cnt_q <= bit_cycles - 16'd1;
          if (rx_bit_q == 3'd7) rx_state_q <= RxStop;
          rx_bit_q <= rx_bit_q + 3'd1;
        end
        RxStop: if (rx_cnt_q != '0) begin
          rx_cnt_q <= rx_cnt_q - 16'd1;
        end else if (rx_in) begin
          rx_push_q <= 1'b1;             // mid stop bit: ready for the next start
          rx_state_q <= RxIdle;
        end else begin
          rx_state_q <= RxBreak;         // framing error (flagged below)
        end
        RxBreak: if (rx_in) rx_state_q <= RxIdle;
        default: rx_state_q <= RxIdle;
      endcase
    end
  end
  assign rx_push = rx_push_q;
  assign rx_byte = rx_shift_q;
  wire frame_err_set = rx_state_q == RxStop && rx_cnt_q == '0 && !rx_in;
  wire overrun_set = rx_push && rx_full && !rd_rx;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      overrun_q <= 1'b0; frame_err_q <= 1'b0;
    end else begin
      if (wr_ctrl && wdata_i[UART_CTRL_RX_CLEAR_ERR_BIT]) begin
        overrun_q <= 1'b0; frame_err_q <= 1'b0;
      end
      if (overrun_set) overrun_q <= 1'b1;
      if (frame_err_set) frame_err_q <= 1'b1;
    end
  end

  // ------------------------------------------------------------ bus
  logic [31:0] status;
  logic [7:0]  rx_level8, tx_level8;
  assign rx_level8 = rx_level;           // (zero-extended)
  assign tx_level8 = tx_level;
  always_comb begin
    status = '0;
    status[UART_STATUS_TX_READY_BIT]     = !tx_full;
    status[UART_STATUS_TX_BUSY_BIT]      = tx_busy_q || !tx_empty;
    status[UART_STATUS_RX_VALID_BIT]     = !rx_empty;
    status[UART_STATUS_RX_OVERRUN_BIT]   = overrun_q;
    status[UART_STATUS_RX_FRAME_ERR_BIT] = frame_err_q;
    status[UART_STATUS_RX_LEVEL_LSB +: UART_STATUS_RX_LEVEL_WIDTH] = rx_level8;
    status[UART_STATUS_TX_LEVEL_LSB +: UART_STATUS_TX_LEVEL_WIDTH] = tx_level8;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rvalid_o <= 1'b0; rdata_o <= '0; err_o <= 1'b0;
      div_q <= UART_DIV_VALUE[15:0];
    end else begin
      rvalid_o <= req_i;
      err_o <= 1'b0;
      rdata_o <= '0;
      if (req_i) begin
        unique case ({we_i, addr_i})
          {1'b1, UART_TXDATA}: begin end   // (the FIFO takes it)
          {1'b0, UART_STATUS}: rdata_o <= status;
          {1'b0, UART_RXDATA}: rdata_o <= rx_empty ? (32'd1 << UART_RXDATA_RX_EMPTY_BIT)
                                                   : {24'd0, rx_head};
          {1'b0, UART_DIV}:    rdata_o <= {16'd0, div_q};
          {1'b1, UART_DIV}:    div_q <= wdata_i[15:0];
          {1'b1, UART_CTRL}:   begin end   // (the receiver acts on it)
          default: err_o <= 1'b1;
        endcase
      end
    end
  end

`ifdef VERILATOR
  // the bit time in use, for the simulation harness's end of the line
  // (soc/sim/soc_sim.cpp --uart-pty follows what the firmware configured)
  export "DPI-C" function soc_uart_bit_cycles;
  function automatic int unsigned soc_uart_bit_cycles();
    return {16'd0, bit_cycles};
  endfunction
`endif

`ifndef SYNTHESIS
  // invariants
  always @(posedge clk_i) begin
    if (rst_ni) begin
      // the line is low only while a byte is being sent (start or data bits)
      assert (tx_busy_q || uart_tx_o)
        else $fatal(1, "soc_uart: tx line low while idle");
      // a bit never lasts longer than the bit time in use
      assert (!tx_busy_q || tx_cnt_q < bit_cycles)
        else $fatal(1, "soc_uart: tx bit counter %0d past the bit time %0d", tx_cnt_q, bit_cycles);
      assert (tx_bits_q <= 4'd9)
        else $fatal(1, "soc_uart: tx bit count %0d", tx_bits_q);
      // a byte is received only from the stop state
      assert (!rx_push_q || rx_state_q == RxIdle)
        else $fatal(1, "soc_uart: rx push outside a stop bit");
      assert (rx_state_q == RxIdle || rx_state_q == RxBreak || rx_cnt_q < bit_cycles)
        else $fatal(1, "soc_uart: rx bit counter %0d past the bit time %0d", rx_cnt_q, bit_cycles);
      // the FIFO levels fit the STATUS fields
      assert (rx_level <= RxDepth && tx_level <= TxDepth)
        else $fatal(1, "soc_uart: FIFO level out of range");
    end
  end
  initial begin
    assert (RxDepth < 256 && TxDepth < 256)
      else $fatal(1, "soc_uart: FIFO depths must fit STATUS's 8-bit level fields");
  end
`endif
endmodule
`default_nettype wire
