#include "formats/torch_export/exported_program_reader.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <deque>
#include <map>
#include <optional>
#include <unordered_map>

#include "core/graph_builder.h"
#include "formats/json/json_tree.h"
#include "formats/torch_export/node_metadata.h"

namespace etviz::torch_export {

std::string export_scalar_type_name(int64_t code) {
  switch (code) {
    case 0:
      return "unknown";
    case 1:
      return "uint8";
    case 2:
      return "int8";
    case 3:
      return "int16";
    case 4:
      return "int32";
    case 5:
      return "int64";
    case 6:
      return "float16";
    case 7:
      return "float32";
    case 8:
      return "float64";
    case 9:
      return "complex32";
    case 10:
      return "complex64";
    case 11:
      return "complex128";
    case 12:
      return "bool";
    case 13:
      return "bfloat16";
    case 28:
      return "uint16";
    case 29:
      return "float8_e4m3fn";
    case 30:
      return "float8_e5m2";
    case 31:
      return "float8_e4m3fnuz";
    case 32:
      return "float8_e5m2fnuz";
    default:
      return fmt::format("scalar_type({})", code);
  }
}

std::string normalize_target(std::string_view target) {
  std::string_view t = target;
  for (std::string_view prefix : {"executorch.exir.dialects.edge.ops.", "torch.ops."}) {
    if (t.substr(0, prefix.size()) == prefix) {
      t.remove_prefix(prefix.size());
      const size_t dot = t.find('.');
      if (dot == std::string_view::npos) return std::string(target);
      std::string out = std::string(t.substr(0, dot)) + "::" + std::string(t.substr(dot + 1));
      if (out.size() > 8 && out.ends_with(".default")) out.resize(out.size() - 8);
      return out;
    }
  }
  return std::string(target);
}

namespace {

const char* kLayoutNames[] = {"unknown",    "sparse_coo", "sparse_csr", "sparse_csc",
                              "sparse_bsr", "sparse_bsc", "mkldnn",     "strided"};
const char* kMemoryFormatNames[] = {"unknown", "contiguous_format", "channels_last",
                                    "channels_last_3d", "preserve_format"};

// A union is an object with one member set. Files of schema 1.x write every member and null the
// unset ones, later files write only the set one: the first non-null member is the value.
std::pair<std::string_view, JsonRef> union_member(JsonRef u) {
  if (!u.is_object()) return {{}, {}};
  JsonRef none;
  for (JsonRef m : u) {
    if (!m.is_null()) return {m.raw_key(), m};
    if (m.raw_key() == "as_none") none = m;
  }
  if (none.valid()) return {"as_none", none};
  return {{}, {}};
}

std::string number_text(JsonRef v) {
  if (auto i = v.as_int(); i && v.raw().find_first_of(".eE") == std::string_view::npos)
    return std::to_string(*i);
  if (auto d = v.as_double()) {
    if (std::isnan(*d)) return "nan";
    if (std::isinf(*d)) return *d > 0 ? "inf" : "-inf";
    return fmt::format("{}", *d);
  }
  return std::string(v.raw());
}

class ProgramBuilder {
 public:
  ProgramBuilder(Document& doc, const ExportedProgramOptions& options)
      : doc_(doc), options_(options) {}

  Result<int32_t> build(JsonRef root) {
    if (!root.is_object()) return Error("the exported program is not a JSON object");
    JsonRef gm = root["graph_module"];
    if (!gm.is_object())
      return Error("exported program: 'graph_module' is missing or not an object");
    JsonRef graph = gm["graph"];
    if (!graph.is_object())
      return Error("exported program: 'graph_module.graph' is missing or not an object");

    const auto index = static_cast<int32_t>(doc_.graphs.size());
    doc_.graphs.emplace_back();
    GraphBuilder b(options_.graph_name, GraphKind::kExportedProgram, options_.stage);
    program_attributes(root, b.graph());
    if (auto s = build_graph(graph, gm["signature"], b, "graph_module.graph"); !s) return s.error();
    module_call_graph(gm["module_call_graph"], b.graph());
    doc_.graphs[index] = b.finish();
    return index;
  }

 private:
  Document& doc_;
  const ExportedProgramOptions& options_;
  int subgraph_depth_ = 0;

  void warn(const std::string& message) { doc_.warn(options_.graph_name + ": " + message); }

  void program_attributes(JsonRef root, Graph& g) {
    JsonRef sv = root["schema_version"];
    if (sv.is_object()) {
      g.attributes.push_back(
          {"schema_version", fmt::format("{}.{}", sv["major"].as_int().value_or(0),
                                         sv["minor"].as_int().value_or(0))});
    } else if (sv.is_number()) {
      g.attributes.push_back({"schema_version", number_text(sv)});
    }
    if (auto tv = root["torch_version"].as_string()) g.attributes.push_back({"torch_version", *tv});
    if (JsonRef ops = root["opset_version"]; ops.is_object())
      for (JsonRef o : ops) g.attributes.push_back({"opset." + o.key(), std::string(o.raw())});
    if (JsonRef ver = root["verifiers"]; ver.is_array()) {
      std::string v;
      for (JsonRef x : ver) v += (v.empty() ? "" : ", ") + x.string_or(x.raw());
      g.attributes.push_back({"dialect", v});
    } else if (auto d = root["dialect"].as_string()) {
      g.attributes.push_back({"dialect", *d});
    }
    if (JsonRef rc = root["range_constraints"]; rc.is_object()) {
      for (JsonRef r : rc) {
        auto bound = [](JsonRef b) { return b.is_null() ? std::string("?") : number_text(b); };
        g.attributes.push_back({"range." + r.key(),
                                fmt::format("[{}, {}]", bound(r["min_val"]), bound(r["max_val"]))});
      }
    }
    if (JsonRef eq = root["equality_constraints"]; eq.is_array() && eq.size() > 0)
      g.attributes.push_back({"equality_constraints", std::string(eq.raw())});
    if (JsonRef gc = root["guards_code"]; gc.is_array() && gc.size() > 0)
      g.attributes.push_back({"guards_code", std::string(gc.raw())});
    static const std::array<std::string_view, 10> kKnown = {
        "graph_module",  "opset_version", "range_constraints",    "schema_version", "verifiers",
        "torch_version", "dialect",       "equality_constraints", "example_inputs", "guards_code"};
    for (JsonRef m : root) {
      const auto key = m.raw_key();
      if (std::find(kKnown.begin(), kKnown.end(), key) == kKnown.end())
        g.attributes.push_back({"unknown." + m.key(), std::string(m.raw().substr(0, 4096))});
    }
  }

  // ---- values ----

  struct Scope {
    Graph& g;
    // Keys view the JSON text (or `unescaped` for names with escapes): no copy per lookup.
    std::unordered_map<std::string_view, ValueId> by_name;
    std::map<std::tuple<GroupId, std::string, std::string>, GroupId> groups;
    // One parse per distinct nn_module_stack text: nodes of one module share it.
    std::unordered_map<std::string_view, std::pair<GroupId, std::string>> stacks;
    std::deque<std::string> unescaped;

    std::string_view name_of(JsonRef s) {
      if (!s.is_string()) return "?";
      if (!s.has_escapes()) return s.string_body();
      unescaped.push_back(s.string_or(""));
      return unescaped.back();
    }
  };

  static void sym_int_dim(JsonRef s, Dim& d) {
    auto [kind, v] = union_member(s);
    if (kind == "as_int") {
      d.size = v.as_int().value_or(-1);
    } else if (kind == "as_expr") {
      // SymExpr {expr_str, hint} since 2024; a bare string before.
      if (v.is_string()) {
        d.symbol = v.string_or("?");
      } else {
        d.symbol = v["expr_str"].string_or("?");
        if (JsonRef hint = v["hint"]; hint.valid()) {
          auto [hk, hv] = union_member(hint);
          if (hv.valid())
            d.size = hv.as_int().value_or(-1);
          else if (hint.is_number())
            d.size = hint.as_int().value_or(-1);
        }
      }
    } else if (s.is_number()) {
      d.size = s.as_int().value_or(-1);
    } else {
      d.symbol = std::string(s.raw().substr(0, 64));
    }
  }

  static TensorInfo tensor_meta(JsonRef meta) {
    TensorInfo t;
    // Schema 1.x wraps the meta in {"meta": ...}.
    if (JsonRef inner = meta["meta"]; inner.is_object()) meta = inner;
    t.dtype = export_scalar_type_name(meta["dtype"].as_int().value_or(0));
    bool symbolic = false;
    for (JsonRef s : meta["sizes"]) {
      Dim d;
      sym_int_dim(s, d);
      symbolic |= d.is_symbolic();
      t.shape.push_back(std::move(d));
    }
    if (symbolic) t.dynamism = ShapeDynamism::kDynamicUnbound;
    t.requires_grad = meta["requires_grad"].as_bool().value_or(false);
    if (auto b = t.byte_size()) t.nbytes = *b;
    return t;
  }

  ValueId value_named(Scope& sc, JsonRef name_json, ValueKind kind_if_new) {
    const std::string_view name = sc.name_of(name_json);
    auto it = sc.by_name.find(name);
    if (it != sc.by_name.end()) return it->second;
    Value v;
    v.name = std::string(name);
    v.kind = kind_if_new;
    const ValueId id = sc.g.add_value(std::move(v));
    sc.by_name.emplace(name, id);
    return id;
  }

  ValueId literal_value(Scope& sc, ValueKind kind, std::string literal) {
    Value v;
    v.kind = kind;
    v.literal = std::move(literal);
    return sc.g.add_value(std::move(v));
  }

  static std::string list_text(JsonRef list, auto&& element_text) {
    std::string s = "[";
    bool first = true;
    for (JsonRef e : list) {
      if (!first) s += ", ";
      first = false;
      s += element_text(e);
    }
    return s + "]";
  }

  static std::string sym_arg_text(JsonRef e) {
    auto [k, v] = union_member(e);
    if (k == "as_name") return v.string_or("?");
    if (v.is_bool()) return *v.as_bool() ? "True" : "False";
    if (v.is_number()) return number_text(v);
    return std::string(e.raw());
  }

  // An Argument union into a value id; `owner` and `what` name it for subgraphs and messages.
  ValueId argument(Scope& sc, JsonRef arg, Node& owner, const std::string& what) {
    auto [kind, v] = union_member(arg);
    if (kind == "as_tensor") return value_named(sc, v["name"], ValueKind::kTensor);
    if (kind == "as_none") return literal_value(sc, ValueKind::kNull, "None");
    if (kind == "as_int") return literal_value(sc, ValueKind::kInt, number_text(v));
    if (kind == "as_float") return literal_value(sc, ValueKind::kDouble, number_text(v));
    if (kind == "as_bool")
      return literal_value(sc, ValueKind::kBool, v.as_bool().value_or(false) ? "True" : "False");
    if (kind == "as_string") return literal_value(sc, ValueKind::kString, v.string_or(""));
    if (kind == "as_operator")
      return literal_value(sc, ValueKind::kString, normalize_target(v.string_or("")));
    if (kind == "as_ints") return literal_value(sc, ValueKind::kIntList, list_text(v, number_text));
    if (kind == "as_floats")
      return literal_value(sc, ValueKind::kDoubleList, list_text(v, number_text));
    if (kind == "as_bools")
      return literal_value(sc, ValueKind::kBoolList, list_text(v, [](JsonRef b) {
                             return std::string(b.as_bool().value_or(false) ? "True" : "False");
                           }));
    if (kind == "as_strings")
      return literal_value(sc, ValueKind::kOther,
                           list_text(v, [](JsonRef b) { return "'" + b.string_or("") + "'"; }));
    if (kind == "as_scalar_type")
      return literal_value(sc, ValueKind::kOther, export_scalar_type_name(v.as_int().value_or(0)));
    if (kind == "as_layout") {
      const auto i = v.as_int().value_or(0);
      return literal_value(sc, ValueKind::kOther,
                           i >= 0 && i < 8 ? kLayoutNames[i] : number_text(v));
    }
    if (kind == "as_memory_format") {
      const auto i = v.as_int().value_or(0);
      return literal_value(sc, ValueKind::kOther,
                           i >= 0 && i < 5 ? kMemoryFormatNames[i] : number_text(v));
    }
    if (kind == "as_device") {
      std::string d = v["type"].string_or("?");
      if (auto idx = v["index"].as_int()) d += ":" + std::to_string(*idx);
      return literal_value(sc, ValueKind::kOther, d);
    }
    if (kind == "as_sym_int" || kind == "as_sym_float" || kind == "as_sym_bool") {
      auto [sk, sv] = union_member(v);
      if (sk == "as_name") {
        const ValueKind vk = kind == "as_sym_int"     ? ValueKind::kSymInt
                             : kind == "as_sym_float" ? ValueKind::kSymFloat
                                                      : ValueKind::kSymBool;
        return value_named(sc, sv, vk);
      }
      return literal_value(sc,
                           kind == "as_sym_int"     ? ValueKind::kInt
                           : kind == "as_sym_float" ? ValueKind::kDouble
                                                    : ValueKind::kBool,
                           sym_arg_text(v));
    }
    if (kind == "as_sym_ints" || kind == "as_sym_floats" || kind == "as_sym_bools") {
      // Lists mixing symbols and constants: members that are symbols link as values too.
      Value list;
      list.kind = kind == "as_sym_ints"     ? ValueKind::kIntList
                  : kind == "as_sym_floats" ? ValueKind::kDoubleList
                                            : ValueKind::kBoolList;
      list.literal = list_text(v, sym_arg_text);
      for (JsonRef e : v) {
        auto [ek, ev] = union_member(e);
        if (ek == "as_name")
          list.elements.push_back(value_named(sc, ev,
                                              kind == "as_sym_ints"     ? ValueKind::kSymInt
                                              : kind == "as_sym_floats" ? ValueKind::kSymFloat
                                                                        : ValueKind::kSymBool));
      }
      return sc.g.add_value(std::move(list));
    }
    if (kind == "as_tensors" || kind == "as_optional_tensors") {
      Value list;
      list.kind = kind == "as_tensors" ? ValueKind::kTensorList : ValueKind::kOptionalTensorList;
      std::string text = "[";
      for (JsonRef e : v) {
        JsonRef t = e;
        if (kind == "as_optional_tensors") {
          auto [ek, ev] = union_member(e);
          t = ek == "as_tensor" ? ev : JsonRef();
        }
        if (text.size() > 1) text += ", ";
        if (t.is_object()) {
          const ValueId id = value_named(sc, t["name"], ValueKind::kTensor);
          list.elements.push_back(id);
          text += sc.g.values[id].name;
        } else {
          list.elements.push_back(kNoId);
          text += "None";
        }
      }
      list.literal = text + "]";
      return sc.g.add_value(std::move(list));
    }
    if (kind == "as_optional_tensor") {
      auto [ek, ev] = union_member(v);
      if (ek == "as_tensor") return value_named(sc, ev["name"], ValueKind::kTensor);
      return literal_value(sc, ValueKind::kNull, "None");
    }
    if (kind == "as_custom_obj") {
      const ValueId id = value_named(sc, v["name"], ValueKind::kOther);
      if (sc.g.values[id].literal.empty()) sc.g.values[id].literal = v["class_fqn"].string_or("");
      return id;
    }
    if (kind == "as_complex")
      return literal_value(sc, ValueKind::kOther,
                           fmt::format("({}+{}j)", number_text(v["real"]), number_text(v["imag"])));
    if (kind == "as_graph") {
      const std::string label = v["name"].string_or(what);
      const int32_t sub = subgraph(v["graph"], owner.name + "/" + label);
      if (sub >= 0) {
        if (owner.subgraph < 0) owner.subgraph = sub;
        owner.attributes.push_back({"subgraph." + what, doc_.graphs[sub].name});
      }
      return literal_value(sc, ValueKind::kOther, "graph " + label);
    }
    // as_nested_tensors, as_int_lists, as_string_to_argument and kinds newer than this reader:
    // kept as the JSON text.
    if (kind.empty())
      return literal_value(sc, ValueKind::kOther, std::string(arg.raw().substr(0, 4096)));
    return literal_value(sc, ValueKind::kOther,
                         std::string(kind) + " " + std::string(v.raw().substr(0, 4096)));
  }

  int32_t subgraph(JsonRef graph, const std::string& name) {
    if (!graph.is_object()) return -1;
    if (subgraph_depth_ >= 32) {
      warn("higher-order op subgraphs nest deeper than 32 levels; the deeper ones are not read");
      return -1;
    }
    ++subgraph_depth_;
    const auto index = static_cast<int32_t>(doc_.graphs.size());
    doc_.graphs.emplace_back();
    // A body belongs to the stage of the program that calls it.
    GraphBuilder b(options_.graph_name + "/" + name, GraphKind::kSubgraph, options_.stage);
    b.graph().attributes.push_back({"parent", options_.graph_name});
    auto s = build_graph(graph, JsonRef(), b, name);
    --subgraph_depth_;
    if (!s) {
      warn(fmt::format("subgraph '{}' skipped: {}", name, s.error().message()));
      doc_.graphs.resize(static_cast<size_t>(index));
      return -1;
    }
    doc_.graphs[index] = b.finish();
    return index;
  }

  // ---- graph ----

  GroupId module_group(Scope& sc, const std::vector<ModuleFrame>& stack) {
    GroupId parent = kNoId;
    for (const ModuleFrame& f : stack) {
      if (f.path.empty()) continue;  // the root module is the graph itself
      auto key = std::make_tuple(parent, f.path, f.type);
      auto it = sc.groups.find(key);
      if (it != sc.groups.end()) {
        parent = it->second;
        continue;
      }
      Group grp;
      grp.name = f.path;
      std::string type_short = f.type;
      if (auto dot = type_short.rfind('.'); dot != std::string::npos)
        type_short = type_short.substr(dot + 1);
      std::string last = f.path;
      if (parent != kNoId && last.starts_with(sc.g.groups[parent].name + "."))
        last = last.substr(sc.g.groups[parent].name.size() + 1);
      grp.label = type_short.empty() ? last : fmt::format("{} ({})", last, type_short);
      grp.kind = GroupKind::kModule;
      grp.parent = parent;
      parent = sc.g.add_group(std::move(grp));
      sc.groups.emplace(key, parent);
    }
    return parent;
  }

  void node_metadata(Scope& sc, JsonRef meta, Node& n) {
    if (!meta.is_object()) return;
    for (JsonRef m : meta) {
      const std::string_view key = m.raw_key();
      if (key == "nn_module_stack") {
        auto cached = sc.stacks.find(m.raw());
        if (cached == sc.stacks.end()) {
          const std::string text = m.is_string() ? m.string_or("") : std::string(m.raw());
          auto stack = parse_nn_module_stack(text);
          std::string path;
          for (auto it = stack.rbegin(); it != stack.rend(); ++it)
            if (!it->path.empty()) {
              path = it->path;
              break;
            }
          cached =
              sc.stacks.emplace(m.raw(), std::make_pair(module_group(sc, stack), std::move(path)))
                  .first;
        }
        n.group = cached->second.first;
        n.provenance.module_path = cached->second.second;
      } else if (key == "stack_trace") {
        n.provenance.stack = m.has_escapes() ? parse_stack_trace(m.string_or(""))
                                             : parse_stack_trace(m.string_body());
      } else if (key == "debug_handle" || key == "debug_handles") {
        n.provenance.debug_handles = parse_int_list(m.is_string() ? m.string_body() : m.raw());
      } else {
        n.attributes.push_back({m.key(), m.is_string() ? m.string_or("") : std::string(m.raw())});
      }
    }
  }

  // The signature's role names for constant inputs (torch/_export/serde/schema.py InputSpec).
  static std::optional<ConstantRole> constant_role_named(std::string_view role) {
    for (ConstantRole r :
         {ConstantRole::kParameter, ConstantRole::kBuffer, ConstantRole::kConstantTensor,
          ConstantRole::kCustomObject, ConstantRole::kConstantInput})
      if (role == to_string(r)) return r;
    return std::nullopt;
  }

  struct InputRole {
    std::string
        role;  // user_input, parameter, buffer, tensor_constant, custom_obj, token, constant_input
    std::string target;
    bool persistent = true;
  };

  // Input and output roles by placeholder name, from either signature form.
  void read_signature(JsonRef sig, std::unordered_map<std::string, InputRole>& inputs,
                      std::vector<std::pair<std::string, std::string>>& output_roles,
                      std::vector<JsonRef>& output_args, Graph& g) {
    if (!sig.is_object()) return;
    if (JsonRef specs = sig["input_specs"]; specs.is_array()) {
      for (JsonRef spec : specs) {
        auto [kind, v] = union_member(spec);
        InputRole r;
        r.role = std::string(kind);
        std::string name;
        JsonRef arg = v["arg"];
        if (kind == "user_input") {
          auto [ak, av] = union_member(arg);
          name = av.is_object() ? av["name"].string_or("") : av.string_or("");
        } else if (kind == "constant_input") {
          name = v["name"].string_or("");
          r.target = std::string(v["value"].raw());
        } else {
          name = arg["name"].string_or("");
          for (const char* field :
               {"parameter_name", "buffer_name", "tensor_constant_name", "custom_obj_name"})
            if (auto t = v[field].as_string()) r.target = *t;
          r.persistent = v["persistent"].as_bool().value_or(true);
        }
        if (kind.empty()) {
          g.attributes.push_back({"unknown_input_spec", std::string(spec.raw().substr(0, 1024))});
          continue;
        }
        if (!name.empty()) inputs[name] = r;
      }
      for (JsonRef spec : sig["output_specs"]) {
        auto [kind, v] = union_member(spec);
        std::string target;
        for (const char* field : {"buffer_name", "parameter_name", "user_input_name"})
          if (auto t = v[field].as_string()) target = *t;
        output_roles.push_back({kind.empty() ? std::string("unknown") : std::string(kind), target});
        output_args.push_back(v["arg"]);
      }
      return;
    }
    // Early 2023 form: name lists and maps.
    for (JsonRef p : sig["inputs_to_parameters"])
      inputs[p.key()] = {"parameter", p.string_or(""), true};
    for (JsonRef p : sig["inputs_to_buffers"]) inputs[p.key()] = {"buffer", p.string_or(""), true};
    for (JsonRef p : sig["user_inputs"]) inputs[p.string_or("")] = {"user_input", "", true};
    for (JsonRef p : sig["buffers_to_mutate"])
      output_roles.push_back({"buffer_mutation", p.string_or("")});
    (void)output_args;
  }

  Status build_graph(JsonRef graph, JsonRef signature, GraphBuilder& b, const std::string& where) {
    Graph& g = b.graph();
    Scope sc{g, {}, {}, {}, {}};
    JsonRef tensor_values = graph["tensor_values"];
    if (tensor_values.valid() && !tensor_values.is_object())
      return Error(where + ".tensor_values: expected an object");
    sc.by_name.reserve(tensor_values.size() * 2 + 16);
    // Values: one per tensor plus about three literal arguments per node.
    g.values.reserve(tensor_values.size() + graph["nodes"].size() * 3 + 16);
    g.nodes.reserve(graph["nodes"].size() + graph["inputs"].size() + graph["outputs"].size());
    auto key_view = [&](JsonRef member) -> std::string_view {
      const std::string key = member.key();
      if (key == member.raw_key()) return member.raw_key();
      sc.unescaped.push_back(key);
      return sc.unescaped.back();
    };
    for (JsonRef tv : tensor_values) {
      if (!tv.is_object())
        return Error(fmt::format("{}.tensor_values.{}: expected an object", where, tv.key()));
      Value v;
      const std::string_view name = key_view(tv);
      v.name = std::string(name);
      v.kind = ValueKind::kTensor;
      v.tensor = tensor_meta(tv);
      sc.by_name.emplace(name, g.add_value(std::move(v)));
    }
    auto sym_values = [&](const char* field, ValueKind kind) {
      for (JsonRef s : graph[field]) {
        Value v;
        v.name = s.key();
        v.kind = kind;
        auto [k, x] = union_member(s);
        if (k == "as_expr")
          v.literal = x.is_string() ? x.string_or("") : x["expr_str"].string_or("");
        else if (x.valid())
          v.literal = x.is_bool() ? (*x.as_bool() ? "True" : "False") : number_text(x);
        sc.by_name.emplace(key_view(s), g.add_value(std::move(v)));
      }
    };
    sym_values("sym_int_values", ValueKind::kSymInt);
    sym_values("sym_float_values", ValueKind::kSymFloat);
    sym_values("sym_bool_values", ValueKind::kSymBool);
    for (JsonRef c : graph["custom_obj_values"]) {
      Value v;
      v.name = c.key();
      v.kind = ValueKind::kOther;
      v.literal = c["class_fqn"].string_or("");
      sc.by_name.emplace(key_view(c), g.add_value(std::move(v)));
    }

    std::unordered_map<std::string, InputRole> roles;
    std::vector<std::pair<std::string, std::string>> output_roles;
    std::vector<JsonRef> output_args;
    read_signature(signature, roles, output_roles, output_args, g);

    // Placeholders.
    JsonRef inputs = graph["inputs"];
    if (inputs.valid() && !inputs.is_array()) return Error(where + ".inputs: expected an array");
    int64_t k = 0;
    for (JsonRef in : inputs) {
      Node placeholder;
      const ValueId id = argument(sc, in, placeholder, fmt::format("input{}", k));
      const std::string& name = g.values[id].name;
      auto role = roles.find(name);
      if (role == roles.end() || role->second.role == "user_input") {
        b.add_input(id, name);
        ++k;
        continue;
      }
      const InputRole& r = role->second;
      std::vector<Attribute> attributes;
      if (!r.target.empty())
        attributes.push_back({r.role == "constant_input" ? "value" : "target", r.target});
      if (r.role == "buffer" && !r.persistent) attributes.push_back({"persistent", "False"});
      Value& v = g.values[id];
      if (v.kind == ValueKind::kTensor && r.role != "token") {
        v.tensor.data_location = DataLocation::kNamedData;
        v.tensor.data_key = r.target;
      }
      NodeId node = kNoId;
      if (auto known = constant_role_named(r.role)) {
        node = b.add_constant(id, *known);
      } else {
        // Effect tokens order side effects (an input the model does not see); roles from a
        // newer schema are kept by name.
        Node n;
        n.name = name.empty() ? fmt::format("input_{}", k) : name;
        n.kind = r.role == "token" ? NodeKind::kInput : NodeKind::kConstant;
        n.op = r.role;
        n.outputs.push_back({"", id});
        node = b.add_node(std::move(n));
      }
      auto& attrs = g.nodes[static_cast<size_t>(node)].attributes;
      attrs.insert(attrs.begin(), attributes.begin(), attributes.end());
      ++k;
    }

    JsonRef nodes = graph["nodes"];
    if (!nodes.is_array()) return Error(where + ".nodes: expected an array");
    k = 0;
    for (JsonRef jn : nodes) {
      if (!jn.is_object()) return Error(fmt::format("{}.nodes[{}]: expected an object", where, k));
      Node n;
      const std::string target = jn["target"].string_or("");
      n.op = normalize_target(target);
      n.kind = NodeKind::kKernel;
      n.name = jn["name"].string_or("");
      // The serialized target is kept when the short op name does not spell it out.
      if (target != n.op && !target.starts_with("torch.ops."))
        n.attributes.push_back({"target", target});
      JsonRef outs = jn["outputs"];
      // Node names came with schema 8.x; before, the first output's name stands for the node.
      if (n.name.empty())
        for (JsonRef o : outs) {
          auto [ok, ov] = union_member(o);
          if (ok == "as_tensor")
            n.name = ov["name"].string_or("");
          else if (ok == "as_sym_int" || ok == "as_sym_bool" || ok == "as_sym_float")
            n.name = union_member(ov).second.string_or("");
          else if (ok == "as_tensors")
            for (JsonRef t : ov) {
              n.name = t["name"].string_or("");
              break;
            }
          break;
        }
      if (n.name.empty()) n.name = fmt::format("node_{}", k);
      node_metadata(sc, jn["metadata"], n);
      int64_t a = 0;
      for (JsonRef in : jn["inputs"]) {
        std::string arg_name = in["name"].string_or(fmt::format("arg{}", a));
        if (in["kind"].as_int().value_or(0) == 2) n.attributes.push_back({"keyword", arg_name});
        const ValueId id = argument(sc, in["arg"], n, arg_name);
        n.inputs.push_back({std::move(arg_name), id});
        ++a;
      }
      a = 0;
      for (JsonRef o : outs)
        n.outputs.push_back({"", argument(sc, o, n, fmt::format("out{}", a++))});
      for (JsonRef m : jn) {
        const auto key = m.raw_key();
        if (key != "target" && key != "inputs" && key != "outputs" && key != "metadata" &&
            key != "name" && key != "is_hop_single_tensor_return" && !m.is_null())
          n.attributes.push_back({m.key(), std::string(m.raw().substr(0, 4096))});
      }
      b.add_node(std::move(n));
      ++k;
    }

    // Outputs: one node per graph output, named by its role in the signature.
    JsonRef outputs = graph["outputs"];
    k = 0;
    for (JsonRef out : outputs) {
      Node holder;
      const ValueId id = argument(sc, out, holder, fmt::format("output{}", k));
      const auto idx = static_cast<size_t>(k);
      const bool user = idx >= output_roles.size() || output_roles[idx].first == "user_output";
      const NodeId node = b.add_output(id, {}, user);
      if (idx < output_roles.size()) {
        auto& attrs = g.nodes[static_cast<size_t>(node)].attributes;
        attrs.push_back({"role", output_roles[idx].first});
        if (!output_roles[idx].second.empty())
          attrs.push_back({"target", output_roles[idx].second});
      }
      ++k;
    }
    for (const auto& [role, target] : output_roles)
      if (role != "user_output") {
        ++mutations_[role];
      }
    for (const auto& [role, count] : mutations_)
      g.attributes.push_back({"outputs." + role, std::to_string(count)});
    mutations_.clear();
    return Status::Ok();
  }

  std::map<std::string, int64_t> mutations_;

  void module_call_graph(JsonRef mcg, Graph& g) {
    if (!mcg.is_array()) return;
    std::string fqns;
    for (JsonRef e : mcg) {
      const std::string fqn = e["fqn"].string_or("");
      if (!fqn.empty()) fqns += (fqns.empty() ? "" : ", ") + fqn;
    }
    g.attributes.push_back(
        {"module_call_graph", std::to_string(mcg.size()) + " entries" +
                                  (fqns.empty() ? "" : ": " + fqns.substr(0, 2048))});
  }
};

}  // namespace

Result<int32_t> read_exported_program(std::string_view json, Document& doc,
                                      const ExportedProgramOptions& options) {
  auto tree = JsonTree::parse(json);  // the run's budget (core/budget.h)
  if (!tree) return tree.error().within(options.graph_name);
  ProgramBuilder builder(doc, options);
  auto r = builder.build(tree->root());
  if (!r) return r.error().within(options.graph_name);
  return r;
}

}  // namespace etviz::torch_export
