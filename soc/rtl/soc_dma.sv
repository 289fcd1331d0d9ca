// soc_dma -- moves words between the SoC RAM and an accelerator memory
// window over the accelerator's AXI-Stream burst path, one word per cycle.
// Descriptor (registers, soc/data/socmap.json): RAM_ADDR, TARGET (the
// window, regmap enum TARGET, in bits [3:0]; bits [30:16] the first word
// of the FS_TREE / FS_WORK memories, regmap STREAM.START), LEN (words);
// CTRL starts it:
//   to the accelerator:   AXI4-Lite STREAM <- TARGET (window and START), then LEN RAM reads
//                         streamed on s_axis (TLAST on the last word);
//   from the accelerator: STREAM <- TARGET, STREAM_OUT <- LEN, then LEN
//                         m_axis words written to RAM.
// A bad descriptor (LEN outside 1..2048, RAM_ADDR unaligned or the range
// outside RAM), an AXI error or a stream that stalls for 4096 cycles ends
// the transfer with STATUS.ERR instead of hanging. RAM reads and writes
// use the RAM's data port, ahead of the CPU (ram_req_o has priority).
`default_nettype none
module soc_dma import soc_map_pkg::*; (
  input  logic        clk_i,
  input  logic        rst_ni,
  // register port (DMA region)
  input  logic        reg_req_i,
  input  logic        reg_we_i,
  input  logic [11:0] reg_addr_i,
  input  logic [31:0] reg_wdata_i,
  output logic        reg_rvalid_o,
  output logic [31:0] reg_rdata_o,
  output logic        reg_err_o,
  // RAM data port (granted at once; read data one cycle later)
  output logic        ram_req_o,
  output logic        ram_we_o,
  output logic [31:0] ram_addr_o,
  output logic [31:0] ram_wdata_o,
  input  logic        ram_rvalid_i,
  input  logic [31:0] ram_rdata_i,
  // accelerator register access (through the shared AXI4-Lite master)
  output logic        acc_req_o,
  input  logic        acc_gnt_i,
  output logic [15:0] acc_addr_o,
  output logic [31:0] acc_wdata_o,
  input  logic        acc_rvalid_i,
  input  logic        acc_err_i,
  // accelerator streams
  output logic [31:0] s_axis_tdata_o,
  output logic        s_axis_tvalid_o,
  input  logic        s_axis_tready_i,
  output logic        s_axis_tlast_o,
  input  logic [31:0] m_axis_tdata_i,
  input  logic        m_axis_tvalid_i,
  output logic        m_axis_tready_o,
  output logic        busy_o
);
  localparam logic [15:0] RegStream = 16'h002C;     // regmap STREAM
  localparam logic [15:0] RegStreamOut = 16'h0030;  // regmap STREAM_OUT
  typedef enum logic [2:0] {Idle, SetStream, SetOut, ToAcc, FromAcc} state_e;
  state_e st_q;
  logic [31:0] addr_q, cyc_q;
  logic [3:0]  target_q;
  logic [14:0] start_q;               // STREAM.START (first word)
  logic [11:0] len_q;
  logic        dir_q;                 // 1: from the accelerator
  logic        done_q, err_q, acc_wait_q;
  logic [11:0] issued_q, sent_q;      // RAM reads issued / words sent or written
  logic [12:0] idle_q;
  // two-entry FIFO between RAM reads and s_axis
  logic [31:0] fifo_q [2];
  logic [1:0]  cnt_q;
  logic        rd_q;                  // a RAM read is in flight

  assign busy_o = (st_q != Idle);

  // descriptor check
  wire [31:0] end_addr = addr_q + {18'd0, len_q, 2'b00};
  wire        desc_ok = (len_q != 0) && (len_q <= 12'd2048) && (addr_q[1:0] == 2'b00)
                        && ((addr_q & ~RamMask) == RamBase) && (end_addr <= RamBase + RamMask + 1);

  // ---- register port
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      reg_rvalid_o <= 1'b0; reg_rdata_o <= '0; reg_err_o <= 1'b0;
    end else begin
      reg_rvalid_o <= reg_req_i;
      reg_err_o <= 1'b0;
      reg_rdata_o <= '0;
      if (reg_req_i) begin
        unique case ({reg_we_i, reg_addr_i})
          {1'b0, DMA_RAM_ADDR}: reg_rdata_o <= addr_q;
          {1'b0, DMA_TARGET}:   reg_rdata_o <= {1'b0, start_q, 12'd0, target_q};
          {1'b0, DMA_LEN}:      reg_rdata_o <= {20'd0, len_q};
          {1'b0, DMA_STATUS}:   reg_rdata_o <= {29'd0, err_q, done_q, busy_o};
          {1'b0, DMA_CYCLES}:   reg_rdata_o <= cyc_q;
          {1'b1, DMA_RAM_ADDR}, {1'b1, DMA_TARGET}, {1'b1, DMA_LEN}, {1'b1, DMA_CTRL}:
            reg_err_o <= busy_o;       // descriptor writes while busy are refused
          default: reg_err_o <= 1'b1;
        endcase
      end
    end
  end

  // ---- stream side
  wire s_fire = s_axis_tvalid_o && s_axis_tready_i;
  wire m_fire = m_axis_tvalid_i && m_axis_tready_o;
  assign s_axis_tvalid_o = (st_q == ToAcc) && (cnt_q != 0);
  assign s_axis_tdata_o = fifo_q[0];
  assign s_axis_tlast_o = (sent_q + 12'd1 == len_q);
  assign m_axis_tready_o = (st_q == FromAcc);
  wire issue = (st_q == ToAcc) && (issued_q != len_q)
               && ({1'b0, cnt_q} + {2'b0, rd_q} - {2'b0, s_fire} < 3'd2);
  assign ram_req_o = issue || m_fire;
  assign ram_we_o = m_fire;
  assign ram_addr_o = addr_q + {18'd0, (m_fire ? sent_q : issued_q), 2'b00};
  assign ram_wdata_o = m_axis_tdata_i;
  assign acc_req_o = (st_q == SetStream || st_q == SetOut) && !acc_wait_q;
  assign acc_addr_o = (st_q == SetOut) ? RegStreamOut : RegStream;
  assign acc_wdata_o = (st_q == SetOut) ? {20'd0, len_q} : {1'b0, start_q, 12'd0, target_q};

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      st_q <= Idle; addr_q <= '0; target_q <= '0; start_q <= '0; len_q <= '0; dir_q <= 1'b0;
      done_q <= 1'b0; err_q <= 1'b0; acc_wait_q <= 1'b0; cyc_q <= '0;
      issued_q <= '0; sent_q <= '0; idle_q <= '0; cnt_q <= '0; rd_q <= 1'b0;
      fifo_q[0] <= '0; fifo_q[1] <= '0;
    end else begin
      if (st_q != Idle) cyc_q <= cyc_q + 32'd1;
      unique case (st_q)
        Idle: if (reg_req_i && reg_we_i) begin
          unique case (reg_addr_i)
            DMA_RAM_ADDR: addr_q <= reg_wdata_i;
            DMA_TARGET:   begin target_q <= reg_wdata_i[3:0]; start_q <= reg_wdata_i[30:16]; end
            DMA_LEN:      len_q <= (reg_wdata_i > 32'd2048) ? 12'd0 : reg_wdata_i[11:0];
            DMA_CTRL: if (reg_wdata_i[1:0] != 2'b00) begin
              done_q <= 1'b0; cyc_q <= '0; issued_q <= '0; sent_q <= '0;
              idle_q <= '0; cnt_q <= '0; rd_q <= 1'b0; acc_wait_q <= 1'b0;
              dir_q <= reg_wdata_i[1];
              if (!desc_ok || reg_wdata_i[1:0] == 2'b11) begin
                err_q <= 1'b1; done_q <= 1'b1;
              end else begin
                err_q <= 1'b0; st_q <= SetStream;
              end
            end
            default: ;
          endcase
        end
        SetStream, SetOut: begin
          if (acc_req_o && acc_gnt_i) acc_wait_q <= 1'b1;
          if (acc_rvalid_i) begin
            acc_wait_q <= 1'b0;
            if (acc_err_i) begin
              err_q <= 1'b1; done_q <= 1'b1; st_q <= Idle;
            end else if (st_q == SetStream) begin
              st_q <= dir_q ? SetOut : ToAcc;
            end else begin
              st_q <= FromAcc;
            end
          end
        end
        ToAcc: begin
          rd_q <= issue;
          // FIFO: push the word read last cycle, pop what s_axis took
          unique case ({rd_q && ram_rvalid_i, s_fire})
            2'b10: begin fifo_q[cnt_q[0]] <= ram_rdata_i; cnt_q <= cnt_q + 2'd1; end
            2'b01: begin fifo_q[0] <= fifo_q[1]; cnt_q <= cnt_q - 2'd1; end
            2'b11: begin
              if (cnt_q == 2'd1) fifo_q[0] <= ram_rdata_i;
              else begin fifo_q[0] <= fifo_q[1]; fifo_q[1] <= ram_rdata_i; end
            end
            default: ;
          endcase
          if (issue) issued_q <= issued_q + 12'd1;
          if (s_fire) begin
            sent_q <= sent_q + 12'd1;
            idle_q <= '0;
            if (sent_q + 12'd1 == len_q) begin done_q <= 1'b1; st_q <= Idle; end
          end else begin
            idle_q <= idle_q + 13'd1;
            if (idle_q[12]) begin err_q <= 1'b1; done_q <= 1'b1; st_q <= Idle; end
          end
        end
        FromAcc: begin
          if (m_fire) begin
            sent_q <= sent_q + 12'd1;
            idle_q <= '0;
            if (sent_q + 12'd1 == len_q) begin done_q <= 1'b1; st_q <= Idle; end
          end else begin
            idle_q <= idle_q + 13'd1;
            if (idle_q[12]) begin err_q <= 1'b1; done_q <= 1'b1; st_q <= Idle; end
          end
        end
        default: st_q <= Idle;
      endcase
    end
  end
endmodule
`default_nettype wire
