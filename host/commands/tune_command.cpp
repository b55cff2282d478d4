#include "commands/tune_command.hpp"

#include <algorithm>
#include <chrono>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <thread>

#include "check/result_check.hpp"
#include "commands/run_options.hpp"
#include "opencl/cl_check.hpp"
#include "opencl/device.hpp"
#include "opencl/device_class.hpp"
#include "opencl/kernel_source.hpp"
#include "problem/problem.hpp"
#include "registry/kernels.hpp"
#include "registry/param_lookup.hpp"
#include "report/text_table.hpp"
#include "run/variant_runner.hpp"
#include "session/cl_session.hpp"
#include "session/problem_limits.hpp"
#include "store/user_store.hpp"
#include "tune/tune_cache.hpp"
#include "tune/tune_confirm.hpp"
#include "tune/tune_report.hpp"
#include "tune/tune_search.hpp"
#include "tune/tune_space.hpp"
#include "util/atomic_file.hpp"
#include "util/errors.hpp"
#include "util/host_info.hpp"
#include "util/interrupt.hpp"
#include "util/progress.hpp"
#include "util/run_date.hpp"

namespace clgemm {
namespace {

using Clock = std::chrono::steady_clock;

// `seconds` as the clock's duration, for the deadline arithmetic below.
Clock::duration durationOf(double seconds) {
  return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
}

// Kernels the tuner compiles at once, and so the candidates the walk proposes before it hears
// their scores. On NVIDIA's driver 8 at once compiled 2.2x the candidates of one at a time but
// slowed the walk's first climb (90% of the best known after 32 s instead of 7-17), hence 4 for a
// GPU; pocl compiles one program at a time (8 at once ran 3 candidates in 46 s on a Xeon, one at
// a time 13 in 60), and its kernels run on the same cores, hence 1 for a CPU device.
unsigned tuneBuildThreads(const DeviceInfo& device) {
  if (!device.is_gpu) return 1;
  return std::clamp(std::thread::hardware_concurrency(), 1u, 4u);
}

const Variant& tunedVariant(const Options& o) {
  const auto chosen = parseVariantList(o.kernels);
  if (chosen.size() != 1)
    throw UsageError("clgemm tune searches one kernel at a time; --kernel '" + o.kernels +
                     "' names " + std::to_string(chosen.size()));
  const Variant& v = *chosen.front();
  if (v.backend != Backend::kOpenCl)
    throw UsageError("clgemm tune searches the OpenCL kernels of kernels.cl; " + v.name +
                     " is not one (see --kernel cl)");
  return v;
}

// A build failure's message carries the whole compiler log; the report wants one line of it.
std::string briefReason(const std::string& what) {
  const std::string log_marker = "; compiler log:\n";
  const auto log_at = what.find(log_marker);
  if (log_at == std::string::npos) return what.substr(0, what.find('\n'));
  std::string reason = what.substr(0, std::min(what.find(" with options"), log_at));
  std::istringstream log(what.substr(log_at + log_marker.size()));
  for (std::string line; std::getline(log, line);) {
    if (line.find("error") != std::string::npos) {
      reason += ": " + line.substr(0, 200);
      break;
    }
  }
  return reason;
}

// Where the parameters a run uses now came from, for the report.
std::string startSource(const VariantParams& current) {
  bool tuned = false, borrowed = false, cli = false;
  for (const auto& d : current.defines.all()) {
    tuned = tuned || d.fromTunedEntry();
    borrowed = borrowed || d.fromBorrowedEntry();
    cli = cli || d.source == "cli";
  }
  std::string source = tuned ? current.tuned_file : "the kernel's defaults";
  if (borrowed) source += " (" + current.tuned_match + ")";
  if (cli) source += ", with -D";
  return source;
}

// Everything besides device, kernel and size that changes what a candidate measures: a different
// value starts a different cache.
std::string cacheKey(const Options& o, const DeviceInfo& device, const KernelSource& source) {
  std::ostringstream key;
  key << device.name << "\n"
      << device.driver_version << "\n"
      << device.platform_name << "\n"
      << source.text << "\n"
      << o.cl_options << "\n"
      << o.alpha << " " << o.beta << " " << o.seed << "\n";
  // The shape changes what every candidate reads; the default adds nothing, so caches made before
  // shapes existed stay valid.
  const GemmShape shape = gemmShapes(o).front();
  if (!shape.isDefault()) key << "shape " << shapeLabel(shape) << "\n";
  // So does the precision (every candidate is another build, reading other matrices); FP32 adds
  // nothing, so caches made before --precision existed stay valid.
  if (o.precisions.front() != Precision::kFp32)
    key << "precision " << precisionName(o.precisions.front()) << "\n";
  for (const auto& d : o.defines) key << d.name << "=" << d.value << "\n";
  return key.str();
}

// One candidate: build, run, verify, time. Anything that stops it is recorded, never thrown, so
// the search goes on; `lost_session` says the OpenCL context may be unusable after an error.
CandidateResult evaluate(const Variant& v, const TuneSpace& space, const Config& config,
                         const Options& o, ClSession& session, const Problem& problem,
                         const ResultCheck& check, bool& lost_session) {
  CandidateResult r;
  r.config = config;
  std::vector<double> c;
  try {
    const ResolvedDefines defines = configDefines(v, space, config, o.defines);
    auto runner = makeClKernelRunner(v, defines, session, problem, o.cl_options, nullptr);
    if (const auto figures = runner->figures()) r.registers = figures->registers;
    const Timings t = runner->run(o.warmup, o.reps, c);
    r.ms_median = t.median();
    r.ms_min = t.min();
    r.gflops = problem.gflopsAt(t.median());
    const Verification verdict = check(c, errorThresholdFor(v.arithmetic));
    const MemoryCheck memory = runner->checkMemory();
    r.err_ratio = verdict.max_ratio;
    const Verdict judged = judgeRun(verdict, memory, "wrong result");
    r.status = judged.status;
    r.reason = judged.message;
  } catch (const ClError& e) {
    r.status = "invalid";
    r.reason = e.what();
    lost_session = true;
  } catch (const Error& e) {
    r.status = "invalid";
    r.reason = briefReason(e.what());
  }
  return r;
}

// Where the search starts, best first: the parameters a run would use now (`start`, where they lie
// in the space), up to kSeedsPerKind of this device's other entries (other sizes, nearest first)
// and as many of its class's (the same architecture's, then the vendor's: on the H200, an own entry
// tuned at 1024 ran 38.6 TFLOP/s at 2048 where the H100's 2048 entry ran 46.2), and the kernel's
// defaults; each with the user's -D over it.
std::vector<std::size_t> searchSeeds(const Variant& v, const TuneSpace& space,
                                     std::optional<std::size_t> start, const Options& o,
                                     const std::string& kernels_origin, const DeviceInfo& device,
                                     const Shape& size, const std::string& trans) {
  constexpr std::size_t kSeedsPerKind = 4;
  std::vector<std::size_t> seeds;
  auto add = [&](const std::map<std::string, std::string>& tuned) {
    Config config;
    try {
      const ResolvedDefines defines(v.params, o.defines, tuned);
      for (const auto& p : v.params) config.push_back(defines.param(p.name));
    } catch (const Error&) {
      return;  // an entry whose values are not integers: the run's lookup says so already
    }
    // Repeats are fine: the search proposes each configuration once. Another entry's size rules
    // give way to the held ones: its tiles are what seeds the search.
    if (const auto index = space.find(withHeldRules(space, config))) seeds.push_back(*index);
  };
  if (start) seeds.push_back(*start);
  const auto entries = rankedTunedEntries(paramDirs(o.store, kernels_origin).dirs, device, v.name,
                                          size, nullptr, trans, o.precisions.front());
  std::size_t own = 0, borrowed = 0;
  for (const auto& entry : entries) {
    std::size_t& taken = entry.match == ClassMatch::kDevice ? own : borrowed;
    if (taken++ < kSeedsPerKind) add(entry.defines);
  }
  add({});
  return seeds;
}

// The winner as a store entry: the format of data/params, with the size it was tuned for.
nlohmann::json storeEntry(const Variant& v, const TuneSummary& t, const CandidateResult& winner,
                          const ConfirmedCandidate* confirmed, Precision precision) {
  nlohmann::json entry = {{"device", t.device.name},
                          {"driver", t.device.driver_version},
                          {"kernel", t.variant},
                          {"size", {{"m", t.size.m}, {"n", t.size.n}, {"k", t.size.k}}},
                          // The keys a run looks it up by (param_store.hpp).
                          {"trans", t.trans},
                          {"precision", precisionName(precision)},
                          // What other devices need to know to borrow it (param_store.hpp).
                          {"class", classJson(classOf(t.device))},
                          {"defines", entryDefines(v, *t.space, winner.config)},
                          {"measured",
                           {{"tool", "clgemm tune"},
                            {"date", t.date},
                            {"platform", t.device.platform_name},
                            {"gflops", *winner.gflops},
                            {"ms_median", *winner.ms_median},
                            {"err_ratio", *winner.err_ratio},
                            {"check", t.check},
                            {"warmup", t.warmup},
                            {"reps", t.reps},
                            {"strategy", t.strategy},
                            // The caller's shape it was measured in, for people: "col TN".
                            {"shape", shapeLabel(t.shape)},
                            {"evaluated", t.results.size()},
                            {"valid_configurations", t.space->valid.size()},
                            {"start", namedConfig(t.space->names, t.start)}}}};
  if (confirmed) {
    // What decided: the median over the rounds timed side by side, not the search's one sample.
    entry["measured"]["gflops"] = *confirmed->gflops;
    entry["measured"]["ms_median"] = *confirmed->ms_median;
    entry["measured"]["search_gflops"] = *winner.gflops;
    entry["measured"]["confirmed_rounds"] = confirmed->rounds;
  }
  return entry;
}

}  // namespace

int runTune(const Options& o, std::ostream& out, std::ostream& err) {
  const Variant& v = tunedVariant(o);
  if (!o.out.empty()) checkWritable(o.out, "--out");
  const std::string store = userStoreDir(o.store);
  const std::string params_dir = userStoreSubdir(store, "params");
  const std::string cache_dir = userStoreSubdir(store, "tune-cache");
  // Both must be writable before minutes of search whose results would otherwise be lost.
  ensureStoreDir(params_dir, "--store");
  ensureStoreDir(cache_dir, "--store");

  const SelectedDevice device = selectDevice(o.platform, o.device);
  if (!device.info.has_profiling)
    throw RuntimeError(device.info.name + " does not support profiling events, which timing needs");
  if (const auto why = unsupportedOn(v, device.info)) throw UsageError("cannot tune: " + *why);
  // One precision: options.cpp refuses a list for tune.
  const Precision precision = o.precisions.front();
  if (precision == Precision::kFp64)
    if (const auto why = fp64Refusal(v, &device.info))
      throw UsageError("cannot tune " + v.name + " in fp64: " + *why);
  const int fallback = defaultProblemSize(device.info.is_gpu);
  const Shape size{o.m.value_or(fallback), o.n.value_or(fallback), o.k.value_or(fallback)};
  // One shape: options.cpp refuses lists for tune.
  const GemmShape shape = gemmShapes(o).front();
  checkProblemFits(device.info, size.m, size.n, size.k, shape, precision);
  checkHostProblemFits(hostMemoryBytes(), size.m, size.n, size.k, shape, precision);
  const std::string trans = tuningTransposes(v, size.m, size.n, size.k, shape);

  const KernelSource source = loadKernelSource(o.kernel_file);
  std::optional<ClSession> session;
  session.emplace(device, source);

  // Where the search starts: what a run of this kernel would use now.
  std::vector<std::string> warnings;
  const VariantParams current =
      resolveVariantParams(v, o.defines, paramDirs(o.store, source.origin), device.info, size,
                           &warnings, trans, precision, shape.layout == Layout::kCol);
  for (const auto& w : warnings) err << "clgemm: note: " << w << "\n";
  Config start;
  for (const auto& p : v.params) start.push_back(current.defines.param(p.name));

  const TuneSpace space =
      buildTuneSpace(v, device.info, size, o.defines, o.space, start, precision);
  if (space.valid.empty()) {
    std::string why;
    for (const auto& e : space.excluded)
      why += "; " + std::to_string(e.count) + " " + e.kind + ", e.g. " + e.example;
    throw UsageError(v.name + ": none of the " + std::to_string(space.total) +
                     " configurations fits " + device.info.name + why);
  }
  const std::optional<std::size_t> start_index = space.find(start);
  const std::vector<std::size_t> seeds =
      searchSeeds(v, space, start_index, o, source.origin, device.info, size, trans);
  // --time alone searches until the time is up, so it sets no count; it never walks the space in
  // its own order unless that fits in the default budget (a large space would be left at its
  // first few hundred configurations, all alike).
  const bool time_alone = o.time_limit && !o.budget;
  std::size_t budget =
      o.budget ? std::size_t(*o.budget) : (time_alone ? space.valid.size() : kDefaultTuneBudget);
  budget = std::min(budget, space.valid.size());
  const bool covers_space = time_alone ? space.valid.size() <= std::size_t(kDefaultTuneBudget)
                                       : budget >= space.valid.size();
  const TuneStrategy strategy = o.strategy != TuneStrategy::kAuto
                                    ? o.strategy
                                    : (covers_space ? TuneStrategy::kFull : TuneStrategy::kAnneal);

  TuneCache cache(
      cache_dir + "/" +
          tuneCacheFileName(device.info.name, v.name, size, cacheKey(o, device.info, source)),
      space.names);
  err << "clgemm: tune " << v.name << " at " << shapeText(size) << ": " << space.total
      << " combinations, " << space.valid.size() << " valid; evaluating " << budget << " by "
      << strategyName(strategy)
      << (cache.size() ? " (" + std::to_string(cache.size()) + " candidates already in the cache)"
                       : std::string())
      << "\n";

  const Problem problem =
      makeRandomProblem(size.m, size.n, size.k, o.alpha, o.beta, o.seed, shape, precision);
  const ResultCheck check(problem, o.check_mode, o.seed);
  session->upload(problem);

  TuneSummary summary;
  summary.variant = v.name;
  summary.device = device.info;
  summary.size = size;
  summary.shape = shape;  // as given: the reports fill in the leading dimensions
  summary.trans = trans;
  // The precision column, as a run's rows say it: fp64 for an FP64 problem.
  summary.precision =
      precision == Precision::kFp64 ? precisionName(precision) : arithmeticName(v.arithmetic);
  summary.alpha = o.alpha;
  summary.beta = o.beta;
  summary.warmup = o.warmup;
  summary.reps = o.reps;
  summary.date = runDate();
  summary.check = check.kind();
  summary.strategy = strategyName(strategy);
  summary.budget = budget;
  summary.space = &space;
  summary.start = start;
  summary.start_source = startSource(current);
  summary.start_in_space = start_index.has_value();
  summary.cache_file = cache.path();

  const InterruptGuard interrupt;
  const auto began = Clock::now();
  std::optional<Clock::time_point> deadline;
  if (o.time_limit) deadline = began + durationOf(*o.time_limit);
  Progress progress(err, budget, o.progress, stderrIsTerminal());
  progress.showRemaining(deadline);
  // Bounded by time alone, annealing cools as the time runs out.
  std::function<double()> cooling;
  if (time_alone)
    cooling = [&] {
      return std::chrono::duration<double>(Clock::now() - began).count() / *o.time_limit;
    };
  auto search = makeTuneSearch(strategy, space, seeds, budget, o.seed, cooling);
  std::optional<double> best;
  std::string best_text = "none yet";
  std::size_t cache_hits = 0;
  // Under a time limit the search leaves room for the confirmation: building and checking each
  // candidate it would confirm now (as long as a search evaluation takes: on the H200 the
  // confirmation took 1.5-3.5 s where the timed runs alone needed 0.5), then their timed runs in
  // every round, with a margin; never more than a quarter of the time.
  double build_seconds = 0.0, evaluation_seconds = 0.0;
  std::size_t builds = 0, evaluations = 0;
  auto confirmation_reserve = [&] {
    if (o.confirm_rounds == 0 || !o.time_limit || evaluations == 0) return Clock::duration::zero();
    const auto chosen = confirmationCandidates(summary.results, rankCandidates(summary.results),
                                               start, kConfirmedCandidates);
    double ms = 0.0;
    for (std::size_t i : chosen) ms += *summary.results[i].ms_median;
    const double per_candidate =
        (builds ? build_seconds / double(builds) : 0.0) + evaluation_seconds / double(evaluations);
    // Half again as a margin: on the H100 a reserve without it ran out 0.1 s into the first round.
    const double seconds = 1.5 * (double(chosen.size()) * per_candidate +
                                  double(o.confirm_rounds) * double(o.warmup + o.reps) * ms * 1e-3);
    return durationOf(std::min(seconds, 0.25 * *o.time_limit));
  };
  // Whether `seconds` more of search, then the confirmation, still end by the deadline. The next
  // step's own time counts, at the longest such step so far: checked against the reserve alone,
  // a search that began a batch or an evaluation just before the reserve ran past it by that step
  // (on a 2-core machine's pocl, a second past the limit, and the confirmation ran one round).
  auto time_left_for = [&](double seconds) {
    return !deadline || Clock::now() + confirmation_reserve() + durationOf(seconds) < *deadline;
  };
  double longest_batch_build = 0.0, longest_evaluation = 0.0;
  // Candidates are taken in batches, one per build thread: the batch's kernels compile at once
  // (most of a candidate's time is the compiler's), then run one after the other. A search
  // proposes from what it has recorded, so a batch holds neighbours of one step of the walk.
  const unsigned build_threads = tuneBuildThreads(device.info);
  bool stopped = false;
  while (!stopped && summary.results.size() < budget) {
    if (InterruptGuard::requested()) {
      summary.interrupted = true;
      break;
    }
    // A batch's builds, then at least its first evaluation.
    if (!time_left_for(longest_batch_build + longest_evaluation)) break;
    std::vector<std::size_t> batch;
    while (batch.size() < build_threads && summary.results.size() + batch.size() < budget) {
      const auto index = search->next();
      if (!index) break;
      batch.push_back(*index);
    }
    if (batch.empty()) break;
    const auto building = Clock::now();
    std::vector<std::string> to_build;
    for (std::size_t index : batch)
      if (!cache.find(space.valid[index]))
        if (auto options = configBuildOptions(v, space, space.valid[index], o.defines, problem,
                                              device.info, o.cl_options))
          to_build.push_back(std::move(*options));
    session->programs().prebuild(to_build, build_threads);
    const double batch_build = std::chrono::duration<double>(Clock::now() - building).count();
    build_seconds += batch_build;
    builds += to_build.size();
    longest_batch_build = std::max(longest_batch_build, batch_build);
    for (std::size_t at = 0; at < batch.size(); ++at) {
      if (at > 0 && InterruptGuard::requested()) {
        summary.interrupted = stopped = true;
        break;
      }
      // Checked before the batch's first evaluation too: a build can take many times the longest
      // before it (under pocl with ASan, 3.8 s for a kernel not in pocl's cache after 0.15 s for
      // those in it), and its evaluation would add to the overrun (its first launch compiles
      // again: 1.3 s there). A run evaluates one candidate regardless (results from the cache
      // alone would leave a resumed search with nothing new).
      if (evaluations > 0 && !time_left_for(longest_evaluation)) {
        stopped = true;
        break;
      }
      const std::size_t index = batch[at];
      const Config& config = space.valid[index];
      CandidateResult result;
      if (const CandidateResult* cached = cache.find(config)) {
        result = *cached;
        // The progress line counts what this run evaluates.
        progress.setTotal(budget - ++cache_hits);
      } else {
        progress.step(space.describe(config) + " (best " + best_text + ")");
        bool lost_session = false;
        const auto evaluation_began = Clock::now();
        result = evaluate(v, space, config, o, *session, problem, check, lost_session);
        const double evaluation =
            std::chrono::duration<double>(Clock::now() - evaluation_began).count();
        evaluation_seconds += evaluation;
        longest_evaluation = std::max(longest_evaluation, evaluation);
        ++evaluations;
        cache.append(result);
        if (lost_session) {
          // An error may leave the context unusable; the next candidate gets a fresh one.
          session.emplace(device, source);
          session->upload(problem);
        }
      }
      search->record(index, result.status == "ok" ? *result.gflops : 0.0);
      if (result.status == "ok" && (!best || *result.gflops > *best)) {
        best = result.gflops;
        best_text = fixed(best, 1) + " GFLOP/s: " + space.describe(config);
      }
      summary.results.push_back(result);
    }
    session->programs().clear();
  }
  progress.finish();
  summary.seconds = std::chrono::duration<double>(Clock::now() - began).count();

  const auto ranked = rankCandidates(summary.results);
  summary.confirm_rounds = o.confirm_rounds;
  if (!summary.interrupted && !ranked.empty()) summary.winner = ranked.front();
  const auto to_confirm =
      confirmationCandidates(summary.results, ranked, start, kConfirmedCandidates);
  if (!summary.interrupted && o.confirm_rounds > 0 && !to_confirm.empty()) {
    Progress confirming(err, to_confirm.size() * std::size_t(o.confirm_rounds), o.progress,
                        stderrIsTerminal());
    // A later round starts while it ends by the deadline, or while it is short against the limit
    // (1%): when a search step outran every estimate and the deadline has passed, the remaining
    // rounds of a cheap confirmation add a few milliseconds, and one round alone confirms nothing.
    auto may_start_round = [&](double round_seconds) {
      return !deadline || round_seconds <= 0.01 * *o.time_limit ||
             Clock::now() + durationOf(round_seconds) <= *deadline;
    };
    summary.confirmation =
        confirmCandidates(ConfirmationRun{v, space, o.defines, o.cl_options, o.warmup, o.reps,
                                          build_threads, *session, problem, check},
                          summary.results, to_confirm, o.confirm_rounds, may_start_round,
                          [&](const std::string& what) { confirming.step("confirming " + what); });
    confirming.finish();
    summary.interrupted = InterruptGuard::requested();
    const auto confirmed = confirmedWinner(summary.confirmation);
    summary.winner.reset();
    if (confirmed) summary.winner = summary.confirmation[*confirmed].result;
    summary.confirm_seconds =
        std::chrono::duration<double>(Clock::now() - began).count() - summary.seconds;
  }

  if (!summary.interrupted && summary.winner) {
    const CandidateResult& winner = summary.results[*summary.winner];
    const ConfirmedCandidate* confirmed = nullptr;
    for (const auto& c : summary.confirmation)
      if (c.result == *summary.winner) confirmed = &c;
    const std::string path = params_dir + "/" +
                             tunedEntryFileName(device.info.name, device.info.driver_version,
                                                v.name, size, trans, precision);
    const nlohmann::json entry = storeEntry(v, summary, winner, confirmed, precision);
    writeFileAtomically(path, "--store",
                        [&](std::ostream& file) { file << entry.dump(2) << "\n"; });
    summary.stored_file = path;
  }

  auto report = [&](std::ostream& stream) { writeTuneReport(stream, o.format, summary); };
  if (o.out.empty())
    report(out);
  else
    writeFileAtomically(o.out, "--out", report);

  if (summary.interrupted) {
    err << "clgemm: interrupted after " << summary.results.size()
        << " candidates; nothing was stored. The cache keeps them: the same command resumes ("
        << cache.path() << ")\n";
    return kExitInterrupted;
  }
  if (!summary.winner && !ranked.empty()) {
    err << "clgemm: error: every candidate of the confirmation failed when built and run again "
           "(see the report); nothing was stored\n";
    return kExitVerifyFailed;
  }
  if (ranked.empty()) {
    bool any_wrong = false;
    for (const auto& r : summary.results) any_wrong = any_wrong || r.status == "FAIL";
    err << "clgemm: error: no candidate of " << v.name << " "
        << (any_wrong ? "verified" : "built and ran") << "; nothing was stored\n";
    return any_wrong ? kExitVerifyFailed : kExitRuntime;
  }
  return kExitOk;
}

}  // namespace clgemm
