#include "kernels/ptx/ptx_passes.h"

#include <algorithm>
#include <array>
#include <stdexcept>

#include "kernels/ptx/ptx_instrument.h"
#include "kernels/ptx/ptx_runtime.h"
#include "kernels/core/trace_format.h"

namespace threadmap::cuda {

std::string line_prefix(std::string_view text, std::size_t offset) {
  return "PTX line " + std::to_string(ptx::line_at(text, offset)) + ": ";
}

void Splice::before(const ptx::Statement& s, std::string glue) {
  std::size_t line_start = s.begin;
  while (line_start > 0 && (text_[line_start - 1] == ' ' || text_[line_start - 1] == '\t')) --line_start;
  if (line_start == 0 || text_[line_start - 1] == '\n') out_.push_back({line_start, std::move(glue)});
  else out_.push_back({s.begin, "\n" + glue + "\t"});
}

void Splice::after(const ptx::Statement& s, std::string glue) {
  const auto newline = text_.find('\n', s.end);
  if (newline == std::string_view::npos) out_.push_back({text_.size(), "\n" + glue});
  else out_.push_back({newline + 1, std::move(glue)});
}

void Splice::replace(const ptx::Statement& s, std::string text) {
  out_.push_back({s.begin, std::move(text), s.end - s.begin});
}

void Splice::at(std::size_t offset, std::string text) { out_.push_back({offset, std::move(text)}); }

bool ControlFlow::in_loop(std::size_t statement) const {
  for (const auto& [at, target] : branches) {
    const auto label = labels.find(target);
    if (at > statement && label != labels.end() && label->second < statement) return true;
  }
  return false;
}

namespace {

// Registers and names the glue adds; the reserved prefix keeps them apart
// from the compiler's (%r, %rd, %f, %p, ...).
constexpr std::string_view kBuffer = "%threadmap_buffer";  // the trace buffer's address

// The access pass's registers.
constexpr std::string_view kBlock = "%threadmap_block";
constexpr std::string_view kThread = "%threadmap_thread";
constexpr std::string_view kOn = "%threadmap_on";
constexpr std::string_view kSlot = "%threadmap_slot";
constexpr std::string_view kAddress = "%threadmap_address";
constexpr std::string_view kInside = "%threadmap_inside";    // threadmap_access's answer
constexpr std::string_view kMay = "%threadmap_may";          // per machine access: may it be made
constexpr std::string_view kGuarded = "%threadmap_guarded";  // an instruction's own guard, and may
constexpr std::string_view kNotGuard = "%threadmap_not_guard";
constexpr std::string_view kSharedFirst = "%threadmap_shared_first";  // the shared arrays' bytes
constexpr std::string_view kSharedEnd = "%threadmap_shared_end";
constexpr std::string_view kSharedAt = "%threadmap_shared_at";
constexpr std::string_view kDynamicBytes = "%threadmap_dynamic_bytes";

// The clock pass's registers (what each holds: ClockPass::clock_values);
// per barrier site i, %threadmap_arrived<i>, %threadmap_left<i> and
// %threadmap_pass<i>.
constexpr std::string_view kStart = "%threadmap_start";
constexpr std::string_view kArrival = "%threadmap_arrival";
constexpr std::string_view kRelease = "%threadmap_release";
constexpr std::string_view kEnd = "%threadmap_end";
constexpr std::string_view kAddress64 = "%threadmap_at";
constexpr std::string_view kPasses = "%threadmap_passes";
constexpr std::string_view kWarp = "%threadmap_warp";
constexpr std::string_view kWord = "%threadmap_word";
constexpr std::string_view kCount = "%threadmap_count";
constexpr std::string_view kTemp = "%threadmap_temp";
constexpr std::string_view kLead = "%threadmap_lead";
constexpr std::string_view kTrue = "%threadmap_true";
constexpr std::string_view kBlocks = "%threadmap_blocks";
constexpr std::string_view kReleased = "%threadmap_released";
constexpr std::string_view kKeep = "%threadmap_keep";
constexpr std::string_view kSiteArrival = "%threadmap_arrived";
constexpr std::string_view kSiteRelease = "%threadmap_left";
constexpr std::string_view kSitePass = "%threadmap_pass";
constexpr std::string_view kPassed = "%threadmap_passed";
constexpr std::string_view kLane = "%threadmap_lane";

std::string text(std::string_view s) { return std::string(s); }

// What a PTX template's {names} stand for.
using Values = std::map<std::string, std::string, std::less<>>;

std::string substitute(std::string_view line, const Values& values) {
  std::string out;
  for (std::size_t at = 0; at < line.size();) {
    const std::size_t open = line.find('{', at);
    if (open == std::string_view::npos) {
      out.append(line.substr(at));
      break;
    }
    const std::size_t close = line.find('}', open);
    const auto value = values.find(line.substr(open + 1, close - open - 1));
    if (close == std::string_view::npos || value == values.end())
      throw std::logic_error("PTX template: nothing bound to " + std::string(line.substr(open)));
    out.append(line.substr(at, open - at));
    out += value->second;
    at = close + 1;
  }
  return out;
}

// PTX written as a template: one statement a line (an instruction, a label
// `name:` or a `// comment`), {name} for what `values` binds. Written out
// as all of the glue is: a tab, the guard and the opcode, a tab, the operands.
std::string fill(std::string_view ptx_template, const Values& values) {
  std::string out;
  for (std::size_t at = 0; at <= ptx_template.size();) {
    std::size_t end = ptx_template.find('\n', at);
    if (end == std::string_view::npos) end = ptx_template.size();
    const std::string line = substitute(ptx::trim(ptx_template.substr(at, end - at)), values);
    at = end + 1;
    if (line.empty()) continue;
    if (line.starts_with("//")) {
      out += "\t" + line + "\n";
    } else if (line.ends_with(':')) {
      out += line + "\n";
    } else {
      std::string_view rest = line;
      std::string guard;
      if (rest.starts_with('@')) {
        guard = std::string(rest.substr(0, rest.find(' '))) + " ";
        rest = ptx::trim(rest.substr(rest.find(' ')));
      }
      const std::size_t space = rest.find(' ');
      out +=
          "\t" + guard + std::string(rest.substr(0, space)) + " \t" + std::string(ptx::trim(rest.substr(space))) + "\n";
    }
  }
  return out;
}

std::string comment(std::string_view what) { return "\t// threadmap: " + std::string(what) + "\n"; }

int log2_of(int bytes) {
  int log = 0;
  while ((1 << log) < bytes) ++log;
  return log;
}

// The access pass: a call into trace_runtime.cuh at each place.
class AccessPass final : public PassGlue {
 public:
  AccessPass(Splice& splice, AccessGlueOptions options) : splice_(splice), options_(options) {}

  void begin(const ptx::Statement& first) override {
    std::string glue = comment("the trace buffer, this thread's ids, whether its block is traced");
    if (options_.trace_buffer)
      glue += "\tmov.u64 \t" + text(kBuffer) + ", " + std::to_string(options_.trace_buffer) + ";\n";
    else
      glue += "\tld.param.u64 \t" + text(kBuffer) + ", [" + text(kTraceBufferParameter) + "];\n";
    glue += ptx::runtime_call("block id", {}, "threadmap_block_id", {}, kBlock);
    glue += ptx::runtime_call("thread id", {}, "threadmap_thread_id", {}, kThread);
    glue += ptx::runtime_call("begin", {}, "threadmap_begin", {text(kBuffer), text(kBlock), text(kThread)}, kOn);
    splice_.before(first, glue);
    first_ = &first;
  }

  void barrier(const Barrier& b) override {
    const std::string line = std::to_string(b.line);
    const std::string opcode(b.instruction.opcode);
    splice_.before(*b.statement,
                   ptx::runtime_call(opcode + " arrival, line " + line, b.instruction.guard, "threadmap_arrive",
                                     {text(kBuffer), text(kOn), text(kBlock), text(kThread), line}, kSlot));
    splice_.after(*b.statement, ptx::runtime_call(opcode + " release, line " + line, b.instruction.guard,
                                                  "threadmap_release", {text(kBuffer), text(kSlot), text(kBlock)}));
  }

  void exit(const Exit& e) override {
    if (!options_.exits_end_block) return;  // a function's return
    splice_.before(*e.statement, ptx::runtime_call(std::string(e.op) + ": the block's end", e.guard, "threadmap_end",
                                                   {text(kBuffer), text(kBlock), text(kThread)}));
  }

  void access(const MachineAccess& a) override {
    const unsigned flags = (a.store ? TM_F_STORE : 0u) | (a.reduction ? TM_F_REDUCTION : 0u) |
                           (static_cast<unsigned>(log2_of(a.bytes)) << TM_F_SIZE_SHIFT) |
                           (a.atomic << TM_HOOK_ATOM_SHIFT) |
                           (options_.make_every_access ? TM_HOOK_RUNTIME_DATA : 0u);
    std::string what(a.opcode);
    if (a.members > 1)
      what += " x" + std::to_string(a.members) + " (one " + std::to_string(a.bytes) +
              "-byte access: contiguous and aligned)";
    if (a.merged > a.members) what += " (with the conditional store to the same address after it)";
    const std::string may = text(kMay) + std::to_string(accesses_++);
    splice_.before(*a.first, ptx::runtime_call(what + ", line " + std::to_string(a.line), a.guard, "threadmap_access",
                                               {text(kBuffer), text(kOn), text(kBlock), text(kThread),
                                                std::to_string(a.line), std::to_string(flags), text(kAddress),
                                                std::to_string(a.space_code), text(kSharedFirst), text(kSharedEnd)},
                                               kInside, address_prelude(a)) +
                                 "\tsetp.ne.u32 \t" + may + ", " + text(kInside) + ", 0;\n");
    // A module variable named directly (`ld.global [counters+8]`) lies in no
    // buffer the host knows of: made whatever the answer.
    if (a.address.base == Address::Base::Symbol && a.space_code != kSpaceShared) return;
    if (options_.make_every_access) return;
    for (const ptx::Statement* s : a.statements) made_only_if(*s, may);
  }

  void shared_arrays(const std::vector<ptx::Variable>& arrays) override {
    if (!options_.make_every_access) shared_arrays_ = arrays;
  }

  // The shared window's bytes the entry's arrays take, for threadmap_access:
  // from the lowest array's first byte to the highest one's end (an
  // .extern array ends %dynamic_smem_size bytes on). In an image another
  // runtime launches, the shared variables are that runtime's (GCC's team
  // state and the values it broadcasts to a warp's lanes): the window is
  // empty, and each shared access is the runtime's own.
  void end(const ControlFlow&) override {
    if (!first_) return;
    std::string glue = comment("the shared arrays' bytes, which a shared access must fall in");
    glue += "\tmov.u32 \t" + text(kSharedFirst) + ", -1;\n\tmov.u32 \t" + text(kSharedEnd) + ", 0;\n";
    for (const ptx::Variable& v : shared_arrays_) {
      if (v.bytes == 0 && !v.external) continue;
      glue += "\tmov.u32 \t" + text(kSharedAt) + ", " + v.name + ";\n";
      glue += "\tmin.u32 \t" + text(kSharedFirst) + ", " + text(kSharedFirst) + ", " + text(kSharedAt) + ";\n";
      if (v.external) {
        glue += "\tmov.u32 \t" + text(kDynamicBytes) + ", %dynamic_smem_size;\n";
        glue += "\tadd.u32 \t" + text(kSharedAt) + ", " + text(kSharedAt) + ", " + text(kDynamicBytes) + ";\n";
      } else {
        glue += "\tadd.u32 \t" + text(kSharedAt) + ", " + text(kSharedAt) + ", " + std::to_string(v.bytes) + ";\n";
      }
      glue += "\tmax.u32 \t" + text(kSharedEnd) + ", " + text(kSharedEnd) + ", " + text(kSharedAt) + ";\n";
    }
    splice_.before(*first_, glue);
  }

  std::string declarations() const override {
    std::string decl = "\n\t.reg .b64 \t" + text(kBuffer) + ";\n";
    for (std::string_view r :
         {kBlock, kThread, kOn, kSlot, kInside, kSharedFirst, kSharedEnd, kSharedAt, kDynamicBytes})
      decl += "\t.reg .b32 \t" + text(r) + ";\n";
    for (std::string_view r : {kGuarded, kNotGuard}) decl += "\t.reg .pred \t" + text(r) + ";\n";
    if (accesses_) decl += "\t.reg .pred \t" + text(kMay) + "<" + std::to_string(accesses_) + ">;\n";
    return decl;
  }

 private:
  // The access's address, in any form, as one 64-bit register for the call.
  static std::vector<std::string> address_prelude(const MachineAccess& access) {
    const Address& a = access.address;
    const std::string to(kAddress);
    std::vector<std::string> prelude{".reg .b64 \t" + to + ";"};
    switch (a.base) {
      case Address::Base::Register:
        prelude.push_back((access.address_bits == 64 ? "mov.b64 \t" : "cvt.u64.u32 \t") + to + ", " + a.name + ";");
        break;
      case Address::Base::Symbol: prelude.push_back("mov.u64 \t" + to + ", " + a.name + ";"); break;
      case Address::Base::Absolute:
        prelude.push_back("mov.u64 \t" + to + ", " + std::to_string(a.offset) + ";");
        return prelude;
    }
    if (a.offset != 0) prelude.push_back("add.s64 \t" + to + ", " + to + ", " + std::to_string(a.offset) + ";");
    return prelude;
  }

  // The instruction, made only where `may` holds (and its own guard, if any).
  void made_only_if(const ptx::Statement& s, const std::string& may) {
    const ptx::Instruction in = ptx::parse_instruction(s.text);
    std::string guard = "@" + may;
    if (!in.guard.empty()) {
      const bool negated = in.guard.starts_with("@!");
      const std::string own(in.guard.substr(negated ? 2 : 1));
      std::string combine;
      if (negated) combine += "\tnot.pred \t" + text(kNotGuard) + ", " + own + ";\n";
      combine += "\tand.pred \t" + text(kGuarded) + ", " + (negated ? text(kNotGuard) : own) + ", " + may + ";\n";
      splice_.before(s, combine);
      guard = "@" + text(kGuarded);
    }
    splice_.replace(s, guard + " " + std::string(in.opcode) + " \t" + std::string(in.operands) + ";");
  }

  Splice& splice_;
  AccessGlueOptions options_;
  const ptx::Statement* first_ = nullptr;
  std::vector<ptx::Variable> shared_arrays_;
  int accesses_ = 0;
};

// The clock pass's templates. Nothing before the first barrier but the
// start clock and constants: the thread's ids and the buffer's address are
// read at the end, so that no special-register read (slow, and queued
// across the SM's warps) delays an arrival.
constexpr std::string_view kClockBegin = R"(
// threadmap: the clock pass; the warp's start clock first
mov.u64 {start}, %clock64;
mov.pred {true}, 1;
mov.u32 {passes}, 0;
)";

// Right before the barrier, with nothing between.
constexpr std::string_view kArrivalClock = "mov.u64 {arrival}, %clock64;";

// The release clock under a predicate computed from the barrier's own
// result, so never read before the wait ended: a population count (never
// all ones), or a reduction's predicate.
constexpr std::string_view kReleasedByCount = "setp.ne.u32 {released}, {result}, 0xffffffff;";
constexpr std::string_view kReleasedByPredicate = R"(
selp.u32 {result_word}, 1, 2, {result};
setp.ne.u32 {released}, {result_word}, 0;
)";
constexpr std::string_view kReleaseClock = R"(
@{released} mov.u64 {release}, %clock64;
@!{released} mov.u64 {release}, 0;
)";

// A barrier in a loop: the site keeps its first pass and its number.
constexpr std::string_view kKeepFirstPass = R"(
setp.eq.u32 {keep}, {site_pass}, {no_pass};
@{keep} cvt.u32.u64 {site_arrival}, {arrival};
@{keep} cvt.u32.u64 {site_release}, {release};
@{keep} mov.u32 {site_pass}, {passes};
)";
// No barrier in a loop: the site's one pass, and its bit in `passed`.
constexpr std::string_view kKeepThePass = R"(
cvt.u32.u64 {site_arrival}, {arrival};
cvt.u32.u64 {site_release}, {release};
or.b32 {passed}, {passed}, {site_bit};
)";
constexpr std::string_view kCountPass = "add.u32 {passes}, {passes}, 1;";
constexpr std::string_view kSiteStampsStart = R"(
mov.u32 {site_arrival}, 0;
mov.u32 {site_release}, 0;
)";

// At an exit, what runs on the SM beside the next block's first warps (a
// block that ends is replaced by one that starts, and that one's warps are
// issuing their first special-register reads on the way to the barrier). So
// the exit reads as few special registers as it can:
//   - the ids the kernel reads itself (%tid.x, %ctaid.x, ...) are read again
//     where the kernel's reads reach, and ptxas reuses them;
//   - the ids it does not read (%tid.y, %tid.z, %ctaid.y, %ctaid.z) are 0
//     where their extents are 1: one path for that case reads none of them,
//     another reads them all. Each path is a whole copy of the exit's stores,
//     so that ptxas keeps the branch: a short guarded read it turns into an
//     unconditional one (at the barrier's release, in every warp: an
//     `@p mov %tid.z` read in setRowReadCol's warps with no z extent);
//   - only warp 0 of a block reads %smid (every warp of a block runs on one
//     SM) and writes it into each warp's record (kBlockSm).
// The test of the extents ((extent - 1) | ..., 0 where each is 1) reads the
// constant bank only.
constexpr std::string_view kFlatExtents = R"(
setp.ne.u32 {keep}, {special}, 0;
@{keep} bra.uni {general};
)";

// The thread's warp, and whether it is lane 0, which alone writes the
// warp's record; the others go on to kBlockSm. The end clock, and the
// buffer's address, read here: no register is held through the kernel for it.
constexpr std::string_view kLaneZero = R"(
shr.u32 {warp}, {thread}, 5;
and.b32 {lane}, {thread}, 31;
setp.eq.u32 {lead}, {lane}, 0;
@!{lead} bra {sm_part};
mov.u64 {end_clock}, %clock64;
ld.param.u64 {buffer}, [{buffer_parameter}];
)";

// The warps per block (from the constant bank).
constexpr std::string_view kWarpsPerBlock = R"(
mov.u32 {warps_per_block}, %ntid.x;
mov.u32 {special}, %ntid.y;
mul.lo.u32 {warps_per_block}, {warps_per_block}, {special};
mov.u32 {special}, %ntid.z;
mul.lo.u32 {warps_per_block}, {warps_per_block}, {special};
add.u32 {warps_per_block}, {warps_per_block}, 31;
shr.u32 {warps_per_block}, {warps_per_block}, 5;
)";

// The warp's schedule record: record block * warps + warp of the section
// after the header.
constexpr std::string_view kScheduleRecordAddress = R"(
mul.wide.u32 {record_offset}, {block}, {warps_per_block};
cvt.u64.u32 {warp_wide}, {warp};
add.s64 {record_offset}, {record_offset}, {warp_wide};
mul.lo.u64 {record_offset}, {record_offset}, {schedule_record_bytes};
add.s64 {schedule_record}, {buffer}, {record_offset};
)";

// The block's SM, after the records and stamps (their registers are free
// by then): warp 0 reads %smid, and its lane w writes it into warp w's
// record (w + 32 ... for blocks of more warps). A loop, so that ptxas keeps
// the branch around it: a short guarded %smid read it makes in every warp,
// guarded or not. Then the block's ids again, and the warps per block.
constexpr std::string_view kBlockSmStart = R"(
{sm_part}:
setp.ne.u32 {keep}, {warp}, 0;
@{keep} bra.uni {sm_written};
ld.param.u64 {buffer}, [{buffer_parameter}];
)";
constexpr std::string_view kBlockSm = R"(
mov.u32 {special}, %smid;
{sm_next}:
setp.ge.u32 {keep}, {lane}, {warps_per_block};
@{keep} bra {sm_written};
mul.wide.u32 {record_offset}, {block}, {warps_per_block};
cvt.u64.u32 {warp_wide}, {lane};
add.s64 {record_offset}, {record_offset}, {warp_wide};
mul.lo.u64 {record_offset}, {record_offset}, {schedule_record_bytes};
add.s64 {schedule_record}, {buffer}, {record_offset};
st.global.u32 [{schedule_record}+{sm_at}], {special};
add.u32 {lane}, {lane}, 32;
bra {sm_next};
{sm_written}:
)";

// After the record's stores: the slot table, which follows the schedule
// (blocks * warps records), and the block's entry in it. (Loaded before the
// stores, its value and the table's place would be held through them, and
// the nine-barrier reductions would spill past their 32 registers.)
constexpr std::string_view kSlotTable = R"(
mov.u32 {blocks}, %nctaid.x;
mov.u32 {special}, %nctaid.y;
mul.lo.u32 {blocks}, {blocks}, {special};
mov.u32 {special}, %nctaid.z;
mul.lo.u32 {blocks}, {blocks}, {special};
mul.wide.u32 {slot_table}, {blocks}, {warps_per_block};
mul.lo.u64 {slot_table}, {slot_table}, {schedule_record_words};
add.s64 {slot_table}, {slot_table}, {header_words};
)";
// The block's first slot, or none, and then no stamps to write. Where the
// grid has at most TM_CLOCK_SAMPLE_WARPS warps, every block is sampled and
// its first slot is block * warps-per-block, loaded from nowhere: a load at
// the warp's end would keep its block on the SM while the next blocks pass
// their barriers. Else the slot table's entry.
constexpr std::string_view kBlockSlot = R"(
mul.wide.u32 {slot_entry}, {blocks}, {warps_per_block};
setp.le.u64 {dense}, {slot_entry}, {sample_warps};
@{dense} mul.lo.u32 {slot}, {block}, {warps_per_block};
@{dense} bra.uni {slot_found};
cvt.u64.u32 {slot_entry}, {block};
add.s64 {slot_entry}, {slot_entry}, {slot_table};
shl.b64 {slot_entry}, {slot_entry}, 2;
add.s64 {slot_entry}, {slot_entry}, {buffer};
ld.global.u32 {slot}, [{slot_entry}];
setp.eq.u32 {unsampled}, {slot}, {no_slot};
@{unsampled} bra {sm_part};
{slot_found}:
)";

// The record's other words.
constexpr std::string_view kScheduleRecord = R"(
st.global.u64 [{schedule_record}+{start_at}], {start};
st.global.u64 [{schedule_record}+{end_clock_at}], {end_clock};
mov.u64 {end_time}, %globaltimer;
st.global.u64 [{schedule_record}+{end_time_at}], {end_time};
st.global.u32 [{schedule_record}+{written_at}], {written};
)";

// The stamps follow the table (blocks words, to an 8-byte boundary); the
// warp's slot follows its block's first.
constexpr std::string_view kStampsRecord = R"(
cvt.u64.u32 {blocks_wide}, {blocks};
add.s64 {stamps_section}, {slot_table}, {blocks_wide};
add.s64 {stamps_section}, {stamps_section}, 1;
and.b64 {stamps_section}, {stamps_section}, -2;
shl.b64 {stamps_section}, {stamps_section}, 2;
add.s64 {stamps_record}, {stamps_section}, {buffer};
add.u32 {slot}, {slot}, {warp};
mul.wide.u32 {slot_offset}, {slot}, {stamps_record_bytes};
add.s64 {stamps_record}, {stamps_record}, {slot_offset};
st.global.u32 [{stamps_record}+{block_at}], {block};
min.u32 {warp_passes}, {passes}, 65535;
shl.b32 {warp_passes}, {warp_passes}, 16;
or.b32 {warp_passes}, {warp_passes}, {warp};
st.global.u32 [{stamps_record}+{warp_passes_at}], {warp_passes};
st.global.u64 [{stamps_record}+{start_clock_at}], {start};
st.global.u32 [{stamps_record}+{sites_at}], {sites};
)";

// Each timed site's stamps, and whether (or which) pass they are.
constexpr std::string_view kSiteStamps = R"(
st.global.u32 [{stamps_record}+{arrival_at}], {site_arrival};
st.global.u32 [{stamps_record}+{release_at}], {site_release};
st.global.u32 [{stamps_record}+{line_at}], {line};
)";
constexpr std::string_view kSiteFirstPass = "st.global.u32 [{stamps_record}+{pass_at}], {site_pass};";
constexpr std::string_view kSitePassedInOrder = R"(
and.b32 {site_bit_set}, {passed}, {site_bit};
setp.ne.u32 {site_passed}, {site_bit_set}, 0;
selp.u32 {site_pass_word}, {in_order}, {no_pass}, {site_passed};
st.global.u32 [{stamps_record}+{pass_at}], {site_pass_word};
)";
constexpr std::string_view kStampsWritten = R"(
st.global.u32 [{stamps_record}+{written_at}], {written};
)";

std::string word_offset(int word) { return std::to_string(word * 4); }

// The clock pass (ptx_instrument.h, Pass::Clock). Its glue at the barriers
// and exits is written after the walk, once it is known whether any
// barrier sits in a loop.
class ClockPass final : public PassGlue {
 public:
  explicit ClockPass(Splice& splice) : splice_(splice) {}

  void begin(const ptx::Statement& first) override {
    splice_.before(first, fill(kClockBegin, clock_values()));
    first_ = &first;
  }
  void barrier(const Barrier& b) override { sites_.push_back(b); }
  void exit(const Exit& e) override { exits_.push_back(e); }
  void access(const MachineAccess&) override {}

  void end(const ControlFlow& flow) override {
    for (const Barrier& site : sites_) looped_ = looped_ || flow.in_loop(site.index);
    for (std::size_t i = 0; i < sites_.size(); ++i) site_glue(sites_[i], i);
    if (first_) splice_.before(*first_, site_registers_start());
    find_reads();
    for (const Exit& e : exits_) splice_.before(*e.statement, end_glue(e));
  }

  std::string declarations() const override {
    std::string decl = "\n\t.reg .b64 \t" + text(kBuffer) + ";\n";
    for (std::string_view r : {kStart, kArrival, kRelease, kEnd, kAddress64})
      decl += "\t.reg .b64 \t" + text(r) + ";\n";
    for (std::string_view r : {kPasses, kWarp, kWord, kCount, kTemp, kBlocks, kLane})
      decl += "\t.reg .b32 \t" + text(r) + ";\n";
    if (!looped_) decl += "\t.reg .b32 \t" + text(kPassed) + ";\n";
    if (const std::size_t n = timed_sites())
      for (std::string_view r : {kSiteArrival, kSiteRelease, kSitePass})
        if (r != kSitePass || looped_) decl += "\t.reg .b32 \t" + text(r) + "<" + std::to_string(n) + ">;\n";
    for (std::string_view r : {kLead, kTrue, kReleased, kKeep}) decl += "\t.reg .pred \t" + text(r) + ";\n";
    return decl;
  }

 private:
  // What the templates name: the trace format's numbers, and registers by
  // what they hold.
  static Values clock_values() {
    Values values{{"no_pass", std::to_string(TM_NO_PASS)},
                  {"in_order", std::to_string(TM_PASS_IN_ORDER)},
                  {"written", std::to_string(TM_CLOCK_WRITTEN)},
                  {"no_slot", std::to_string(TM_NO_SLOT)},
                  {"sample_warps", std::to_string(TM_CLOCK_SAMPLE_WARPS)},
                  {"header_words", std::to_string(TM_HEADER_WORDS)},
                  {"schedule_record_words", std::to_string(TM_CLOCK_SCHEDULE_WORDS)},
                  {"schedule_record_bytes", std::to_string(TM_CLOCK_SCHEDULE_WORDS * 4)},
                  {"stamps_record_bytes", std::to_string(TM_CLOCK_WARP_WORDS * 4)},
                  {"buffer_parameter", text(kTraceBufferParameter)},
                  {"buffer", text(kBuffer)},
                  {"start", text(kStart)},
                  {"arrival", text(kArrival)},
                  {"release", text(kRelease)},
                  {"passes", text(kPasses)},
                  {"true", text(kTrue)},
                  {"released", text(kReleased)},
                  {"keep", text(kKeep)},
                  {"passed", text(kPassed)},
                  {"warp", text(kWarp)},
                  {"lead", text(kLead)},
                  {"blocks", text(kBlocks)},
                  {"lane", text(kLane)}};
    // Short-lived values share registers, each dead before the next one in
    // its register is written. Giving each its own register changes the
    // machine code ptxas makes of the pass (the hand-written forms kernel:
    // 30 registers become 32; reduce_warp_shuffle<int, 256>: other code),
    // and the pass must run the code its figures were measured with.
    const auto share = [&](std::string_view reg, std::initializer_list<std::string_view> names) {
      for (std::string_view name : names) values.emplace(std::string(name), text(reg));
    };
    share(kWord, {"result_word", "special", "slot", "site_bit_set", "site_pass_word"});
    share(kTemp, {"thread", "warps_per_block", "warp_passes"});
    share(kKeep, {"has_z", "unsampled", "dense", "site_passed"});
    share(kCount, {"block"});
    share(kArrival, {"slot_table", "stamps_section", "slot_offset"});
    share(kRelease, {"record_offset", "slot_entry", "blocks_wide"});
    share(kAddress64, {"warp_wide", "schedule_record", "stamps_record"});
    share(kEnd, {"end_clock", "end_time"});
    return values;
  }

  // A site's own registers, and its bit among the passed sites.
  static void bind_site(Values& values, std::size_t site) {
    const std::string n = std::to_string(site);
    values["site_arrival"] = text(kSiteArrival) + n;
    values["site_release"] = text(kSiteRelease) + n;
    values["site_pass"] = text(kSitePass) + n;
    values["site_bit"] = std::to_string(1u << site);
  }

  std::size_t timed_sites() const { return std::min<std::size_t>(sites_.size(), TM_CLOCK_PASSES); }

  // A guarded barrier's or exit's glue runs only where it does: a branch
  // around it where the guard is false.
  struct Skip {
    std::string branch, label;
  };
  Skip skip_unless(std::string_view guard) {
    if (guard.empty()) return {};
    std::string negated(guard);
    negated = negated.starts_with("@!") ? "@" + negated.substr(2) : "@!" + negated.substr(1);
    const std::string label = "$threadmap_skip_" + std::to_string(++labels_);
    return {"\t" + negated + " bra \t" + label + ";\n", label + ":\n"};
  }

  // A site's glue: the arrival clock right before the barrier; the barrier
  // in its reduction form, whose result gates the release clock; the stamps
  // kept in the site's registers. Where no barrier sits in a loop, each
  // site is passed at most once and the host numbers a warp's passes by
  // their arrival clocks; where one does, each site keeps its first pass
  // and its pass number, in a third register. Past TM_CLOCK_PASSES sites, a
  // pass is only counted.
  void site_glue(const Barrier& site, std::size_t index) {
    const ptx::Statement& s = *site.statement;
    const ptx::Instruction& in = site.instruction;
    const std::string what = std::string(in.opcode) + ", line " + std::to_string(site.line);
    Values values = clock_values();
    // The release's skip label is numbered before the arrival's.
    const Skip release_skip = skip_unless(in.guard);
    if (index >= TM_CLOCK_PASSES) {
      splice_.after(s, comment(what + ": a pass, counted, not timed") + release_skip.branch + fill(kCountPass, values) +
                           release_skip.label);
      return;
    }
    bind_site(values, index);
    const Skip arrival_skip = skip_unless(in.guard);
    splice_.before(s, comment(std::string(in.opcode) + " arrival, line " + std::to_string(site.line)) +
                          arrival_skip.branch + fill(kArrivalClock, values) + arrival_skip.label);
    const std::vector<std::string_view> words = ptx::opcode_words(in.opcode);
    const bool predicate = reduction_result(site, words, values);
    std::string glue = comment(std::string(in.opcode) + " release, line " + std::to_string(site.line) +
                               ": the clock under the barrier's own result") +
                       release_skip.branch;
    glue += fill(predicate ? kReleasedByPredicate : kReleasedByCount, values);
    glue += fill(kReleaseClock, values);
    glue += fill(looped_ ? kKeepFirstPass : kKeepThePass, values);
    glue += fill(kCountPass, values) + release_skip.label;
    splice_.after(s, glue);
  }

  // The barrier's result, bound as {result}: a reduction's own (true where
  // it is a predicate); else the barrier is made its reduction form,
  // bar.sync a{, b} -> bar.red.popc.u32 count, a{, b}, true: the same
  // barrier (same memory ordering), with a result to wait on.
  bool reduction_result(const Barrier& site, const std::vector<std::string_view>& words, Values& values) {
    const ptx::Instruction& in = site.instruction;
    if (std::find(words.begin(), words.end(), "red") != words.end()) {
      const std::vector<std::string_view> operands = ptx::split_operands(in.operands);
      if (operands.empty())
        throw ptx::PtxError(line_prefix(splice_.text(), site.statement->begin) +
                            "a barrier reduction without operands");
      values["result"] = std::string(operands.front());
      return std::find(words.begin(), words.end(), "pred") != words.end();
    }
    std::string opcode;
    for (std::string_view w : words) opcode += (opcode.empty() ? "" : ".") + std::string(w == "sync" ? "red.popc" : w);
    std::string reduction = in.guard.empty() ? std::string() : std::string(in.guard) + " ";
    reduction += opcode + ".u32 \t" + text(kCount) + ", " + std::string(in.operands) + ", " + text(kTrue) + ";";
    splice_.replace(*site.statement, std::move(reduction));
    values["result"] = text(kCount);
    return false;
  }

  // The sites' registers start empty, before the first statement; where no
  // barrier sits in a loop, one bit per site says it was passed, else each
  // site's pass register does.
  std::string site_registers_start() const {
    Values values = clock_values();
    std::string init = looped_ ? std::string() : fill("mov.u32 {passed}, 0;", values);
    for (std::size_t i = 0; i < timed_sites(); ++i) {
      bind_site(values, i);
      if (looped_) init += fill("mov.u32 {site_pass}, {no_pass};", values);
      init += fill(kSiteStampsStart, values);
    }
    return init;
  }

  // Which of the ids past x the kernel reads itself: y and z of %tid, then
  // of %ctaid. Found in its text from its first statement to its last exit.
  void find_reads() {
    if (!first_) return;
    std::size_t end = first_->end;
    for (const Exit& e : exits_) end = std::max(end, e.statement->end);
    const std::string_view body = splice_.text().substr(first_->begin, end - first_->begin);
    // "%tid.y" is not part of "%ntid.y", nor "%ctaid.y" of "%nctaid.y".
    constexpr std::string_view kIds[] = {"%tid.y", "%tid.z", "%ctaid.y", "%ctaid.z"};
    for (std::size_t i = 0; i < reads_.size(); ++i) reads_[i] = body.find(kIds[i]) != std::string_view::npos;
  }

  // A PTX template: {into} = the linear id (x fastest) of `id` (%tid or
  // %ctaid), reading x and, where `read` says so, y and z; the others are
  // taken as 0. Horner's rule from z: into = (z * n.y + y) * n.x + x.
  static std::string linear_id(std::string_view into, std::string_view id, std::string_view extent,
                               std::array<bool, 2> read) {
    const std::string to = "{" + std::string(into) + "}";
    std::string code;
    bool zero = true;
    for (int d = 2; d >= 0; --d) {
      const std::string axis(1, "xyz"[d]);
      if (!zero)
        code += "mov.u32 {special}, " + std::string(extent) + "." + axis + ";\nmul.lo.u32 " + to + ", " + to +
                ", {special};\n";
      if (d > 0 && !read[static_cast<std::size_t>(d - 1)]) continue;
      const std::string value = std::string(id) + "." + axis;
      code += zero ? "mov.u32 " + to + ", " + value + ";\n"
                   : "mov.u32 {special}, " + value + ";\nadd.u32 " + to + ", " + to + ", {special};\n";
      zero = false;
    }
    return code;
  }

  // At an exit: lane 0 writes its warp's schedule record and, in the blocks
  // the host chose (slot table), its stamps, with plain stores. Where the
  // kernel leaves ids unread, two copies: one for extents of 1 (those ids
  // are 0, not read), one that reads them (kFlatExtents).
  std::string end_glue(const Exit& e) {
    Values values = clock_values();
    values["done"] = "$threadmap_end_" + std::to_string(++labels_);
    const Skip skip = skip_unless(e.guard);
    std::string glue =
        comment(std::string(e.op) + ": the warp's schedule record, and its stamps where sampled") + skip.branch;
    constexpr std::array<std::string_view, 4> kExtents = {"%ntid.y", "%ntid.z", "%nctaid.y", "%nctaid.z"};
    std::string extents;
    for (std::size_t i = 0; i < reads_.size(); ++i) {
      if (reads_[i]) continue;
      if (extents.empty()) {
        extents = fill("mov.u32 {special}, " + std::string(kExtents[i]) + ";", values);
        extents += fill("sub.u32 {special}, {special}, 1;", values);
      } else {
        extents += fill("mov.u32 {blocks}, " + std::string(kExtents[i]) + ";", values);
        extents += fill("sub.u32 {blocks}, {blocks}, 1;", values);
        extents += fill("or.b32 {special}, {special}, {blocks};", values);
      }
    }
    if (extents.empty()) return glue + end_path(values, reads_) + fill("{done}:", values) + skip.label;
    values["general"] = "$threadmap_ids_" + std::to_string(++labels_);
    glue += comment("the ids the kernel does not read are 0 where their extents are 1") + extents +
            fill(kFlatExtents, values);
    glue += end_path(values, reads_) + fill("bra.uni {done};", values);
    glue += fill("{general}:", values) + end_path(values, {true, true, true, true});
    return glue + fill("{done}:", values) + skip.label;
  }

  // One copy of an exit's stores, with the ids in `read` (y, z of %tid and
  // of %ctaid) read and the others taken as 0.
  std::string end_path(Values values, std::array<bool, 4> read) {
    const std::string n = std::to_string(++labels_);
    values["sm_part"] = "$threadmap_sm_" + n;
    values["sm_next"] = "$threadmap_sm_next_" + n;
    values["sm_written"] = "$threadmap_sm_written_" + n;
    values["slot_found"] = "$threadmap_slot_" + n;
    values["sites"] = std::to_string(timed_sites());
    // The schedule record's words lie after the header; the stamps' from the record's start.
    values["start_at"] = word_offset(TM_HEADER_WORDS + TM_CS_START);
    values["end_clock_at"] = word_offset(TM_HEADER_WORDS + TM_CS_END_CLOCK);
    values["end_time_at"] = word_offset(TM_HEADER_WORDS + TM_CS_END);
    values["sm_at"] = word_offset(TM_HEADER_WORDS + TM_CS_SM);
    values["written_at"] = word_offset(TM_HEADER_WORDS + TM_CS_WRITTEN);
    std::string glue = fill(linear_id("thread", "%tid", "%ntid", {read[0], read[1]}), values);
    glue += fill(kLaneZero, values);
    glue += fill(linear_id("block", "%ctaid", "%nctaid", {read[2], read[3]}), values);
    glue += fill(kWarpsPerBlock, values) + fill(kScheduleRecordAddress, values) + fill(kScheduleRecord, values) +
            fill(kSlotTable, values) + fill(kBlockSlot, values);
    values["block_at"] = word_offset(TM_CW_BLOCK);
    values["warp_passes_at"] = word_offset(TM_CW_WARP_PASSES);
    values["start_clock_at"] = word_offset(TM_CW_START_CLOCK);
    values["sites_at"] = word_offset(TM_CW_SITES);
    glue += fill(kStampsRecord, values);
    for (std::size_t i = 0; i < timed_sites(); ++i) {
      const int at = TM_CW_PASSES + static_cast<int>(i) * TM_CP_WORDS;
      bind_site(values, i);
      values["arrival_at"] = word_offset(at + TM_CP_ARRIVAL);
      values["release_at"] = word_offset(at + TM_CP_RELEASE);
      values["line_at"] = word_offset(at + TM_CP_LINE);
      values["pass_at"] = word_offset(at + TM_CP_PASS);
      values["line"] = std::to_string(sites_[i].line);
      glue += fill(kSiteStamps, values) + fill(looped_ ? kSiteFirstPass : kSitePassedInOrder, values);
    }
    values["written_at"] = word_offset(TM_CW_WRITTEN);
    glue += fill(kStampsWritten, values) + fill(kBlockSmStart, values);
    glue += fill(linear_id("block", "%ctaid", "%nctaid", {read[2], read[3]}), values);
    return glue + fill(kWarpsPerBlock, values) + fill(kBlockSm, values);
  }

  Splice& splice_;
  int labels_ = 0;
  const ptx::Statement* first_ = nullptr;  // where the sites' registers start
  std::vector<Barrier> sites_;
  std::vector<Exit> exits_;
  bool looped_ = false;          // a barrier sits in a loop
  std::array<bool, 4> reads_{};  // the kernel reads %tid.y, %tid.z, %ctaid.y, %ctaid.z
};

}  // namespace

std::unique_ptr<PassGlue> access_pass_glue(Splice& splice, AccessGlueOptions options) {
  return std::make_unique<AccessPass>(splice, options);
}

std::unique_ptr<PassGlue> clock_pass_glue(Splice& splice) { return std::make_unique<ClockPass>(splice); }

}  // namespace threadmap::cuda
