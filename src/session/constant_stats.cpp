#include "session/constant_stats.h"

#include <fmt/format.h>

#include <set>

#include "analysis/categories.h"
#include "formats/executorch/constant_data.h"

namespace etviz::session {
namespace {

std::string quant_text(const analysis::QuantParams& q) {
  if (q.scales.size() == 1)
    return fmt::format("scale {:g} zero point {}{}", q.scales[0],
                       q.zero_points.empty() ? 0 : q.zero_points[0],
                       q.qmin && q.qmax ? fmt::format(" range [{}, {}]", *q.qmin, *q.qmax) : "");
  return fmt::format("{} scales along dim {}", q.scales.size(), q.axis);
}

std::vector<int64_t> concrete_sizes(const TensorInfo& t) {
  std::vector<int64_t> out;
  for (const Dim& d : t.shape) out.push_back(d.size);
  return out;
}

}  // namespace

ConstantStatsResult constant_stats(const Document& doc, const ConstantStatsOptions& options) {
  ConstantStatsResult out;
  const executorch::ConstantLocator locator(doc);
  std::set<std::tuple<int, std::string, int64_t>> seen;
  auto add = [&](const std::string& graph, const std::string& name, const TensorInfo& t,
                 std::optional<analysis::QuantParams> quant) {
    if (!options.name_glob.empty() && !analysis::glob_match(options.name_glob, name)) return;
    ConstantStat c;
    c.graph = graph;
    c.name = name;
    c.dtype = t.dtype.str();
    c.shape = t.shape_string();
    c.nbytes = t.nbytes;
    c.location = to_string(t.data_location);
    if (quant) c.quantization = quant_text(*quant);
    std::string why;
    const auto bytes = locator.bytes(t, &why);
    if (bytes.empty()) {
      c.missing = why;
    } else if (!analysis::numeric_dtype(c.dtype)) {
      c.missing = "dtype not read as numbers";
    } else {
      analysis::TensorData data;
      data.dtype = c.dtype;
      data.sizes = concrete_sizes(t);
      data.dim_order = t.dim_order;
      data.bytes = bytes;
      data.quant = quant;
      c.stats = analysis::tensor_stats(data, options.bins, options.dequantize);
    }
    out.constants.push_back(std::move(c));
  };
  for (const Graph& g : doc.graphs) {
    // A delegate payload's constants index the payload's own buffers, not the program's.
    if (g.kind == GraphKind::kDelegate || g.kind == GraphKind::kSubgraph) continue;
    for (ValueId v = 0; v < static_cast<ValueId>(g.values.size()); ++v) {
      const Value& value = g.values[static_cast<size_t>(v)];
      const TensorInfo& t = value.tensor;
      if (value.kind != ValueKind::kTensor || !t.is_constant()) continue;
      const std::string key = t.data_key.empty() ? std::string() : t.data_key.str();
      if (!seen.insert({static_cast<int>(t.data_location), key, key.empty() ? t.data_index : -1})
               .second)
        continue;
      add(g.name, key.empty() ? value.name : key, t, analysis::value_quant_params(g, v));
    }
  }
  // A weights file on its own (.ptd): its named tensors.
  if (doc.graphs.empty())
    for (const NamedBlob& b : doc.named_data) {
      if (!b.tensor) continue;
      TensorInfo t = *b.tensor;
      t.data_location = DataLocation::kNamedData;
      t.data_key = b.key;
      if (t.nbytes <= 0) t.nbytes = static_cast<int64_t>(b.blob.size);
      add("", b.key, t, std::nullopt);
    }
  size_t missing = 0;
  for (const auto& c : out.constants) missing += !c.missing.empty();
  if (missing)
    out.warnings.push_back(
        fmt::format("{}: {} of {} constants have no statistics (see the note of each)", doc.path(),
                    missing, out.constants.size()));
  return out;
}

std::vector<render::ConstantStatsRow> constant_stats_rows(ConstantStatsResult&& stats) {
  std::vector<render::ConstantStatsRow> rows;
  for (auto& c : stats.constants) {
    render::ConstantStatsRow r;
    r.graph = std::move(c.graph);
    r.name = std::move(c.name);
    r.dtype = std::move(c.dtype);
    r.shape = std::move(c.shape);
    r.nbytes = c.nbytes;
    r.location = std::move(c.location);
    r.quantization = std::move(c.quantization);
    r.missing = std::move(c.missing);
    r.stats = std::move(c.stats);
    rows.push_back(std::move(r));
  }
  return rows;
}

}  // namespace etviz::session
