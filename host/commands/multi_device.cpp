#include "commands/multi_device.hpp"

#include <algorithm>
#include <chrono>
#include <memory>
#include <optional>
#include <thread>

#include "check/result_check.hpp"
#include "multi/device_list.hpp"
#include "multi/multi_device_report.hpp"
#include "multi/row_split.hpp"
#include "multi/streamed_panel.hpp"
#include "opencl/cl_check.hpp"
#include "opencl/kernel_source.hpp"
#include "opencl/program_save.hpp"
#include "registry/kernels.hpp"
#include "registry/param_lookup.hpp"
#include "run/launch.hpp"
#include "run/variant_runner.hpp"
#include "session/cl_session.hpp"
#include "session/problem_limits.hpp"
#include "util/atomic_file.hpp"
#include "util/errors.hpp"
#include "util/host_info.hpp"
#include "util/npy.hpp"
#include "util/progress.hpp"
#include "util/run_date.hpp"

namespace clgemm {
namespace {

std::string describeListed(const ListedDevice& d) {
  const DeviceInfo& i = d.selected.info;
  return d.label + " " + i.name + " (" + i.type + ", " + i.platform_name + ", driver " +
         i.driver_version + ")";
}

// Rows [start, start + rows) of the problem as a problem of its own, with the whole of B.
Problem panelOf(const Problem& p, int start, int rows) {
  Problem q;
  q.m = rows;
  q.n = p.n;
  q.k = p.k;
  q.alpha = p.alpha;
  q.beta = p.beta;
  const auto k = std::size_t(p.k), n = std::size_t(p.n);
  q.a.assign(p.a.begin() + std::ptrdiff_t(std::size_t(start) * k),
             p.a.begin() + std::ptrdiff_t(std::size_t(start + rows) * k));
  q.b = p.b;
  if (!p.c0.empty())
    q.c0.assign(p.c0.begin() + std::ptrdiff_t(std::size_t(start) * n),
                p.c0.begin() + std::ptrdiff_t(std::size_t(start + rows) * n));
  q.precision = p.precision;
  applyShape(q, p.shape);
  return q;
}

// One entry of --devices: its own context, queue and buffers, and the part it is running.
struct Slot {
  ListedDevice listed;
  std::unique_ptr<ClSession> session;
  std::unique_ptr<ClGemmRunner> runner;
  std::optional<ResolvedDefines> defines;
  std::string tuned_file;
  Problem panel;
  int row_start = 0;
};

// "0:1 NAME: what went wrong", naming the device that failed.
std::string deviceFailure(const Slot& slot, const std::string& what) {
  return slot.listed.label + " " + slot.listed.selected.info.name + ": " + what;
}

// A device's GFLOP/s alone on the whole problem, where that run gave one.
std::optional<double> aloneSpeed(const std::vector<PartRow>& alone, const std::string& label) {
  for (const auto& a : alone)
    if (a.label == label) return a.gflops;
  return std::nullopt;
}

PartRow baseRow(const std::string& part, const Slot& slot, const Variant& v, const Shape& size) {
  PartRow row;
  row.part = part;
  row.label = slot.listed.label;
  row.device = slot.listed.selected.info.name;
  row.platform = slot.listed.selected.info.platform_name;
  row.driver = slot.listed.selected.info.driver_version;
  row.variant = v.name;
  row.precision = arithmeticName(v.arithmetic);
  row.m = size.m;
  row.n = size.n;
  row.k = size.k;
  return row;
}

// The variant built for `problem` on the slot's device, with that device's tuned parameters, and
// the problem uploaded: a failure here is the device's.
void prepare(Slot& slot, const Variant& v, const Options& o, const Problem& problem,
             const SearchDirs& dirs, std::ostream& err) {
  slot.runner.reset();
  std::vector<std::string> warnings;
  VariantParams params = resolveVariantParams(v, o.defines, dirs, slot.session->info(),
                                              Shape{problem.m, problem.n, problem.k}, &warnings);
  for (const auto& w : warnings) err << "clgemm: note: " << w << "\n";
  slot.defines = std::move(params.defines);
  slot.tuned_file = params.tuned_file;
  checkProblemFits(slot.session->info(), problem.m, problem.n, problem.k);
  slot.runner = makeClKernelRunner(v, *slot.defines, *slot.session, problem, o.cl_options,
                                   o.build_log ? &err : nullptr);
  slot.session->upload(problem);
}

// The row for all devices together.
PartRow totalRow(std::size_t devices, const Variant& v, const Shape& size) {
  PartRow row;
  row.part = "total";
  row.label = std::to_string(devices) + " devices";
  row.variant = v.name;
  row.precision = arithmeticName(v.arithmetic);
  row.m = size.m;
  row.n = size.n;
  row.k = size.k;
  row.rows = size.m;
  return row;
}

void addDefines(PartRow& row, const Slot& slot) {
  if (slot.defines) row.defines = slot.defines->all();
  if (slot.runner)
    for (const auto& d : slot.runner->derivedDefines()) row.defines.push_back(d);
  row.params_file = slot.tuned_file;
}

// The device alone on the whole problem: the baseline the split is measured against, and the
// speed its share follows from.
PartRow runAlone(Slot& slot, const Variant& v, const Options& o, const Problem& problem,
                 const SearchDirs& dirs, const std::optional<ResultCheck>& check,
                 std::ostream& err) {
  PartRow row = baseRow("alone", slot, v, Shape{problem.m, problem.n, problem.k});
  row.rows = problem.m;
  try {
    prepare(slot, v, o, problem, dirs, err);
    addDefines(row, slot);
    std::vector<double> result;
    const Timings t = slot.runner->run(o.warmup, o.reps, result);
    row.ms_median = t.median();
    row.ms_min = t.min();
    row.gflops = problem.gflopsAt(t.median());
    row.status = "unchecked";
    if (check) {
      const Verification verdict = (*check)(result, errorThresholdFor(v.arithmetic));
      const MemoryCheck memory = slot.runner->checkMemory();
      row.check = check->kind();
      row.err_ratio = verdict.max_ratio;
      const Verdict judged = judgeRun(verdict, memory, "verification failed");
      row.status = judged.status;
      row.message = judged.message;
    }
  } catch (const Error& e) {
    row.status = "error";
    row.message = deviceFailure(slot, e.what());
  }
  slot.runner.reset();
  return row;
}

// Every device's panel: timed repetitions with all devices at once, then one repetition with its
// transfers, whose C is the one verified. Returns the panel rows and the total row.
std::vector<PartRow> runSplit(std::vector<Slot>& slots, const std::vector<int>& rows,
                              const Variant& v, const Options& o, const Problem& problem,
                              const SearchDirs& dirs, const std::optional<ResultCheck>& check,
                              const std::vector<PartRow>& alone, std::ostream& err) {
  const Shape size{problem.m, problem.n, problem.k};
  std::vector<PartRow> out;
  PartRow total = totalRow(slots.size(), v, size);

  // Panels: built and uploaded, or the device's error.
  std::vector<Slot*> active;
  int start = 0;
  bool failed = false;
  for (std::size_t i = 0; i < slots.size(); ++i) {
    Slot& slot = slots[i];
    PartRow row = baseRow("panel", slot, v, size);
    row.row_start = start;
    row.rows = rows[i];
    slot.row_start = start;
    start += rows[i];
    if (rows[i] == 0) {
      row.status = "skipped";
      row.message = "no rows: its share of M rounds to 0";
      out.push_back(row);
      continue;
    }
    try {
      slot.panel = panelOf(problem, slot.row_start, rows[i]);
      prepare(slot, v, o, slot.panel, dirs, err);
      addDefines(row, slot);
      active.push_back(&slot);
    } catch (const Error& e) {
      row.status = "error";
      row.message = deviceFailure(slot, e.what());
      failed = true;
    }
    out.push_back(row);
  }
  const auto rowOf = [&](const Slot* s) -> PartRow& { return out[std::size_t(s - slots.data())]; };
  if (failed) {
    total.status = "error";
    total.message = "a device failed (see its row); no result";
    out.push_back(total);
    return out;
  }

  try {
    // Timed repetitions: each enqueued on every device before any is waited for, so the devices
    // compute at once; a repetition takes as long as its slowest device.
    std::vector<std::vector<double>> device_ms(active.size());
    std::vector<double> total_ms;
    for (int rep = 0; rep < o.warmup + o.reps; ++rep) {
      std::vector<std::pair<cl::Event, cl::Event>> events;
      for (Slot* s : active) {
        s->session->resetC();
        events.push_back(s->runner->enqueueGemm());
        s->session->queue().flush();
      }
      for (auto& e : events) e.second.wait();
      if (rep < o.warmup) continue;
      double slowest = 0.0;
      for (std::size_t i = 0; i < active.size(); ++i) {
        const double ms = eventSpanMs(events[i].first, events[i].second);
        device_ms[i].push_back(ms);
        slowest = std::max(slowest, ms);
      }
      total_ms.push_back(slowest);
    }
    for (std::size_t i = 0; i < active.size(); ++i) {
      const Timings t{device_ms[i], {}};
      PartRow& row = rowOf(active[i]);
      row.ms_median = t.median();
      row.ms_min = t.min();
      row.gflops = active[i]->panel.gflopsAt(t.median());
    }
    const Timings t{total_ms, {}};
    total.ms_median = t.median();
    total.ms_min = t.min();
    total.gflops = problem.gflopsAt(t.median());

    // One more repetition with its transfers (StreamedPanel), every device driven from a host
    // thread of its own so that none waits for another's transfers.
    std::vector<double> result(std::size_t(problem.m) * std::size_t(problem.n));
    std::vector<std::unique_ptr<StreamedPanel>> streams;
    for (Slot* s : active) {
      streams.push_back(std::make_unique<StreamedPanel>(*s->session, *s->runner, v, *s->defines,
                                                        s->panel, o.cl_options));
      rowOf(s).chunks = streams.back()->chunks();
    }
    const auto host_start = std::chrono::steady_clock::now();
    std::vector<std::thread> threads;
    for (auto& stream : streams) threads.emplace_back([&stream] { stream->run(); });
    for (auto& t : threads) t.join();
    const double host_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - host_start)
            .count();
    double in_slowest = 0.0, out_slowest = 0.0;
    for (std::size_t i = 0; i < active.size(); ++i) {
      const Slot& s = *active[i];
      const StreamedPanel& stream = *streams[i];
      if (!stream.error().empty()) throw RuntimeError(deviceFailure(s, stream.error()));
      std::copy(stream.c(), stream.c() + std::size_t(s.panel.m) * std::size_t(s.panel.n),
                result.begin() + std::ptrdiff_t(std::size_t(s.row_start) * std::size_t(s.panel.n)));
      PartRow& row = rowOf(&s);
      row.in_ms = stream.inMs();
      row.out_ms = stream.outMs();
      row.e2e_ms = stream.e2eMs();
      row.e2e_gflops = s.panel.gflopsAt(*row.e2e_ms);
      in_slowest = std::max(in_slowest, *row.in_ms);
      out_slowest = std::max(out_slowest, *row.out_ms);
    }
    streams.clear();  // the chunks' sub-buffers, before anything else changes the buffers
    total.in_ms = in_slowest;
    total.out_ms = out_slowest;
    total.e2e_ms = host_ms;
    total.e2e_gflops = problem.gflopsAt(host_ms);

    // Against the devices alone.
    double best = 0.0, sum = 0.0;
    for (const Slot* s : active) {
      if (const auto speed = aloneSpeed(alone, s->listed.label)) {
        best = std::max(best, *speed);
        sum += *speed;
      }
    }
    if (best > 0.0) total.speedup = *total.gflops / best;
    if (sum > 0.0) total.efficiency = *total.gflops / sum;

    // The assembled C, verified like any other; a failure is pinned to the panel it lies in.
    total.status = "unchecked";
    for (Slot* s : active) rowOf(s).status = "unchecked";
    if (check) {
      const Verification verdict = (*check)(result, errorThresholdFor(v.arithmetic));
      total.check = check->kind();
      total.err_ratio = verdict.max_ratio;
      total.status = verdict.passed ? "ok" : "FAIL";
      if (!verdict.passed) total.message = "verification failed: " + verdict.describe();
      for (Slot* s : active) {
        PartRow& row = rowOf(s);
        row.check = check->kind();
        const MemoryCheck memory = s->runner->checkMemory();
        const bool worst_here = !verdict.passed && int(verdict.worst_row) >= s->row_start &&
                                int(verdict.worst_row) < s->row_start + s->panel.m;
        row.status = worst_here || !memory.clean() ? "FAIL" : "ok";
        if (worst_here) row.message = "verification failed: " + verdict.describe();
        if (!memory.clean()) {
          row.message += (row.message.empty() ? "" : "; ") + memory.describe();
          total.status = "FAIL";
        }
      }
    }
    if (!o.output_c.empty()) {
      if (total.status == "ok")
        writeNpy(o.output_c, "--output-c", std::size_t(problem.m), std::size_t(problem.n),
                 std::vector<float>(result.begin(), result.end()));
      else
        err << "clgemm: C did not pass verification; --output-c '" << o.output_c
            << "' not written\n";
    }
  } catch (const cl::Error& e) {
    total.status = "error";
    total.message = std::string("OpenCL error while the devices ran: ") + e.what() + " (" +
                    clErrorName(e.err()) + ")";
  } catch (const Error& e) {
    total.status = "error";
    total.message = e.what();
  }
  out.push_back(total);
  return out;
}

}  // namespace

int runMultiDevice(const Options& o, std::ostream& out, std::ostream& err) {
  const std::vector<const Variant*> chosen = parseVariantList(o.kernels_given ? o.kernels : "best");
  if (chosen.size() != 1 || chosen[0]->backend != Backend::kOpenCl)
    throw UsageError(
        "--devices splits one OpenCL kernel across the devices: give --kernel one "
        "OpenCL kernel (default best), not '" +
        o.kernels + "'");
  const Variant& variant = *chosen[0];
  // A define no device could take is the command line's fault (exit 2), not a device's.
  checkConstraints(variant, ResolvedDefines(variant.params, o.defines));
  if (!o.out.empty()) checkWritable(o.out, "--out");
  if (!o.output_c.empty()) checkWritable(o.output_c, "--output-c");
  if (!o.save_programs.empty()) prepareSavedProgramsDir(o.save_programs);

  const std::vector<ListedDevice> listed = selectDevices(o.devices);
  std::optional<std::vector<double>> weights;
  if (!o.split.empty()) weights = parseSplit(o.split, listed.size());
  for (const auto& d : listed)
    if (const auto why = unsupportedOn(variant, d.selected.info))
      throw UsageError(describeListed(d) + " cannot take part: " + *why);
  for (const auto& d : listed)
    if (!d.selected.info.has_profiling)
      throw RuntimeError(describeListed(d) +
                         " does not support profiling events, which timing "
                         "needs");

  bool any_gpu = false;
  for (const auto& d : listed) any_gpu = any_gpu || d.selected.info.is_gpu;
  const int fallback = defaultProblemSize(any_gpu);
  const std::vector<Shape> shapes =
      o.sizes.empty() ? std::vector<Shape>{Shape{o.m.value_or(fallback), o.n.value_or(fallback),
                                                 o.k.value_or(fallback)}}
                      : o.sizes;
  for (const Shape& s : shapes) {
    // Each device holds the whole problem when it runs alone.
    for (const auto& d : listed) checkProblemFits(d.selected.info, s.m, s.n, s.k);
    checkHostProblemFits(hostMemoryBytes(), s.m, s.n, s.k);
  }

  const KernelSource source = loadKernelSource(o.kernel_file);
  const SearchDirs dirs = paramDirs(o.store, source.origin);
  std::vector<Slot> slots;
  for (const auto& d : listed) {
    Slot slot;
    slot.listed = d;
    slot.session = std::make_unique<ClSession>(d.selected, source);
    if (!o.save_programs.empty()) slot.session->programs().saveTo(o.save_programs);
    slots.push_back(std::move(slot));
  }

  MultiRunInfo info;
  for (const auto& d : listed) info.devices.push_back(describeListed(d));
  info.date = runDate();
  info.host_cpu = hostCpuName();
  info.alpha = o.alpha;
  info.beta = o.beta;
  info.warmup = o.warmup;
  info.reps = o.reps;
  info.checked = o.check;
  info.kernel_source = source.origin;
  info.split_from = weights ? "in proportion to --split " + o.split
                            : "in proportion to each device's GFLOP/s alone on the whole problem";

  // Per size: each distinct device alone, then all of them on their panels.
  Progress progress(err, shapes.size() * (slots.size() + 1), o.progress, stderrIsTerminal());
  std::vector<PartRow> rows;
  for (const Shape& shape : shapes) {
    const Problem problem = makeRandomProblem(shape.m, shape.n, shape.k, o.alpha, o.beta, o.seed);
    const std::string size = shapeDims(shape);
    std::optional<ResultCheck> check;
    if (o.check) {
      progress.note(size + ": computing the reference");
      check.emplace(problem, o.check_mode, o.seed);
    }
    std::vector<PartRow> alone;
    for (Slot& slot : slots) {
      const bool seen = std::any_of(alone.begin(), alone.end(),
                                    [&](const PartRow& r) { return r.label == slot.listed.label; });
      progress.step(size + ": " + slot.listed.label + " alone");
      if (!seen) alone.push_back(runAlone(slot, variant, o, problem, dirs, check, err));
    }
    // The split: as --split says, else in proportion to the speeds just measured.
    std::vector<double> w;
    if (weights) {
      w = *weights;
    } else {
      for (const Slot& slot : slots) {
        const auto speed = aloneSpeed(alone, slot.listed.label);
        if (!speed) {  // a device failed alone: no speed to split by
          w.clear();
          break;
        }
        w.push_back(*speed);
      }
    }
    rows.insert(rows.end(), alone.begin(), alone.end());
    progress.step(size + ": every device on its panel");
    if (w.empty()) {
      PartRow total = totalRow(slots.size(), variant, shape);
      total.status = "error";
      total.message = "a device failed alone (see its row), so there is no speed to split by";
      rows.push_back(total);
      continue;
    }
    const std::vector<int> split = splitRows(shape.m, w);
    std::string line = size + ": rows";
    for (std::size_t i = 0; i < slots.size(); ++i)
      line += " " + slots[i].listed.label + "=" + std::to_string(split[i]);
    progress.note(line);
    const auto parts = runSplit(slots, split, variant, o, problem, dirs, check, alone, err);
    rows.insert(rows.end(), parts.begin(), parts.end());
    for (Slot& slot : slots) slot.runner.reset();
  }
  progress.finish();

  for (const auto& r : rows) {
    if (r.status == "FAIL")
      err << "clgemm: " << r.part << " " << r.label << ": " << r.message << "\n";
    if (r.status == "error")
      err << "clgemm: error: " << r.part << " " << r.label << ": " << r.message << "\n";
  }
  writeReportTo(o.out, out, [&](std::ostream& s) { writeMultiReport(s, o.format, info, rows); });
  std::vector<std::string> statuses;
  for (const auto& r : rows) statuses.push_back(r.status);
  return exitCodeFor(statuses);
}

}  // namespace clgemm
