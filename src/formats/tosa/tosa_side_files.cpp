#include "formats/tosa/tosa_side_files.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <optional>

#include "core/bytes.h"
#include "core/mapped_file.h"
#include "formats/delegates/delegate_decoder.h"
#include "formats/tosa/tosa_reader.h"

namespace etviz::tosa {
namespace {

std::string base_name(const std::string& path) {
  return std::filesystem::path(path).filename().string();
}

// Backends whose delegates a TOSA graph describes: Arm's, which all compile from TOSA.
bool is_arm_backend(const std::string& id) {
  return id == "EthosUBackend" || id == "ArmBackend" || id == "VgfBackend" || id == "TOSABackend";
}

const Graph* graph_at(const Document& doc, int32_t g) {
  return g >= 0 && static_cast<size_t>(g) < doc.graphs.size() ? &doc.graphs[static_cast<size_t>(g)]
                                                              : nullptr;
}

IoTensor io_of(const Value& v) {
  IoTensor t;
  t.dtype = v.tensor.dtype.str();
  for (const Dim& d : v.tensor.shape) t.shape.push_back(d.is_symbolic() ? -1 : d.size);
  return t;
}

std::string describe_list(const std::vector<IoTensor>& list) {
  if (list.empty()) return "nothing";
  std::string s;
  for (const IoTensor& t : list) s += (s.empty() ? "" : ", ") + describe(t);
  return s;
}

std::string signature(const std::vector<IoTensor>& in, const std::vector<IoTensor>& out) {
  return fmt::format("takes {}, returns {}", describe_list(in), describe_list(out));
}

// Same count, then per position the same dtype and shape; a negative (unknown) dimension on
// either side matches any.
bool same_io(const std::vector<IoTensor>& a, const std::vector<IoTensor>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].dtype != b[i].dtype || a[i].shape.size() != b[i].shape.size()) return false;
    for (size_t k = 0; k < a[i].shape.size(); ++k)
      if (a[i].shape[k] >= 0 && b[i].shape[k] >= 0 && a[i].shape[k] != b[i].shape[k]) return false;
  }
  return true;
}

struct DelegateIo {
  size_t delegate = 0;
  std::string label;
  std::vector<IoTensor> inputs, outputs;
  bool eligible = false;
  std::string why_not;  // for an ineligible Arm delegate
};

// A delegate's inputs and outputs as the program states them: the tensors its call passes,
// split where its decoded payload says (Vela's I/O blocks give the counts); without a call,
// the decoded graph's own.
std::optional<DelegateIo> delegate_io(const Document& doc, size_t d) {
  const Delegate& del = doc.delegates[d];
  DelegateIo io;
  io.delegate = d;
  io.label = delegates::delegate_label(del);
  const Graph* sub = graph_at(doc, del.subgraph);
  const Node* call = nullptr;
  const Graph* method = nullptr;
  for (const Graph& g : doc.graphs) {
    if (g.kind == GraphKind::kDelegate) continue;
    for (const Node& n : g.nodes)
      if (n.kind == NodeKind::kDelegate && n.delegate == static_cast<int32_t>(d)) {
        call = &n;
        method = &g;
        break;
      }
    if (call) break;
  }
  if (call) {
    std::vector<Argument> args = call->inputs;
    args.insert(args.end(), call->outputs.begin(), call->outputs.end());
    size_t n_in = call->inputs.size();
    if (sub && sub->inputs.size() + sub->outputs.size() == args.size()) n_in = sub->inputs.size();
    for (size_t k = 0; k < args.size(); ++k) {
      const ValueId v = args[k].value;
      if (v < 0 || static_cast<size_t>(v) >= method->values.size()) return std::nullopt;
      (k < n_in ? io.inputs : io.outputs).push_back(io_of(method->values[static_cast<size_t>(v)]));
    }
  } else if (sub) {
    for (ValueId v : sub->inputs) io.inputs.push_back(io_of(sub->values[static_cast<size_t>(v)]));
    for (ValueId v : sub->outputs) io.outputs.push_back(io_of(sub->values[static_cast<size_t>(v)]));
  } else {
    return std::nullopt;
  }
  io.eligible = !sub || sub->opaque;
  if (!io.eligible)
    io.why_not = fmt::format("{}, whose payload is already decoded ({} shows its own operators)",
                             io.label, del.backend_id);
  return io;
}

struct Candidate {
  std::string path;
  std::optional<TosaGraphs> graphs;
  std::shared_ptr<const MappedFile> file;
  std::string reason;           // why it cannot attach (set when graphs is empty)
  std::vector<size_t> matches;  // indices into the eligible DelegateIo list, in order
  int64_t chosen = -1;          // index into that list
  bool ambiguous = false;
};

// Puts the file's graphs into the program as delegate `d`'s view, the command-stream summary
// kept beside the TOSA operators.
void install(Document& doc, size_t d, Candidate& c, int32_t source) {
  std::vector<Graph> graphs = std::move(c.graphs->graphs);
  const std::string label = delegates::delegate_label(doc.delegates[d]);
  for (Graph& g : graphs) {
    g.name = label + g.name;  // read with an empty name: "" and "/<region>"
    for (ConstantData& cd : g.constant_data) cd.blob.source = source;
    for (Node& n : g.nodes)
      for (Attribute& a : n.attributes)
        if (a.name.rfind("subgraph.", 0) == 0) a.value = label + a.value;
  }
  Graph& main = graphs[0];
  std::vector<Attribute> attrs{{"backend", doc.delegates[d].backend_id},
                               {"tosa_file", base_name(c.path)}};
  attrs.insert(attrs.end(), main.attributes.begin(), main.attributes.end());
  // What the payload decoder could tell (the Ethos-U command stream's target, sizes and NPU
  // operation histogram): the facts of its informative node.
  const Delegate& del = doc.delegates[d];
  if (const Graph* old = graph_at(doc, del.subgraph); old && old->opaque)
    for (const Node& n : old->nodes) {
      if (n.kind != NodeKind::kOther) continue;
      for (const Attribute& a : n.attributes) {
        if (a.name == "note" || a.name == "backend") continue;
        attrs.push_back({a.name == "format" ? "payload_format" : a.name, a.value});
      }
    }
  main.attributes = std::move(attrs);
  const std::string format = std::string(delegates::find_decoder(del.backend_id).format);
  const int64_t ops = c.graphs->operators;
  delegates::install_delegate_graphs(doc, d, std::move(graphs));
  doc.delegates[d].decoder_note = fmt::format(
      "{} (summarised in the graph's attributes); operators from TOSA side file {} ({} with "
      "constants)",
      format, base_name(c.path), ops);
}

}  // namespace

Result<std::vector<std::string>> expand_tosa_paths(const std::vector<std::string>& paths) {
  std::vector<std::string> out;
  for (const std::string& p : paths) {
    std::error_code ec;
    if (std::filesystem::is_directory(p, ec)) {
      std::vector<std::string> found;
      for (const auto& e : std::filesystem::directory_iterator(p, ec))
        if (e.path().extension() == ".tosa" && !e.is_directory(ec))
          found.push_back(e.path().string());
      if (ec) return Error(fmt::format("{}: cannot list the directory: {}", p, ec.message()));
      std::sort(found.begin(), found.end());
      out.insert(out.end(), found.begin(), found.end());
    } else {
      out.push_back(p);
    }
  }
  return out;
}

Status attach_tosa_files(Document& doc, const std::vector<std::string>& paths) {
  auto files = expand_tosa_paths(paths);
  if (!files) return files.error();
  for (const std::string& p : paths) {
    std::error_code ec;
    if (std::filesystem::is_directory(p, ec) &&
        std::none_of(files->begin(), files->end(), [&](const std::string& f) {
          return std::filesystem::path(f).parent_path() == std::filesystem::path(p);
        }))
      doc.warn(fmt::format("--tosa {}: the directory holds no .tosa file", p));
  }
  // The delegates a TOSA graph can describe, and their inputs and outputs.
  std::vector<DelegateIo> eligible, decoded;
  for (size_t d = 0; d < doc.delegates.size(); ++d) {
    if (!is_arm_backend(doc.delegates[d].backend_id)) continue;
    auto io = delegate_io(doc, d);
    if (!io) continue;
    (io->eligible ? eligible : decoded).push_back(std::move(*io));
  }
  std::vector<Candidate> cands;
  for (const std::string& path : *files) {
    Candidate c;
    c.path = path;
    auto file = MappedFile::open(path);
    if (!file) return file.error();
    c.file = *file;
    const auto bytes = c.file->bytes();
    if (bytes.size() < 8) {
      c.reason = fmt::format("not a TOSA flatbuffer ({} bytes)", bytes.size());
    } else if (!looks_like_tosa(bytes)) {
      c.reason = fmt::format("not a TOSA flatbuffer (bytes 4..8 are '{}', not 'TOSA')",
                             printable_tag(bytes.subspan(4, 4)));
    } else {
      ReadOptions options;
      options.graph_name = "";
      options.kind = GraphKind::kDelegate;
      options.source = -1;  // set when attached
      auto read = read_tosa(bytes, options);
      if (!read)
        c.reason = read.error().message();
      else
        c.graphs = std::move(*read);
    }
    if (c.graphs) {
      for (size_t k = 0; k < eligible.size(); ++k)
        if (same_io(c.graphs->inputs, eligible[k].inputs) &&
            same_io(c.graphs->outputs, eligible[k].outputs))
          c.matches.push_back(k);
      if (c.matches.empty()) {
        const std::string sig = signature(c.graphs->inputs, c.graphs->outputs);
        std::string why;
        for (const DelegateIo& io : decoded)
          if (same_io(c.graphs->inputs, io.inputs) && same_io(c.graphs->outputs, io.outputs))
            why = fmt::format("; it matches {}", io.why_not);
        if (eligible.empty()) {
          c.reason = fmt::format(
              "its graph {}, and the program has no Arm delegate without operators to attach it "
              "to{}",
              sig, why);
        } else {
          std::string known;
          for (size_t k = 0; k < eligible.size() && k < 4; ++k)
            known += fmt::format("{}{} {}", k ? "; " : "", eligible[k].label,
                                 signature(eligible[k].inputs, eligible[k].outputs));
          if (eligible.size() > 4) known += fmt::format("; and {} more", eligible.size() - 4);
          c.reason = fmt::format("its graph {}; no delegate has these inputs and outputs ({}){}",
                                 sig, known, why);
        }
      }
    }
    cands.push_back(std::move(c));
  }
  // Pairing: each file, in the order given, takes the first matching delegate no earlier file
  // took. A choice was ambiguous when the file matched several delegates or shared one with
  // another file.
  std::vector<int64_t> taken_by(eligible.size(), -1);
  for (size_t f = 0; f < cands.size(); ++f) {
    Candidate& c = cands[f];
    c.ambiguous = c.matches.size() > 1;
    for (size_t g = 0; g < cands.size(); ++g)
      if (g != f)
        for (size_t m : cands[g].matches)
          if (std::find(c.matches.begin(), c.matches.end(), m) != c.matches.end())
            c.ambiguous = true;
    for (size_t m : c.matches)
      if (taken_by[m] < 0) {
        taken_by[m] = static_cast<int64_t>(f);
        c.chosen = static_cast<int64_t>(m);
        break;
      }
    if (c.graphs && !c.matches.empty() && c.chosen < 0) {
      std::string by;
      for (size_t m : c.matches)
        by += fmt::format("{}{} (by {})", by.empty() ? "" : ", ", eligible[m].label,
                          base_name(cands[static_cast<size_t>(taken_by[m])].path));
      c.reason =
          fmt::format("its graph {} matches only delegates that files given before it took: {}",
                      signature(c.graphs->inputs, c.graphs->outputs), by);
    }
  }
  for (Candidate& c : cands) {
    SideFile side;
    side.path = c.path;
    side.kind = "tosa";
    side.ambiguous = c.ambiguous;
    const std::string name = base_name(c.path);
    if (c.chosen < 0) {
      side.note = "not attached: " + c.reason;
      doc.warn(fmt::format("{}: {}", name, side.note));
      doc.side_files.push_back(std::move(side));
      continue;
    }
    const DelegateIo& io = eligible[static_cast<size_t>(c.chosen)];
    side.delegate = static_cast<int32_t>(io.delegate);
    const std::string sig = signature(c.graphs->inputs, c.graphs->outputs);
    if (c.ambiguous) {
      std::string others;
      for (size_t m : c.matches)
        if (static_cast<int64_t>(m) != c.chosen)
          others += fmt::format("{}{}", others.empty() ? "" : ", ", eligible[m].label);
      std::string sharing;
      for (const Candidate& o : cands)
        if (&o != &c && std::any_of(o.matches.begin(), o.matches.end(), [&](size_t m) {
              return std::find(c.matches.begin(), c.matches.end(), m) != c.matches.end();
            }))
          sharing += fmt::format("{}{}", sharing.empty() ? "" : ", ", base_name(o.path));
      std::string why;
      if (!others.empty()) why = fmt::format("its inputs and outputs also match {}", others);
      if (!sharing.empty())
        why += fmt::format("{}{} {} {}", why.empty() ? "" : "; ", sharing,
                           sharing.find(',') == std::string::npos ? "has" : "have",
                           "the same inputs and outputs");
      side.note = fmt::format(
          "the TOSA graph of {} ({}), chosen by the order the files were given (ambiguous: {})",
          io.label, sig, why);
      doc.warn(fmt::format("{}: {}", name, side.note));
    } else {
      side.note = fmt::format("the TOSA graph of {}, matched by its inputs and outputs ({})",
                              io.label, sig);
      doc.note(fmt::format("{}: {}", name, side.note));
    }
    for (const std::string& w : c.graphs->warnings) doc.warn(fmt::format("{}: {}", name, w));
    for (const std::string& n : c.graphs->notes) doc.note(fmt::format("{}: {}", name, n));
    const auto source = static_cast<int32_t>(doc.sources.size());
    doc.sources.push_back(c.file);
    install(doc, io.delegate, c, source);
    doc.side_files.push_back(std::move(side));
  }
  return Status::Ok();
}

}  // namespace etviz::tosa
