// etviz._etviz: the C++ library for Python. Deliberately thin: documents, and the reports the
// CLI prints, as JSON or text; python/etviz shapes them into ExecuTorch's familiar APIs. Every
// figure is computed here, by the same code as the CLI (docs/python.md).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "analysis/delegation.h"
#include "analysis/diff.h"
#include "analysis/memory_plan.h"
#include "analysis/profile_stats.h"
#include "analysis/summary.h"
#include "analysis/value_diff.h"
#include "cli/run.h"
#include "core/mapped_file.h"
#include "core/output_file.h"
#include "etviz/version.h"
#include "formats/delegates/delegate_decoder.h"
#include "formats/open_document.h"
#include "render/delegation_report.h"
#include "render/diff_report.h"
#include "render/graph_json.h"
#include "render/memory_report.h"
#include "render/numerics_report.h"
#include "render/profile_report.h"
#include "render/summary_report.h"
#include "render/value_diff_report.h"
#include "session/constant_stats.h"
#include "session/numerics_session.h"
#include "session/page_options.h"
#include "session/profile_session.h"
#include "session/view_session.h"

namespace py = pybind11;

namespace etviz::python {
namespace {

// A C++ error as Python sees it: etviz.Error (a ValueError) with the CLI's one-line message.
struct PyError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

template <typename T>
T take(Result<T> r) {
  if (!r) throw PyError(r.error().message());
  return std::move(*r);
}

// An opened file: the document and what the page header says of it.
struct Handle {
  Document doc;
  std::string name;
  uint64_t size = 0;
};
using HandlePtr = std::shared_ptr<Handle>;

HandlePtr open_path(const std::string& path, const std::vector<std::string>& data,
                    const std::vector<std::string>& tosa) {
  OpenOptions options;
  options.data_files = data;
  options.tosa_files = tosa;
  Result<Document> doc = [&] {
    py::gil_scoped_release release;
    return open_document(path, options);
  }();
  auto h = std::make_shared<Handle>();
  h->doc = take(std::move(doc));
  h->name = std::filesystem::path(path).filename().string();
  std::error_code ec;
  h->size = std::filesystem::file_size(path, ec);
  return h;
}

HandlePtr open_bytes(const std::string& name, const py::bytes& bytes) {
  const std::string_view view(bytes);
  auto file = MappedFile::from_bytes(
      name, std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(view.data()), view.size()));
  Result<Document> doc = [&] {
    py::gil_scoped_release release;
    return read_document(file);
  }();
  auto h = std::make_shared<Handle>();
  h->doc = take(std::move(doc));
  h->name = name;
  h->size = view.size();
  return h;
}

const Graph& graph_of(const Handle& h, const std::string& name) {
  const int32_t g = take(analysis::select_graph(h.doc, name));
  return h.doc.graphs[static_cast<size_t>(g)];
}

// The page options of `etviz view` (session/page_options.h) as keyword arguments: --source-unit
// is source_unit=...
std::string keyword(const session::PageOption& o) {
  std::string key = std::string(o.flag).substr(2);
  std::replace(key.begin(), key.end(), '-', '_');
  return key;
}

// visualize()'s keywords: the page options of `etviz view` with one value (files given as
// --data are the documents' own, opened with them).
std::vector<std::string> page_option_keywords() {
  std::vector<std::string> out;
  for (const session::PageOption& o : session::page_options())
    if (o.takes(session::kViewCommand) && o.single()) out.push_back(keyword(o));
  return out;
}

view::Request page_request(const py::dict& options) {
  view::Request r;
  for (const session::PageOption& o : session::page_options()) {
    const std::string key = keyword(o);
    if (!o.takes(session::kViewCommand) || !o.single() || !options.contains(key.c_str()) ||
        options[key.c_str()].is_none())
      continue;
    if (std::string* text = o.target(r))
      *text = py::str(options[key.c_str()]);
    else
      r.*o.set = py::bool_(options[key.c_str()]);
  }
  return r;
}

std::string page_html(const std::vector<HandlePtr>& handles, const py::dict& options) {
  if (handles.empty()) throw PyError("no program to show");
  const view::Request request = page_request(options);
  session::PageSettings settings;
  if (options.contains("compress")) settings.compress = py::bool_(options["compress"]);
  std::vector<session::ViewFile> inputs;
  for (const HandlePtr& h : handles) inputs.push_back({&h->doc, h->name, h->size});
  Result<std::string> html = [&] {
    py::gil_scoped_release release;
    return session::render_page(inputs, request, settings);
  }();
  return take(std::move(html));
}

// The Inspector's report: the profile options `etviz profile` takes as keywords (etrecord,
// method, source_unit, unit), and program and debug_buffer (its --pte and --debug-buffer).
std::string profile_report(const std::string& etdump, const py::dict& options, bool json) {
  session::ProfileSessionOptions load;
  auto text = [&](const std::string& key, std::string& into) {
    if (options.contains(key.c_str()) && !options[key.c_str()].is_none())
      into = py::str(options[key.c_str()]);
  };
  for (const session::PageOption& o : session::page_options())
    if (std::string* field = o.takes(session::kProfileCommand) ? o.target(load) : nullptr)
      text(keyword(o), *field);
  load.etdump = etdump;
  text("program", load.program);
  text("debug_buffer", load.debug_buffer);
  py::gil_scoped_release release;
  auto s = session::load_profile_session(load);
  if (!s) {
    py::gil_scoped_acquire acquire;
    throw PyError(s.error().message());
  }
  session::ProfileReportOptions shown;
  shown.module_totals = true;
  shown.raw_samples = true;
  shown.program_path = load.program;
  shown.etrecord_path = load.etrecord;
  const render::ProfileReport report = session::profile_report(*s, shown);
  return json ? render::profile_json(report) : render::profile_text(report);
}

}  // namespace
// `etviz tensors PATH` as JSON: keywords data (list of .ptd), name (glob), bins, dequantize.
std::string tensors_report_json(const std::string& path, const py::dict& o) {
  OpenOptions open;
  if (o.contains("data") && !o["data"].is_none())
    for (const auto& d : o["data"]) open.data_files.push_back(py::str(d));
  session::ConstantStatsOptions options;
  if (o.contains("name") && !o["name"].is_none()) options.name_glob = py::str(o["name"]);
  if (o.contains("bins") && !o["bins"].is_none()) options.bins = py::int_(o["bins"]);
  if (options.bins < 1 || options.bins > 4096) throw PyError("bins: 1 to 4096");
  if (o.contains("dequantize")) options.dequantize = py::bool_(o["dequantize"]);
  py::gil_scoped_release release;
  auto doc = open_document(path, open);
  if (!doc) {
    py::gil_scoped_acquire acquire;
    throw PyError(doc.error().message());
  }
  auto stats = session::constant_stats(*doc, options);
  const std::vector<std::string> warnings = stats.warnings;
  return render::constant_stats_json(session::constant_stats_rows(std::move(stats)), path,
                                     warnings);
}

// The Inspector's numeric gap: `etviz numerics ETDUMP` with the keywords debug_buffer,
// reference, reference_debug_buffer, program, method, thresholds (list), run, test_case, as
// etviz.numerics/1 JSON.
std::string numerics_report_json(const std::string& etdump, const py::dict& o) {
  session::NumericsSessionOptions load;
  load.run = etdump;
  auto text = [&](const char* key, std::string& into) {
    if (o.contains(key) && !o[key].is_none()) into = py::str(o[key]);
  };
  text("debug_buffer", load.debug_buffer);
  text("reference", load.reference);
  text("reference_debug_buffer", load.reference_debug_buffer);
  text("program", load.program);
  text("method", load.method);
  if (o.contains("run") && !o["run"].is_none()) load.run_index = py::int_(o["run"]);
  if (o.contains("test_case") && !o["test_case"].is_none())
    load.test_case = py::int_(o["test_case"]);
  if (o.contains("thresholds") && !o["thresholds"].is_none()) {
    load.analysis.thresholds.clear();
    for (const auto& t : o["thresholds"]) {
      auto parsed = analysis::parse_threshold(std::string(py::str(t)));
      if (!parsed) throw PyError(parsed.error().message());
      load.analysis.thresholds.push_back(*parsed);
    }
  }
  Result<session::NumericsSession> s = [&] {
    py::gil_scoped_release release;
    return session::load_numerics_session(load);
  }();
  if (!s) throw PyError(s.error().message());
  render::NumericsReportView view;
  view.report = &s->report;
  view.run_path = etdump;
  view.run_label = std::filesystem::path(etdump).filename().string();
  view.reference_path = load.reference;
  view.reference_label = s->reference_label;
  view.reference_kind = s->reference_kind;
  if (s->program) view.program_path = s->program->path();
  view.warnings = s->warnings;
  return render::numerics_json(view);
}

}  // namespace etviz::python

PYBIND11_MODULE(_etviz, m) {
  using namespace etviz;
  using namespace etviz::python;
  m.doc() = "etviz's C++ library (documents and reports); use the `etviz` package.";
  static py::exception<PyError> error(m, "Error", PyExc_ValueError);
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const PyError& e) {
      error(e.what());
    }
  });
  m.def("version", [] { return std::string(ETVIZ_VERSION); });
  // `python -m etviz` and the `etviz` console script: the binary's own entry point (cli/run.h),
  // with the GIL released while it runs; returns the exit code.
  m.def(
      "cli_main",
      [](std::vector<std::string> args) {
        if (args.empty()) args.emplace_back("etviz");
        std::vector<char*> argv;
        for (std::string& a : args) argv.push_back(a.data());
        argv.push_back(nullptr);
        py::gil_scoped_release release;
        return cli::run(static_cast<int>(args.size()), argv.data());
      },
      py::arg("argv"),
      "Runs the etviz command (argv[0] is the program's name) and returns its exit code");

  py::class_<Handle, HandlePtr>(
      m, "Document", "A file etviz read (program, exported program, ETRecord, trace, ...)")
      .def_property_readonly("name", [](const Handle& h) { return h.name; })
      .def_property_readonly("size", [](const Handle& h) { return h.size; })
      .def_property_readonly("format",
                             [](const Handle& h) { return std::string(to_string(h.doc.format)); })
      .def_property_readonly("format_version", [](const Handle& h) { return h.doc.format_version; })
      .def_property_readonly(
          "diagnostics",
          [](const Handle& h) {
            std::vector<std::pair<std::string, std::string>> out;
            for (const Diagnostic& d : h.doc.diagnostics)
              out.emplace_back(to_string(d.severity), d.message);
            return out;
          },
          "[(severity, message)]: severity is note, warning or error (part of the file is "
          "damaged and left out; the rest is shown)")
      .def_property_readonly(
          "side_files",
          [](const Handle& h) {
            py::list out;
            for (const SideFile& f : h.doc.side_files) {
              py::dict d;
              d["path"] = f.path;
              d["kind"] = f.kind;
              const bool attached =
                  f.delegate >= 0 && static_cast<size_t>(f.delegate) < h.doc.delegates.size();
              d["delegate"] = attached ? py::object(py::str(delegates::delegate_label(
                                             h.doc.delegates[static_cast<size_t>(f.delegate)])))
                                       : py::object(py::none());
              d["ambiguous"] = f.ambiguous;
              d["note"] = f.note;
              out.append(std::move(d));
            }
            return out;
          },
          "Files given beside the program (tosa=): where each went, as [{path, kind, delegate, "
          "ambiguous, note}]")
      .def_property_readonly("graphs",
                             [](const Handle& h) {
                               std::vector<std::string> names;
                               for (int32_t g : analysis::pipeline_graphs(h.doc))
                                 names.push_back(h.doc.graphs[static_cast<size_t>(g)].name);
                               return names;
                             })
      .def_property_readonly(
          "default_graph",
          [](const Handle& h) {
            const int32_t g = h.doc.default_graph();
            return g < 0 ? std::string() : h.doc.graphs[static_cast<size_t>(g)].name;
          },
          "The graph the page opens on and `etviz export` draws (Document::default_graph); "
          "\"\" when the file holds none")
      .def(
          "info_json",
          [](const Handle& h, const std::string& method) {
            return render::summary_json(take(analysis::summarize(h.doc, method)));
          },
          py::arg("method") = "")
      .def(
          "graph_json",
          [](const Handle& h) {
            render::GraphJsonOptions o;
            o.path = h.name;
            return render::graph_json(h.doc, o);
          },
          "Every graph as etviz read it (etviz.graph/1, docs/cli.md 'Graph JSON')")
      .def(
          "delegation_json",
          [](const Handle& h, const std::string& method, const HandlePtr& etrecord) {
            auto info =
                take(analysis::delegation_info(h.doc, method, etrecord ? &etrecord->doc : nullptr));
            return render::delegation_report(h.name, info, render::DelegationFormat::kJson);
          },
          py::arg("method") = "", py::arg("etrecord") = nullptr)
      .def(
          "delegation_text",
          [](const Handle& h, const std::string& method, const HandlePtr& etrecord) {
            auto info =
                take(analysis::delegation_info(h.doc, method, etrecord ? &etrecord->doc : nullptr));
            return render::delegation_report(h.name, info, render::DelegationFormat::kTable);
          },
          py::arg("method") = "", py::arg("etrecord") = nullptr)
      .def(
          "delegated_graph",
          [](const Handle& h, const std::string& method) {
            return render::format_delegated_graph(h.doc, method);
          },
          py::arg("method") = "")
      .def(
          "memory_json",
          [](const Handle& h, const std::string& method) {
            const Graph& g = graph_of(h, method);
            if (g.stage.role != StageRole::kExecuTorch)
              throw PyError("'" + g.name +
                            "' is not an ExecuTorch method; memory plans are in .pte programs");
            return render::memory_report(h.name, g, take(analysis::memory_plan(h.doc, g)),
                                         render::MemoryFormat::kJson);
          },
          py::arg("method") = "");

  m.def("open_path", &open_path, py::arg("path"), py::arg("data") = std::vector<std::string>{},
        py::arg("tosa") = std::vector<std::string>{});
  m.def("open_bytes", &open_bytes, py::arg("name"), py::arg("data"));
  // Every file the package writes goes through the CLI's writer (core/output_file.h): inputs
  // of this process refused by device and inode, special files written in place, files
  // replaced atomically with their mode kept.
  m.def(
      "write_file",
      [](const std::string& path, const py::bytes& data) {
        const std::string bytes = data;
        Status s;
        {
          py::gil_scoped_release release;
          s = write_output_file(path, bytes);
        }
        if (!s) throw PyError(s.error().message());
      },
      py::arg("path"), py::arg("data"));
  m.def("page_html", &page_html, py::arg("documents"), py::arg("options") = py::dict());
  m.def("page_options", &page_option_keywords);
  m.def(
      "diff_json",
      [](const std::vector<HandlePtr>& docs, const std::vector<std::string>& graphs) {
        if (docs.size() < 2 || graphs.size() != docs.size())
          throw PyError("a diff needs two graphs or more");
        std::vector<render::DiffOperand> ops;
        bool whole = true;  // as `etviz diff`: programs named without a graph compare whole
        for (size_t k = 0; k < docs.size(); ++k) {
          ops.push_back({docs[k]->name, &docs[k]->doc,
                         take(analysis::select_graph(docs[k]->doc, graphs[k]))});
          whole = whole && graphs[k].empty() && render::is_whole_program(docs[k]->doc);
        }
        py::gil_scoped_release release;
        if (whole)
          return render::program_diff_report(render::compare_programs(ops),
                                             render::DiffFormat::kJson);
        std::vector<analysis::GraphDiff> diffs;
        for (size_t k = 0; k + 1 < ops.size(); ++k) {
          diffs.push_back(
              analysis::diff_graphs(*ops[k].doc, ops[k].g(), *ops[k + 1].doc, ops[k + 1].g()));
          analysis::add_value_diff(*ops[k].doc, ops[k].g(), *ops[k + 1].doc, ops[k + 1].g(),
                                   diffs.back());
        }
        return render::diff_report(ops, diffs, render::DiffFormat::kJson);
      },
      py::arg("documents"), py::arg("graphs"));
  m.def(
      "profile_json",
      [](const std::string& etdump, const py::dict& o) { return profile_report(etdump, o, true); },
      py::arg("etdump"), py::arg("options") = py::dict());
  m.def("tensors_json", &tensors_report_json, py::arg("path"), py::arg("options") = py::dict());
  m.def("numerics_json", &numerics_report_json, py::arg("etdump"), py::arg("options") = py::dict());
  m.def(
      "profile_text",
      [](const std::string& etdump, const py::dict& o) { return profile_report(etdump, o, false); },
      py::arg("etdump"), py::arg("options") = py::dict());
}
