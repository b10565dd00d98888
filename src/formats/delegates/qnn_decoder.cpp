// Qualcomm QNN payloads: ExecuTorch's wrapper (magic 0x5678ABCD, signature, context size)
// around a QNN context binary. The context binary is proprietary and undocumented, so this
// decoder never claims ops or topology: it shows the wrapper, the compile spec, the SDK
// version and the graph and tensor names the binary states (observed layout, labelled as
// heuristic). Never fails on a payload with a valid wrapper; see docs/delegates.md.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <regex>
#include <set>

#include "core/bytes.h"
#include "formats/delegates/delegate_decoders.h"
#include "formats/flatbuffer_verify.h"
#include "qnn_compile_spec_generated.h"

namespace etviz::delegates {
namespace {

constexpr uint32_t kWrapperMagic = 0x5678ABCDu;
constexpr size_t kWrapperSize = 20;  // u32 magic, i64 signature, u64 context size

std::string chipset_name(int v) {
  static const std::map<int, const char*> names = {
      {36, "SM8450"},   {39, "SA8295"},   {42, "SM8475"},   {43, "SM8550"},
      {45, "SXR1230P"}, {46, "SSG2115P"}, {53, "SXR2230P"}, {57, "SM8650"},
      {58, "SSG2125P"}, {69, "SM8750"},   {75, "SXR2330P"}, {77, "QCS9100"}};
  auto it = names.find(v);
  return it != names.end() ? it->second : fmt::format("chipset {}", v);
}

std::string indexed_name(int v, std::initializer_list<const char*> names) {
  if (v >= 0 && static_cast<size_t>(v) < names.size()) return *(names.begin() + v);
  return std::to_string(v);
}

void compile_spec_facts(const Delegate& d, std::vector<Attribute>& facts) {
  for (const CompileSpec& spec : d.compile_specs) {
    if (spec.key != "qnn_compile_spec") continue;
    std::span<const uint8_t> bytes(spec.value);
    if (!verify_flatbuffer<qnn::Options>(bytes, nullptr, "qnn_compile_spec")) {
      facts.push_back({"compile_spec", "qnn_compile_spec is not a readable QnnExecuTorchOptions"});
      return;
    }
    const auto* o = flatbuffers::GetRoot<qnn::Options>(bytes.data());
    if (const auto* soc = o->soc_info()) {
      facts.push_back({"soc", chipset_name(soc->soc_model())});
      if (const auto* htp = soc->htp_info()) {
        facts.push_back({"htp_arch", fmt::format("V{}", htp->htp_arch())});
        facts.push_back({"vtcm_mb", std::to_string(htp->vtcm_size_in_mb())});
      }
    }
    if (const auto* b = o->backend_options()) {
      facts.push_back(
          {"qnn_backend", indexed_name(b->backend_type(), {"kUndefinedBackend", "kGpuBackend",
                                                           "kHtpBackend", "kDspBackend"})});
      if (const auto* h = b->htp_options()) {
        facts.push_back({"htp_performance_mode",
                         indexed_name(h->performance_mode(),
                                      {"kHtpDefault", "kHtpSustainedHighPerformance", "kHtpBurst",
                                       "kHtpHighPerformance", "kHtpPowerSaver", "kHtpLowPowerSaver",
                                       "kHtpHighPowerSaver", "kHtpLowBalanced", "kHtpBalanced"})});
        facts.push_back(
            {"htp_precision", indexed_name(h->precision(), {"kHtpQuantized", "kHtpFp16"})});
      }
    }
  }
}

// Printable runs of at least `min` characters, with their offsets.
std::vector<std::pair<size_t, std::string>> strings_in(std::span<const uint8_t> b, size_t min,
                                                       size_t limit) {
  std::vector<std::pair<size_t, std::string>> out;
  size_t start = 0;
  for (size_t i = 0; i <= b.size() && out.size() < limit; ++i) {
    const bool printable = i < b.size() && b[i] >= 0x20 && b[i] < 0x7f;
    if (printable) continue;
    if (i - start >= min)
      out.emplace_back(start,
                       std::string(reinterpret_cast<const char*>(b.data() + start), i - start));
    start = i + 1;
  }
  return out;
}

bool starts_with(const std::string& s, const char* prefix) {
  return s.rfind(prefix, 0) == 0;
}

}  // namespace

Result<Graph> decode_qnn(const DecodeInput& in) {
  const auto p = in.payload;
  if (p.size() < kWrapperSize || load_le<uint32_t>(p.data()) != kWrapperMagic)
    return Error(fmt::format(
        "expected the QNN wrapper magic 0x5678ABCD at byte 0 of the {}-byte payload", p.size()));
  const int64_t signature = load_le<int64_t>(p.data() + 4);
  const uint64_t context_size = load_le<uint64_t>(p.data() + 12);
  if (context_size > p.size() - kWrapperSize)
    return Error(fmt::format("QNN wrapper states a {}-byte context binary but only {} bytes follow",
                             context_size, p.size() - kWrapperSize));
  // The binary ends the payload; newer writers pad the wrapper to 256 bytes.
  const uint64_t context_offset = p.size() - context_size;
  const auto ctx = p.subspan(context_offset, context_size);
  auto facts = basic_payload_facts(in);
  facts.push_back({"wrapper", "QNN custom protocol (magic 0x5678ABCD)"});
  facts.push_back({"signature", std::to_string(signature)});
  facts.push_back({"context_binary_offset", std::to_string(context_offset)});
  facts.push_back({"context_binary_bytes", std::to_string(context_size)});
  compile_spec_facts(in.delegate, facts);

  // Observed context layout (heuristic): 16 header bytes, three u64: end of a metadata region
  // starting at 40, offset of the SDK build string, size of the graph region that follows.
  std::vector<std::string> graphs;
  if (ctx.size() >= 40) {
    const uint64_t meta_end = load_le<uint64_t>(ctx.data() + 16);
    const uint64_t build_at = load_le<uint64_t>(ctx.data() + 16);
    const uint64_t region_at = load_le<uint64_t>(ctx.data() + 24);
    const uint64_t region_size = load_le<uint64_t>(ctx.data() + 32);
    if (build_at < ctx.size()) {
      auto s =
          strings_in(ctx.subspan(build_at, std::min<uint64_t>(64, ctx.size() - build_at)), 4, 1);
      if (!s.empty() && s[0].first == 0 &&
          std::regex_search(s[0].second, std::regex("^v\\d+\\.\\d+")))
        facts.push_back({"qnn_sdk_version", s[0].second});
    }
    if (meta_end > 40 && meta_end <= ctx.size()) {
      // Graph names are the ones matching a method; I/O names follow their graph's name.
      std::vector<std::string> methods;
      for (const Delegate& d : in.doc.delegates)
        if (d.backend_id == in.delegate.backend_id) methods.push_back(d.method);
      std::string current;
      std::map<std::string, std::pair<std::vector<std::string>, std::vector<std::string>>> io;
      for (auto& [at, s] : strings_in(ctx.subspan(40, meta_end - 40), 4, 100000)) {
        if (std::find(methods.begin(), methods.end(), s) != methods.end()) {
          current = s;
          graphs.push_back(s);
        } else if (!current.empty() && starts_with(s, "input_")) {
          io[current].first.push_back(s);
        } else if (!current.empty() && starts_with(s, "output_")) {
          io[current].second.push_back(s);
        }
      }
      std::string names;
      for (const auto& g : graphs) names += (names.empty() ? "" : ", ") + g;
      if (!names.empty()) facts.push_back({"context_graphs (heuristic)", names});
      for (const auto& g : graphs) {
        auto& [ins, outs] = io[g];
        auto join = [](const std::vector<std::string>& v) {
          std::string s;
          for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
          return s;
        };
        facts.push_back({fmt::format("graph.{}.inputs ({})", g, ins.size()), join(ins)});
        facts.push_back({fmt::format("graph.{}.outputs ({})", g, outs.size()), join(outs)});
      }
    }
    if (region_at < ctx.size() && region_size <= ctx.size() - region_at) {
      // Node names the exporter derived from ATen ops ("aten_convolution_default_35").
      // Each name occurs more than once (observed: twice); count distinct names.
      std::map<std::string, int64_t> ops;
      std::set<std::string> seen;
      int64_t total = 0;
      for (auto& [at, s] : strings_in(ctx.subspan(region_at, region_size), 8, 200000)) {
        if (!starts_with(s, "aten_") || !seen.insert(s).second) continue;
        std::string op = s;
        while (!op.empty() && (std::isdigit(static_cast<unsigned char>(op.back())))) op.pop_back();
        if (!op.empty() && op.back() == '_') op.pop_back();
        ++ops[op];
        ++total;
      }
      if (total > 0) {
        std::vector<std::pair<int64_t, std::string>> top;
        for (auto& [op, n] : ops) top.emplace_back(n, op);
        std::sort(top.begin(), top.end(), [](auto& a, auto& b) {
          return a.first != b.first ? a.first > b.first : a.second < b.second;
        });
        std::string s;
        for (size_t i = 0; i < top.size() && i < 12; ++i)
          s += fmt::format("{}{} {}", i ? ", " : "", top[i].second, top[i].first);
        facts.push_back({"node_name_histogram (heuristic)", s});
        facts.push_back({"distinct_node_names (heuristic)", std::to_string(total)});
      }
    }
  }
  facts.push_back(
      {"note", "QNN context binaries are undocumented; ops and shapes need the QNN SDK"});
  Graph g = make_opaque_graph(in, "QNN context binary", std::move(facts));
  if (!graphs.empty() &&
      std::find(graphs.begin(), graphs.end(), in.delegate.method) == graphs.end())
    g.attributes.push_back({"warning", "no graph in the context binary is named after method '" +
                                           in.delegate.method + "'"});
  return g;
}

}  // namespace etviz::delegates
