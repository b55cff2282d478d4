#include "report/report.hpp"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <sstream>

#include "check/result_check.hpp"
#include "check/verify.hpp"
#include "problem/size_list.hpp"
#include "report/text_table.hpp"
#include "util/json_or_null.hpp"

namespace clgemm {
namespace {

std::string definesText(const ResultRow& row, bool mark_user) {
  std::string out;
  for (const auto& d : row.defines) {
    out += (out.empty() ? "" : " ") + d.name + "=" + d.value;
    if (mark_user && d.source == "cli") out += "*";
    if (mark_user && d.fromTunedEntry()) out += "+";
  }
  return out;
}

std::string sourcesText(const ResultRow& row) {
  std::string out;
  for (const auto& d : row.defines) out += (out.empty() ? "" : " ") + d.name + "=" + d.source;
  return out;
}

std::string count(std::optional<int> value) { return value ? std::to_string(*value) : ""; }

std::string occupancyText(const std::optional<Occupancy>& o) { return o ? describe(*o) : ""; }

// The ladder's second table: what each OpenCL kernel costs on the device and what its global
// traffic allows.
void writeResourceTable(std::ostream& out, const RunInfo& run, const std::vector<ResultRow>& rows) {
  bool any = false;
  for (const auto& r : rows) any = any || r.figures.has_value();
  if (!any) return;
  out << "\nkernel resources: work-group size used (max for this kernel, preferred multiple), "
         "local and private bytes per work-group/work-item as the driver reports them, registers "
         "and spilled bytes per work-item (NVIDIA's ptxas), theoretical occupancy per compute "
         "unit; flop/B = 2*M*N*K / bytes the access pattern loads from global memory";
  if (run.peak) {
    out << "; bound = min(" << fixed(run.peak->gflops, 0) << " GFLOP/s, flop/B x "
        << fixed(run.peak->gbps, 0) << " GB/s) from " << run.peak->file;
    if (run.peak->fp64_gflops)
      out << " (fp64 rows: its FP64 peak of " << fixed(*run.peak->fp64_gflops, 0) << " GFLOP/s)";
  }
  out << "\n";
  const std::vector<std::string> header = {"variant",   "work-group",    "local B",
                                           "private B", "registers",     "spill B",
                                           "flop/B",    "bound GFLOP/s", "occupancy"};
  std::vector<std::vector<std::string>> cells;
  for (const auto& r : rows) {
    if (!r.figures) continue;
    const KernelFigures& f = *r.figures;
    cells.push_back({r.variant,
                     std::to_string(f.group_items) + " (" + std::to_string(f.max_group_items) +
                         ", " + std::to_string(f.preferred_multiple) + ")",
                     std::to_string(f.local_bytes), std::to_string(f.private_bytes),
                     count(f.registers), count(f.spill_bytes), fixed(r.intensity, 2),
                     fixed(r.roofline_gflops, 0), occupancyText(f.occupancy)});
  }
  writeAligned(out, header, cells, 2, header.size() - 2);
}

// "; NN entry: none for TN" where a transposed row took the NN entry (param_lookup.hpp), else "".
std::string fallbackNote(const ResultRow& r) {
  const auto at = r.params_match.find("NN entry: ");
  return at == std::string::npos ? "" : "; " + r.params_match.substr(at);
}

// The main table and the resource table for the rows of one problem size. With `shape_column`
// (the run's rows differ in shape) each row says its shape, and so do the messages under the table.
void writeSizeTables(std::ostream& out, const RunInfo& run, const std::vector<ResultRow>& rows,
                     bool shape_column) {
  bool any_user = false, any_clblast = false, any_openblas = false, any_cublas = false;
  bool any_naive = false, any_helpers = false;
  bool any_peak = false, any_other_threshold = false;
  for (const auto& r : rows) {
    any_other_threshold =
        any_other_threshold || (r.err_threshold && *r.err_threshold != kErrorRatioThreshold);
    for (const auto& d : r.defines) any_user = any_user || d.source == "cli";
    any_clblast = any_clblast || r.vs_clblast.has_value();
    any_openblas = any_openblas || r.vs_openblas.has_value();
    any_cublas = any_cublas || r.vs_cublas.has_value();
    any_naive = any_naive || r.vs_naive.has_value();
    any_helpers = any_helpers || r.helper_ms.has_value();
    any_peak = any_peak || percentOfPeak(run, r).has_value();
  }
  std::vector<std::string> header = {"variant",   "precision", "status",
                                     "median ms", "min ms",    "GFLOP/s"};
  // Where kernels launch helpers (copies, packing passes), the helpers' share of median ms.
  if (any_helpers) header.insert(header.begin() + 5, "helpers ms");
  if (shape_column) header.insert(header.begin() + 1, "shape");
  if (any_peak) header.push_back("% peak");
  if (any_naive) header.push_back("vs naive");
  if (any_clblast) header.push_back("vs CLBlast");
  if (any_openblas) header.push_back("vs OpenBLAS");
  if (any_cublas) header.push_back("vs cuBLAS");
  header.push_back("err ratio");
  if (any_other_threshold) header.push_back("err limit");
  header.push_back("defines");
  const std::size_t numeric_from = shape_column ? 4 : 3;  // right-aligned columns
  const std::size_t numeric_to = header.size() - 2;
  std::vector<std::vector<std::string>> cells;
  for (const auto& r : rows) {
    std::vector<std::string> row = {r.variant,          r.arithmetic,
                                    r.status,           fixed(r.ms_median, 3),
                                    fixed(r.ms_min, 3), fixed(r.gflops, 1)};
    if (any_helpers) row.insert(row.begin() + 5, fixed(r.helper_ms, 3));
    if (shape_column) row.insert(row.begin() + 1, reportedShapeLabel(r));
    if (any_peak) row.push_back(fixed(percentOfPeak(run, r), 1));
    if (any_naive) row.push_back(ratio(r.vs_naive));
    if (any_clblast) row.push_back(ratio(r.vs_clblast));
    if (any_openblas) row.push_back(ratio(r.vs_openblas));
    if (any_cublas) row.push_back(ratio(r.vs_cublas));
    row.push_back(general(r.err_ratio));
    if (any_other_threshold) row.push_back(fixed(r.err_threshold, 0));
    std::string defines = definesText(r, true);
    if (r.threads)
      defines += (defines.empty() ? "" : " ") + ("threads=" + std::to_string(*r.threads));
    row.push_back(defines);
    cells.push_back(row);
  }
  writeAligned(out, header, cells, numeric_from, numeric_to);
  if (any_user) out << "(* set with -D on the command line)\n";
  for (const auto& r : rows) {
    bool tuned = false, borrowed = false;
    for (const auto& d : r.defines) {
      tuned = tuned || d.fromTunedEntry();
      borrowed = borrowed || d.fromBorrowedEntry();
    }
    if (borrowed)
      out << "(+ " << r.variant << ": no entry for this device; borrowed from " << r.params_file
          << ", " << r.params_match << ")\n";
    else if (tuned)
      out << "(+ " << r.variant << ": tuned for this device, from " << r.params_file
          << fallbackNote(r) << ")\n";
  }
  for (const auto& r : rows) {
    if (r.message.empty()) continue;
    out << r.variant << (shape_column ? " (" + reportedShapeLabel(r) + ")" : "") << ": "
        << r.message << "\n";
  }
  writeResourceTable(out, run, rows);
}

// " (tf32 rows: below 131072)" when a row was judged by the TF32 threshold.
std::string tf32Threshold(const std::vector<ResultRow>& rows) {
  for (const auto& r : rows)
    if (r.arithmetic == "tf32")
      return " (tf32 rows: below " + std::to_string(std::int64_t(kTf32ErrorRatioThreshold)) + ")";
  return "";
}

std::string sizeText(const ResultRow& r) { return shapeDims(Shape{r.m, r.n, r.k}); }

// A row of an FP64 problem: its precision column says fp64 whatever the variant's arithmetic.
bool isFp64Row(const ResultRow& r) { return r.arithmetic == "fp64"; }

bool sameSize(const ResultRow& a, const ResultRow& b) {
  return a.m == b.m && a.n == b.n && a.k == b.k;
}

void writeTable(std::ostream& out, const RunInfo& run, const std::vector<ResultRow>& rows) {
  if (run.device) {
    out << "device: " << run.device->name << " (" << run.device->type << ", "
        << run.device->platform_name << ", driver " << run.device->driver_version << ")\n";
  }
  // Rows arrive grouped by size, in the order the sizes ran.
  std::vector<std::vector<ResultRow>> groups;
  for (const auto& r : rows) {
    if (groups.empty() || !sameSize(groups.back().front(), r)) groups.emplace_back();
    groups.back().push_back(r);
  }
  const bool sweep = groups.size() > 1;
  // An FP64 row's error is in DBL_EPSILON units against a compensated reference (the plain
  // double one would be as wrong as the result it judges); say which unit each row's ratio is in.
  const bool any_fp64 = std::any_of(rows.begin(), rows.end(), isFp64Row);
  const bool all_fp64 = !rows.empty() && std::all_of(rows.begin(), rows.end(), isFp64Row);
  out << "host: " << run.host_cpu << ", " << run.threads << " threads for CPU paths\n"
      << "problem: " << (sweep || groups.empty() ? "" : sizeText(groups[0][0]) + " ")
      << "alpha=" << run.alpha << " beta=" << run.beta << ", " << run.warmup << " warm-up + "
      << run.reps << " timed runs, kernels from " << run.kernel_source << "\n";
  // The shape: nothing for the default (row-major, NN, packed), one line when every row shares
  // another, else a column in each table.
  std::vector<std::string> labels;
  for (const auto& r : rows) {
    const std::string label = reportedShapeLabel(r);
    if (std::find(labels.begin(), labels.end(), label) == labels.end()) labels.push_back(label);
  }
  const bool shape_column = labels.size() > 1;
  if (labels.size() == 1 && labels.front() != shapeLabel(GemmShape{})) {
    const GemmShape& shape = rows.front().shape;
    out << "shape: " << labels.front() << " ("
        << (shape.layout == Layout::kCol ? "column-major" : "row-major")
        << ", op(A) = " << (shape.trans_a == Trans::kT ? "A^T" : "A")
        << ", op(B) = " << (shape.trans_b == Trans::kT ? "B^T" : "B") << ")\n";
  }
  // FP64 is said once on its own line (the precision column says it for each row too): FP32 stays
  // the unmarked default, as the default shape does.
  if (all_fp64)
    out << "precision: fp64 (double: A, B and C in float64, DGEMM for the libraries)\n";
  else if (any_fp64)
    out << "precision: fp32 and fp64 rows (the precision column says which)\n";
  if (sweep) {
    out << "sizes:";
    for (const auto& g : groups)
      out << " " << sizeText(g.front()) << (&g == &groups.back() ? "" : ",");
    out << "\n";
  }
  if (run.checked) {
    out << "checked against a "
        << (all_fp64   ? "compensated (Dot2) double-precision"
            : any_fp64 ? "double-precision (compensated for fp64 rows)"
                       : "double-precision")
        << " reference: error ratio = |C - Cref| / (eps * (|alpha||A||B| + |beta||C|)), "
        << (all_fp64   ? "eps = DBL_EPSILON, "
            : any_fp64 ? "eps = FLT_EPSILON (DBL_EPSILON for fp64 rows), "
                       : "")
        << "pass below " << kErrorRatioThreshold << tf32Threshold(rows)
        << "; and every matrix between canaries, A and B compared with the originals after "
           "each variant\n";
  } else {
    out << "not checked (--no-check)\n";
  }
  out << "GFLOP/s = 2*M*N*K / median time (OpenCL kernels: profiling events; cuBLAS: CUDA "
         "events; CPU paths, CLBlast and OpenBLAS: host clock)\n";
  if (std::any_of(rows.begin(), rows.end(),
                  [](const ResultRow& r) { return r.helper_ms.has_value(); }))
    out << "helpers ms: the part of median ms a kernel's helpers took (copies, transposes, "
           "packing passes; median of each run's sum, by their own events)\n";
  if (run.peak) {
    out << "% peak: GFLOP/s over the device's FP32 peak of " << fixed(run.peak->gflops, 0)
        << " GFLOP/s (" << run.peak->file << "), for fp32 rows";
    if (run.peak->fp64_gflops)
      out << "; over its FP64 peak of " << fixed(*run.peak->fp64_gflops, 0) << " for fp64 rows";
    out << "\n";
  }
  for (const auto& g : groups) {
    out << "\n";
    if (sweep) out << sizeText(g.front()) << "\n";
    std::string check;
    for (const auto& r : g)
      if (!r.check.empty()) check = r.check;
    if (check == "sampled") out << describeCheck(check) << "\n";
    writeSizeTables(out, run, g, shape_column);
  }
}

// Platform and driver describe the OpenCL device; host rows have none.
bool onOpenClDevice(const RunInfo& run, const ResultRow& r) {
  return run.device && r.device == run.device->name;
}

// The device's roofline for rows that ran on it: the FP32 peak for fp32 rows, the FP64 peak (where
// measured) for fp64 rows; none for host rows, which run under another roof, nor for tensor-core
// rows (tf32, 3xtf32), whose units no probe measures.
std::optional<DevicePeak> peakOf(const RunInfo& run, const ResultRow& r) {
  if (!run.peak || !onOpenClDevice(run, r)) return std::nullopt;
  if (r.arithmetic.empty() || r.arithmetic == "fp32") return run.peak;
  if (r.arithmetic == "fp64") return fp64Roofline(*run.peak);
  return std::nullopt;
}

std::string text(double value) {
  std::ostringstream s;
  s << value;
  return s.str();
}

// One of a kernel's figures as CSV text; empty for rows without figures.
template <typename T>
std::string figure(const ResultRow& r, T KernelFigures::*member) {
  return r.figures ? std::to_string(*r.figures.*member) : "";
}

void writeCsv(std::ostream& out, const RunInfo& run, const std::vector<ResultRow>& rows) {
  // One table of (column, value) keeps the header and the fields in step.
  using Column = std::pair<const char*, std::function<std::string(const ResultRow&)>>;
  const std::vector<Column> columns = {
      {"variant", [](const ResultRow& r) { return r.variant; }},
      {"device", [](const ResultRow& r) { return r.device; }},
      {"platform",
       [&](const ResultRow& r) { return onOpenClDevice(run, r) ? run.device->platform_name : ""; }},
      {"driver",
       [&](const ResultRow& r) {
         return onOpenClDevice(run, r) ? run.device->driver_version : "";
       }},
      {"date", [&](const ResultRow&) { return run.date; }},
      {"m", [](const ResultRow& r) { return std::to_string(r.m); }},
      {"n", [](const ResultRow& r) { return std::to_string(r.n); }},
      {"k", [](const ResultRow& r) { return std::to_string(r.k); }},
      {"layout", [](const ResultRow& r) { return layoutName(r.shape.layout); }},
      {"trans_a", [](const ResultRow& r) { return transName(r.shape.trans_a); }},
      {"trans_b", [](const ResultRow& r) { return transName(r.shape.trans_b); }},
      {"lda", [](const ResultRow& r) { return std::to_string(reportedShape(r).lda); }},
      {"ldb", [](const ResultRow& r) { return std::to_string(reportedShape(r).ldb); }},
      {"ldc", [](const ResultRow& r) { return std::to_string(reportedShape(r).ldc); }},
      {"alpha", [&](const ResultRow&) { return text(run.alpha); }},
      {"beta", [&](const ResultRow&) { return text(run.beta); }},
      {"defines", [](const ResultRow& r) { return definesText(r, false); }},
      {"define_sources", [](const ResultRow& r) { return sourcesText(r); }},
      {"threads", [](const ResultRow& r) { return r.threads ? std::to_string(*r.threads) : ""; }},
      {"warmup", [&](const ResultRow&) { return std::to_string(run.warmup); }},
      {"reps", [&](const ResultRow&) { return std::to_string(run.reps); }},
      {"ms_median", [](const ResultRow& r) { return fixed(r.ms_median, 6); }},
      {"ms_min", [](const ResultRow& r) { return fixed(r.ms_min, 6); }},
      {"helper_ms", [](const ResultRow& r) { return fixed(r.helper_ms, 6); }},
      {"gflops", [](const ResultRow& r) { return fixed(r.gflops, 3); }},
      {"pct_peak", [&](const ResultRow& r) { return fixed(percentOfPeak(run, r), 2); }},
      {"vs_clblast", [](const ResultRow& r) { return fixed(r.vs_clblast, 4); }},
      {"vs_openblas", [](const ResultRow& r) { return fixed(r.vs_openblas, 4); }},
      {"vs_cublas", [](const ResultRow& r) { return fixed(r.vs_cublas, 4); }},
      {"vs_naive", [](const ResultRow& r) { return fixed(r.vs_naive, 4); }},
      {"precision", [](const ResultRow& r) { return r.arithmetic; }},
      {"err_ratio", [](const ResultRow& r) { return general(r.err_ratio); }},
      {"err_threshold", [](const ResultRow& r) { return fixed(r.err_threshold, 0); }},
      {"check", [](const ResultRow& r) { return r.check; }},
      {"wg_size", [](const ResultRow& r) { return figure(r, &KernelFigures::group_items); }},
      {"max_wg_size",
       [](const ResultRow& r) { return figure(r, &KernelFigures::max_group_items); }},
      {"wg_multiple",
       [](const ResultRow& r) { return figure(r, &KernelFigures::preferred_multiple); }},
      {"local_mem_bytes",
       [](const ResultRow& r) { return figure(r, &KernelFigures::local_bytes); }},
      {"private_mem_bytes",
       [](const ResultRow& r) { return figure(r, &KernelFigures::private_bytes); }},
      {"registers",
       [](const ResultRow& r) { return r.figures ? count(r.figures->registers) : ""; }},
      {"spill_bytes",
       [](const ResultRow& r) { return r.figures ? count(r.figures->spill_bytes) : ""; }},
      {"occupancy",
       [](const ResultRow& r) {
         return r.figures && r.figures->occupancy ? fixed(r.figures->occupancy->fraction, 4) : "";
       }},
      {"occupancy_groups",
       [](const ResultRow& r) {
         return r.figures && r.figures->occupancy
                    ? std::to_string(r.figures->occupancy->groups_per_unit)
                    : "";
       }},
      {"occupancy_limit",
       [](const ResultRow& r) {
         return r.figures && r.figures->occupancy ? r.figures->occupancy->limited_by : "";
       }},
      {"intensity", [](const ResultRow& r) { return fixed(r.intensity, 4); }},
      {"roofline_gflops", [](const ResultRow& r) { return fixed(r.roofline_gflops, 1); }},
      // The device's roofline on its own rows, so a plot needs nothing but this file.
      {"peak_gflops",
       [&](const ResultRow& r) {
         const auto peak = peakOf(run, r);
         return peak ? fixed(peak->gflops, 1) : "";
       }},
      {"peak_gbs",
       [&](const ResultRow& r) {
         const auto peak = peakOf(run, r);
         return peak ? fixed(peak->gbps, 1) : "";
       }},
      {"status", [](const ResultRow& r) { return r.status; }},
      {"message", [](const ResultRow& r) { return r.message; }},
      // Last, so that the columns before it keep their places for older scripts.
      {"plan", [](const ResultRow& r) { return r.plan; }},
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

nlohmann::json figuresJson(const std::optional<KernelFigures>& f) {
  if (!f) return nullptr;
  nlohmann::json occupancy = nullptr;
  if (f->occupancy) {
    occupancy = {{"fraction", f->occupancy->fraction},
                 {"groups_per_unit", f->occupancy->groups_per_unit},
                 {"limited_by", f->occupancy->limited_by}};
  }
  return {{"wg_size", f->group_items},
          {"max_wg_size", f->max_group_items},
          {"wg_multiple", f->preferred_multiple},
          {"local_mem_bytes", f->local_bytes},
          {"private_mem_bytes", f->private_bytes},
          {"registers", jsonOrNull(f->registers)},
          {"spill_bytes", jsonOrNull(f->spill_bytes)},
          {"occupancy", occupancy}};
}

void writeJson(std::ostream& out, const RunInfo& run, const std::vector<ResultRow>& rows) {
  nlohmann::json doc;
  if (run.device) {
    doc["device"] = {{"name", run.device->name},
                     {"type", run.device->type},
                     {"platform", run.device->platform_name},
                     {"platform_index", run.device->platform_index},
                     {"device_index", run.device->device_index},
                     {"driver", run.device->driver_version},
                     {"version", run.device->device_version}};
  } else {
    doc["device"] = nullptr;
  }
  doc["host"] = {{"cpu", run.host_cpu}, {"threads", run.threads}};
  doc["kernel_source"] = run.kernel_source;
  doc["date"] = run.date;
  doc["gflops_counts"] = "2*M*N*K";
  // The FP32 threshold; each result carries the one it was judged by (err_threshold).
  doc["err_ratio_threshold"] = kErrorRatioThreshold;
  doc["peak"] = run.peak
                    ? nlohmann::json{{"gflops", run.peak->gflops},
                                     {"fp64_gflops", run.peak->fp64_gflops
                                                         ? nlohmann::json(*run.peak->fp64_gflops)
                                                         : nlohmann::json(nullptr)},
                                     {"gbps", run.peak->gbps},
                                     {"file", run.peak->file}}
                    : nlohmann::json(nullptr);
  doc["results"] = nlohmann::json::array();
  for (const auto& r : rows) {
    nlohmann::json defines = nlohmann::json::object(), sources = nlohmann::json::object();
    for (const auto& d : r.defines) {
      defines[d.name] = d.value;
      sources[d.name] = d.source;
    }
    doc["results"].push_back(
        {{"variant", r.variant},
         {"device", r.device},
         {"threads", r.threads ? nlohmann::json(*r.threads) : nlohmann::json(nullptr)},
         {"m", r.m},
         {"n", r.n},
         {"k", r.k},
         {"layout", layoutName(r.shape.layout)},
         {"trans_a", transName(r.shape.trans_a)},
         {"trans_b", transName(r.shape.trans_b)},
         {"lda", reportedShape(r).lda},
         {"ldb", reportedShape(r).ldb},
         {"ldc", reportedShape(r).ldc},
         {"alpha", run.alpha},
         {"beta", run.beta},
         {"defines", defines},
         {"define_sources", sources},
         {"plan", r.plan},
         {"params_file", r.params_file},
         {"params_match", r.params_match},
         {"warmup", run.warmup},
         {"reps", run.reps},
         {"ms_median", jsonOrNull(r.ms_median)},
         {"ms_min", jsonOrNull(r.ms_min)},
         {"helper_ms", jsonOrNull(r.helper_ms)},
         {"gflops", jsonOrNull(r.gflops)},
         {"pct_peak", jsonOrNull(percentOfPeak(run, r))},
         {"vs_clblast", jsonOrNull(r.vs_clblast)},
         {"vs_openblas", jsonOrNull(r.vs_openblas)},
         {"vs_cublas", jsonOrNull(r.vs_cublas)},
         {"vs_naive", jsonOrNull(r.vs_naive)},
         {"precision", r.arithmetic},
         {"err_ratio", jsonOrNull(r.err_ratio)},
         {"err_threshold", jsonOrNull(r.err_threshold)},
         {"check", r.check},
         {"resources", figuresJson(r.figures)},
         {"intensity", jsonOrNull(r.intensity)},
         {"roofline_gflops", jsonOrNull(r.roofline_gflops)},
         {"status", r.status},
         {"message", r.message}});
  }
  out << doc.dump(2) << "\n";
}

}  // namespace

GemmShape reportedShape(const ResultRow& row) {
  const GemmStorage s = gemmStorage(row.m, row.n, row.k, row.shape);
  GemmShape shape = row.shape;
  shape.lda = s.a.ld;
  shape.ldb = s.b.ld;
  shape.ldc = s.c.ld;
  return shape;
}

std::string reportedShapeLabel(const ResultRow& row) {
  GemmShape packed = row.shape;
  packed.lda = packed.ldb = packed.ldc = 0;
  const GemmStorage least = gemmStorage(row.m, row.n, row.k, packed);
  GemmShape shown = reportedShape(row);
  // A leading dimension at its least is packed: not worth a word, and it differs from size to
  // size of a sweep, which would make every size's shape look different.
  if (shown.lda == least.a.ld) shown.lda = 0;
  if (shown.ldb == least.b.ld) shown.ldb = 0;
  if (shown.ldc == least.c.ld) shown.ldc = 0;
  return shapeLabel(shown);
}

std::vector<std::pair<std::string, std::string>> shapeFields(int m, int n, int k,
                                                             const GemmShape& shape) {
  ResultRow row;
  row.m = m;
  row.n = n;
  row.k = k;
  row.shape = shape;
  const GemmShape resolved = reportedShape(row);
  return {{"layout", layoutName(shape.layout)},  {"trans_a", transName(shape.trans_a)},
          {"trans_b", transName(shape.trans_b)}, {"lda", std::to_string(resolved.lda)},
          {"ldb", std::to_string(resolved.ldb)}, {"ldc", std::to_string(resolved.ldc)}};
}

std::optional<double> percentOfPeak(const RunInfo& run, const ResultRow& row) {
  const auto peak = peakOf(run, row);
  if (!peak || !row.gflops) return std::nullopt;
  return *row.gflops / peak->gflops * 100.0;
}

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
