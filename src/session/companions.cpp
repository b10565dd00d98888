#include "session/companions.h"

#include <fmt/format.h>

#include <algorithm>
#include <deque>
#include <filesystem>

#include "analysis/categories.h"
#include "core/mapped_file.h"
#include "formats/open_document.h"
#include "formats/side_files/categories_file.h"
#include "formats/side_files/groups_file.h"
#include "formats/side_files/node_data_file.h"
#include "formats/torch_export/archive_reader.h"

namespace etviz::session {
namespace {

std::string base_name(const std::string& path) {
  return std::filesystem::path(path).filename().string();
}

// What the CLI's --categories reads (a JSON object of "rules" and "colors"), within its size.
bool is_categories(std::span<const uint8_t> bytes) {
  if (bytes.empty() || bytes.size() > side_files::kMaxCategoriesFileBytes) return false;
  auto file = side_files::parse_categories(
      std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
  return file && analysis::category_config(*file).ok();
}

// What the CLI's --groups reads ({node name: group name}, at least one), within its size.
bool is_groups(std::span<const uint8_t> bytes, const std::string& path) {
  if (bytes.empty() || bytes.size() > side_files::kMaxGroupsFileBytes) return false;
  auto groups = side_files::parse_groups(bytes, path);
  return groups && !groups->empty();
}

// What the CLI's --node-data reads (Model Explorer node data with at least one result).
bool is_node_data(std::span<const uint8_t> bytes, const std::string& path) {
  if (bytes.empty() || bytes.size() > side_files::kMaxNodeDataFileBytes) return false;
  auto data = side_files::parse_node_data(
      std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()), path);
  if (!data) return false;
  for (const auto& g : data->graphs)
    if (!g.results.empty()) return true;
  return false;
}

bool same_file(const std::string& a, const std::string& b) {
  std::error_code ec;
  return a == b || std::filesystem::equivalent(a, b, ec);
}

}  // namespace

Result<CompanionFiles> pair_companions(const std::vector<std::string>& paths) {
  if (paths.empty()) return Error("no file to open");
  CompanionFiles out;
  std::vector<std::string> flat_tensors, tosa_graphs, etrecords, etdumps, unknown;
  bool has_program = false;
  std::string first_program;
  for (const std::string& path : paths) {
    auto file = MappedFile::open(path);
    if (!file) return file.error();
    const FileKind kind = sniff_file_kind((*file)->bytes());
    if (kind == FileKind::kFlatTensor) {
      flat_tensors.push_back(path);
    } else if (kind == FileKind::kTosa) {
      tosa_graphs.push_back(path);
    } else if (kind == FileKind::kETDump) {
      if (etdumps.size() == 2)
        return Error(fmt::format(
            "{}, {} and {} are all ETDumps; a page shows one run, compared with at most one "
            "reference run",
            base_name(etdumps[0]), base_name(etdumps[1]), base_name(path)));
      if (!etdumps.empty() && same_file(etdumps.front(), path))
        return Error(fmt::format(
            "{} and {} are both ETDumps of one file: a run is compared with another run",
            base_name(etdumps.front()), base_name(path)));
      etdumps.push_back(path);
    } else if (kind == FileKind::kZip) {
      auto zip = torch_export::ZipArchive::open((*file)->bytes(), path);
      if (zip && torch_export::is_etrecord(**zip))
        etrecords.push_back(path);
      else
        out.shown.push_back(path);
    } else if (kind == FileKind::kUnknown && is_categories((*file)->bytes())) {
      if (!out.categories.empty())
        return Error(fmt::format("{} and {} are both categories files; a page takes one",
                                 base_name(out.categories), base_name(path)));
      out.categories = path;
    } else if (kind == FileKind::kUnknown && is_groups((*file)->bytes(), path)) {
      if (!out.groups.empty())
        return Error(fmt::format("{} and {} are both groups files; a page takes one",
                                 base_name(out.groups), base_name(path)));
      out.groups = path;
    } else if (kind == FileKind::kUnknown && is_node_data((*file)->bytes(), path)) {
      if (!out.node_data.empty())
        return Error(fmt::format("{} and {} are both node data files; a page takes one",
                                 base_name(out.node_data), base_name(path)));
      out.node_data = path;
    } else if (kind == FileKind::kUnknown) {
      unknown.push_back(path);  // beside two runs: their debug buffers; else a file to show
    } else {
      const bool program = kind == FileKind::kProgram || kind == FileKind::kBundledProgram;
      if (program && !has_program) first_program = path;
      has_program |= program;
      out.shown.push_back(path);
    }
  }
  // Two ETDumps: the first is the run (the profile), the second the reference its
  // intermediate outputs are compared with (numerics); files of no known kind beside them are
  // their debug buffers, in the same order. Roles follow the order the files came in.
  if (!etdumps.empty()) out.etdump = etdumps[0];
  if (etdumps.size() == 2) {
    out.reference = etdumps[1];
    if (unknown.size() > 2)
      return Error(fmt::format(
          "{}, {} and {} are not files etviz reads; beside two runs it takes two debug buffers",
          base_name(unknown[0]), base_name(unknown[1]), base_name(unknown[2])));
    out.notes.push_back(fmt::format("{}: reference run of {} (numerics)", base_name(etdumps[1]),
                                    base_name(etdumps[0])));
    for (size_t k = 0; k < unknown.size(); ++k) {
      (k == 0 ? out.debug_buffer : out.reference_debug_buffer) = unknown[k];
      out.notes.push_back(
          fmt::format("{}: debug buffer of {}", base_name(unknown[k]), base_name(etdumps[k])));
    }
    unknown.clear();
  }
  out.shown.insert(out.shown.end(), unknown.begin(), unknown.end());
  // Weights join the program they belong to; on their own they are a file to look at.
  if (has_program) {
    out.data = flat_tensors;
    for (const std::string& d : flat_tensors)
      out.notes.push_back(
          fmt::format("{}: external weights of {}", base_name(d), base_name(out.shown.front())));
  } else {
    out.shown.insert(out.shown.end(), flat_tensors.begin(), flat_tensors.end());
  }
  // TOSA graphs likewise: beside a program they describe its Arm delegates (each is matched
  // to a delegate by its inputs and outputs when the program is read), alone they are graphs.
  if (has_program) {
    out.tosa = tosa_graphs;
    for (const std::string& t : tosa_graphs)
      out.notes.push_back(fmt::format("{}: TOSA graph for a delegate of {}", base_name(t),
                                      base_name(first_program)));
  } else {
    out.shown.insert(out.shown.end(), tosa_graphs.begin(), tosa_graphs.end());
  }
  if (!out.etdump.empty()) {
    if (!has_program)
      return Error(fmt::format(
          "{} is an ETDump runtime profile: open it together with the program it ran (.pte or "
          ".bpte)",
          base_name(out.etdump)));
    if (etrecords.size() > 1)
      return Error(fmt::format("{} and {} are both ETRecords; a profile joins one",
                               base_name(etrecords[0]), base_name(etrecords[1])));
    if (!etrecords.empty()) out.etrecord = etrecords.front();
    out.notes.push_back(fmt::format(
        "{}: profile of {}{}", base_name(out.etdump), base_name(out.shown.front()),
        out.etrecord.empty() ? std::string() : fmt::format(", with {}", base_name(out.etrecord))));
  } else {
    out.shown.insert(out.shown.end(), etrecords.begin(), etrecords.end());
  }
  for (const auto& [option, what] :
       {std::pair{&out.categories, "categories"}, std::pair{&out.groups, "groups"},
        std::pair{&out.node_data, "node data"}})
    if (out.shown.empty() && !option->empty())
      return Error(
          fmt::format("{} is a {} file: open it together with the file it colours or groups",
                      base_name(*option), what));
  if (!out.categories.empty())
    out.notes.push_back(fmt::format("{}: categories of the page", base_name(out.categories)));
  if (!out.groups.empty())
    out.notes.push_back(
        fmt::format("{}: groups of {}", base_name(out.groups), base_name(out.shown.front())));
  // The program goes first: --data and the profile apply to the page's first file.
  if (has_program) {
    for (size_t k = 0; k < out.shown.size(); ++k) {
      auto file = MappedFile::open(out.shown[k]);
      if (!file) return file.error();
      const FileKind kind = sniff_file_kind((*file)->bytes());
      if (kind == FileKind::kProgram || kind == FileKind::kBundledProgram) {
        std::rotate(out.shown.begin(), out.shown.begin() + static_cast<ptrdiff_t>(k),
                    out.shown.begin() + static_cast<ptrdiff_t>(k) + 1);
        break;
      }
    }
  }
  return out;
}

Result<PagedFiles> page_from_files(const std::vector<std::string>& paths, view::Request request,
                                   const PageSettings& settings) {
  auto roles = pair_companions(paths);
  if (!roles) return roles.error();
  PagedFiles out;
  out.roles = std::move(*roles);
  std::deque<Document> docs;  // stable addresses for the page inputs
  std::vector<ViewFile> inputs;
  for (size_t k = 0; k < out.roles.shown.size(); ++k) {
    OpenOptions open;
    if (k == 0) {
      open.data_files = out.roles.data;
      open.tosa_files = out.roles.tosa;
    }
    const std::string& path = out.roles.shown[k];
    auto doc = open_document(path, open);
    if (!doc) return doc.error();
    if (settings.progress) settings.progress("read " + base_name(path));
    docs.push_back(std::move(*doc));
    // The mapped size: the app's large programs are in memory, not in a file system.
    auto file = MappedFile::open(path);
    inputs.push_back({&docs.back(), base_name(path), file ? (*file)->size() : 0});
  }
  request.data = out.roles.data;
  request.tosa = out.roles.tosa;
  request.profile.etdump = out.roles.etdump;
  request.profile.etrecord = out.roles.etrecord;
  request.numerics.reference = out.roles.reference;
  request.numerics.debug_buffer = out.roles.debug_buffer;
  request.numerics.reference_debug_buffer = out.roles.reference_debug_buffer;
  request.categories = out.roles.categories;
  request.groups = out.roles.groups;
  request.node_data = out.roles.node_data;
  auto html = render_page(inputs, request, settings, &out.warnings);
  if (!html) return html.error();
  out.html = std::move(*html);
  return out;
}

}  // namespace etviz::session
