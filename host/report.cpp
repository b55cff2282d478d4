#include "report.hpp"

#include <iomanip>
#include <nlohmann/json.hpp>
#include <sstream>

#include "verify.hpp"

namespace clgemm {
namespace {

std::string fixed(std::optional<double> value, int precision) {
  if (!value) return "";
  std::ostringstream s;
  s << std::fixed << std::setprecision(precision) << *value;
  return s.str();
}

std::string general(std::optional<double> value) {
  if (!value) return "";
  std::ostringstream s;
  s << std::setprecision(4) << *value;
  return s.str();
}

std::string definesText(const ResultRow& row, bool mark_user) {
  std::string out;
  for (const auto& d : row.defines) {
    out += (out.empty() ? "" : " ") + d.name + "=" + d.value;
    if (mark_user && d.source == "cli") out += "*";
  }
  return out;
}

std::string sourcesText(const ResultRow& row) {
  std::string out;
  for (const auto& d : row.defines) out += (out.empty() ? "" : " ") + d.name + "=" + d.source;
  return out;
}

// RFC 4180: quote fields holding separators, quotes or newlines.
std::string csvField(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += (c == '"') ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

void writeTable(std::ostream& out, const RunInfo& run, const std::vector<ResultRow>& rows) {
  out << "device: " << run.device.name << " (" << run.device.type << ", "
      << run.device.platform_name << ", driver " << run.device.driver_version << ")\n"
      << "problem: M=" << run.m << " N=" << run.n << " K=" << run.k << " alpha=" << run.alpha
      << " beta=" << run.beta << ", " << run.warmup << " warm-up + " << run.reps
      << " timed runs, kernels from " << run.kernel_source << "\n";
  if (run.checked) {
    out << "checked against a double-precision reference: error ratio = |C - Cref| / (eps * "
           "(|alpha||A||B| + |beta||C|)), pass below "
        << kErrorRatioThreshold << "\n";
  } else {
    out << "not checked (--no-check)\n";
  }
  out << "GFLOP/s = 2*M*N*K / median kernel time\n\n";

  const std::vector<std::string> header = {"variant", "status",    "median ms", "min ms",
                                           "GFLOP/s", "err ratio", "defines"};
  std::vector<std::vector<std::string>> cells;
  bool any_user = false;
  for (const auto& r : rows) {
    for (const auto& d : r.defines) any_user = any_user || d.source == "cli";
    cells.push_back({r.variant, r.status, fixed(r.ms_median, 3), fixed(r.ms_min, 3),
                     fixed(r.gflops, 1), general(r.err_ratio), definesText(r, true)});
  }
  std::vector<std::size_t> width(header.size());
  for (std::size_t c = 0; c < header.size(); ++c) {
    width[c] = header[c].size();
    for (const auto& row : cells) width[c] = std::max(width[c], row[c].size());
  }
  auto line = [&](const std::vector<std::string>& row) {
    std::string text;
    for (std::size_t c = 0; c < row.size(); ++c) {
      // Names and text left-aligned, numbers right-aligned; the last column is not padded.
      const bool numeric = c >= 2 && c <= 5;
      const std::size_t pad = width[c] - row[c].size();
      if (c + 1 == row.size()) {
        text += row[c];
      } else {
        text += numeric ? std::string(pad, ' ') + row[c] : row[c] + std::string(pad, ' ');
        text += "  ";
      }
    }
    while (!text.empty() && text.back() == ' ') text.pop_back();
    out << text << "\n";
  };
  line(header);
  for (const auto& row : cells) line(row);
  if (any_user) out << "(* set with -D on the command line; other defines are kernel defaults)\n";
  for (const auto& r : rows)
    if (!r.message.empty()) out << r.variant << ": " << r.message << "\n";
}

const char* const kCsvColumns[] = {
    "variant", "device", "platform",  "driver",         "m",      "n",    "k",
    "alpha",   "beta",   "defines",   "define_sources", "warmup", "reps", "ms_median",
    "ms_min",  "gflops", "err_ratio", "status",         "message"};

void writeCsv(std::ostream& out, const RunInfo& run, const std::vector<ResultRow>& rows) {
  std::string head;
  for (const char* c : kCsvColumns) head += (head.empty() ? "" : ",") + std::string(c);
  out << head << "\n";
  for (const auto& r : rows) {
    std::ostringstream alpha, beta;
    alpha << run.alpha;
    beta << run.beta;
    const std::vector<std::string> fields = {r.variant,
                                             run.device.name,
                                             run.device.platform_name,
                                             run.device.driver_version,
                                             std::to_string(run.m),
                                             std::to_string(run.n),
                                             std::to_string(run.k),
                                             alpha.str(),
                                             beta.str(),
                                             definesText(r, false),
                                             sourcesText(r),
                                             std::to_string(run.warmup),
                                             std::to_string(run.reps),
                                             fixed(r.ms_median, 6),
                                             fixed(r.ms_min, 6),
                                             fixed(r.gflops, 3),
                                             general(r.err_ratio),
                                             r.status,
                                             r.message};
    std::string line;
    for (const auto& f : fields) line += (line.empty() ? "" : ",") + csvField(f);
    out << line << "\n";
  }
}

nlohmann::json optionalNumber(std::optional<double> value) {
  return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

void writeJson(std::ostream& out, const RunInfo& run, const std::vector<ResultRow>& rows) {
  nlohmann::json doc;
  doc["device"] = {{"name", run.device.name},
                   {"type", run.device.type},
                   {"platform", run.device.platform_name},
                   {"platform_index", run.device.platform_index},
                   {"device_index", run.device.device_index},
                   {"driver", run.device.driver_version},
                   {"version", run.device.device_version}};
  doc["kernel_source"] = run.kernel_source;
  doc["gflops_counts"] = "2*M*N*K";
  doc["err_ratio_threshold"] = kErrorRatioThreshold;
  doc["results"] = nlohmann::json::array();
  for (const auto& r : rows) {
    nlohmann::json defines = nlohmann::json::object(), sources = nlohmann::json::object();
    for (const auto& d : r.defines) {
      defines[d.name] = d.value;
      sources[d.name] = d.source;
    }
    doc["results"].push_back({{"variant", r.variant},
                              {"device", run.device.name},
                              {"m", run.m},
                              {"n", run.n},
                              {"k", run.k},
                              {"alpha", run.alpha},
                              {"beta", run.beta},
                              {"defines", defines},
                              {"define_sources", sources},
                              {"warmup", run.warmup},
                              {"reps", run.reps},
                              {"ms_median", optionalNumber(r.ms_median)},
                              {"ms_min", optionalNumber(r.ms_min)},
                              {"gflops", optionalNumber(r.gflops)},
                              {"err_ratio", optionalNumber(r.err_ratio)},
                              {"status", r.status},
                              {"message", r.message}});
  }
  out << doc.dump(2) << "\n";
}

}  // namespace

void writeReport(std::ostream& out, Format format, const RunInfo& run,
                 const std::vector<ResultRow>& rows) {
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
