#include "tune/tune_report.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "check/result_check.hpp"
#include "report/text_table.hpp"
#include "util/json_or_null.hpp"

namespace clgemm {
namespace {

std::optional<double> startGflops(const TuneSummary& t) {
  for (const auto& r : t.results)
    if (r.config == t.start && r.status == "ok") return r.gflops;
  return std::nullopt;
}

std::optional<double> overStart(const TuneSummary& t, const CandidateResult& r) {
  const auto start = startGflops(t);
  if (!start || !r.gflops || *start <= 0.0) return std::nullopt;
  return *r.gflops / *start;
}

// The confirmation's timing of result `index`, if it was confirmed.
const ConfirmedCandidate* confirmationOf(const TuneSummary& t, std::size_t index) {
  for (const auto& c : t.confirmation)
    if (c.result == index) return &c;
  return nullptr;
}

std::optional<double> confirmedGflops(const TuneSummary& t, std::size_t index) {
  const ConfirmedCandidate* c = confirmationOf(t, index);
  return c ? c->gflops : std::nullopt;
}

// The confirmation: each candidate's search time beside its rounds and their median.
void writeConfirmation(std::ostream& out, const TuneSummary& t) {
  if (t.confirmation.empty()) return;
  out << "\nconfirmed side by side (" << t.confirm_rounds
      << " interleaved rounds asked; the median of the rounds decides) in "
      << fixed(t.confirm_seconds, 1) << " s:\n";
  std::vector<std::string> header = {"GFLOP/s", "search", "rounds", "defines"};
  std::vector<std::vector<std::string>> cells;
  for (const auto& c : t.confirmation) {
    const CandidateResult& r = t.results[c.result];
    std::string rounds;
    for (double g : c.rounds) rounds += (rounds.empty() ? "" : " ") + fixed(g, 1);
    std::string defines = t.space->describe(r.config);
    if (r.config == t.start) defines += "  (start)";
    if (t.winner && *t.winner == c.result) defines += "  (winner)";
    if (c.status != "ok") defines += "  " + c.status + ": " + c.reason;
    cells.push_back({fixed(c.gflops, 1), fixed(r.gflops, 1), rounds, defines});
  }
  writeAligned(out, header, cells, 0, header.size() - 2);
}

// The size rules the search held, by name (TuneSpace::held_rule).
nlohmann::json heldRulesJson(const TuneSpace& space) {
  nlohmann::json held = nlohmann::json::object();
  for (std::size_t i = 0; i < space.names.size() && i < space.held_rule.size(); ++i)
    if (space.held_rule[i]) held[space.names[i]] = space.values[i].front();
  return held;
}

std::string spaceText(const TuneSummary& t) {
  const TuneSpace& space = *t.space;
  std::string names;
  for (std::size_t i = 0; i < space.names.size(); ++i)
    names += (i ? " " : "") + space.names[i] + "(" + std::to_string(space.values[i].size()) + ")";
  std::string text = "space: " + std::to_string(space.total) + " combinations of " + names + "; " +
                     std::to_string(space.valid.size()) + " valid";
  if (!space.excluded.empty()) {
    text += ", excluded before building:";
    for (const auto& e : space.excluded)
      text += "\n  " + std::to_string(e.count) + " " + e.kind + ", e.g. " + e.example;
  }
  std::string held;
  const nlohmann::json held_rules = heldRulesJson(space);
  for (const auto& [name, value] : held_rules.items())
    held += " " + name + "=" + std::to_string(value.get<int>());
  if (!held.empty())
    text +=
        "\nheld at the value a run uses (rules over sizes, which one size cannot judge; "
        "--space NAME=V1,V2 searches one):" +
        held;
  return text;
}

// Candidates that did not verify or did not run, grouped by status, a few of each.
void writeFailures(std::ostream& out, const TuneSummary& t) {
  constexpr std::size_t kShown = 5;
  for (const std::string status : {"FAIL", "invalid"}) {
    std::vector<const CandidateResult*> hits;
    for (const auto& r : t.results)
      if (r.status == status) hits.push_back(&r);
    if (hits.empty()) continue;
    out << (status == "FAIL" ? "wrong results, never ranked" : "did not build or launch") << " ("
        << hits.size() << "):\n";
    for (std::size_t i = 0; i < hits.size() && i < kShown; ++i)
      out << "  " << t.space->describe(hits[i]->config) << ": " << hits[i]->reason << "\n";
    if (hits.size() > kShown) out << "  ... and " << hits.size() - kShown << " more\n";
  }
}

void writeTable(std::ostream& out, const TuneSummary& t) {
  out << "clgemm tune: " << t.variant << " on " << t.device.name << " (" << t.device.type << ", "
      << t.device.platform_name << ", driver " << t.device.driver_version << ")\n"
      << "problem: " << shapeDims(t.size)
      << (t.shape.isDefault() ? "" : " " + shapeLabel(t.shape) + " (entry key " + t.trans + ")")
      // FP64 is keyed as strictly as the transposes (param_store.hpp); FP32 stays unmarked.
      << (t.precision == "fp64" ? " fp64 (entry key fp64)" : "") << " alpha=" << t.alpha
      << " beta=" << t.beta << ", " << t.warmup << " warm-up + " << t.reps
      << " timed runs per candidate, ranked by median\n"
      << spaceText(t) << "\n";
  std::size_t cached = 0;
  for (const auto& r : t.results) cached += r.from_cache ? 1 : 0;
  out << "search: " << t.strategy << ", " << t.results.size() << " of " << t.space->valid.size()
      << " evaluated (" << cached << " from the cache) in " << fixed(t.seconds, 1) << " s"
      << (t.interrupted ? ", interrupted" : "") << "\n";
  if (!t.check.empty()) out << "every candidate checked: " << describeCheck(t.check) << "\n";

  const auto ranked = rankCandidates(t.results);
  if (!ranked.empty()) {
    out << "\nfastest " << std::min(ranked.size(), kTuneTableRows) << " of " << ranked.size()
        << " verified:\n";
    std::vector<std::string> header = {"rank",     "GFLOP/s",   "median ms", "min ms",
                                       "vs start", "err ratio", "regs",      "defines"};
    std::vector<std::vector<std::string>> cells;
    for (std::size_t i = 0; i < ranked.size() && i < kTuneTableRows; ++i) {
      const CandidateResult& r = t.results[ranked[i]];
      std::string defines = t.space->describe(r.config);
      if (r.config == t.start) defines += "  (start)";
      cells.push_back({std::to_string(i + 1), fixed(r.gflops, 1), fixed(r.ms_median, 3),
                       fixed(r.ms_min, 3), ratio(overStart(t, r)), general(r.err_ratio),
                       r.registers ? std::to_string(*r.registers) : "", defines});
    }
    writeAligned(out, header, cells, 0, header.size() - 2);
  }
  out << "start (what a run used before, from " << t.start_source
      << "): " << t.space->describe(t.start);
  if (!t.start_in_space) {
    out << ", outside the space searched\n";
  } else {
    const auto it = std::find_if(ranked.begin(), ranked.end(),
                                 [&](std::size_t i) { return t.results[i].config == t.start; });
    if (it != ranked.end())
      out << ", " << fixed(t.results[*it].gflops, 1) << " GFLOP/s, rank "
          << (it - ranked.begin() + 1) << "\n";
    else
      out << ", did not verify or run\n";
  }
  writeConfirmation(out, t);
  writeFailures(out, t);
  if (!t.stored_file.empty())
    out << "winner stored in " << t.stored_file << ": "
        << (t.precision == "fp64" ? "fp64 runs of " : "runs of ") << t.variant
        << " on this device now use it\n";
  out << "cache: " << t.cache_file << "\n";
}

// Each result's rank (1 = fastest), nothing for those that did not verify.
std::vector<std::optional<std::size_t>> ranksByResult(std::size_t results,
                                                      const std::vector<std::size_t>& ranked) {
  std::vector<std::optional<std::size_t>> rank_of(results);
  for (std::size_t i = 0; i < ranked.size(); ++i) rank_of[ranked[i]] = i + 1;
  return rank_of;
}

void writeCsv(std::ostream& out, const TuneSummary& t) {
  const auto ranked = rankCandidates(t.results);
  const auto rank_of = ranksByResult(t.results.size(), ranked);
  const auto shape = shapeFields(t.size.m, t.size.n, t.size.k, t.shape);
  out << "variant,device,driver,date,m,n,k";
  for (const auto& field : shape) out << "," << field.first;
  out << ",precision,alpha,beta";
  for (const auto& name : t.space->names) out << "," << csvField(name);
  out << ",rank,status,gflops,ms_median,ms_min,vs_start,err_ratio,registers,from_cache,"
         "confirmed_gflops,winner,reason\n";
  for (std::size_t i = 0; i < t.results.size(); ++i) {
    const CandidateResult& r = t.results[i];
    out << csvField(t.variant) << "," << csvField(t.device.name) << ","
        << csvField(t.device.driver_version) << "," << t.date << "," << t.size.m << "," << t.size.n
        << "," << t.size.k;
    for (const auto& field : shape) out << "," << csvField(field.second);
    out << "," << t.precision << "," << t.alpha << "," << t.beta;
    for (const int value : r.config) out << "," << value;
    out << "," << (rank_of[i] ? std::to_string(*rank_of[i]) : "") << "," << r.status << ","
        << fixed(r.gflops, 3) << "," << fixed(r.ms_median, 6) << "," << fixed(r.ms_min, 6) << ","
        << fixed(overStart(t, r), 4) << "," << general(r.err_ratio) << ","
        << (r.registers ? std::to_string(*r.registers) : "") << "," << (r.from_cache ? "yes" : "no")
        << "," << fixed(confirmedGflops(t, i), 3) << ","
        << (t.winner && *t.winner == i ? "yes" : "no") << "," << csvField(r.reason) << "\n";
  }
}

nlohmann::json configJson(const TuneSpace& space, const Config& config) {
  return namedConfig(space.names, config);
}

void writeJson(std::ostream& out, const TuneSummary& t) {
  const auto ranked = rankCandidates(t.results);
  const auto rank_of = ranksByResult(t.results.size(), ranked);
  nlohmann::json excluded = nlohmann::json::array();
  for (const auto& e : t.space->excluded)
    excluded.push_back({{"kind", e.kind}, {"count", e.count}, {"example", e.example}});
  nlohmann::json doc = {
      {"variant", t.variant},
      {"device",
       {{"name", t.device.name},
        {"type", t.device.type},
        {"platform", t.device.platform_name},
        {"driver", t.device.driver_version}}},
      {"date", t.date},
      {"m", t.size.m},
      {"n", t.size.n},
      {"k", t.size.k},
      {"alpha", t.alpha},
      {"trans", t.trans},
      {"precision", t.precision},
      {"beta", t.beta},
      {"warmup", t.warmup},
      {"reps", t.reps},
      {"check", t.check},
      {"strategy", t.strategy},
      {"budget", t.budget},
      {"space",
       {{"combinations", t.space->total},
        {"valid", t.space->valid.size()},
        {"excluded", excluded},
        {"held_rules", heldRulesJson(*t.space)}}},
      {"start",
       {{"defines", configJson(*t.space, t.start)},
        {"source", t.start_source},
        {"in_space", t.start_in_space},
        {"gflops", jsonOrNull(startGflops(t))}}},
      {"seconds", t.seconds},
      {"interrupted", t.interrupted},
      {"cache", t.cache_file},
      {"stored", t.stored_file.empty() ? nlohmann::json(nullptr) : nlohmann::json(t.stored_file)},
      {"winner",
       t.winner ? configJson(*t.space, t.results[*t.winner].config) : nlohmann::json(nullptr)}};
  // The shape's fields as the run report writes them (lda, ldb, ldc as numbers).
  for (const auto& [name, value] : shapeFields(t.size.m, t.size.n, t.size.k, t.shape))
    doc[name] = name.rfind("ld", 0) == 0 ? nlohmann::json(std::stoi(value)) : nlohmann::json(value);
  nlohmann::json confirmed = nlohmann::json::array();
  for (const auto& c : t.confirmation)
    confirmed.push_back({{"defines", configJson(*t.space, t.results[c.result].config)},
                         {"search_gflops", jsonOrNull(t.results[c.result].gflops)},
                         {"rounds", c.rounds},
                         {"gflops", jsonOrNull(c.gflops)},
                         {"ms_median", jsonOrNull(c.ms_median)},
                         {"status", c.status},
                         {"reason", c.reason}});
  doc["confirmation"] = {
      {"rounds", t.confirm_rounds}, {"seconds", t.confirm_seconds}, {"candidates", confirmed}};
  doc["candidates"] = nlohmann::json::array();
  for (std::size_t i = 0; i < t.results.size(); ++i) {
    const CandidateResult& r = t.results[i];
    doc["candidates"].push_back({{"defines", configJson(*t.space, r.config)},
                                 {"rank", jsonOrNull(rank_of[i])},
                                 {"status", r.status},
                                 {"gflops", jsonOrNull(r.gflops)},
                                 {"ms_median", jsonOrNull(r.ms_median)},
                                 {"ms_min", jsonOrNull(r.ms_min)},
                                 {"vs_start", jsonOrNull(overStart(t, r))},
                                 {"err_ratio", jsonOrNull(r.err_ratio)},
                                 {"registers", jsonOrNull(r.registers)},
                                 {"from_cache", r.from_cache},
                                 {"confirmed_gflops", jsonOrNull(confirmedGflops(t, i))},
                                 {"reason", r.reason}});
  }
  out << doc.dump(2) << "\n";
}

}  // namespace

std::vector<std::size_t> rankCandidates(const std::vector<CandidateResult>& results) {
  std::vector<std::size_t> ranked;
  for (std::size_t i = 0; i < results.size(); ++i)
    if (results[i].status == "ok" && results[i].gflops) ranked.push_back(i);
  // Stable: of two equally fast candidates the one evaluated first ranks first.
  std::stable_sort(ranked.begin(), ranked.end(), [&](std::size_t a, std::size_t b) {
    return *results[a].gflops > *results[b].gflops;
  });
  return ranked;
}

void writeTuneReport(std::ostream& out, Format format, const TuneSummary& summary) {
  switch (format) {
    case Format::kCsv:
      writeCsv(out, summary);
      break;
    case Format::kJson:
      writeJson(out, summary);
      break;
    default:
      writeTable(out, summary);
  }
}

}  // namespace clgemm
