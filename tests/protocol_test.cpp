// The worker protocol's types (app/protocol) without a worker: every request
// and every result survives its own JSON unchanged; malformed requests and
// replies are errors naming the field, never a crash; the version handshake
// says which versions the two sides speak.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/protocol/replies.h"
#include "app/protocol/requests.h"
#include "app/protocol/wire.h"
#include "kernels/core/report.h"

namespace threadmap::protocol {
namespace {

using nlohmann::json;

// A request's line, as the client writes it and the worker reads it.
json wire(const Request& request, const RequestId& id = 7) { return parse_line(encode_line(to_json(request, id))); }

KernelRun sample_run() {
  KernelRun run;
  run.kernel = "transpose.shared";
  run.device = "opencl:0:0";
  run.params = {{"tile", "16"}, {"type", "float"}, {"width", "256"}};
  run.reps = 3;
  run.warmup = 0;
  run.seed = 42;
  run.source = LearnerSource{"__kernel void k() {}\n", "mine.cl"};
  return run;
}

std::vector<Request> every_request() {
  RunRequest run(sample_run());
  run.device_copy = true;
  SweepRequest sweep(sample_run());
  sweep.vary = {{"pad", {"0", "1"}}, {"tile", {"8", "16", "32"}}};
  RecordRequest record(sample_run());
  record.blocks.ids = {0, 1, 64};
  record.folder = "/tmp/recordings";
  record.scratch = true;
  RecordRequest record_all;
  record_all.kernel = "matadd.rows";
  record_all.blocks.all = true;
  CopyRequest copy;
  copy.device = "cuda:0";
  copy.bytes = 1 << 20;
  copy.reps = 5;
  copy.warmup = 1;
  CountersRequest counters(sample_run());
  CountersRequest counters_few;
  counters_few.blocks = {false, {0, 5}};
  CheckRequest check{
      "smem-conflict-free", "opencl:0:0", {{"a/b.cl", "__kernel void k() {}\n"}, {"c.cl", "x"}}, 2.5, 3, 9};
  CheckRequest check_fresh_seed;
  check_fresh_seed.submissions = {{"only.cl", "y"}};
  RunRequest scanned(sample_run());
  scanned.problems = true;
  BenchRequest bench{"cuda:0", 1024, {{"type", "float"}}, 3, 1, 5};
  return {PingRequest{},
          DevicesRequest{},
          ListRequest{},
          run,
          RunRequest{},
          copy,
          sweep,
          record,
          record_all,
          CancelRequest{json("sweep-1")},
          CancelRequest{json(3)},
          QuitRequest{},
          counters,
          counters_few,
          CountersRequest{},
          check,
          check_fresh_seed,
          DoctorRequest{"sm_75,sm_90"},
          DoctorRequest{},
          scanned,
          bench,
          BenchRequest{}};
}

TEST(Protocol, EveryRequestReadsBackAsItWasWritten) {
  for (const Request& request : every_request()) {
    const json line = wire(request);
    EXPECT_EQ(id_of(line), 7);
    const Request read = parse_request(line);
    EXPECT_EQ(read.index(), request.index()) << line.dump();
    EXPECT_EQ(to_json(read, 7), to_json(request, 7)) << line.dump();
  }
}

TEST(Protocol, AbsentFieldsTakeTheWorkersDefaults) {
  const auto run = std::get<RunRequest>(parse_request(json{{"op", "run"}}));
  EXPECT_EQ(run.device, "auto");
  EXPECT_EQ(run.reps, RunOptions{}.repetitions);
  EXPECT_EQ(run.warmup, RunOptions{}.warmup);
  EXPECT_FALSE(run.seed);
  EXPECT_FALSE(run.source);
  EXPECT_FALSE(run.device_copy);
  const auto record = std::get<RecordRequest>(parse_request(json{{"op", "record"}, {"source", "k"}}));
  EXPECT_FALSE(record.blocks.all);
  EXPECT_TRUE(record.blocks.ids.empty());
  EXPECT_FALSE(record.folder);
  ASSERT_TRUE(record.source);
  EXPECT_EQ(record.source->name, "learner.cl");
  // Numbers and names are both parameter values; the worker reads them as --set does.
  const auto numbers =
      std::get<RunRequest>(parse_request(json::parse(R"({"op":"run","params":{"tile":16,"type":"int"}})")));
  EXPECT_EQ(numbers.params, (std::map<std::string, std::string>{{"tile", "16"}, {"type", "int"}}));
}

// Each line breaks one field: the error says which, with the status the worker replies.
TEST(Protocol, AMalformedRequestIsAnErrorNamingTheField) {
  struct Case {
    const char* line;
    const char* status;
    const char* names;
  };
  const std::vector<Case> cases = {
      {R"({"op":7})", kBadRequest, "\"op\""},
      {R"({"op":"fly"})", kBadRequest,
       "unknown op 'fly'; ops: ping, devices, list, run, copy, sweep, record, cancel, quit"},
      {R"({"op":"run","kernel":5})", kBadRequest, "\"kernel\""},
      {R"({"op":"run","device":[1]})", kBadRequest, "\"device\""},
      {R"({"op":"run","params":[1]})", kBadRequest, "\"params\""},
      {R"({"op":"run","params":{"tile":1.5}})", kInvalid, "parameter tile=1.5"},
      {R"({"op":"run","reps":0})", kInvalid, "reps=0 is out of range"},
      {R"({"op":"run","warmup":"2"})", kInvalid, "warmup"},
      {R"({"op":"run","seed":-1})", kInvalid, "\"seed\""},
      {R"({"op":"run","source":""})", kBadRequest, "\"source\""},
      {R"({"op":"run","source":"k","source_name":1})", kBadRequest, "\"source_name\""},
      {R"({"op":"run","device_copy":1})", kBadRequest, "\"device_copy\""},
      {R"({"op":"copy"})", kInvalid, "\"bytes\""},
      {R"({"op":"copy","bytes":0})", kInvalid, "\"bytes\""},
      {R"({"op":"sweep"})", kBadRequest, "\"vary\""},
      {R"({"op":"sweep","vary":{"tile":[]}})", kBadRequest, "vary.tile"},
      {R"({"op":"sweep","vary":{"tile":[{}]}})", kInvalid, "parameter tile"},
      {R"({"op":"record","blocks":[4294967296]})", kInvalid, "blocks: 4294967296"},
      {R"({"op":"record","blocks":"some"})", kBadRequest, "\"blocks\""},
      {R"({"op":"record","folder":5})", kInvalid, "folder 5 is not an existing folder"},
      {R"({"op":"record","scratch":"yes"})", kBadRequest, "\"scratch\""},
      {R"({"op":"cancel"})", kBadRequest, "\"target\""},
      {R"({"op":"cancel","target":null})", kBadRequest, "\"target\""},
  };
  for (const Case& c : cases) {
    try {
      parse_request(parse_line(c.line));
      ADD_FAILURE() << c.line << " was accepted";
    } catch (const ProtocolError& e) {
      EXPECT_EQ(e.status(), c.status) << c.line << ": " << e.what();
      EXPECT_NE(std::string(e.what()).find(c.names), std::string::npos) << c.line << ": " << e.what();
    }
  }
}

TEST(Protocol, ALineIsBoundedJsonAndAnIdIsANumberAShortStringOrNull) {
  EXPECT_THROW(parse_line("{\"op\":\"\xff\"}"), ProtocolError);
  EXPECT_THROW(parse_line(std::string(100000, '[')), ProtocolError);
  EXPECT_NO_THROW(parse_line(std::string(kMaxDepth, '[') + std::string(kMaxDepth, ']')));
  EXPECT_EQ(id_problem(json()), "");
  EXPECT_EQ(id_problem(json(1.5)), "");
  EXPECT_EQ(id_problem(json(std::string(kMaxIdBytes, 'a'))), "");
  EXPECT_NE(id_problem(json(std::string(kMaxIdBytes + 1, 'a'))), "");
  EXPECT_NE(id_problem(json::array({1})), "");
  EXPECT_TRUE(id_of(json::array()).is_null());
}

// --- Replies.

RunReport sample_report() {
  RunReport r;
  r.kernel = "transpose.shared";
  r.status = "ok";
  r.device.backend = "opencl";
  r.device.spec = "opencl:0:0";
  r.device.name = "cpu";
  r.device.max_group_dims = {4096, 4096, 4096};
  r.device.warp_width = 8;
  r.device.has_double = true;
  r.parameters = {{"tile", std::int64_t{16}}, {"type", std::string("float")}};
  r.verification = Verification{false, 1000, 2, {{"row 1, column 2", "3", "4"}}, "exact"};
  r.timing = ReportTiming{{0.5, 0.25, 1.5, 3}, {2, 1, 3, 3}, 1, 4};
  r.ideal_bytes = 8192;
  r.working_set_bytes = 8192;
  r.bandwidth_gbps = 16.25;
  r.end_to_end_gbps = 4.5;
  r.cache_resident = true;
  r.note = "small";
  r.device_copy = CopyReport{4096, {0.1, 0.1, 0.2, 3}, 80.5, ""};
  return r;
}

RunReport refused_report() {
  RunReport r;
  r.kernel = "transpose.shared";
  r.status = "invalid";
  r.error = "tile=12 is not allowed";
  return r;
}

// A run that asks for the problems its trace shows: its result is a ScannedRun.
RunRequest scanning() {
  RunRequest r;
  r.problems = true;
  return r;
}

// A scan with a problem of each shape: a race (two sites, an interval), an
// access out of bounds (a global address) and a divergent barrier (no address).
analysis::ProblemsScan sample_scan() {
  const analysis::ProblemReport race{.kind = "read-after-write",
                                     .lines = {7, 8},
                                     .block = 1,
                                     .threads = {3, 35},
                                     .address = analysis::ProblemAddress{"shared", std::nullopt, 128},
                                     .records = {10, 42},
                                     .occurrences = 4,
                                     .message = "data race ...",
                                     .interval = 0};
  const analysis::ProblemReport stray{.kind = "out-of-bounds",
                                      .lines = {9},
                                      .threads = {1},
                                      .address = analysis::ProblemAddress{"global", "res", -4},
                                      .records = {0},
                                      .occurrences = 4032,
                                      .message = "out of bounds ..."};
  const analysis::ProblemReport divergent{.kind = "divergent-barrier",
                                          .lines = {12},
                                          .block = 2,
                                          .threads = {32},
                                          .records = {5},
                                          .message = "barrier in divergent code ...",
                                          .barrier = 1,
                                          .warps_missing = {0, 2}};
  return {std::nullopt, {false, {race, stray, divergent}}, {0, 1, 2}};
}

// A graded row of each shape: one verified at every other size, one not
// verified at the exercise's own (so run at no other), one stopped before it
// compiled.
std::vector<CheckRow> sample_rows() {
  CheckRow graded{"a.cl", true, true, true, "goal met"};
  graded.device = "cpu";
  graded.device_spec = "opencl:0:0";
  graded.trace = CheckTrace{{{"shared_ld_conflicts", 0}, {"shared_ld_requests", 256}}, {}, {"data race ..."}};
  graded.sizes = {{"blocks=1", true, std::nullopt, std::nullopt},
                  {"blocks=3", false, std::nullopt, "row 0, column 1: expected 16, got 32"},
                  {"blocks=5", false, "out of resources", std::nullopt}};
  graded.median_ms = 0.5;
  graded.gbps = 12.25;
  CheckRow unverified{"b.cl", true, false, false, "not verified"};
  unverified.error = "at blocks=8, row 0, column 0: expected 1, got 2 (seed 7)";
  unverified.trace = CheckTrace{{{"shared_ld_conflicts", 7936}}, {"shared_ld_conflicts <= 0 (measured 7936)"}, {}};
  CheckRow stopped{"c.cl", false, false, false, "timed out"};
  stopped.error = "stopped after 3 s";
  return {graded, unverified, stopped};
}

// A counters summary with every part: sites of both spaces, blocks, timed
// barriers, a schedule, problems and batches.
CountersSummary sample_counters() {
  CountersSummary c{"smem.setRowReadCol", sample_report().device, {{"blocks", std::int64_t{2}}, {"type", "float"}}};
  c.verified = true;
  analysis::Summary& a = c.analysis;
  a.model = {32, 32, 4, 32, "NVIDIA's memory geometry"};
  a.whole_grid = true;
  a.traced_blocks = a.grid_blocks = 2;
  a.requests = 96;
  analysis::Counters counters;
  counters.accesses = 3072;
  counters.shared_ld_requests = 32;
  counters.shared_ld_wavefronts = 1024;
  counters.shared_ld_ideal_wavefronts = 32;
  counters.global_st_requests = 32;
  counters.global_st_sectors = 128;
  counters.global_st_ideal_sectors = 128;
  a.totals = counters;
  a.sites = {{7, Space::Shared, false, "tile[x][y]", counters, 1}, {8, Space::Global, true, "out[i] = v", {}, 2}};
  a.blocks = {{0, counters}, {1, {}}};
  a.barriers = {1024, "clock64 cycles", "clock pass", 1024, 2, 31, 40, 12, 90, 31, 0.75, 1410.5, false};
  a.schedule = {"globaltimer ns", "clock pass", 100, 5000, 2, 1};
  a.problems = sample_scan().problems;
  c.batches = CountersBatches{2, 1 << 24, 3145728, 2, 250.5, {{"analysed", 10.5}, {"decoded", 4}}};
  return c;
}

// Each request with a result of its type.
std::vector<std::pair<Request, Result>> every_result() {
  BackendReport opencl{"opencl", true, "", {sample_report().device}};
  BackendReport cuda{"cuda", false, "no CUDA driver", {}};
  return {
      {PingRequest{}, PingResult{"0.1.0", kVersion}},
      {DevicesRequest{}, DevicesResult{opencl, cuda}},
      {RunRequest{}, sample_report()},
      {RunRequest{}, refused_report()},
      {CopyRequest{}, CopyReport{1 << 20, {0.1, 0.1, 0.2, 5}, 90, ""}},
      {CopyRequest{}, CopyReport{1 << 20, {}, 0, "out of memory"}},
      {SweepRequest{},
       SweepResult{"transpose.naive", sample_report().device, {sample_report(), refused_report()}, 4, true}},
      {RecordRequest{},
       RecordResult{"/tmp/a.threadmap", 12345, true, 250.5, {{"timed run", 10}, {"traced runs: access", 200}}}},
      {CancelRequest{}, CancelResult{json("sweep-1"), true}},
      {QuitRequest{}, QuitResult{}},
      {CountersRequest{}, CountersResult{sample_counters(), "Kernel setRowReadCol in smem.cl\n", true}},
      {CountersRequest{}, CountersResult{}},
      {CheckRequest{}, CheckResult{7, sample_rows()}},
      {CheckRequest{}, CheckResult{}},
      {DoctorRequest{},
       DoctorResult{{},
                    "/etc/OpenCL/vendors",
                    {{"pocl.icd", "libpocl.so.2"}},
                    {true, "12.8", {75, 90}, "", "/tmp/cache"},
                    {{"sm_90",
                      "cuda",
                      "cubin for sm_90",
                      "sm_90",
                      "",
                      1,
                      {{"transpose.naive", "transpose_naive", "timed", true, false, true, 12.5, ""},
                       {"transpose.naive", "transpose_naive", "traced", false, false, false, 3.5, "ptxas failed"}}},
                     {"sm_10", "cuda", "", "", "NVRTC does not know sm_10", 0, {}}},
                    40,
                    1.5,
                    false}},
      {DoctorRequest{}, DoctorResult{}},
      {scanning(), ScannedRun{sample_report(), sample_scan()}},
      {scanning(), ScannedRun{sample_report(), analysis::ProblemsScan{"the traced run failed", {}, {}}}},
      {scanning(), ScannedRun{sample_report(), analysis::ProblemsScan{}}},
      {scanning(), ScannedRun{refused_report(), std::nullopt}},
      {BenchRequest{},
       BenchResult{
           sample_report().device,
           20,
           2,
           CopyReport{4096, {0.1, 0.1, 0.2, 3}, 80.5, ""},
           {sample_report(), refused_report()},
           {PeerMeasurement{
               "cublasSgeam transpose", "transpose", "64 x 64 float", 32768, {0.5, 0.4, 0.6, 20}, 65.5, true, ""}}}},
      {BenchRequest{}, BenchResult{}},
  };
}

TEST(Protocol, EveryResultReadsBackAsItWasWritten) {
  for (const auto& [request, result] : every_result()) {
    const json written = result_line("id-1", result);
    const std::optional<ReplyLine> line = read_reply_line(encode_line(written));
    ASSERT_TRUE(line) << written.dump();
    EXPECT_EQ(line->id, "id-1");
    ASSERT_EQ(line->kind, ReplyKind::Result) << written.dump();
    const Result read = read_result(request, line->body);
    EXPECT_EQ(read.index(), result.index()) << written.dump();
    EXPECT_EQ(result_line("id-1", read), written);
  }
}

// A grading process hands its row back as JSON: read, it writes the same;
// malformed, it is a malformed reply naming the field.
TEST(Protocol, ACheckRowReadsBackAsItWasWritten) {
  for (const CheckRow& row : sample_rows())
    EXPECT_EQ(check_row_json(read_check_row(check_row_json(row))), check_row_json(row)) << row.file;
  try {
    read_check_row(json::parse(R"({"file":"a.cl","status":"goal met","median_ms":"slow"})"));
    ADD_FAILURE() << "a row with a median of \"slow\" was accepted";
  } catch (const ProtocolError& e) {
    EXPECT_EQ(e.status(), kMalformedReply);
    EXPECT_NE(std::string(e.what()).find("a submission's row: \"median_ms\" must be a number"), std::string::npos)
        << e.what();
  }
}

TEST(Protocol, ProgressAndErrorsReadBackAsTheyWereWritten) {
  const std::optional<ReplyLine> notice =
      read_reply_line(encode_line(progress_line(3, CompileNotice{"compiling k for sm_90 with NVRTC 13.0"})));
  ASSERT_TRUE(notice);
  ASSERT_EQ(notice->kind, ReplyKind::Progress);
  EXPECT_EQ(std::get<CompileNotice>(read_progress(notice->body)).message, "compiling k for sm_90 with NVRTC 13.0");

  const json point_line = progress_line(3, SweepPoint{2, 4, sample_report()});
  const std::optional<ReplyLine> point = read_reply_line(encode_line(point_line));
  ASSERT_TRUE(point);
  const auto read = std::get<SweepPoint>(read_progress(point->body));
  EXPECT_EQ(read.done, 2u);
  EXPECT_EQ(read.total, 4u);
  EXPECT_EQ(progress_line(3, read), point_line);

  const std::optional<ReplyLine> error = read_reply_line(encode_line(error_line(json(), {kInvalid, "tile=12"})));
  ASSERT_TRUE(error);
  EXPECT_TRUE(error->id.is_null());
  EXPECT_EQ(error->kind, ReplyKind::Error);
  EXPECT_EQ(error->error.status, kInvalid);
  EXPECT_EQ(error->error.message, "tile=12");
}

// What a broken or foreign worker could write: lines that are no reply are
// skipped; a reply whose result has the wrong shape is a malformed reply
// naming the field.
TEST(Protocol, AMalformedReplyIsAnErrorNamingTheField) {
  for (const std::string& line : std::vector<std::string>{"not json", "[]", "{}", "{\"type\":\"result\"}",
                                                          std::string(100000, '['), "{\"id\":1,\"x\":\"\xff\"}"})
    EXPECT_FALSE(read_reply_line(line)) << line.substr(0, 40);
  const std::optional<ReplyLine> untyped = read_reply_line(R"({"id":1,"type":"huh","status":5})");
  ASSERT_TRUE(untyped);
  EXPECT_EQ(untyped->kind, ReplyKind::Error);
  EXPECT_EQ(untyped->error.status, "error");

  struct Case {
    Request request;
    const char* body;
    const char* names;
  };
  const std::vector<Case> cases = {
      {PingRequest{}, R"([])", "the ping reply must be a JSON object"},
      {PingRequest{}, R"({"pong":true,"protocol":"1"})", "the ping reply: \"protocol\" must be a whole number"},
      {DevicesRequest{}, R"({})", "the devices reply must be a list"},
      {DevicesRequest{}, R"([{"backend":"opencl","devices":[{"name":5}]}])", "device.name must be text"},
      {DevicesRequest{}, R"([{"backend":"opencl","available":"yes"}])", "backend.available"},
      {RunRequest{}, R"({"kernel":"k"})", "needs \"status\" as text"},
      {RunRequest{}, R"({"kernel":"k","status":"ok","bandwidth_gbps":"fast"})", "\"bandwidth_gbps\" must be a number"},
      {RunRequest{}, R"({"kernel":"k","status":"ok","ideal_bytes":1e300})", "\"ideal_bytes\" must be a whole number"},
      {RunRequest{}, R"({"kernel":"k","status":"ok","timing":{"end_to_end_ms":{"median":"x"}}})",
       "timing.end_to_end_ms.median must be a number"},
      {RunRequest{}, R"({"kernel":"k","status":"ok","verification":{"method":3}})", "verification.method must be text"},
      {RunRequest{}, R"({"kernel":"k","status":"ok","device_copy":{"bytes":-1}})", "device_copy.bytes"},
      {CopyRequest{}, R"({"bandwidth_gbps":"x"})", "bandwidth_gbps must be a number"},
      {CopyRequest{}, R"({"ms":[1]})", "ms must be an object"},
      {SweepRequest{}, R"({"results":[1]})", "a run report is a JSON object"},
      {SweepRequest{}, R"({"results":[],"cancelled":"no"})", "the sweep reply: \"cancelled\" must be true or false"},
      {RecordRequest{}, R"({"bytes":1})", "the record reply: \"session\" must be"},
      {RecordRequest{}, R"({"session":7})", "the record reply: \"session\" must be text"},
      {RecordRequest{}, R"({"session":"s","phases_ms":[["a"]]})", "the record reply: \"phases_ms\""},
      {CancelRequest{}, R"(null)", "the cancel reply must be a JSON object"},
      {CountersRequest{}, R"({"text":"t"})", "the counters reply: \"summary\" must be an object"},
      {CountersRequest{}, R"({"summary":{},"text":5})", "the counters reply: \"text\" must be text"},
      {CountersRequest{}, R"({"summary":{"kernel_id":7}})", "the counters summary: \"kernel_id\" must be text"},
      {CountersRequest{}, R"({"summary":{"params":{"tile":1.5}}})", "parameter tile must be a whole number or a name"},
      {CountersRequest{}, R"({"summary":{"sites":[{"line":"7"}]}})", "a site: \"line\" must be a whole number"},
      {CountersRequest{}, R"({"summary":{"blocks":[{"counters":{"accesses":-1}}]}})",
       "a block's \"counters\": \"accesses\" must be a whole number"},
      {CountersRequest{}, R"({"summary":{"barriers":{"sm_clock_mhz":"fast"}}})",
       "the summary's \"barriers\": \"sm_clock_mhz\" must be a number"},
      {CountersRequest{}, R"({"summary":{"problems":{"list":[{"message":"m","kind":3}]}}})",
       "a problem: \"kind\" must be text"},
      {CountersRequest{}, R"({"summary":{"batches":{"phases_ms":{"decoded":"1"}}}})",
       "the counters summary's \"batches\": \"phases_ms\" must be an object of numbers"},
      {CheckRequest{}, R"({"submissions":[]})", "the check reply: \"seed\""},
      {CheckRequest{}, R"({"seed":1,"submissions":[{"file":"a.cl"}]})", "each with its \"file\" and \"status\""},
      {CheckRequest{}, R"({"seed":1,"submissions":[{"file":"a.cl","status":"ok","goal_met":1}]})",
       "a submission's row: \"goal_met\" must be true or false"},
      {CheckRequest{}, R"({"seed":1,"submissions":[{"file":"a.cl","status":"ok","counters":{"x":"1"}}]})",
       "a submission's row: \"counters\" must be an object of numbers"},
      {CheckRequest{}, R"({"seed":1,"submissions":[{"file":"a.cl","status":"ok","problems":[1]}]})",
       "a submission's row: \"problems\" must be a list of text"},
      {CheckRequest{}, R"({"seed":1,"submissions":[{"file":"a.cl","status":"ok","sizes":[{"set":5}]}]})",
       "a submission's size: \"set\" must be text"},
      {CheckRequest{}, R"({"seed":1,"submissions":[{"file":"a.cl","status":"ok","device":false}]})",
       "a submission's row: \"device\" must be text"},
      {DoctorRequest{}, R"({"ok":"yes"})", "the doctor report: \"ok\" must be true or false"},
      {scanning(), R"({"kernel":"k","status":"ok","problems":[]})", "the run's \"problems\" must be a JSON object"},
      {scanning(), R"({"kernel":"k","status":"ok","problems":{"races_checked":true}})",
       "the run's \"problems\": \"list\""},
      {scanning(), R"({"kernel":"k","status":"ok","problems":{"list":[{"kind":"x"}]}})", "each with its \"message\""},
      {scanning(), R"({"kernel":"k","status":"ok","problems":{"error":5}})",
       "the run's \"problems\": \"error\" must be text"},
      {scanning(), R"({"kernel":"k","status":"ok","problems":{"list":[{"message":"m","lines":[-1]}]}})",
       "a problem: \"lines\" must be a list of whole numbers"},
      {scanning(), R"({"kernel":"k","status":"ok","problems":{"list":[{"message":"m","address":{"offset":0.5}}]}})",
       "a problem's \"address\": \"offset\" must be a whole number"},
      {scanning(), R"({"kernel":"k","status":"ok","problems":{"list":[],"traced_blocks":["0"]}})",
       "the run's \"problems\": \"traced_blocks\" must be a list of whole numbers"},
      {BenchRequest{}, R"({"results":{}})", "the bench reply: \"results\" must be a list"},
      {BenchRequest{}, R"({"reps":-1})", "the bench reply: \"reps\" must be a whole number"},
      {BenchRequest{}, R"({"peers":[{"name":"p","ms":{"median":"x"}}]})",
       "a peer's \"ms\": \"median\" must be a number"},
      {DoctorRequest{}, R"({"ok":true,"targets":{}})", "the doctor report: \"targets\" must be a list"},
  };
  for (const Case& c : cases) {
    try {
      read_result(c.request, json::parse(c.body));
      ADD_FAILURE() << c.body << " was accepted";
    } catch (const ProtocolError& e) {
      EXPECT_EQ(e.status(), kMalformedReply) << c.body;
      EXPECT_NE(std::string(e.what()).find(c.names), std::string::npos) << c.body << ": " << e.what();
    }
  }
  EXPECT_THROW(read_progress(json::parse(R"({"id":1,"type":"progress","done":1})")), ProtocolError);
  EXPECT_THROW(read_progress(json::parse(R"({"id":1,"type":"progress","result":{"kernel":1}})")), ProtocolError);
  EXPECT_THROW(read_progress(json::parse(R"({"id":1,"type":"progress","compiling":false})")), ProtocolError);
}

// Numbers whose type is right but whose size is not are read with care: a
// count saturates, a negative count is zero (never undefined behaviour).
TEST(Protocol, AReportsNumbersAreReadWithinTheirTypes) {
  const RunReport r = report_from_json(json::parse(R"({"kernel":"k","status":"ok",
      "verification":{"verified":true,"checked":1e300,"mismatches":-4},
      "timing":{"kernel_ms":{"median":1,"samples":1e30},"runs_per_timed_sample":-1e30},
      "parameters":{"n":18446744073709551615},
      "device":{"max_group_dims":[1e300,-1,"x",4],"compute_units":1e12}})"));
  ASSERT_TRUE(r.verification && r.timing);
  EXPECT_EQ(r.verification->checked, std::numeric_limits<std::uint64_t>::max());
  EXPECT_EQ(r.verification->mismatches, 0u);
  EXPECT_EQ(r.timing->kernel_ms.samples, std::numeric_limits<int>::max());
  EXPECT_EQ(r.timing->runs_per_timed_sample, std::numeric_limits<int>::min());
  EXPECT_EQ(r.device.max_group_dims[1], 0u);
  EXPECT_EQ(r.device.max_group_dims[2], 0u);
  EXPECT_EQ(r.device.compute_units, std::numeric_limits<int>::max());
  EXPECT_TRUE(r.verified());
}

TEST(Protocol, AWorkerOfAnotherVersionIsNamed) {
  EXPECT_EQ(version_problem(PingResult{"0.1.0", kVersion}), "");
  const std::string older = version_problem(PingResult{"0.0.9", std::nullopt});
  EXPECT_NE(older.find("threadmap-cli 0.0.9"), std::string::npos) << older;
  EXPECT_NE(older.find("no protocol version"), std::string::npos) << older;
  const std::string other = version_problem(PingResult{"2.0.0", kVersion + 1});
  EXPECT_NE(other.find("speaks protocol " + std::to_string(kVersion + 1)), std::string::npos) << other;
  EXPECT_NE(other.find("this threadmap speaks protocol " + std::to_string(kVersion)), std::string::npos) << other;
}

TEST(Protocol, Base64RoundTripsEveryByteAndRefusesWhatIsNot) {
  std::string all;
  for (int i = 0; i < 256; ++i) all += static_cast<char>(i);
  for (std::size_t n = 0; n <= all.size(); n += 37) {
    const std::string part = all.substr(0, n);
    EXPECT_EQ(base64_decode(base64_encode(part)), part) << n;
  }
  EXPECT_EQ(base64_encode("Man"), "TWFu");
  EXPECT_EQ(base64_encode("Ma"), "TWE=");
  EXPECT_EQ(base64_encode("M"), "TQ==");
  for (const char* bad : {"TWF", "TW=u", "T===", "TWFu!A==", "TQ==TQ=="})
    EXPECT_EQ(base64_decode(bad), std::nullopt) << bad;
}

// A streamed recording's progress lines and the wait for a shared GPU read
// back as they were written.
TEST(Protocol, StreamedChunksAndWaitsRoundTrip) {
  const std::string bytes("\x00\x01session\xff", 10);
  const json chunk = progress_line(5, SessionChunk{1024, 4096, bytes});
  const auto read = std::get<SessionChunk>(read_progress(chunk));
  EXPECT_EQ(read.offset, 1024u);
  EXPECT_EQ(read.total, 4096u);
  EXPECT_EQ(read.bytes, bytes);
  const auto wait =
      std::get<WaitNotice>(read_progress(progress_line(5, WaitNotice{"waiting for the GPU: 2 runs ahead"})));
  EXPECT_EQ(wait.message, "waiting for the GPU: 2 runs ahead");
  json bad = chunk;
  bad["chunk"] = "not base64!";
  EXPECT_THROW(read_progress(bad), ProtocolError);
  // The line written without building its JSON reads as the JSON would, and
  // says the same as encode_line(progress_line(...)) byte for byte.
  const std::string fast = chunk_line(5, SessionChunk{1024, 4096, bytes});
  EXPECT_EQ(fast, encode_line(chunk));
  const auto line = read_reply_line(fast);
  ASSERT_TRUE(line);
  EXPECT_EQ(std::get<SessionChunk>(read_progress(line->body)).bytes, bytes);
  const auto quoted = read_reply_line(R"({"chunk":"TW\"Fu","id":5,"offset":0,"total":3,"type":"progress"})");
  ASSERT_TRUE(quoted) << "a chunk line with an escape goes the long way";
  EXPECT_THROW(read_progress(quoted->body), ProtocolError);
  RecordRequest streamed;
  streamed.kernel = "transpose.shared";
  streamed.stream = true;
  const auto back = std::get<RecordRequest>(parse_request(to_json(Request(streamed), 3)));
  EXPECT_TRUE(back.stream);
}

// The requests added after protocol 1's first ops: each malformed field named.
TEST(Protocol, MalformedCountersCheckAndDoctorRequestsNameTheField) {
  struct Case {
    const char* line;
    const char* status;
    const char* names;
  };
  const std::vector<Case> cases = {
      {R"({"op":"counters","blocks":"some"})", kBadRequest, "\"blocks\""},
      {R"({"op":"check","exercise":"e"})", kBadRequest, "check needs \"submissions\""},
      {R"({"op":"check","submissions":[7]})", kBadRequest, "a submission is an object"},
      {R"({"op":"check","submissions":[{"file":"a.cl"}]})", kBadRequest, "its \"text\""},
      {R"({"op":"check","submissions":[],"timeout":0})", kInvalid, "timeout=0 is out of range"},
      {R"({"op":"check","submissions":[],"reps":0})", kInvalid, "reps=0 is out of range"},
      {R"({"op":"check","submissions":[],"seed":-1})", kInvalid, "\"seed\""},
      {R"({"op":"doctor","architectures":75})", kBadRequest, "\"architectures\""},
  };
  for (const Case& c : cases) {
    try {
      parse_request(json::parse(c.line));
      ADD_FAILURE() << c.line << " was accepted";
    } catch (const ProtocolError& e) {
      EXPECT_EQ(e.status(), c.status) << c.line;
      EXPECT_NE(std::string(e.what()).find(c.names), std::string::npos) << c.line << ": " << e.what();
    }
  }
  // counters traces every block unless told otherwise, as the command does.
  EXPECT_TRUE(std::get<CountersRequest>(parse_request(json{{"op", "counters"}})).blocks.all);
  EXPECT_FALSE(std::get<CheckRequest>(parse_request(json::parse(R"({"op":"check","submissions":[]})"))).seed);
}

// A worker from before an op answers "unknown op": the client's one line
// says to upgrade threadmap-cli on the server; other errors are not that.
TEST(Protocol, AnOlderWorkersUnknownOpSaysToUpgradeTheServer) {
  const ErrorReply old{kBadRequest,
                       "unknown op 'counters'; ops: ping, devices, list, run, copy, sweep, record, cancel, quit"};
  const std::string line = missing_op_problem(CountersRequest{}, old, "gpu1", "0.9.0");
  EXPECT_NE(line.find("the worker on gpu1 (threadmap-cli 0.9.0) has no \"counters\" request"), std::string::npos)
      << line;
  EXPECT_NE(line.find("upgrade threadmap-cli on gpu1"), std::string::npos) << line;
  EXPECT_EQ(missing_op_problem(DoctorRequest{}, old, "gpu1", "0.9.0"), "");
  const ErrorReply no_bench{kBadRequest, "unknown op 'bench'; ops: ping, devices"};
  EXPECT_NE(
      missing_op_problem(BenchRequest{}, no_bench, "gpu1", "0.9.0")
          .find("the worker on gpu1 (threadmap-cli 0.9.0) has no \"bench\" request: upgrade threadmap-cli on gpu1"),
      std::string::npos);
  EXPECT_EQ(missing_op_problem(CountersRequest{}, {kInvalid, "unknown op 'counters'"}, "gpu1", "0.9.0"), "");
}

// run's "problems" and the bench op: each malformed field named; bench's
// defaults are the command's.
TEST(Protocol, MalformedBenchAndProblemsRequestsNameTheField) {
  struct Case {
    const char* line;
    const char* status;
    const char* names;
  };
  const std::vector<Case> cases = {
      {R"({"op":"run","problems":"yes"})", kBadRequest, "\"problems\" must be true or false"},
      {R"({"op":"bench","size":-1})", kInvalid, "size=-1 is out of range"},
      {R"({"op":"bench","size":40000})", kInvalid, "size=40000 is out of range"},
      {R"({"op":"bench","params":[1]})", kBadRequest, "\"params\" must be an object"},
      {R"({"op":"bench","reps":0})", kInvalid, "reps=0 is out of range"},
  };
  for (const Case& c : cases) {
    try {
      parse_request(json::parse(c.line));
      ADD_FAILURE() << c.line << " was accepted";
    } catch (const ProtocolError& e) {
      EXPECT_EQ(e.status(), c.status) << c.line;
      EXPECT_NE(std::string(e.what()).find(c.names), std::string::npos) << c.line << ": " << e.what();
    }
  }
  const auto bench = std::get<BenchRequest>(parse_request(json{{"op", "bench"}}));
  EXPECT_EQ(bench.size, 0);
  EXPECT_EQ(bench.device, "auto");
  EXPECT_FALSE(bench.seed);
  EXPECT_FALSE(std::get<RunRequest>(parse_request(json{{"op", "run"}})).problems);
}

}  // namespace
}  // namespace threadmap::protocol
