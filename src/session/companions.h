#pragma once
// Files given together, sorted into the roles the CLI's options give them: a FlatTensor
// (.ptd) holds the external weights of the program beside it (`--data`), a TOSA flatbuffer
// (.tosa) the graph of one of its Arm delegates (`--tosa`), an ETDump is the
// profile of that program (`--etdump`) and an ETRecord beside an ETDump is its debug record
// (`--etrecord`), a second ETDump the reference run its intermediate outputs are compared
// with (`--reference`, beside debug buffers), a JSON file that side_files::parse_categories reads
// (with categories analysis::category_config knows) is the page's `--categories`, one that
// side_files:: parse_groups reads ({node name: group name}) its `--groups` and one that
// side_files:: parse_node_data reads (with results) its `--node-data`: the readers of those options
// (formats/side_files). Everything else is a file of its own in the page. Roles come from
// the bytes (never the names). The app page (docs/app.md) opens dropped files through here.
#include <string>
#include <vector>

#include "core/status.h"
#include "session/view_session.h"

namespace etviz::session {

struct CompanionFiles {
  std::vector<std::string> shown;  // the page's files; the first is the one the others join
  std::vector<std::string> data;   // .ptd files of the first program
  std::vector<std::string> tosa;   // .tosa files of the first program's delegates
  std::string etdump, etrecord;
  // A second ETDump: the reference run (`--reference`); files of no known kind beside the two
  // ETDumps are their debug buffers, in the order given (`--debug-buffer`,
  // `--reference-debug-buffer`).
  std::string reference, debug_buffer, reference_debug_buffer;
  std::string categories, groups, node_data;  // --categories, --groups, --node-data
  std::vector<std::string> notes;             // how the files were paired, one line each
};

// An error names the file when roles clash (two ETDumps, a profile without a program).
Result<CompanionFiles> pair_companions(const std::vector<std::string>& paths);

// Opens paired files and writes the page `etviz FIRST MORE... --data D --tosa T --etdump E
// --etrecord R -o page.html` writes; the page names files by their paths' file names.
struct PagedFiles {
  std::string html;
  CompanionFiles roles;
  std::vector<std::string> warnings;
};
// `request`'s files and side files are those the pairing found; its other options apply.
Result<PagedFiles> page_from_files(const std::vector<std::string>& paths, view::Request request,
                                   const PageSettings& settings);

}  // namespace etviz::session
