#include "export_writer.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>
#include <zip.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <memory>

#include "formats/json/json_string.h"

namespace etviz::gen {
namespace {

// The generator's inputs keep whatever bytes a test gives them (JsonStringStyle::kAsIs).
void quote(std::string& out, std::string_view s) {
  append_json_string(out, s, JsonStringStyle::kAsIs);
}

std::string quoted(std::string_view s) {
  std::string out;
  quote(out, s);
  return out;
}

// Python's json.dumps spelling of floats, including its non-standard NaN/Infinity.
std::string py_float(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "Infinity" : "-Infinity";
  std::string s = fmt::format("{}", v);
  if (s.find_first_of(".e") == std::string::npos) s += ".0";
  return s;
}

class JsonWriter {
 public:
  explicit JsonWriter(bool schema1) : schema1_(schema1) {}
  std::string out;

  // A union: schema 1 writes a null member before the set one, as its all-members form did.
  void union_open(std::string_view member) {
    out += '{';
    if (schema1_ && member != "as_none") out += "\"as_none\": null, ";
    quote(out, member);
    out += ": ";
  }
  void union_close() { out += '}'; }

  void sym_int(const ExportDim& d) {
    if (d.symbol.empty()) {
      union_open("as_int");
      out += std::to_string(d.size);
    } else {
      union_open("as_expr");
      out += "{\"expr_str\": " + quoted(d.symbol) +
             ", \"hint\": {\"as_int\": " + std::to_string(d.size) + "}}";
    }
    union_close();
  }

  void tensor_meta(const ExportTensor& t) {
    if (schema1_) out += "{\"meta\": ";
    out += "{\"dtype\": " + std::to_string(t.dtype) + ", \"sizes\": [";
    for (size_t i = 0; i < t.sizes.size(); ++i) {
      if (i) out += ", ";
      sym_int(t.sizes[i]);
    }
    out += "], \"requires_grad\": ";
    out += t.requires_grad ? "true" : "false";
    out += ", \"device\": {\"type\": \"cpu\", \"index\": null}, \"strides\": [";
    // Contiguous strides; symbolic dims make the stride symbolic too, which readers ignore.
    int64_t stride = 1;
    std::vector<std::string> strides(t.sizes.size());
    for (size_t i = t.sizes.size(); i-- > 0;) {
      strides[i] = schema1_ ? "{\"as_int\": " + std::to_string(stride) + "}"
                            : "{\"as_int\": " + std::to_string(stride) + "}";
      stride *= t.sizes[i].symbol.empty() ? t.sizes[i].size : 1;
    }
    for (size_t i = 0; i < strides.size(); ++i) out += (i ? ", " : "") + strides[i];
    out += schema1_ ? "], \"storage_offset\": 0" : "], \"storage_offset\": {\"as_int\": 0}";
    out += ", \"layout\": 7}";
    if (schema1_) out += '}';
  }

  void argument(const ExportArg& a) {
    using K = ExportArg::Kind;
    switch (a.kind) {
      case K::kNone:
        union_open("as_none");
        out += "true";
        break;
      case K::kTensor:
        union_open("as_tensor");
        out += "{\"name\": " + quoted(a.name) + "}";
        break;
      case K::kTensors:
        union_open("as_tensors");
        out += '[';
        for (size_t i = 0; i < a.names.size(); ++i)
          out += (i ? ", " : "") + std::string("{\"name\": ") + quoted(a.names[i]) + "}";
        out += ']';
        break;
      case K::kInt:
        union_open("as_int");
        out += std::to_string(a.i);
        break;
      case K::kInts:
        union_open("as_ints");
        out += '[';
        for (size_t i = 0; i < a.ints.size(); ++i)
          out += (i ? ", " : "") + std::to_string(a.ints[i]);
        out += ']';
        break;
      case K::kFloat:
        union_open("as_float");
        out += py_float(a.f);
        break;
      case K::kBool:
        union_open("as_bool");
        out += a.b ? "true" : "false";
        break;
      case K::kString:
        union_open("as_string");
        quote(out, a.s);
        break;
      case K::kSymInt:
        union_open("as_sym_int");
        out += "{\"as_name\": " + quoted(a.name) + "}";
        break;
      case K::kGraph:
        union_open("as_graph");
        out += "{\"name\": " + quoted(a.name) + ", \"graph\": ";
        graph(*a.graph);
        out += '}';
        break;
      case K::kRaw:
        union_open(a.raw_kind);
        out += a.raw_json;
        break;
    }
    union_close();
  }

  void node(const ExportNode& n) {
    out += "{\"target\": " + quoted(n.target) + ", \"inputs\": [";
    for (size_t i = 0; i < n.inputs.size(); ++i) {
      if (i) out += ", ";
      out += "{\"name\": " + quoted(n.inputs[i].first) + ", \"arg\": ";
      argument(n.inputs[i].second);
      if (!schema1_) out += ", \"kind\": 1";
      out += '}';
    }
    out += "], \"outputs\": [";
    for (size_t i = 0; i < n.outputs.size(); ++i) {
      if (i) out += ", ";
      argument(n.outputs[i]);
    }
    out += "], \"metadata\": {";
    bool first = true;
    auto meta = [&](std::string_view key, const std::string& value) {
      if (!first) out += ", ";
      first = false;
      quote(out, key);
      out += ": ";
      quote(out, value);
    };
    if (!n.stack.empty()) {
      std::string trace;
      for (const auto& f : n.stack)
        trace += fmt::format("  File \"{}\", line {}, in {}\n    {}\n", f.file, f.line, f.function,
                             f.code);
      meta("stack_trace", trace);
    }
    if (!n.module_stack.empty()) {
      std::string s;
      for (const auto& f : n.module_stack)
        s += (s.empty() ? "" : ";") + f.key + "," + f.path + "," + f.type;
      meta("nn_module_stack", s);
    }
    if (n.debug_handle) meta("debug_handle", std::to_string(*n.debug_handle));
    for (const auto& [k, v] : n.extra_metadata) meta(k, v);
    out += '}';
    if (!schema1_) out += ", \"is_hop_single_tensor_return\": null, \"name\": " + quoted(n.name);
    out += '}';
  }

  void graph(const ExportGraph& g) {
    out += "{\"inputs\": [";
    for (size_t i = 0; i < g.inputs.size(); ++i) {
      if (i) out += ", ";
      argument(g.inputs[i]);
    }
    out += "], \"outputs\": [";
    for (size_t i = 0; i < g.outputs.size(); ++i) {
      if (i) out += ", ";
      argument(g.outputs[i]);
    }
    out += "], \"nodes\": [";
    for (size_t i = 0; i < g.nodes.size(); ++i) {
      if (i) out += ",\n";
      node(g.nodes[i]);
    }
    out += "], \"tensor_values\": {";
    for (size_t i = 0; i < g.tensors.size(); ++i) {
      if (i) out += ",\n";
      quote(out, g.tensors[i].name);
      out += ": ";
      tensor_meta(g.tensors[i]);
    }
    out += "}, \"sym_int_values\": {";
    for (size_t i = 0; i < g.sym_ints.size(); ++i) {
      if (i) out += ", ";
      quote(out, g.sym_ints[i].first);
      out +=
          ": {\"as_expr\": {\"expr_str\": " + quoted(g.sym_ints[i].second) + ", \"hint\": null}}";
    }
    out += "}, \"sym_bool_values\": {}, \"is_single_tensor_return\": false";
    if (!schema1_)
      out += ", \"custom_obj_values\": {}, \"sym_float_values\": {}";
    else
      out += ", \"constants\": {}";
    out += '}';
  }

 private:
  bool schema1_;
};

}  // namespace

std::string write_exported_program_json(const ExportProgram& p) {
  JsonWriter w(p.schema1_style);
  std::string& out = w.out;
  out += "{\"graph_module\": {\"graph\": ";
  w.graph(p.graph);
  out += ", \"signature\": {\"input_specs\": [";
  for (size_t i = 0; i < p.inputs.size(); ++i) {
    const auto& s = p.inputs[i];
    if (i) out += ", ";
    out += "{" + quoted(s.kind) + ": ";
    if (s.kind == "user_input") {
      out += "{\"arg\": {\"as_tensor\": {\"name\": " + quoted(s.arg) + "}}}";
    } else {
      const char* field = s.kind == "parameter" ? "parameter_name"
                          : s.kind == "buffer"  ? "buffer_name"
                                                : "tensor_constant_name";
      out += "{\"arg\": {\"name\": " + quoted(s.arg) + "}, \"" + field + "\": " + quoted(s.target);
      if (s.kind == "buffer") out += ", \"persistent\": true";
      out += '}';
    }
    out += '}';
  }
  out += "], \"output_specs\": [";
  for (size_t i = 0; i < p.outputs.size(); ++i) {
    const auto& s = p.outputs[i];
    if (i) out += ", ";
    out += "{" + quoted(s.kind) + ": ";
    if (s.kind == "user_output") {
      out += "{\"arg\": {\"as_tensor\": {\"name\": " + quoted(s.arg) + "}}}";
    } else {
      const char* field = s.kind == "buffer_mutation"       ? "buffer_name"
                          : s.kind == "user_input_mutation" ? "user_input_name"
                                                            : "parameter_name";
      out += "{\"arg\": {\"name\": " + quoted(s.arg) + "}, \"" + field + "\": " + quoted(s.target) +
             "}";
    }
    out += '}';
  }
  out += "]}, \"module_call_graph\": [{\"fqn\": \"\", \"signature\": null}]";
  if (!p.schema1_style) out += ", \"metadata\": {}, \"treespec_namedtuple_fields\": {}";
  out += "}, \"opset_version\": {\"aten\": 10}, \"range_constraints\": {";
  bool first = true;
  for (const auto& [sym, r] : p.ranges) {
    if (!first) out += ", ";
    first = false;
    quote(out, sym);
    out += fmt::format(": {{\"min_val\": {}, \"max_val\": {}}}", r.first, r.second);
  }
  out += "}, ";
  if (p.schema1_style) {
    out += "\"equality_constraints\": [], \"schema_version\": 1}";
  } else {
    out += fmt::format(
        "\"schema_version\": {{\"major\": {}, \"minor\": {}}}, \"verifiers\": [\"TRAINING\"], "
        "\"torch_version\": \"2.9.0\"}}",
        p.schema_major, p.schema_minor);
  }
  return out;
}

namespace {

// Collects entries, then writes the archive in one go; libzip keeps only pointers until close.
// Members of zeros (add_zeros: padded weights) are written as holes by write_stored instead, so
// a multi-GB archive is sparse on disk and never in memory.
class ZipWriter {
 public:
  std::string add(std::string name, std::string data) {
    names_.push_back(std::move(name));
    data_.push_back(std::make_unique<std::string>(std::move(data)));
    zeros_.push_back(0);
    return {};
  }
  void add_zeros(std::string name, uint64_t size) {
    names_.push_back(std::move(name));
    data_.push_back(nullptr);
    zeros_.push_back(size);
  }
  std::string write(const std::string& path, bool compress) {
    if (std::find(data_.begin(), data_.end(), nullptr) != data_.end()) return write_stored(path);
    int err = 0;
    zip_t* z = zip_open(path.c_str(), ZIP_CREATE | ZIP_TRUNCATE, &err);
    if (!z) return fmt::format("cannot create {} (libzip error {})", path, err);
    for (size_t i = 0; i < names_.size(); ++i) {
      zip_source_t* src = zip_source_buffer(z, data_[i]->data(), data_[i]->size(), 0);
      const zip_int64_t idx = src ? zip_file_add(z, names_[i].c_str(), src, ZIP_FL_OVERWRITE) : -1;
      if (idx < 0) {
        if (src) zip_source_free(src);
        std::string msg = zip_strerror(z);
        zip_discard(z);
        return fmt::format("{}: cannot add {}: {}", path, names_[i], msg);
      }
      // Weights are stored (as torch does) so they can be mapped; JSON is deflated.
      zip_set_file_compression(
          z, static_cast<zip_uint64_t>(idx),
          compress && names_[i].ends_with(".json") ? ZIP_CM_DEFLATE : ZIP_CM_STORE, 0);
    }
    if (zip_close(z) != 0) {
      std::string msg = zip_strerror(z);
      zip_discard(z);
      return fmt::format("{}: {}", path, msg);
    }
    return {};
  }

 private:
  // Every member stored (as torch stores them), the zero members as holes. Plain zip records
  // (no zip64): the archive stays under 4 GiB.
  std::string write_stored(const std::string& path) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) return fmt::format("cannot create {}: {}", path, std::strerror(errno));
    std::string directory;
    uint64_t pos = 0;
    bool ok = true;
    auto put = [](std::string& out, uint64_t v, int bytes) {
      for (int i = 0; i < bytes; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
    };
    for (size_t i = 0; i < names_.size() && ok; ++i) {
      const uint64_t size = data_[i] ? data_[i]->size() : zeros_[i];
      if (pos + 30 + names_[i].size() + size > 0xffffffffu) {
        ::close(fd);
        return fmt::format("{}: archives of 4 GiB or more are not written", path);
      }
      const uint32_t crc =
          data_[i]
              ? static_cast<uint32_t>(::crc32(0, reinterpret_cast<const Bytef*>(data_[i]->data()),
                                              static_cast<uInt>(data_[i]->size())))
              : crc_of_zeros(size);
      // The fields the local and the central header share, from "version needed" on.
      std::string common;
      put(common, 20, 2);    // version needed
      put(common, 0, 2);     // flags
      put(common, 0, 2);     // stored
      put(common, 0, 2);     // time
      put(common, 33, 2);    // date: 1980-01-01
      put(common, crc, 4);   // crc-32
      put(common, size, 4);  // compressed
      put(common, size, 4);  // uncompressed
      put(common, names_[i].size(), 2);
      put(common, 0, 2);  // extra field
      std::string local;
      put(local, 0x04034b50, 4);
      local += common + names_[i];
      ok = ::pwrite(fd, local.data(), local.size(), static_cast<off_t>(pos)) ==
           static_cast<ssize_t>(local.size());
      if (data_[i])
        ok = ok && ::pwrite(fd, data_[i]->data(), size, static_cast<off_t>(pos + local.size())) ==
                       static_cast<ssize_t>(size);
      put(directory, 0x02014b50, 4);
      put(directory, 20, 2);  // version made by
      directory += common;
      put(directory, 0, 2);  // comment
      put(directory, 0, 2);  // disk
      put(directory, 0, 2);  // internal attributes
      put(directory, 0, 4);  // external attributes
      put(directory, pos, 4);
      directory += names_[i];
      pos += local.size() + size;
    }
    std::string end;
    put(end, 0x06054b50, 4);
    put(end, 0, 4);  // disks
    put(end, names_.size(), 2);
    put(end, names_.size(), 2);
    put(end, directory.size(), 4);
    put(end, pos, 4);
    put(end, 0, 2);  // comment
    directory += end;
    ok = ok && ::pwrite(fd, directory.data(), directory.size(), static_cast<off_t>(pos)) ==
                   static_cast<ssize_t>(directory.size());
    ok = (::close(fd) == 0) && ok;
    return ok ? std::string() : fmt::format("{}: write failed: {}", path, std::strerror(errno));
  }

  // CRC-32 of `size` zero bytes, from the CRC of one block of zeros combined.
  static uint32_t crc_of_zeros(uint64_t size) {
    static const std::vector<Bytef> zeros(1 << 20, 0);
    const uLong block = ::crc32(0, zeros.data(), static_cast<uInt>(zeros.size()));
    uLong crc = 0;
    for (; size >= zeros.size(); size -= zeros.size())
      crc = ::crc32_combine(crc, block, static_cast<z_off_t>(zeros.size()));
    return static_cast<uint32_t>(::crc32(crc, zeros.data(), static_cast<uInt>(size)));
  }

  std::vector<std::string> names_;
  std::vector<std::unique_ptr<std::string>> data_;  // null: `zeros_` zero bytes
  std::vector<uint64_t> zeros_;
};

int64_t dtype_bytes(int dtype) {
  switch (dtype) {
    case 1:
    case 2:
    case 12:
      return 1;
    case 3:
    case 6:
    case 13:
    case 28:
      return 2;
    case 4:
    case 7:
      return 4;
    default:
      return 8;
  }
}

std::string weights_config(const ExportProgram& p, ZipWriter& zip, const std::string& dir) {
  std::string cfg = "{\"config\": {";
  int n = 0;
  for (const auto& spec : p.inputs) {
    if (spec.kind != "parameter" && spec.kind != "buffer") continue;
    const ExportTensor* t = nullptr;
    for (const auto& x : p.graph.tensors)
      if (x.name == spec.arg) t = &x;
    if (!t) continue;
    int64_t bytes = dtype_bytes(t->dtype);
    for (const auto& d : t->sizes) bytes *= d.symbol.empty() ? d.size : 1;
    const std::string file = fmt::format("weight_{}", n);
    zip.add(dir + file, std::string(static_cast<size_t>(bytes), '\0'));
    JsonWriter w(false);
    w.tensor_meta(*t);
    cfg += fmt::format(
        "{}{}: {{\"path_name\": {}, \"is_param\": {}, \"use_pickle\": false, \"tensor_meta\": {}}}",
        n ? ", " : "", quoted(spec.target), quoted(file),
        spec.kind == "parameter" ? "true" : "false", w.out);
    ++n;
  }
  return cfg + "}}";
}

}  // namespace

std::string write_pt2(const std::string& path,
                      const std::vector<std::pair<std::string, ExportProgram>>& models,
                      bool new_layout, const std::string& top, uint64_t pad_weights) {
  ZipWriter zip;
  const std::string root = top.empty() ? "" : top + "/";
  if (models.empty()) return "no models";
  if (new_layout) {
    zip.add(root + "archive_format", "pt2");
    zip.add(root + "archive_version", "0");
    zip.add(root + "byteorder", "little");
    zip.add(root + ".data/version", "6\n");
    for (const auto& [name, program] : models) {
      zip.add(root + "models/" + name + ".json", write_exported_program_json(program));
      std::string cfg = weights_config(program, zip, root + "data/weights/");
      if (pad_weights > 0 && name == models.front().first) {
        // One more weight, a uint8 vector of the padding's size, stored as a hole.
        zip.add_zeros(root + "data/weights/padding", pad_weights);
        cfg.resize(cfg.size() - 2);
        cfg += fmt::format(
            "{}\"padding\": {{\"path_name\": \"padding\", \"is_param\": false, \"use_pickle\": "
            "false, \"tensor_meta\": {{\"dtype\": 1, \"sizes\": [{{\"as_int\": {}}}], "
            "\"requires_grad\": false}}}}}}}}",
            cfg.ends_with("{") ? "" : ", ", pad_weights);
      }
      zip.add(root + "data/weights/" + name + "_weights_config.json", cfg);
      zip.add(root + "data/constants/" + name + "_constants_config.json", "{\"config\": {}}");
    }
  } else {
    zip.add(root + "serialized_exported_program.json",
            write_exported_program_json(models.front().second));
    if (pad_weights > 0)
      zip.add_zeros(root + "serialized_state_dict.json", pad_weights);
    else
      zip.add(root + "serialized_state_dict.json", std::string(64, '\0'));
    zip.add(root + "serialized_constants.json", std::string(16, '\0'));
    zip.add(root + "version", "1");
  }
  return zip.write(path, true);
}

std::string write_etrecord(const std::string& path, const ExportETRecord& record) {
  ZipWriter zip;
  zip.add("ETRECORD_V0", "");
  for (const auto& [name, program] : record.programs) {
    zip.add(name, write_exported_program_json(program));
    if (record.pad_weights > 0 && name == record.programs.front().first)
      zip.add_zeros(name + "_state_dict", record.pad_weights);
    else
      zip.add(name + "_state_dict", std::string(32, '\x80'));
  }
  zip.add("debug_handle_map", record.debug_handle_map_json);
  zip.add("delegate_map", record.delegate_map_json);
  if (!record.num_outs_map_json.empty())
    zip.add("instruction_id_to_num_outs_map", record.num_outs_map_json);
  if (record.representative_inputs) zip.add("representative_inputs", std::string(8, '\x80'));
  return zip.write(path, false);
}

}  // namespace etviz::gen
