// Core ML payloads (CoreMLBackend): a flattened directory ("inmemoryfs") whose JSON index is
// stored character-reversed at the very end. Inside: metadata.json, a model.mlpackage (or
// compiled .mlmodelc) and debug_info.json. The ML Program in model.mlmodel (protobuf) is
// walked with a wire-format reader: every MIL operation becomes a node (const ops become
// constant tensors), function inputs and block outputs the graph's inputs and outputs.
// See docs/delegates.md.
#include <fmt/format.h>

#include <cstring>
#include <map>
#include <nlohmann/json.hpp>
#include <unordered_map>

#include "core/bytes.h"
#include "formats/delegates/delegate_decoders.h"
#include "formats/delegates/proto_reader.h"
#include "formats/delegates/subgraph_builder.h"

namespace etviz::delegates {
namespace {

constexpr size_t kMaxIndexChars = 16u << 20;
constexpr int kMaxBlockDepth = 16;

struct FsFile {
  std::string path;
  uint64_t offset = 0, size = 0;
};

// Reads the reversed JSON index at the end of the payload and lists the files.
Result<std::vector<FsFile>> read_index(std::span<const uint8_t> p) {
  std::string json;
  int depth = 0;
  bool in_string = false;
  size_t i = p.size();
  while (i > 0 && json.size() < kMaxIndexChars) {
    const char c = static_cast<char>(p[--i]);
    json += c;
    // Reading backwards the text is forward JSON, so quotes and braces keep their meaning
    // (escaped quotes are rare in file names; the parser below rejects a wrong cut).
    if (c == '"' && !(json.size() >= 2 && json[json.size() - 2] == '\\')) in_string = !in_string;
    if (in_string) continue;
    if (c == '{') ++depth;
    if (c == '}') --depth;
    if (depth == 0 && c == '}') break;
    if (json.size() == 1 && c != '{') return Error("payload does not end with an inmemoryfs index");
  }
  auto index = nlohmann::json::parse(json, nullptr, false);
  if (index.is_discarded() || !index.is_object() || !index.contains("nodes") ||
      !index["nodes"].is_array())
    return Error("the reversed JSON index at the end of the payload is not an inmemoryfs index");
  const uint64_t data_size = p.size() - json.size();
  const auto& nodes = index["nodes"];
  std::vector<int> parent(nodes.size(), -1);
  for (size_t n = 0; n < nodes.size(); ++n) {
    const auto& children = nodes[n].value("children", nlohmann::json::object());
    if (!children.is_object()) continue;
    for (const auto& [name, child] : children.items())
      if (child.is_number_unsigned() && child.get<size_t>() < nodes.size() &&
          child.get<size_t>() != n)
        parent[child.get<size_t>()] = static_cast<int>(n);
  }
  std::vector<FsFile> files;
  for (size_t n = 0; n < nodes.size(); ++n) {
    if (!nodes[n].is_object() || nodes[n].value("kind", -1) != 0) continue;
    std::string path = nodes[n].value("name", "");
    int up = parent[n];
    for (int guard = 0; up >= 0 && guard < 64; ++guard, up = parent[static_cast<size_t>(up)])
      path = nodes[static_cast<size_t>(up)].value("name", "") + "/" + path;
    const auto& region = nodes[n].value("dataRegion", nlohmann::json::object());
    FsFile f{path, region.value("offset", uint64_t{0}), region.value("size", uint64_t{0})};
    if (f.offset > data_size || f.size > data_size - f.offset)
      return Error(fmt::format("file '{}' [{}, +{}) lies outside the {}-byte data area", path,
                               f.offset, f.size, data_size));
    files.push_back(std::move(f));
  }
  return files;
}

const FsFile* find_file(const std::vector<FsFile>& files, std::string_view suffix) {
  for (const FsFile& f : files)
    if (f.path.size() >= suffix.size() &&
        f.path.compare(f.path.size() - suffix.size(), suffix.size(), suffix) == 0)
      return &f;
  return nullptr;
}

std::string mil_dtype(uint64_t t) {
  switch (t) {
    case 1:
      return "bool";
    case 2:
      return "string";
    case 10:
      return "float16";
    case 11:
      return "float32";
    case 12:
      return "float64";
    case 13:
      return "bfloat16";
    case 21:
      return "int8";
    case 22:
      return "int16";
    case 23:
      return "int32";
    case 24:
      return "int64";
    case 25:
      return "int4";
    case 31:
      return "uint8";
    case 32:
      return "uint16";
    case 33:
      return "uint32";
    case 34:
      return "uint64";
  }
  return fmt::format("mil_type({})", t);
}

// ValueType -> TensorInfo (tensor types only; lists and tuples keep an empty shape).
TensorInfo value_type(std::span<const uint8_t> b) {
  TensorInfo t;
  ProtoReader r(b);
  while (r.next()) {
    if (r.field() != 1 || r.wire_type() != ProtoReader::kBytes) {
      if (r.field() == 2) t.dtype = "list";
      if (r.field() == 3) t.dtype = "tuple";
      continue;
    }
    ProtoReader tensor(r.bytes());
    while (tensor.next()) {
      if (tensor.field() == 1 && tensor.wire_type() == ProtoReader::kVarint)
        t.dtype = mil_dtype(tensor.value());
      if (tensor.field() == 3 && tensor.wire_type() == ProtoReader::kBytes) {
        Dim d;
        d.symbol = "?";
        ProtoReader dim(tensor.bytes());
        while (dim.next())
          if (dim.field() == 1 && dim.wire_type() == ProtoReader::kBytes) {
            ProtoReader c(dim.bytes());
            d.symbol.clear();
            d.size = 0;
            while (c.next())
              if (c.field() == 1) d.size = static_cast<int64_t>(c.value());
          }
        t.shape.push_back(d);
      }
    }
  }
  if (auto size = t.byte_size()) t.nbytes = *size;
  return t;
}

struct Named {
  std::string name;
  TensorInfo type;
};
Named named_value_type(std::span<const uint8_t> b) {
  Named n;
  ProtoReader r(b);
  while (r.next()) {
    if (r.field() == 1 && r.wire_type() == ProtoReader::kBytes) n.name = std::string(r.text());
    if (r.field() == 2 && r.wire_type() == ProtoReader::kBytes) n.type = value_type(r.bytes());
  }
  return n;
}

// A compile-time Value as short text: immediate scalars/short lists, or the blob reference.
std::string render_value(std::span<const uint8_t> b, std::string* blob_file = nullptr,
                         uint64_t* blob_offset = nullptr) {
  ProtoReader r(b);
  while (r.next()) {
    if (r.field() == 5 && r.wire_type() == ProtoReader::kBytes) {  // BlobFileValue
      std::string file;
      uint64_t offset = 0;
      ProtoReader f(r.bytes());
      while (f.next()) {
        if (f.field() == 1 && f.wire_type() == ProtoReader::kBytes) file = std::string(f.text());
        if (f.field() == 2) offset = f.value();
      }
      if (blob_file) *blob_file = file;
      if (blob_offset) *blob_offset = offset;
      return fmt::format("blob {}@{}", file, offset);
    }
    if (r.field() == 3 && r.wire_type() == ProtoReader::kBytes) {  // ImmediateValue
      ProtoReader imm(r.bytes());
      while (imm.next()) {
        if (imm.field() != 1 || imm.wire_type() != ProtoReader::kBytes) return "<immediate>";
        ProtoReader tv(imm.bytes());  // TensorValue: oneof repeated floats/ints/bools/strings...
        while (tv.next()) {
          const uint32_t kind = tv.field();
          ProtoReader rep(tv.bytes());
          std::vector<std::string> items;
          size_t total = 0;
          while (rep.next()) {
            if (rep.field() != 1) continue;
            auto add = [&](std::string s) {
              if (items.size() < 8) items.push_back(std::move(s));
              ++total;
            };
            if (rep.wire_type() == ProtoReader::kBytes && kind == 4) {
              add('"' + std::string(rep.text()) + '"');
            } else if (rep.wire_type() == ProtoReader::kBytes) {
              // Packed values.
              auto p = rep.bytes();
              if (kind == 1) {
                for (size_t k = 0; k + 4 <= p.size(); k += 4)
                  add(fmt::format("{:g}", load_le<float>(p.data() + k)));
              } else if (kind == 6) {
                for (size_t k = 0; k + 8 <= p.size(); k += 8)
                  add(fmt::format("{:g}", load_le<double>(p.data() + k)));
              } else if (kind == 7) {
                add(fmt::format("<{} bytes>", p.size()));
              } else {
                ProtoReader packed(p);
                uint64_t v = 0;
                // Packed varints: reuse the walker on a synthetic key-less stream.
                size_t k = 0;
                while (k < p.size()) {
                  v = 0;
                  int shift = 0;
                  while (k < p.size() && shift < 64) {
                    const uint8_t byte = p[k++];
                    v |= uint64_t{byte & 0x7Fu} << shift;
                    shift += 7;
                    if (!(byte & 0x80)) break;
                  }
                  add(kind == 3 ? (v ? "true" : "false") : std::to_string(static_cast<int64_t>(v)));
                }
                (void)packed;
              }
            } else if (rep.wire_type() == ProtoReader::kFixed32) {
              float f;
              const uint32_t bits = static_cast<uint32_t>(rep.value());
              std::memcpy(&f, &bits, sizeof f);
              add(fmt::format("{:g}", f));
            } else {
              add(std::to_string(static_cast<int64_t>(rep.value())));
            }
          }
          std::string s;
          for (size_t k = 0; k < items.size(); ++k) s += (k ? ", " : "") + items[k];
          if (total > items.size()) s += fmt::format(", ... ({} values)", total);
          return total == 1 ? s : "[" + s + "]";
        }
      }
    }
  }
  return "<value>";
}

class MilReader {
 public:
  MilReader(SubgraphBuilder& b, std::span<const uint8_t> weights,
            const std::unordered_map<std::string, std::vector<int64_t>>& handles)
      : b_(b), weights_(weights), handles_(handles) {}

  int64_t operations = 0;
  int64_t consts = 0;
  std::map<std::string, int64_t> histogram;
  std::string error;

  ValueId define(const Named& n) {
    const ValueId v = b_.add_tensor(n.name, n.type);
    values_[n.name] = v;
    return v;
  }
  ValueId lookup(const std::string& name) const {
    auto it = values_.find(name);
    return it == values_.end() ? kNoId : it->second;
  }

  void block(std::span<const uint8_t> bytes, int depth, const std::string& parent) {
    if (depth > kMaxBlockDepth) {
      error = "blocks nested more than 16 deep";
      return;
    }
    ProtoReader r(bytes);
    while (r.next()) {
      if (r.wire_type() != ProtoReader::kBytes) continue;
      if (r.field() == 1) define(named_value_type(r.bytes()));  // block-local inputs
      if (r.field() == 3) operation(r.bytes(), depth, parent);
    }
    if (!r.error().empty()) error = r.error();
  }

 private:
  void operation(std::span<const uint8_t> bytes, int depth, const std::string& parent) {
    Node n;
    n.kind = NodeKind::kKernel;
    std::vector<Named> outputs;
    std::vector<std::span<const uint8_t>> blocks;
    std::string const_blob;
    uint64_t const_offset = 0;
    std::string const_value;
    ProtoReader r(bytes);
    while (r.next()) {
      if (r.wire_type() != ProtoReader::kBytes) continue;
      switch (r.field()) {
        case 1:
          n.op = std::string(r.text());
          break;
        case 2: {  // map<string, Argument> entry
          std::string param;
          std::span<const uint8_t> argument;
          ProtoReader e(r.bytes());
          while (e.next()) {
            if (e.field() == 1 && e.wire_type() == ProtoReader::kBytes)
              param = std::string(e.text());
            if (e.field() == 2 && e.wire_type() == ProtoReader::kBytes) argument = e.bytes();
          }
          ProtoReader a(argument);
          while (a.next()) {
            if (a.field() != 1 || a.wire_type() != ProtoReader::kBytes) continue;
            ProtoReader binding(a.bytes());
            while (binding.next()) {
              if (binding.field() == 1 && binding.wire_type() == ProtoReader::kBytes) {
                const std::string name(binding.text());
                const ValueId v = lookup(name);
                if (v != kNoId)
                  n.inputs.push_back({param, v});
                else
                  n.attributes.push_back({param, name});
              } else if (binding.field() == 2 && binding.wire_type() == ProtoReader::kBytes) {
                n.attributes.push_back({param, render_value(binding.bytes())});
              }
            }
          }
          break;
        }
        case 3:
          outputs.push_back(named_value_type(r.bytes()));
          break;
        case 4:
          blocks.push_back(r.bytes());
          break;
        case 5: {  // attributes: const ops keep their value under "val"
          std::string key;
          std::span<const uint8_t> value;
          ProtoReader e(r.bytes());
          while (e.next()) {
            if (e.field() == 1 && e.wire_type() == ProtoReader::kBytes) key = std::string(e.text());
            if (e.field() == 2 && e.wire_type() == ProtoReader::kBytes) value = e.bytes();
          }
          if (key == "val")
            const_value = render_value(value, &const_blob, &const_offset);
          else if (key != "name")
            n.attributes.push_back({key, render_value(value)});
          break;
        }
        default:
          break;
      }
    }
    if (!r.error().empty()) {
      error = r.error();
      return;
    }
    ++operations;
    if (n.op == "const") {
      ++consts;
      for (Named& o : outputs) {
        o.type.data_location = DataLocation::kInline;
        if (!const_blob.empty()) {
          o.type.data_key = fmt::format("{}@{}", const_blob, const_offset);
          // MILBlob v2: 64-byte metadata {u32 sentinel 0xDEADBEEF, u32 dtype, u64 size, ...}.
          if (const_offset <= weights_.size() && weights_.size() - const_offset >= 16 &&
              load_le<uint32_t>(weights_.data() + const_offset) == 0xDEADBEEFu)
            o.type.nbytes =
                static_cast<int64_t>(load_le<uint64_t>(weights_.data() + const_offset + 8));
        }
        define(o);
      }
      return;
    }
    ++histogram[n.op];
    for (const Named& o : outputs) n.outputs.push_back({"", define(o)});
    n.name = outputs.empty() ? fmt::format("{}_{}", n.op, operations) : outputs.front().name;
    if (!parent.empty()) n.attributes.push_back({"in_block_of", parent});
    // debug_info.json keys are "<first output>:<op type>".
    if (auto it = handles_.find(n.name + ":" + n.op); it != handles_.end())
      n.provenance.debug_handles = it->second;
    const std::string name = n.name;
    b_.add_op(std::move(n));
    for (auto blk : blocks) block(blk, depth + 1, name);
  }

  SubgraphBuilder& b_;
  std::span<const uint8_t> weights_;
  const std::unordered_map<std::string, std::vector<int64_t>>& handles_;
  std::unordered_map<std::string, ValueId> values_;
};

}  // namespace

Result<Graph> decode_coreml(const DecodeInput& in) {
  auto files = read_index(in.payload);
  if (!files) return files.error();
  const auto file_bytes = [&](const FsFile* f) {
    return f ? in.payload.subspan(f->offset, f->size) : std::span<const uint8_t>{};
  };
  SubgraphBuilder b(in.graph_name, in.delegate.backend_id);
  Graph& g = b.graph();
  g.attributes.push_back({"format", "Core ML inmemoryfs"});
  for (const FsFile& f : *files) g.attributes.push_back({"file:" + f.path, std::to_string(f.size)});
  for (const CompileSpec& s : in.delegate.compile_specs)
    g.attributes.push_back({"compile_spec." + s.key, s.display()});
  if (const FsFile* meta = find_file(*files, "metadata.json")) {
    const auto bytes = file_bytes(meta);
    auto j = nlohmann::json::parse(bytes.begin(), bytes.end(), nullptr, false);
    if (j.is_object()) {
      if (j.contains("identifier"))
        g.attributes.push_back({"identifier", j.value("identifier", "")});
      for (const char* key : {"inputNames", "outputNames"})
        if (j.contains(key))
          g.attributes.push_back(
              {key, j[key].dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)});
    }
  }
  const FsFile* model = find_file(*files, ".mlpackage/Data/com.apple.CoreML/model.mlmodel");
  if (!model) {
    auto facts = basic_payload_facts(in);
    facts.push_back({"note", find_file(*files, "coremldata.bin")
                                 ? "compiled .mlmodelc package: its op graph is not readable"
                                 : "no model.mlmodel in the package"});
    Graph opaque = make_opaque_graph(in, "Core ML model", std::move(facts));
    opaque.attributes.insert(opaque.attributes.end(), g.attributes.begin(), g.attributes.end());
    return opaque;
  }
  // debug_info.json: MIL op output name -> ExecuTorch debug handles.
  std::unordered_map<std::string, std::vector<int64_t>> handles;
  if (const FsFile* dbg = find_file(*files, "debug_info.json")) {
    const auto bytes = file_bytes(dbg);
    auto j = nlohmann::json::parse(bytes.begin(), bytes.end(), nullptr, false);
    if (j.is_object() && j.contains("debugSymbolToHandles") &&
        j["debugSymbolToHandles"].is_object()) {
      for (const auto& [symbol, list] : j["debugSymbolToHandles"].items())
        if (list.is_array())
          for (const auto& h : list)
            if (h.is_number_integer()) handles[symbol].push_back(h.get<int64_t>());
      g.attributes.push_back({"debug_symbols", std::to_string(handles.size())});
    }
  }
  const FsFile* weights = find_file(*files, "weights/weight.bin");
  const auto spec = file_bytes(model);
  ProtoReader top(spec);
  std::span<const uint8_t> program;
  while (top.next()) {
    if (top.field() == 1 && top.wire_type() == ProtoReader::kVarint)
      g.attributes.push_back({"specification_version", std::to_string(top.value())});
    if (top.field() == 502 && top.wire_type() == ProtoReader::kBytes) program = top.bytes();
    if (top.field() == 500) g.attributes.push_back({"model_type", "neuralNetwork"});
  }
  if (!top.error().empty()) return Error("model.mlmodel: " + top.error());
  if (program.empty())
    return Error("model.mlmodel holds no ML Program (only mlProgram models are decoded)");
  g.attributes.push_back({"model_type", "mlProgram"});
  MilReader mil(b, file_bytes(weights), handles);
  ProtoReader prog(program);
  bool found = false;
  while (prog.next()) {
    if (prog.field() != 2 || prog.wire_type() != ProtoReader::kBytes || found) continue;
    std::string fname;
    std::span<const uint8_t> function;
    ProtoReader entry(prog.bytes());
    while (entry.next()) {
      if (entry.field() == 1 && entry.wire_type() == ProtoReader::kBytes)
        fname = std::string(entry.text());
      if (entry.field() == 2 && entry.wire_type() == ProtoReader::kBytes) function = entry.bytes();
    }
    found = true;
    g.attributes.push_back({"function", fname});
    std::string opset;
    std::map<std::string, std::span<const uint8_t>> blocks;
    ProtoReader f(function);
    while (f.next()) {
      if (f.wire_type() != ProtoReader::kBytes) continue;
      if (f.field() == 1) b.add_input(mil.define(named_value_type(f.bytes())));
      if (f.field() == 2) opset = std::string(f.text());
      if (f.field() == 3) {
        std::string key;
        std::span<const uint8_t> blk;
        ProtoReader e(f.bytes());
        while (e.next()) {
          if (e.field() == 1 && e.wire_type() == ProtoReader::kBytes) key = std::string(e.text());
          if (e.field() == 2 && e.wire_type() == ProtoReader::kBytes) blk = e.bytes();
        }
        blocks[key] = blk;
      }
    }
    g.attributes.push_back({"opset", opset});
    auto it = blocks.find(opset);
    if (it == blocks.end())
      return Error(fmt::format("function '{}' has no block for opset '{}'", fname, opset));
    mil.block(it->second, 0, "");
    if (!mil.error.empty()) return Error("model.mlmodel: " + mil.error);
    ProtoReader blk(it->second);
    while (blk.next())
      if (blk.field() == 2 && blk.wire_type() == ProtoReader::kBytes) {
        const ValueId v = mil.lookup(std::string(blk.text()));
        if (v == kNoId) return Error(fmt::format("block output '{}' is never defined", blk.text()));
        b.add_output(v);
      }
  }
  if (!prog.error().empty()) return Error("model.mlmodel: " + prog.error());
  if (!found) return Error("the ML Program has no function");
  g.attributes.push_back({"operations", fmt::format("{} ({} const)", mil.operations, mil.consts)});
  return b.finish();
}

}  // namespace etviz::delegates
