#include "multi/multi_device_report.hpp"

#include <functional>
#include <nlohmann/json.hpp>
#include <sstream>

#include "check/verify.hpp"
#include "problem/size_list.hpp"
#include "report/report.hpp"
#include "report/text_table.hpp"
#include "util/json_or_null.hpp"

namespace clgemm {
namespace {

std::string definesText(const PartRow& r) {
  std::string out;
  for (const auto& d : r.defines) out += (out.empty() ? "" : " ") + d.name + "=" + d.value;
  return out;
}

std::string sourcesText(const PartRow& r) {
  std::string out;
  for (const auto& d : r.defines) out += (out.empty() ? "" : " ") + d.name + "=" + d.source;
  return out;
}

std::string rowsText(const PartRow& r) {
  if (r.part != "panel") return std::to_string(r.rows);
  return std::to_string(r.row_start) + "-" + std::to_string(r.row_start + r.rows - 1) + " (" +
         fixed(100.0 * r.rows / r.m, 1) + "%)";
}

std::string text(double value) {
  std::ostringstream s;
  s << value;
  return s.str();
}

// One of the shape's fields (report.hpp's shapeFields) of the whole problem: row-major, NN,
// packed, the only shape --devices takes.
std::string shapeField(const PartRow& r, const std::string& name) {
  for (const auto& [field, value] : shapeFields(r.m, r.n, r.k, GemmShape{}))
    if (field == name) return value;
  return "";
}

bool sameSize(const PartRow& a, const PartRow& b) { return a.m == b.m && a.n == b.n && a.k == b.k; }

void writeTable(std::ostream& out, const MultiRunInfo& run, const std::vector<PartRow>& rows) {
  out << "devices:\n";
  for (const auto& d : run.devices) out << "  " << d << "\n";
  out << "host: " << run.host_cpu << "\n"
      << "problem: alpha=" << run.alpha << " beta=" << run.beta << ", " << run.warmup
      << " warm-up + " << run.reps << " timed runs, kernels from " << run.kernel_source << "\n"
      << "C is split into row panels, one per device, " << run.split_from << "\n";
  if (run.checked)
    out << "checked against a double-precision reference (error ratio, pass below "
        << kErrorRatioThreshold << "), every matrix between canaries\n";
  else
    out << "not checked (--no-check)\n";
  out << "kernel: profiling events, transfers excluded (total: each repetition's slowest device); "
         "in/out: the host-device transfers of one more repetition run with them, every device at "
         "once and each panel streamed in chunks so its transfers overlap its GEMMs; with "
         "transfers: that repetition from the first write to the last read\n";
  std::vector<std::vector<PartRow>> groups;
  for (const auto& r : rows) {
    if (groups.empty() || !sameSize(groups.back().front(), r)) groups.emplace_back();
    groups.back().push_back(r);
  }
  const std::vector<std::string> header = {
      "part",          "device",        "rows",       "chunks",    "status",
      "kernel ms",     "GFLOP/s",       "in ms",      "out ms",    "with transfers ms",
      "GFLOP/s incl.", "vs best alone", "efficiency", "err ratio", "defines"};
  for (const auto& g : groups) {
    out << "\n" << shapeDims(Shape{g.front().m, g.front().n, g.front().k}) << "\n";
    std::vector<std::vector<std::string>> cells;
    for (const auto& r : g) {
      cells.push_back({r.part, r.label, rowsText(r), r.chunks ? std::to_string(*r.chunks) : "",
                       r.status, fixed(r.ms_median, 3), fixed(r.gflops, 1), fixed(r.in_ms, 3),
                       fixed(r.out_ms, 3), fixed(r.e2e_ms, 3), fixed(r.e2e_gflops, 1),
                       ratio(r.speedup), r.efficiency ? fixed(100.0 * *r.efficiency, 1) + "%" : "",
                       general(r.err_ratio), definesText(r)});
    }
    writeAligned(out, header, cells, 5, header.size() - 2);
    for (const auto& r : g)
      if (!r.message.empty()) out << r.part << " " << r.label << ": " << r.message << "\n";
  }
}

void writeCsv(std::ostream& out, const MultiRunInfo& run, const std::vector<PartRow>& rows) {
  using Column = std::pair<const char*, std::function<std::string(const PartRow&)>>;
  const std::vector<Column> columns = {
      {"part", [](const PartRow& r) { return r.part; }},
      {"device_index", [](const PartRow& r) { return r.label; }},
      {"device", [](const PartRow& r) { return r.device; }},
      {"platform", [](const PartRow& r) { return r.platform; }},
      {"driver", [](const PartRow& r) { return r.driver; }},
      {"date", [&](const PartRow&) { return run.date; }},
      {"variant", [](const PartRow& r) { return r.variant; }},
      {"m", [](const PartRow& r) { return std::to_string(r.m); }},
      {"n", [](const PartRow& r) { return std::to_string(r.n); }},
      {"k", [](const PartRow& r) { return std::to_string(r.k); }},
      {"layout", [](const PartRow& r) { return shapeField(r, "layout"); }},
      {"trans_a", [](const PartRow& r) { return shapeField(r, "trans_a"); }},
      {"trans_b", [](const PartRow& r) { return shapeField(r, "trans_b"); }},
      {"lda", [](const PartRow& r) { return shapeField(r, "lda"); }},
      {"ldb", [](const PartRow& r) { return shapeField(r, "ldb"); }},
      {"ldc", [](const PartRow& r) { return shapeField(r, "ldc"); }},
      {"precision", [](const PartRow& r) { return r.precision; }},
      {"row_start", [](const PartRow& r) { return std::to_string(r.row_start); }},
      {"rows", [](const PartRow& r) { return std::to_string(r.rows); }},
      {"chunks", [](const PartRow& r) { return r.chunks ? std::to_string(*r.chunks) : ""; }},
      {"alpha", [&](const PartRow&) { return text(run.alpha); }},
      {"beta", [&](const PartRow&) { return text(run.beta); }},
      {"defines", [](const PartRow& r) { return definesText(r); }},
      {"define_sources", [](const PartRow& r) { return sourcesText(r); }},
      {"warmup", [&](const PartRow&) { return std::to_string(run.warmup); }},
      {"reps", [&](const PartRow&) { return std::to_string(run.reps); }},
      {"ms_median", [](const PartRow& r) { return fixed(r.ms_median, 6); }},
      {"ms_min", [](const PartRow& r) { return fixed(r.ms_min, 6); }},
      {"gflops", [](const PartRow& r) { return fixed(r.gflops, 3); }},
      {"in_ms", [](const PartRow& r) { return fixed(r.in_ms, 6); }},
      {"out_ms", [](const PartRow& r) { return fixed(r.out_ms, 6); }},
      {"e2e_ms", [](const PartRow& r) { return fixed(r.e2e_ms, 6); }},
      {"e2e_gflops", [](const PartRow& r) { return fixed(r.e2e_gflops, 3); }},
      {"speedup", [](const PartRow& r) { return fixed(r.speedup, 4); }},
      {"efficiency", [](const PartRow& r) { return fixed(r.efficiency, 4); }},
      {"err_ratio", [](const PartRow& r) { return general(r.err_ratio); }},
      {"check", [](const PartRow& r) { return r.check; }},
      {"status", [](const PartRow& r) { return r.status; }},
      {"message", [](const PartRow& r) { return r.message; }},
  };
  std::string head;
  for (const auto& column : columns) head += (head.empty() ? "" : ",") + std::string(column.first);
  out << head << "\n";
  for (const auto& r : rows) {
    std::string line;
    for (const auto& column : columns)
      line += (line.empty() ? "" : ",") + csvField(column.second(r));
    out << line << "\n";
  }
}

void writeJson(std::ostream& out, const MultiRunInfo& run, const std::vector<PartRow>& rows) {
  nlohmann::json doc;
  doc["devices"] = run.devices;
  doc["host"] = {{"cpu", run.host_cpu}};
  doc["kernel_source"] = run.kernel_source;
  doc["date"] = run.date;
  doc["split"] = run.split_from;
  doc["gflops_counts"] = "2*M*N*K";
  doc["err_ratio_threshold"] = kErrorRatioThreshold;
  doc["results"] = nlohmann::json::array();
  for (const auto& r : rows) {
    nlohmann::json defines = nlohmann::json::object(), sources = nlohmann::json::object();
    for (const auto& d : r.defines) {
      defines[d.name] = d.value;
      sources[d.name] = d.source;
    }
    doc["results"].push_back({{"part", r.part},
                              {"device_index", r.label},
                              {"device", r.device},
                              {"platform", r.platform},
                              {"driver", r.driver},
                              {"variant", r.variant},
                              {"m", r.m},
                              {"n", r.n},
                              {"k", r.k},
                              {"layout", shapeField(r, "layout")},
                              {"trans_a", shapeField(r, "trans_a")},
                              {"trans_b", shapeField(r, "trans_b")},
                              {"lda", std::stoi(shapeField(r, "lda"))},
                              {"ldb", std::stoi(shapeField(r, "ldb"))},
                              {"ldc", std::stoi(shapeField(r, "ldc"))},
                              {"precision", r.precision},
                              {"row_start", r.row_start},
                              {"rows", r.rows},
                              {"chunks", jsonOrNull(r.chunks)},
                              {"alpha", run.alpha},
                              {"beta", run.beta},
                              {"defines", defines},
                              {"define_sources", sources},
                              {"params_file", r.params_file},
                              {"warmup", run.warmup},
                              {"reps", run.reps},
                              {"ms_median", jsonOrNull(r.ms_median)},
                              {"ms_min", jsonOrNull(r.ms_min)},
                              {"gflops", jsonOrNull(r.gflops)},
                              {"in_ms", jsonOrNull(r.in_ms)},
                              {"out_ms", jsonOrNull(r.out_ms)},
                              {"e2e_ms", jsonOrNull(r.e2e_ms)},
                              {"e2e_gflops", jsonOrNull(r.e2e_gflops)},
                              {"speedup", jsonOrNull(r.speedup)},
                              {"efficiency", jsonOrNull(r.efficiency)},
                              {"err_ratio", jsonOrNull(r.err_ratio)},
                              {"check", r.check},
                              {"status", r.status},
                              {"message", r.message}});
  }
  out << doc.dump(2) << "\n";
}

}  // namespace

void writeMultiReport(std::ostream& out, Format format, const MultiRunInfo& run,
                      const std::vector<PartRow>& rows) {
  switch (format) {
    case Format::kTable:
      writeTable(out, run, rows);
      break;
    case Format::kCsv:
      writeCsv(out, run, rows);
      break;
    case Format::kJson:
      writeJson(out, run, rows);
      break;
  }
}

}  // namespace clgemm
