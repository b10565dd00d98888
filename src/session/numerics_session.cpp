#include "session/numerics_session.h"

#include <fmt/format.h>

#include <filesystem>

#include "formats/executorch/bundled_test_data.h"
#include "formats/executorch/etdump_reader.h"
#include "formats/open_document.h"

namespace etviz::session {
namespace {

std::string base_name(const std::string& path) {
  return std::filesystem::path(path).filename().string();
}

// The run of `profile` to compare: the `wanted`-th run that logged debug events, or the first.
Result<size_t> choose_run(const Profile& profile, const std::string& path, int wanted,
                          std::vector<std::string>& warnings) {
  const std::vector<size_t> runs = analysis::debug_runs(profile);
  if (runs.empty())
    return Error(fmt::format(
        "{}: the ETDump holds no debug events (intermediate outputs); the runtime logs them "
        "with ETDumpGen's debug buffer set and event tracer debug level kIntermediateOutputs",
        path));
  if (wanted >= 0) {
    if (static_cast<size_t>(wanted) >= runs.size())
      return Error(fmt::format("{}: --run {}: the ETDump has {} run{} with debug events", path,
                               wanted, runs.size(), runs.size() == 1 ? "" : "s"));
    return runs[static_cast<size_t>(wanted)];
  }
  if (runs.size() > 1)
    warnings.push_back(
        fmt::format("{}: {} runs logged debug events; comparing the first (--run K picks another)",
                    base_name(path), runs.size()));
  return runs.front();
}

Result<std::shared_ptr<const MappedFile>> open_file(const std::string& path) {
  auto file = MappedFile::open(path);
  if (!file) return file.error();
  return *file;
}

}  // namespace

Result<NumericsSession> load_numerics_session(const NumericsSessionOptions& options,
                                              const Document* program) {
  NumericsSession s;
  if (options.reference.empty())
    return Error(
        "--reference: give the reference run's ETDump (with --reference-debug-buffer) or a "
        "bundled program whose expected outputs the run's outputs are compared with");
  auto run = executorch::read_etdump_file(options.run, options.debug_buffer);
  if (!run) return run.error();
  s.run = std::move(*run);
  if (options.debug_buffer.empty())
    s.warnings.push_back(options.run +
                         ": no --debug-buffer: tensors cannot be compared, only their shapes and "
                         "dtypes");
  s.warnings.insert(s.warnings.end(), s.run.warnings.begin(), s.run.warnings.end());
  auto run_index = choose_run(s.run, options.run, options.run_index, s.warnings);
  if (!run_index) return run_index.error();
  s.run_used = *run_index;

  auto ref_file = open_file(options.reference);
  if (!ref_file) return ref_file.error();
  const FileKind ref_kind = sniff_file_kind((*ref_file)->bytes());

  if (program) {
    s.program = program;
  } else if (!options.program.empty()) {
    auto doc = open_document(options.program);
    if (!doc) return doc.error();
    if (doc->graphs.empty())
      return Error(options.program +
                   ": expected the program that ran (.pte or .bpte); this file has no graphs");
    s.own_program = std::make_unique<Document>(std::move(*doc));
    s.program = s.own_program.get();
  }

  std::vector<std::string> entry_warnings;
  std::vector<analysis::DebugEntry> run_entries =
      analysis::debug_entries(s.run, s.run_used, &entry_warnings);
  std::vector<analysis::DebugEntry> ref_entries;
  if (ref_kind == FileKind::kETDump) {
    auto ref = executorch::read_etdump_file(options.reference, options.reference_debug_buffer);
    if (!ref) return ref.error();
    s.reference_run = std::move(*ref);
    if (options.reference_debug_buffer.empty() && !options.debug_buffer.empty())
      s.warnings.push_back(options.reference +
                           ": no --reference-debug-buffer: the reference's tensors cannot be read");
    s.warnings.insert(s.warnings.end(), s.reference_run->warnings.begin(),
                      s.reference_run->warnings.end());
    auto ref_index = choose_run(*s.reference_run, options.reference, options.run_index, s.warnings);
    if (!ref_index) return ref_index.error();
    s.reference_used = *ref_index;
    ref_entries = analysis::debug_entries(*s.reference_run, s.reference_used, &entry_warnings);
    s.reference_kind = "etdump";
    s.reference_label = fmt::format("{} (run {})", base_name(options.reference), s.reference_used);
  } else if (ref_kind == FileKind::kBundledProgram) {
    if (!options.reference_debug_buffer.empty())
      return Error(options.reference +
                   ": --reference-debug-buffer goes with a reference ETDump; a bundled program "
                   "holds its expected outputs itself");
    // A bundled reference is also the program, unless another was named.
    if (!s.program) {
      auto doc = open_document(options.reference);
      if (!doc) return doc.error();
      s.own_program = std::make_unique<Document>(std::move(*doc));
      s.program = s.own_program.get();
    }
    const std::string method = options.method.empty() ? "forward" : options.method;
    int64_t test_case = options.test_case;
    const int32_t logged = s.run.runs[s.run_used].bundled_input_index;
    if (test_case < 0) test_case = logged;
    auto probe = executorch::bundled_expected_outputs((*ref_file)->bytes(), method, 0);
    if (!probe) return probe.error().within(options.reference);
    if (test_case < 0) {
      if (probe->cases != 1)
        return Error(fmt::format(
            "{}: the run does not say which test case it ran (bundled_input_index is -1) and "
            "method '{}' has {} cases; choose one with --test-case",
            options.run, method, probe->cases));
      test_case = 0;
    }
    auto cases = executorch::bundled_expected_outputs((*ref_file)->bytes(), method, test_case);
    if (!cases) return cases.error().within(options.reference);
    for (size_t k = 0; k < cases->outputs.size(); ++k) {
      const executorch::BundledTensor& t = cases->outputs[k];
      analysis::DebugEntry e;
      e.name = fmt::format("expected output {}", k);
      e.is_output = true;
      e.dtype = t.dtype;
      e.sizes = t.sizes;
      if (!t.is_tensor) {
        e.kind = t.dtype == "int64"  ? ProfileValue::Kind::kInt
                 : t.dtype == "bool" ? ProfileValue::Kind::kBool
                                     : ProfileValue::Kind::kDouble;
        e.scalar = t.scalar;
      } else {
        e.kind = ProfileValue::Kind::kTensor;
        analysis::TensorData data;
        data.dtype = t.dtype;
        data.sizes = t.sizes;
        data.bytes = t.bytes;
        const int64_t element = dtype_element_size(t.dtype);
        if (!analysis::numeric_dtype(t.dtype))
          e.missing = "dtype not read as numbers";
        else if (element <= 0 || data.numel() < 0 ||
                 t.bytes.size() % static_cast<size_t>(element) != 0 ||
                 static_cast<uint64_t>(data.numel()) !=
                     t.bytes.size() / static_cast<size_t>(element))
          e.missing = fmt::format("{} bytes of data for {} elements of {}", t.bytes.size(),
                                  data.numel(), t.dtype);
        else
          e.data = std::move(data);
      }
      ref_entries.push_back(std::move(e));
    }
    // Only method outputs have a counterpart in a test case.
    std::erase_if(run_entries, [](const analysis::DebugEntry& e) { return !e.is_output; });
    if (run_entries.empty())
      return Error(options.run +
                   ": the run logged no method outputs (debug events marked output) to compare "
                   "with the test case's expected outputs; the runtime logs them at event tracer "
                   "debug level kProgramOutputs");
    s.reference_kind = "bundled_program";
    s.reference_label = fmt::format("{} ({} case {}{})", base_name(options.reference), method,
                                    test_case, logged >= 0 ? ", as the run logged" : "");
  } else {
    if (ref_kind == FileKind::kZip) {
      auto doc = open_document(options.reference);
      if (doc && doc->etrecord)
        return Error(fmt::format(
            "{}: an ETRecord's reference outputs are pickled torch tensors{}, which etviz does "
            "not read; compare with another run's ETDump or a bundled program (.bpte)",
            options.reference,
            doc->etrecord->has_reference_outputs ? "" : " (and this one has none)"));
    }
    return Error(options.reference +
                 ": --reference expects an ETDump (.etdp) or a bundled program (.bpte)");
  }
  s.warnings.insert(s.warnings.end(), entry_warnings.begin(), entry_warnings.end());

  s.report = analysis::match_entries(ref_entries, run_entries);
  if (s.program) {
    if (auto st = analysis::join_numerics(s.report, *s.program, options.method); !st)
      return st.error().within(s.program->path());
  }
  analysis::compare_rows(s.report, options.analysis);
  s.warnings.insert(s.warnings.end(), s.report.warnings.begin(), s.report.warnings.end());
  return s;
}

}  // namespace etviz::session
