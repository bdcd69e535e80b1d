#pragma once
// What each pass of the PTX instrumenter (ptx_instrument.h) writes into an
// entry. One walk over the entry (ptx_instrument.cpp) finds the places and
// tells the pass's glue, an observer, about each as it meets it:
//
//   walk event         access pass                         clock pass
//   begin (first)      ids, begin call                     start clock; later the sites' registers
//   barrier            arrive call / release call          noted; timed after the walk
//   exit               end call                            noted; end stores after the walk
//   machine access     access call before it               (nothing)
//   end of walk        (nothing)                           site glue, registers, end stores
//
// The glue is written into a Splice: text put in before or after a
// statement, or in its place. Private to the instrumenter.
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "kernels/ptx/ptx_parse.h"

namespace threadmap::cuda {

// "PTX line 12: ", for messages about the statement at `offset`.
std::string line_prefix(std::string_view text, std::size_t offset);

// Text put into the module at `offset`, in place of `erase` bytes of it.
struct Insertion {
  std::size_t offset;
  std::string text;
  std::size_t erase = 0;
};

// The edits of one module, placed relative to its statements. Edits at one
// offset keep the order they were made in.
class Splice {
 public:
  Splice(std::string_view module_text, std::vector<Insertion>& out) : text_(module_text), out_(out) {}
  // Before the statement: at the start of its line when only blanks precede it there.
  void before(const ptx::Statement& s, std::string glue);
  // After the statement: at the start of the next line.
  void after(const ptx::Statement& s, std::string glue);
  void replace(const ptx::Statement& s, std::string text);
  void at(std::size_t offset, std::string text);
  std::string_view text() const { return text_; }

 private:
  std::string_view text_;
  std::vector<Insertion>& out_;
};

// An address operand: "[%rd4+16]", "[%r7]", "[tile+8]", "[sym]", "[1024]".
struct Address {
  enum class Base { Register, Symbol, Absolute } base = Base::Register;
  std::string name;  // register or symbol
  long long offset = 0;
};

// The space codes of trace_runtime.cuh's threadmap_access.
constexpr unsigned kSpaceGlobal = 0;
constexpr unsigned kSpaceShared = 1;
constexpr unsigned kSpaceGeneric = 2;

// One memory access as the machine makes it: `members` PTX accesses at
// contiguous offsets (the assembler's merge), recorded before the first of
// them in program order.
struct MachineAccess {
  const ptx::Statement* first = nullptr;  // the earliest of its PTX accesses
  std::string_view opcode;                // of the one at the lowest offset
  std::string_view guard;
  Address address;       // of the one at the lowest offset
  int address_bits = 0;  // of a register address: 32 or 64
  unsigned space_code = kSpaceGeneric;
  bool store = false;
  int bytes = 0;
  int members = 1;
  int merged = 1;  // PTX accesses in all, folded stores included
  int line = 0;    // of the earliest
  // Every PTX instruction it is made of, folded stores included: the access
  // pass makes them only where the access is inside the launch's memory.
  std::vector<const ptx::Statement*> statements;
  unsigned atomic = 0;     // TM_ATOM_* of an atom or red (store is set too)
  bool reduction = false;  // red: no old value returned
};

// A barrier (bar.sync, barrier.sync, bar.red) at a source line.
struct Barrier {
  const ptx::Statement* statement = nullptr;
  std::size_t index = 0;  // in the module's statements
  ptx::Instruction instruction;
  int line = 0;
};

// An exit: ret or exit, under its guard.
struct Exit {
  const ptx::Statement* statement = nullptr;
  std::string_view guard;
  std::string_view op;
};

// The entry's labels and branches, by statement index: where its loops are.
struct ControlFlow {
  std::map<std::string, std::size_t, std::less<>> labels;
  std::vector<std::pair<std::size_t, std::string>> branches;  // (statement, target label)

  // A branch after the statement goes back to a label before it.
  bool in_loop(std::size_t statement) const;
};

class PassGlue {
 public:
  virtual ~PassGlue() = default;
  virtual void begin(const ptx::Statement& first) = 0;  // the entry's first instruction or label
  virtual void barrier(const Barrier& barrier) = 0;
  virtual void exit(const Exit& exit) = 0;
  virtual void access(const MachineAccess& access) = 0;  // after the walk, once runs are merged
  // The shared variables the entry names (.shared, static or .extern), before end().
  virtual void shared_arrays(const std::vector<ptx::Variable>&) {}
  virtual void end(const ControlFlow& flow) = 0;  // after every other event
  virtual std::string declarations() const = 0;   // the glue's registers, at the body's start
};

// How the access pass's glue differs in an image another runtime launches
// (ptx_instrument.h, OffloadOptions): 0 for an entry ThreadMap launches.
struct AccessGlueOptions {
  // The trace buffer's device address, written into the code (no parameter
  // added); 0: read from the added parameter.
  std::uint64_t trace_buffer = 0;
  // Every access made whatever threadmap_access answers, and one outside
  // every buffer not recorded (TM_HOOK_RUNTIME_DATA): the other runtime's
  // own data lies in no buffer of the launch. The shared variables are that
  // runtime's too: no shared access is the kernel's.
  bool make_every_access = false;
  // The body's returns are the block's end (an entry); a function's are not.
  bool exits_end_block = true;
};

// Calls into the recording runtime (trace_runtime.cuh) at every access,
// barrier and exit.
std::unique_ptr<PassGlue> access_pass_glue(Splice& splice, AccessGlueOptions options = {});

// Clock reads around each barrier kept in registers, plain stores at each
// exit (ptx_instrument.h, Pass::Clock).
std::unique_ptr<PassGlue> clock_pass_glue(Splice& splice);

}  // namespace threadmap::cuda
