// Tuned parameters shipped in data/params: which entry a device gets, and that a run reports the
// values it took from there (source "data") with -D still winning.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>

#include "opencl/device_class.hpp"
#include "registry/defines.hpp"
#include "registry/kernels.hpp"
#include "registry/param_lookup.hpp"
#include "run_clgemm.hpp"
#include "store/param_store.hpp"
#include "unsupported.hpp"

namespace {

using clgemm_test::TempDir;

const clgemm::Shape kSize{512, 512, 512};
using clgemm_test::writeText;

// A described device, as findTunedEntry sees one: a name, a driver and a class.
clgemm::DeviceInfo gpu(const std::string& name, const std::string& driver) {
  clgemm::DeviceInfo d;
  d.name = name;
  d.driver_version = driver;
  return d;
}

std::string entryJson(const std::string& device, const std::string& driver,
                      const std::string& kernel, const std::string& defines) {
  return R"({"device": ")" + device + R"(", "driver": ")" + driver + R"(", "kernel": ")" + kernel +
         R"(", "defines": )" + defines + "}";
}

TEST(ParamStore, PrefersTheSameDriverThenAnyDriver) {
  TempDir dir;
  writeText(dir.file("a.json"), entryJson("GPU X", "1.0", "best", R"({"BM": 32})"));
  writeText(dir.file("b.json"), entryJson("GPU X", "2.0", "best", R"({"BM": 64})"));
  writeText(dir.file("c.json"), entryJson("GPU Y", "2.0", "best", R"({"BM": 128})"));
  clgemm::TunedEntry e;
  ASSERT_TRUE(clgemm::findTunedEntry({dir.path()}, gpu("GPU X", "2.0"), "best", kSize, e));
  EXPECT_EQ(e.defines.at("BM"), "64");
  ASSERT_TRUE(clgemm::findTunedEntry({dir.path()}, gpu("GPU X", "3.0"), "best", kSize, e));
  EXPECT_EQ(e.defines.at("BM"), "32");  // first file in name order among other drivers
  EXPECT_FALSE(clgemm::findTunedEntry({dir.path()}, gpu("GPU Z", "2.0"), "best", kSize, e));
  EXPECT_FALSE(clgemm::findTunedEntry({dir.path()}, gpu("GPU X", "2.0"), "tiled", kSize, e));
}

TEST(ParamStore, MalformedFilesAreSkippedWithANote) {
  TempDir dir;
  writeText(dir.file("bad.json"), "{not json");
  writeText(dir.file("good.json"), entryJson("GPU X", "1.0", "best", R"({"BK": 8})"));
  std::vector<std::string> warnings;
  clgemm::TunedEntry e;
  ASSERT_TRUE(
      clgemm::findTunedEntry({dir.path()}, gpu("GPU X", "1.0"), "best", kSize, e, &warnings));
  EXPECT_EQ(e.defines.at("BK"), "8");
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("bad.json"), std::string::npos);
}

TEST(ParamStore, EarlierFolderWins) {
  TempDir first, second;
  writeText(first.file("e.json"), entryJson("GPU X", "9", "best", R"({"BM": 16})"));
  writeText(second.file("e.json"), entryJson("GPU X", "1", "best", R"({"BM": 256})"));
  clgemm::TunedEntry e;
  ASSERT_TRUE(
      clgemm::findTunedEntry({first.path(), second.path()}, gpu("GPU X", "1"), "best", kSize, e));
  EXPECT_EQ(e.defines.at("BM"), "16");
}

std::string sizedEntry(const std::string& driver, int m, int n, int k, int bm) {
  return R"({"device": "GPU X", "driver": ")" + driver + R"(", "kernel": "best", "size": {"m": )" +
         std::to_string(m) + R"(, "n": )" + std::to_string(n) + R"(, "k": )" + std::to_string(k) +
         R"(}, "defines": {"BM": )" + std::to_string(bm) + "}}";
}

TEST(ParamStore, TheSameSizeThenTheNearestThenAnySize) {
  TempDir dir;
  writeText(dir.file("any.json"), entryJson("GPU X", "1", "best", R"({"BM": 1})"));
  writeText(dir.file("s512.json"), sizedEntry("1", 512, 512, 512, 512));
  writeText(dir.file("s4096.json"), sizedEntry("1", 4096, 4096, 4096, 4096));
  writeText(dir.file("flat.json"), sizedEntry("1", 4096, 4096, 64, 64));
  clgemm::TunedEntry e;
  ASSERT_TRUE(clgemm::findTunedEntry({dir.path()}, gpu("GPU X", "1"), "best", {512, 512, 512}, e));
  EXPECT_EQ(e.defines.at("BM"), "512");
  ASSERT_TRUE(e.size.has_value());
  EXPECT_EQ(e.size->k, 512);
  ASSERT_TRUE(clgemm::findTunedEntry({dir.path()}, gpu("GPU X", "1"), "best", {4096, 4096, 64}, e));
  EXPECT_EQ(e.defines.at("BM"), "64");  // exact shape beats 4096^3 and 512^3
  ASSERT_TRUE(
      clgemm::findTunedEntry({dir.path()}, gpu("GPU X", "1"), "best", {3000, 3000, 3000}, e));
  EXPECT_EQ(e.defines.at("BM"), "4096");
  ASSERT_TRUE(clgemm::findTunedEntry({dir.path()}, gpu("GPU X", "1"), "best", {100, 100, 100}, e));
  EXPECT_EQ(e.defines.at("BM"), "512");
  // Another driver's exact size loses to this driver's nearest.
  writeText(dir.file("other.json"), sizedEntry("2", 100, 100, 100, 100));
  ASSERT_TRUE(clgemm::findTunedEntry({dir.path()}, gpu("GPU X", "1"), "best", {100, 100, 100}, e));
  EXPECT_EQ(e.defines.at("BM"), "512");
  // A sized entry with a bad size is skipped with a note.
  writeText(dir.file("bad.json"), sizedEntry("1", 0, 1, 1, 7));
  std::vector<std::string> warnings;
  ASSERT_TRUE(
      clgemm::findTunedEntry({dir.path()}, gpu("GPU X", "1"), "best", {1, 1, 1}, e, &warnings));
  EXPECT_NE(e.defines.at("BM"), "7");
  ASSERT_EQ(warnings.size(), 1u);
}

TEST(ParamStore, ReportsWhichFolderHeldTheEntry) {
  TempDir store, data;
  writeText(data.file("d.json"), entryJson("GPU X", "1", "best", R"({"BM": 16})"));
  clgemm::TunedEntry e;
  ASSERT_TRUE(
      clgemm::findTunedEntry({store.path(), data.path()}, gpu("GPU X", "1"), "best", kSize, e));
  EXPECT_EQ(e.dir_index, 1u);
  writeText(store.file("s.json"), entryJson("GPU X", "0", "best", R"({"BM": 32})"));
  ASSERT_TRUE(
      clgemm::findTunedEntry({store.path(), data.path()}, gpu("GPU X", "1"), "best", kSize, e));
  EXPECT_EQ(e.dir_index, 0u);  // the store wins even with another driver
  EXPECT_EQ(e.defines.at("BM"), "32");
}

// ------------------------------------------------------------------------------------------------
// Entries of other devices of the same class, with described devices.

// A device as its driver would describe it (the architecture as describeDevice derives it).
clgemm::DeviceInfo described(const std::string& name, const std::string& vendor,
                             const std::string& type, unsigned compute_units,
                             std::uint64_t local_mem, std::optional<int> cc_major = std::nullopt,
                             std::optional<int> cc_minor = std::nullopt,
                             const std::string& platform = "") {
  clgemm::DeviceInfo d;
  d.name = name;
  d.vendor = vendor;
  d.type = type;
  d.driver_version = "1";
  d.platform_name = platform;
  d.compute_units = compute_units;
  d.local_mem_bytes = local_mem;
  d.nv_cc_major = cc_major;
  d.nv_cc_minor = cc_minor;
  d.architecture = clgemm::deviceArchitecture(d);
  return d;
}

const clgemm::DeviceInfo kH100 =
    described("NVIDIA H100 80GB HBM3", "NVIDIA Corporation", "GPU", 132, 49152, 9, 0);
const clgemm::DeviceInfo kH100Pcie =
    described("NVIDIA H100 PCIe", "NVIDIA Corporation", "GPU", 114, 49152, 9, 0);
const clgemm::DeviceInfo kH200 =
    described("NVIDIA H200", "NVIDIA Corporation", "GPU", 132, 49152, 9, 0);
const clgemm::DeviceInfo kA100 =
    described("NVIDIA A100-SXM4-80GB", "NVIDIA Corporation", "GPU", 108, 49152, 8, 0);
const clgemm::DeviceInfo kRtx4090 =
    described("NVIDIA GeForce RTX 4090", "NVIDIA Corporation", "GPU", 128, 49152, 8, 9);
const clgemm::DeviceInfo kMi250 =
    described("gfx90a:sramecc+:xnack-", "Advanced Micro Devices, Inc.", "GPU", 104, 65536);
const clgemm::DeviceInfo kRx7900 =
    described("gfx1100", "Advanced Micro Devices, Inc.", "GPU", 48, 65536);
const clgemm::DeviceInfo kXeon =
    described("pthread-skylake-avx512-Intel(R) Xeon(R) Processor", "GenuineIntel", "CPU", 2,
              2097152, std::nullopt, std::nullopt, "Portable Computing Language");
const clgemm::DeviceInfo kEpycSkylakeTarget =
    described("pthread-skylake-avx512-AMD EPYC", "AuthenticAMD", "CPU", 2, 1048576, std::nullopt,
              std::nullopt, "Portable Computing Language");
const clgemm::DeviceInfo kEpycZen3 =
    described("cpu-znver3-AMD EPYC 7763 64-Core Processor", "AuthenticAMD", "CPU", 16, 524288,
              std::nullopt, std::nullopt, "Portable Computing Language");
const clgemm::DeviceInfo kArc =
    described("Intel(R) Arc(TM) A770 Graphics", "Intel(R) Corporation", "GPU", 512, 65536);

TEST(DeviceClass, ArchitectureFromWhatEachDriverReports) {
  EXPECT_EQ(kH100.architecture, "sm_90");
  EXPECT_EQ(kRtx4090.architecture, "sm_89");
  EXPECT_EQ(kMi250.architecture, "gfx90a");
  EXPECT_EQ(kRx7900.architecture, "gfx1100");
  EXPECT_EQ(kXeon.architecture, "skylake-avx512");
  EXPECT_EQ(kEpycZen3.architecture, "znver3");
  EXPECT_EQ(described("pthread-x86-64-Some CPU", "GenuineIntel", "CPU", 1, 1, std::nullopt,
                      std::nullopt, "Portable Computing Language")
                .architecture,
            "x86-64");
  // Intel GPUs: the IP version's major.minor where cl_intel_device_attribute_query gives it.
  EXPECT_EQ(clgemm::deviceArchitecture(kArc, (12u << 22) | (55u << 12) | 8u), "intel-ip-12.55");
  EXPECT_EQ(kArc.architecture, "");
  EXPECT_EQ(clgemm::vendorFamily("NVIDIA Corporation"), "NVIDIA");
  EXPECT_EQ(clgemm::vendorFamily("Advanced Micro Devices, Inc."), "AMD");
  EXPECT_EQ(clgemm::vendorFamily("AuthenticAMD"), "AMD");
  EXPECT_EQ(clgemm::vendorFamily("GenuineIntel"), "Intel");
  EXPECT_EQ(clgemm::vendorFamily("Intel(R) Corporation"), "Intel");
  EXPECT_EQ(clgemm::vendorFamily("Imagination"), "Imagination");
}

// An entry for `device` as clgemm tune writes it: its name, driver and class.
std::string classEntry(const clgemm::DeviceInfo& device, int size, int bm) {
  nlohmann::json j = {{"device", device.name},
                      {"driver", device.driver_version},
                      {"kernel", "best"},
                      {"size", {{"m", size}, {"n", size}, {"k", size}}},
                      {"class", clgemm::classJson(clgemm::classOf(device))},
                      {"defines", {{"BM", bm}}}};
  return j.dump();
}

// What `device` gets from the entries in `dirs`: BM and why, or "defaults".
std::string lookup(const std::vector<std::string>& dirs, const clgemm::DeviceInfo& device,
                   const clgemm::Shape& size = kSize) {
  clgemm::TunedEntry e;
  if (!clgemm::findTunedEntry(dirs, device, "best", size, e)) return "defaults";
  return e.defines.at("BM") + ", " + e.matchReason();
}

TEST(ParamStore, ADeviceWithoutEntriesBorrowsFromItsArchitectureThenItsVendor) {
  TempDir dir;
  writeText(dir.file("h100-4096.json"), classEntry(kH100, 4096, 128));
  writeText(dir.file("h100-512.json"), classEntry(kH100, 512, 64));
  writeText(dir.file("a100.json"), classEntry(kA100, 4096, 96));
  writeText(dir.file("mi250.json"), classEntry(kMi250, 4096, 32));
  writeText(dir.file("xeon.json"), classEntry(kXeon, 512, 16));
  // An entry that does not say what it was tuned on serves its own device only.
  writeText(dir.file("old.json"), entryJson("NVIDIA H200", "0", "tiled", R"({"BM": 8})"));
  const std::vector<std::string> dirs = {dir.path()};
  // The H200 is an H100's architecture: its entry, at the nearest size.
  EXPECT_EQ(lookup(dirs, kH200, {4096, 4096, 4096}), "128, same architecture sm_90");
  EXPECT_EQ(lookup(dirs, kH200, {600, 600, 600}), "64, same architecture sm_90");
  // The H100 itself takes its own entries, the A100 its own.
  EXPECT_EQ(lookup(dirs, kH100, {4096, 4096, 4096}), "128, same device");
  EXPECT_EQ(lookup(dirs, kA100), "96, same device");
  // An RTX 4090 (sm_89) has no architecture entry: NVIDIA's nearest in size, the H100 (132
  // compute units, nearer its 128 than the A100's 108).
  EXPECT_EQ(lookup(dirs, kRtx4090, {4096, 4096, 4096}), "128, same vendor and type: NVIDIA GPU");
  // AMD takes AMD's; an Intel GPU has nothing of its class and runs the defaults.
  EXPECT_EQ(lookup(dirs, kRx7900), "32, same vendor and type: AMD GPU");
  EXPECT_EQ(lookup(dirs, kArc), "defaults");
  // pocl: the same LLVM target is the same architecture on Intel's and AMD's CPUs (the same
  // generated code); another target of the same vendor is the same vendor and type.
  EXPECT_EQ(lookup(dirs, kEpycSkylakeTarget), "16, same architecture skylake-avx512");
  EXPECT_EQ(lookup(dirs, kEpycZen3), "defaults");
  EXPECT_EQ(lookup(dirs, described("pthread-skylake-avx512-Intel(R) Xeon(R) Gold 6248",
                                   "GenuineIntel", "CPU", 40, 1048576, std::nullopt, std::nullopt,
                                   "Portable Computing Language")),
            "16, same architecture skylake-avx512");
  writeText(dir.file("epyc.json"), classEntry(kEpycSkylakeTarget, 512, 24));
  EXPECT_EQ(lookup(dirs, kEpycZen3), "24, same vendor and type: AMD CPU");
  // A GPU never borrows a CPU's entry, whatever the vendor.
  EXPECT_EQ(lookup(dirs, kRx7900), "32, same vendor and type: AMD GPU");
}

TEST(ParamStore, AmongEntriesOfTheArchitectureTheNearestHardwareWins) {
  TempDir dir;
  writeText(dir.file("a-pcie.json"), classEntry(kH100Pcie, 4096, 32));
  writeText(dir.file("b-sxm.json"), classEntry(kH100, 4096, 128));
  // 132 compute units: the SXM H100, though the PCIe one comes first by name.
  EXPECT_EQ(lookup({dir.path()}, kH200), "128, same architecture sm_90");
  EXPECT_EQ(lookup({dir.path()},
                   described("NVIDIA H100 NVL", "NVIDIA Corporation", "GPU", 114, 49152, 9, 0)),
            "32, same architecture sm_90");
}

TEST(ParamStore, TheDevicesOwnEntryBeatsABorrowedOneInAnEarlierFolder) {
  TempDir store, data;
  writeText(store.file("h100.json"), classEntry(kH100, 4096, 128));
  writeText(data.file("h200.json"), classEntry(kH200, 4096, 256));
  clgemm::TunedEntry e;
  ASSERT_TRUE(clgemm::findTunedEntry({store.path(), data.path()}, kH200, "best", kSize, e));
  EXPECT_EQ(e.defines.at("BM"), "256");
  EXPECT_EQ(e.match, clgemm::ClassMatch::kDevice);
  EXPECT_EQ(e.dir_index, 1u);
  // Without it, the store's H100 entry serves, and says which folder held it.
  std::filesystem::remove(data.file("h200.json"));
  ASSERT_TRUE(clgemm::findTunedEntry({store.path(), data.path()}, kH200, "best", kSize, e));
  EXPECT_EQ(e.match, clgemm::ClassMatch::kArchitecture);
  EXPECT_EQ(e.dir_index, 0u);
}

TEST(ParamStore, TunedEntryFileNameKeysDeviceDriverKernelAndSize) {
  EXPECT_EQ(
      clgemm::tunedEntryFileName("NVIDIA H100 80GB HBM3", "580.159.04", "best", {4096, 4096, 4096}),
      "nvidia-h100-80gb-hbm3-580-159-04-best-4096.json");
  EXPECT_EQ(clgemm::tunedEntryFileName("GPU", "1", "regtile2d", {8192, 8192, 256}),
            "gpu-1-regtile2d-8192x8192x256.json");
}

TEST(ParamStore, TheFileNameOfATransposedEntrySaysItsTransposes) {
  EXPECT_EQ(clgemm::tunedEntryFileName("GPU", "1", "best", {4096, 4096, 4096}, "TN"),
            "gpu-1-best-tn-4096.json");
  EXPECT_EQ(clgemm::tunedEntryFileName("GPU", "1", "best", {4096, 4096, 4096}, "NN"),
            "gpu-1-best-4096.json");
}

// An entry with "trans" as clgemm tune writes it.
std::string transEntry(const std::string& device, const std::string& trans, int bm,
                       const clgemm::DeviceInfo* tuned_on = nullptr) {
  nlohmann::json j = {{"device", device},
                      {"driver", "1"},
                      {"kernel", "best"},
                      {"trans", trans},
                      {"defines", {{"BM", bm}}}};
  if (tuned_on) j["class"] = clgemm::classJson(clgemm::classOf(*tuned_on));
  return j.dump();
}

// The lookup prefers the entry of the same transposes, own or borrowed, and falls back to NN (an
// entry without "trans", as data/params ships them, is NN); other transposes never serve.
TEST(ParamStore, EntriesAreKeyedByTheKernelsTransposes) {
  TempDir dir;
  writeText(dir.file("a-nn.json"), entryJson("GPU X", "1", "best", R"({"BM": 32})"));
  writeText(dir.file("b-tn.json"), transEntry("GPU X", "TN", 64));
  writeText(dir.file("c-tt.json"), transEntry("GPU X", "TT", 128));
  const auto bm = [&](const std::string& trans) {
    clgemm::TunedEntry e;
    if (!clgemm::findTunedEntry({dir.path()}, gpu("GPU X", "1"), "best", kSize, e, nullptr, trans))
      return std::string("defaults");
    return e.defines.at("BM") + " " + e.trans;
  };
  EXPECT_EQ(bm("NN"), "32 NN");
  EXPECT_EQ(bm("TN"), "64 TN");
  EXPECT_EQ(bm("TT"), "128 TT");
  EXPECT_EQ(bm("NT"), "32 NN");  // none for NT: the NN entry
  // The tuner's seeds: the same transposes' entries, then NN's, never another's.
  const auto ranked =
      clgemm::rankedTunedEntries({dir.path()}, gpu("GPU X", "1"), "best", kSize, nullptr, "TN");
  ASSERT_EQ(ranked.size(), 2u);
  EXPECT_EQ(ranked[0].trans, "TN");
  EXPECT_EQ(ranked[1].trans, "NN");
  // A borrowed entry of the same transposes beats the device's own NN one.
  TempDir other;
  writeText(other.file("own-nn.json"), classEntry(kH200, 4096, 256));
  writeText(other.file("h100-tn.json"), transEntry(kH100.name, "TN", 96, &kH100));
  clgemm::TunedEntry e;
  ASSERT_TRUE(clgemm::findTunedEntry({other.path()}, kH200, "best", kSize, e, nullptr, "TN"));
  EXPECT_EQ(e.defines.at("BM"), "96");
  ASSERT_TRUE(clgemm::findTunedEntry({other.path()}, kH200, "best", kSize, e, nullptr, "NT"));
  EXPECT_EQ(e.defines.at("BM"), "256");
}

TEST(ParamStore, ATransposeKeyThatIsNoneOfTheFourIsSkippedWithANote) {
  TempDir dir;
  writeText(dir.file("bad.json"), transEntry("GPU X", "XN", 64));
  std::vector<std::string> warnings;
  clgemm::TunedEntry e;
  EXPECT_FALSE(
      clgemm::findTunedEntry({dir.path()}, gpu("GPU X", "1"), "best", kSize, e, &warnings));
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("trans 'XN'"), std::string::npos) << warnings[0];
}

TEST(ParamStore, TheFileNameOfAnFp64EntrySaysItsPrecision) {
  using clgemm::Precision;
  EXPECT_EQ(
      clgemm::tunedEntryFileName("GPU", "1", "best", {4096, 4096, 4096}, "NN", Precision::kFp64),
      "gpu-1-best-fp64-4096.json");
  EXPECT_EQ(
      clgemm::tunedEntryFileName("GPU", "1", "best", {4096, 4096, 4096}, "TN", Precision::kFp64),
      "gpu-1-best-fp64-tn-4096.json");
  // FP32 keeps the names entries always had.
  EXPECT_EQ(
      clgemm::tunedEntryFileName("GPU", "1", "best", {4096, 4096, 4096}, "TN", Precision::kFp32),
      "gpu-1-best-tn-4096.json");
}

// An entry as clgemm tune writes it, with "precision" (and "trans": TN where asked).
std::string precisionEntry(const std::string& device, const std::string& precision, int bm,
                           const std::string& trans = "NN",
                           const clgemm::DeviceInfo* tuned_on = nullptr) {
  nlohmann::json j = {{"device", device}, {"driver", "1"},          {"kernel", "best"},
                      {"trans", trans},   {"precision", precision}, {"defines", {{"BM", bm}}}};
  if (tuned_on) j["class"] = clgemm::classJson(clgemm::classOf(*tuned_on));
  return j.dump();
}

// Precision keys strictly: an entry without "precision" (data/params, entries from before) is
// fp32; an FP32 entry never serves FP64 (tiles sized for floats spill as doubles) nor the reverse,
// own or borrowed, and there is no fallback across precisions as NN is across transposes.
TEST(ParamStore, EntriesAreKeyedByPrecision) {
  using clgemm::Precision;
  TempDir dir;
  writeText(dir.file("a-old.json"), entryJson("GPU X", "1", "best", R"({"BM": 32})"));
  writeText(dir.file("b-fp64.json"), precisionEntry("GPU X", "fp64", 64));
  writeText(dir.file("c-fp64-tn.json"), precisionEntry("GPU X", "fp64", 16, "TN"));
  const auto bm = [&](Precision precision, const std::string& trans) {
    clgemm::TunedEntry e;
    if (!clgemm::findTunedEntry({dir.path()}, gpu("GPU X", "1"), "best", kSize, e, nullptr, trans,
                                precision))
      return std::string("defaults");
    return e.defines.at("BM") + " " + e.trans + " " + clgemm::precisionName(e.precision);
  };
  EXPECT_EQ(bm(Precision::kFp32, "NN"), "32 NN fp32");
  EXPECT_EQ(bm(Precision::kFp32, "TN"), "32 NN fp32");  // the fp32 NN fallback, never fp64's TN
  EXPECT_EQ(bm(Precision::kFp64, "NN"), "64 NN fp64");
  EXPECT_EQ(bm(Precision::kFp64, "TN"), "16 TN fp64");
  EXPECT_EQ(bm(Precision::kFp64, "NT"), "64 NN fp64");  // NN stands in within a precision
  // The tuner's seeds hold only the precision's entries.
  const auto ranked = clgemm::rankedTunedEntries({dir.path()}, gpu("GPU X", "1"), "best", kSize,
                                                 nullptr, "TN", Precision::kFp64);
  ASSERT_EQ(ranked.size(), 2u);
  EXPECT_EQ(ranked[0].defines.at("BM"), "16");
  EXPECT_EQ(ranked[1].defines.at("BM"), "64");

  // Only FP32 entries, own and borrowed: an FP64 lookup finds none.
  TempDir fp32_only;
  writeText(fp32_only.file("own.json"), entryJson("GPU X", "1", "best", R"({"BM": 32})"));
  writeText(fp32_only.file("h100.json"), precisionEntry(kH100.name, "fp32", 96, "NN", &kH100));
  clgemm::TunedEntry e;
  EXPECT_FALSE(clgemm::findTunedEntry({fp32_only.path()}, gpu("GPU X", "1"), "best", kSize, e,
                                      nullptr, "NN", Precision::kFp64));
  EXPECT_FALSE(clgemm::findTunedEntry({fp32_only.path()}, kH200, "best", kSize, e, nullptr, "NN",
                                      Precision::kFp64));
  ASSERT_TRUE(clgemm::findTunedEntry({fp32_only.path()}, kH200, "best", kSize, e, nullptr, "NN",
                                     Precision::kFp32));
  EXPECT_EQ(e.defines.at("BM"), "96");
  // A borrowed FP64 entry serves FP64 where the device's own is FP32.
  writeText(fp32_only.file("h100-fp64.json"), precisionEntry(kH100.name, "fp64", 48, "NN", &kH100));
  writeText(fp32_only.file("h200.json"), classEntry(kH200, 4096, 256));
  ASSERT_TRUE(clgemm::findTunedEntry({fp32_only.path()}, kH200, "best", kSize, e, nullptr, "NN",
                                     Precision::kFp64));
  EXPECT_EQ(e.defines.at("BM"), "48");
}

TEST(ParamStore, APrecisionThatIsNeitherIsSkippedWithANote) {
  TempDir dir;
  writeText(dir.file("bad.json"), precisionEntry("GPU X", "fp16", 64));
  std::vector<std::string> warnings;
  clgemm::TunedEntry e;
  EXPECT_FALSE(
      clgemm::findTunedEntry({dir.path()}, gpu("GPU X", "1"), "best", kSize, e, &warnings));
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("precision 'fp16'"), std::string::npos) << warnings[0];
}

// A run's lookup: an FP64 run where only an FP32 entry exists gets the kernel's defaults, and
// params_match says why the entry was passed over and how to make one.
TEST(ParamStore, AnFp64LookupSaysWhyTheFp32EntryDoesNotServe) {
  using clgemm::Precision;
  const clgemm::Variant* best = nullptr;
  for (const auto& v : clgemm::variants())
    if (v.name == "best") best = &v;
  ASSERT_NE(best, nullptr);
  TempDir dir;
  writeText(dir.file("fp32.json"), entryJson("GPU X", "1", "best", R"({"BM": 32})"));
  const clgemm::SearchDirs dirs{{dir.path()}, 0};
  const auto fp64 = clgemm::resolveVariantParams(*best, {}, dirs, gpu("GPU X", "1"), kSize, nullptr,
                                                 "NN", Precision::kFp64);
  EXPECT_EQ(fp64.tuned_file, "");
  for (const auto& d : fp64.defines.all())
    EXPECT_FALSE(d.fromTunedEntry()) << d.name << " from " << d.source;
  EXPECT_NE(fp64.tuned_match.find("no fp64 entry (" + dir.file("fp32.json") + " is fp32"),
            std::string::npos)
      << fp64.tuned_match;
  EXPECT_NE(fp64.tuned_match.find("clgemm tune --precision fp64"), std::string::npos)
      << fp64.tuned_match;
  const auto fp32 = clgemm::resolveVariantParams(*best, {}, dirs, gpu("GPU X", "1"), kSize, nullptr,
                                                 "NN", Precision::kFp32);
  EXPECT_EQ(fp32.tuned_file, dir.file("fp32.json"));
  EXPECT_EQ(fp32.tuned_match, "same device");
  // Nothing in either precision: nothing to say.
  TempDir empty;
  EXPECT_EQ(clgemm::resolveVariantParams(*best, {}, {{empty.path()}, 0}, gpu("GPU X", "1"), kSize,
                                         nullptr, "NN", Precision::kFp64)
                .tuned_match,
            "");
}

// The key is the kernel's view: column-major is the row-major problem with A and B swapped, each
// read transposed. Only a kernel that takes the shape itself (best) sees it: the others run on
// packed NN copies, whatever the shape, so their key is always NN.
TEST(ParamStore, TheKeyIsTheTransposesOfTheRowMajorProblemTheKernelComputes) {
  using clgemm::GemmShape;
  using clgemm::Layout;
  using clgemm::Trans;
  const clgemm::Variant& best = clgemm_test::registryVariant("best");
  const clgemm::Variant& ladder = clgemm_test::registryVariant("regtile2d");
  ASSERT_TRUE(best.shapes_in_kernel);
  ASSERT_FALSE(ladder.shapes_in_kernel);
  const auto key = [](const clgemm::Variant& v, Layout layout, Trans a, Trans b) {
    return clgemm::tuningTransposes(v, 64, 48, 32, GemmShape{layout, a, b, 0, 0, 0});
  };
  EXPECT_EQ(key(best, Layout::kRow, Trans::kN, Trans::kN), "NN");
  EXPECT_EQ(key(best, Layout::kRow, Trans::kT, Trans::kN), "TN");
  EXPECT_EQ(key(best, Layout::kRow, Trans::kN, Trans::kT), "NT");
  EXPECT_EQ(key(best, Layout::kCol, Trans::kN, Trans::kN), "NN");
  EXPECT_EQ(key(best, Layout::kCol, Trans::kT, Trans::kN), "NT");
  EXPECT_EQ(key(best, Layout::kCol, Trans::kN, Trans::kT), "TN");
  EXPECT_EQ(key(best, Layout::kCol, Trans::kT, Trans::kT), "TT");
  for (const Layout layout : {Layout::kRow, Layout::kCol})
    for (const Trans a : {Trans::kN, Trans::kT})
      for (const Trans b : {Trans::kN, Trans::kT}) EXPECT_EQ(key(ladder, layout, a, b), "NN");
  // Leading dimensions are no part of it.
  EXPECT_EQ(clgemm::tuningTransposes(best, 64, 48, 32,
                                     GemmShape{Layout::kRow, Trans::kT, Trans::kN, 100, 100, 100}),
            "TN");
}

// Each entry shipped in data/params names a kernel of the registry and only its parameters, and
// its values pass the kernel's constraints: a kernel whose parameters change must bring its
// entries along, or users of that device would get a refusal instead of the tuned values.
TEST(ParamStore, EveryShippedEntryIsValidForItsKernel) {
  const std::string params = clgemm_test::sourceDir() + "/data/params";
  const auto files = clgemm::jsonFilesIn(params);
  EXPECT_FALSE(files.empty()) << "no entries in " << params;
  for (const auto& file : files) {
    const auto entry = nlohmann::json::parse(clgemm_test::readText(file));
    const std::string kernel = entry.at("kernel");
    std::vector<const clgemm::Variant*> named;
    EXPECT_NO_THROW(named = clgemm::parseVariantList(kernel)) << file;
    ASSERT_EQ(named.size(), 1u) << file << ": " << kernel << " is not one kernel";
    const clgemm::Variant& variant = *named[0];
    // The values as a run takes them from an entry: strings, in place of the defaults.
    std::map<std::string, std::string> tuned;
    for (const auto& [name, value] : entry.at("defines").items()) {
      bool known = false;
      for (const auto& p : variant.params) known = known || p.name == name;
      EXPECT_TRUE(known) << file << ": " << kernel << " has no parameter " << name;
      tuned[name] = value.is_string() ? value.get<std::string>() : value.dump();
    }
    const auto why =
        clgemm::constraintViolations(variant, clgemm::ResolvedDefines(variant.params, {}, tuned));
    EXPECT_EQ(why, std::nullopt) << file << ": " << why.value_or("");
  }
}

// End to end on this machine's device: an entry beside a --kernels file is picked up (with the
// shipped data folders in play, which the other tests hide with CLGEMM_DATA=none).
TEST(ParamStore, RunTakesTunedValuesAndDefinesOverrideThem) {
  const clgemm_test::ScopedEnv shipped_data("CLGEMM_DATA", std::nullopt);
  const auto list = clgemm_test::runClgemm(
      {"--kernel", "best", "--size", "4", "--reps", "1", "--format", "json"});
  ASSERT_EQ(list.exit_code, 0) << list.err;
  const auto doc = nlohmann::json::parse(list.out);
  const std::string device = doc["device"]["name"];

  TempDir dir;
  writeText(dir.file("kernels.cl"), clgemm_test::sourceKernels());
  std::filesystem::create_directories(dir.file("data/params"));
  writeText(dir.file("data/params/this.json"),
            entryJson(device, "any", "best", R"({"BM": 32, "BK": 32})"));
  const auto r = clgemm_test::runClgemm({"--kernels", dir.file("kernels.cl"), "--kernel", "best",
                                         "-D", "BK=16", "-m", "70", "-n", "45", "-k", "33",
                                         "--reps", "1", "--warmup", "0", "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto row = nlohmann::json::parse(r.out)["results"][0];
  EXPECT_EQ(row["status"], "ok");
  EXPECT_EQ(row["defines"]["BM"], "32");
  EXPECT_EQ(row["define_sources"]["BM"], "data");
  EXPECT_EQ(row["defines"]["BK"], "16");
  EXPECT_EQ(row["define_sources"]["BK"], "cli");
  EXPECT_EQ(row["define_sources"]["TM"], "default");
  EXPECT_EQ(row["define_sources"]["EDGE"], "problem");
}

// End to end: an entry tuned on another device of this device's class serves it, and the report
// says so; CLGEMM_DATA names the data folder, and "none" hides every shipped entry.
TEST(ParamStore, ABorrowedEntryIsReportedWithWhyAndCanBeHidden) {
  const clgemm::DeviceInfo& here = clgemm_test::defaultDevice();
  const clgemm::DeviceClass cls = clgemm::classOf(here);
  TempDir data;
  std::filesystem::create_directories(data.file("params"));
  const nlohmann::json entry = {{"device", "Another device of this class"},
                                {"driver", "1"},
                                {"kernel", "best"},
                                {"class", clgemm::classJson(cls)},
                                {"defines", {{"BM", 32}, {"BK", 32}}}};
  writeText(data.file("params/other.json"), entry.dump());
  const std::vector<std::string> run = {"--kernel", "best", "-m",     "70", "-n",       "45",
                                        "-k",       "33",   "--reps", "1",  "--warmup", "0"};
  const bool by_architecture = !here.architecture.empty();
  {
    const clgemm_test::ScopedEnv env("CLGEMM_DATA", data.path());
    std::vector<std::string> json_run = run;
    json_run.insert(json_run.end(), {"--format", "json"});
    const auto r = clgemm_test::runClgemm(json_run);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto row = nlohmann::json::parse(r.out)["results"][0];
    EXPECT_EQ(row["status"], "ok") << row.dump();
    EXPECT_EQ(row["defines"]["BM"], "32");
    EXPECT_EQ(row["define_sources"]["BM"], by_architecture ? "data:architecture" : "data:vendor");
    EXPECT_EQ(row["define_sources"]["TM"], "default");
    EXPECT_EQ(row["params_file"], data.file("params/other.json"));
    EXPECT_EQ(row["params_match"], by_architecture
                                       ? "same architecture " + here.architecture
                                       : "same vendor and type: " + cls.vendor + " " + cls.type);
    const auto table = clgemm_test::runClgemm(run);
    ASSERT_EQ(table.exit_code, 0) << table.err;
    EXPECT_NE(table.out.find("(+ best: no entry for this device; borrowed from " +
                             data.file("params/other.json") + ", " +
                             row["params_match"].get<std::string>() + ")"),
              std::string::npos)
        << table.out;
  }
  const clgemm_test::ScopedEnv none("CLGEMM_DATA", "none");
  std::vector<std::string> json_run = run;
  json_run.insert(json_run.end(), {"--format", "json"});
  const auto r = clgemm_test::runClgemm(json_run);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto row = nlohmann::json::parse(r.out)["results"][0];
  EXPECT_EQ(row["define_sources"]["BM"], "default") << row.dump();
  EXPECT_EQ(row["params_file"], "");
}

// End to end: a transposed run takes the entry of its transposes where one exists and the NN
// entry otherwise, and params_match says which. (The rows' verification is not asserted here: the
// kernels' own support for transposes is tested with them; this is the lookup.)
TEST(ParamStore, ATransposedRunFallsBackToTheNnEntryAndSaysSo) {
  const clgemm::DeviceInfo& here = clgemm_test::defaultDevice();
  TempDir data;
  std::filesystem::create_directories(data.file("params"));
  writeText(data.file("params/nn.json"), entryJson(here.name, "any", "best", R"({"BM": 32})"));
  const clgemm_test::ScopedEnv env("CLGEMM_DATA", data.path());
  const auto row_for = [&](const std::vector<std::string>& shape) {
    std::vector<std::string> args = {"--kernel", "best", "-m",       "20",     "-n",
                                     "12",       "-k",   "8",        "--reps", "1",
                                     "--warmup", "0",    "--format", "json"};
    args.insert(args.end(), shape.begin(), shape.end());
    const auto r = clgemm_test::runClgemm(args);
    EXPECT_NE(r.out, "") << r.err;
    return nlohmann::json::parse(r.out)["results"][0];
  };
  auto row = row_for({"--trans-a", "t"});
  EXPECT_EQ(row["defines"]["BM"], "32") << row.dump();
  EXPECT_EQ(row["params_match"], "same device; NN entry: none for TN");
  EXPECT_EQ(row["trans_a"], "t");
  // Column-major TN is the kernel's NT.
  row = row_for({"--layout", "col", "--trans-a", "t"});
  EXPECT_EQ(row["params_match"], "same device; NN entry: none for NT");
  writeText(data.file("params/nt.json"),
            R"({"device": ")" + here.name +
                R"(", "driver": "any", "kernel": "best", "trans": "NT", "defines": {"BM": 64}})");
  row = row_for({"--layout", "col", "--trans-a", "t"});
  EXPECT_EQ(row["defines"]["BM"], "64") << row.dump();
  EXPECT_EQ(row["params_file"], data.file("params/nt.json"));
  EXPECT_EQ(row["params_match"], "same device");
  // The default shape still takes the NN entry.
  row = row_for({});
  EXPECT_EQ(row["defines"]["BM"], "32");
  EXPECT_EQ(row["params_match"], "same device");
}

}  // namespace
