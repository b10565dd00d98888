#include "formats/side_files/node_data_file.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "core/mapped_file.h"
#include "formats/json/json_tree.h"

namespace etviz::side_files {
namespace {

constexpr size_t kMaxText = 256;  // longest string value kept

// "1.25", "3", "1e+09": a number as a person reads it (six significant digits).
std::string number_text(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "Infinity" : "-Infinity";
  if (v == std::floor(v) && std::fabs(v) < 1e15) return fmt::format("{:.0f}", v);
  return fmt::format("{:.6g}", v);
}

class Parser {
 public:
  explicit Parser(std::string path) : path_(std::move(path)) {}

  Result<std::optional<Colour>> colour(JsonRef v, const std::string& where) const {
    if (!v.valid() || v.is_null()) return std::optional<Colour>{};
    if (!v.is_string())
      return Error(
          fmt::format("{}: {} is not a string; expected a CSS colour such as \"#aabb00\" "
                      "or \"red\"",
                      path_, where));
    auto c = parse_colour(v.string_or(""));
    if (!c) return Error(fmt::format("{}: {}: {}", path_, where, c.error().message()));
    return std::optional<Colour>(*c);
  }

  Result<GraphNodeData> graph(JsonRef j, const std::string& graph_id) const {
    const std::string where = graph_id.empty() ? "" : fmt::format("graph '{}': ", graph_id);
    GraphNodeData g;
    g.graph = graph_id;
    JsonRef results = j["results"];
    if (!results.is_object())
      return Error(fmt::format(
          "{}: {}expected 'results', an object {{\"node id or output tensor name\": {{\"value\": "
          "number or string}}}}",
          path_, where));
    for (JsonRef r : results) {
      NodeDataResult out;
      out.key = r.key();
      const std::string at = fmt::format("{}result '{}'", where, out.key.substr(0, 80));
      if (!r.is_object())
        return Error(
            fmt::format("{}: {} is not an object; expected {{\"value\": ...}}", path_, at));
      JsonRef v = r["value"];
      if (v.is_number()) {
        out.number = v.as_double();
        out.text = number_text(*out.number);
      } else if (v.is_string()) {
        out.text = v.string_or("");
        if (out.text.size() > kMaxText) out.text.resize(kMaxText);
      } else if (v.is_bool()) {
        out.text = *v.as_bool() ? "true" : "false";
      } else {
        return Error(
            fmt::format("{}: {} has no 'value' (expected a number or a string)", path_, at));
      }
      auto bg = colour(r["bgColor"], at + " bgColor");
      if (!bg) return bg.error();
      auto fg = colour(r["textColor"], at + " textColor");
      if (!fg) return fg.error();
      out.bg = *bg;
      out.fg = *fg;
      g.results.push_back(std::move(out));
    }
    JsonRef thresholds = j["thresholds"];
    if (thresholds.valid() && !thresholds.is_null()) {
      if (!thresholds.is_array())
        return Error(
            fmt::format("{}: {}'thresholds' is not a list of {{value, bgColor}}", path_, where));
      size_t k = 0;
      for (JsonRef t : thresholds) {
        const std::string at = fmt::format("{}threshold {}", where, k++);
        auto value = t["value"].as_double();
        if (!t.is_object() || !value || std::isnan(*value))
          return Error(fmt::format("{}: {} has no numeric 'value'", path_, at));
        auto bg = colour(t["bgColor"], at + " bgColor");
        if (!bg) return bg.error();
        if (!*bg) return Error(fmt::format("{}: {} has no 'bgColor'", path_, at));
        auto fg = colour(t["textColor"], at + " textColor");
        if (!fg) return fg.error();
        g.thresholds.push_back({*value, **bg, *fg});
      }
      std::stable_sort(g.thresholds.begin(), g.thresholds.end(),
                       [](const auto& a, const auto& b) { return a.value < b.value; });
    }
    JsonRef gradient = j["gradient"];
    if (gradient.valid() && !gradient.is_null()) {
      if (!gradient.is_array())
        return Error(
            fmt::format("{}: {}'gradient' is not a list of {{stop, bgColor}}", path_, where));
      size_t k = 0;
      for (JsonRef s : gradient) {
        const std::string at = fmt::format("{}gradient stop {}", where, k++);
        auto stop = s["stop"].as_double();
        if (!s.is_object() || !stop || !(*stop >= 0 && *stop <= 1))
          return Error(fmt::format("{}: {} has no 'stop' between 0 and 1", path_, at));
        auto bg = colour(s["bgColor"], at + " bgColor");
        if (!bg) return bg.error();
        auto fg = colour(s["textColor"], at + " textColor");
        if (!fg) return fg.error();
        g.gradient.push_back({*stop, *bg, *fg});
      }
      std::stable_sort(g.gradient.begin(), g.gradient.end(),
                       [](const auto& a, const auto& b) { return a.stop < b.stop; });
      if (!g.gradient.empty() &&
          std::none_of(g.gradient.begin(), g.gradient.end(), [](const auto& s) { return s.bg; }))
        return Error(fmt::format("{}: {}'gradient' has no stop with a 'bgColor'", path_, where));
    }
    return g;
  }

 private:
  std::string path_;
};

}  // namespace

Result<NodeData> parse_node_data(std::string_view text, const std::string& path) {
  auto tree = JsonTree::parse(text);
  if (!tree) return tree.error().within(path);
  JsonRef root = tree->root();
  const char* expected =
      "expected Model Explorer node data: {\"results\": {node: {\"value\": ...}}, "
      "\"thresholds\"|\"gradient\": [...]} or {\"graph id\": {\"results\": ...}, ...}";
  if (!root.is_object()) return Error(fmt::format("{}: {}", path, expected));
  NodeData out;
  out.path = path;
  Parser parser(path);
  if (root["results"].valid()) {
    auto g = parser.graph(root, "");
    if (!g) return g.error();
    out.graphs.push_back(std::move(*g));
    return out;
  }
  JsonRef graphs = root["graphsData"].is_object() ? root["graphsData"] : root;
  for (JsonRef g : graphs) {
    if (!g.is_object() || !g["results"].valid())
      return Error(fmt::format("{}: member '{}' has no 'results'; {}", path, g.key().substr(0, 80),
                               expected));
    auto data = parser.graph(g, g.key());
    if (!data) return data.error();
    out.graphs.push_back(std::move(*data));
  }
  if (out.graphs.empty()) return Error(fmt::format("{}: the object is empty; {}", path, expected));
  return out;
}

Result<NodeData> read_node_data(const std::string& path) {
  auto file = MappedFile::open(path);
  if (!file) return Error(file.error().message() + " (--node-data)");
  if ((*file)->size() > kMaxNodeDataFileBytes)
    return Error(
        fmt::format("{}: node data file is {} bytes; the limit is 512 MiB", path, (*file)->size()));
  auto bytes = (*file)->bytes();
  return parse_node_data(
      std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()), path);
}

}  // namespace etviz::side_files
