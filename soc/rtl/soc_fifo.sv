// soc_fifo -- synchronous FIFO (the UART's receive and transmit queues).
// Push and pop in the same cycle are both taken, also when the FIFO is full
// (the popped entry makes the room). A push into a full FIFO without a pop
// is dropped (the caller sees full_o and counts it); a pop of an empty FIFO
// does nothing. rdata_o is the oldest entry (valid while !empty_o).
`default_nettype none
module soc_fifo #(
  parameter int Width = 8,
  parameter int Depth = 16,                    // a power of two, >= 2
  parameter int LW    = $clog2(Depth + 1)      // level_o width (leave it)
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             clr_i,                       // empty it (wins over push)
  input  logic             push_i,
  input  logic [Width-1:0] wdata_i,
  input  logic             pop_i,
  output logic [Width-1:0] rdata_o,
  output logic             full_o,
  output logic             empty_o,
  output logic [LW-1:0]    level_o
);
  localparam int AW = $clog2(Depth);
  localparam logic [LW-1:0] Full = Depth;
  logic [Width-1:0] mem_q [Depth];
  logic [AW-1:0]    wptr_q, rptr_q;
  logic [LW-1:0]    level_q;

  wire do_pop  = pop_i && (level_q != '0);
  wire do_push = push_i && ((level_q != Full) || do_pop);

  always_ff @(posedge clk_i) begin
    if (do_push) mem_q[wptr_q] <= wdata_i;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wptr_q <= '0; rptr_q <= '0; level_q <= '0;
    end else if (clr_i) begin
      wptr_q <= '0; rptr_q <= '0; level_q <= '0;
    end else begin
      if (do_push) wptr_q <= wptr_q + 1'b1;
      if (do_pop)  rptr_q <= rptr_q + 1'b1;
      if (do_push && !do_pop)      level_q <= level_q + 1'b1;
      else if (do_pop && !do_push) level_q <= level_q - 1'b1;
    end
  end

  assign rdata_o = mem_q[rptr_q];
  assign full_o  = level_q == Full;
  assign empty_o = level_q == '0;
  assign level_o = level_q;

`ifndef SYNTHESIS
  // invariants: the level never exceeds the depth; the pointers are the
  // level apart (modulo the depth)
  always @(posedge clk_i) begin
    if (rst_ni) begin
      assert (level_q <= Full)
        else $fatal(1, "soc_fifo: level %0d above depth %0d", level_q, Depth);
      assert (((wptr_q - rptr_q) & (Depth - 1)) == (level_q & (Depth - 1)))
        else $fatal(1, "soc_fifo: pointers %0d/%0d disagree with level %0d", wptr_q, rptr_q, level_q);
    end
  end
  initial begin
    assert (Depth >= 2 && (Depth & (Depth - 1)) == 0)
      else $fatal(1, "soc_fifo: Depth %0d must be a power of two >= 2", Depth);
  end
`endif
endmodule
`default_nettype wire
