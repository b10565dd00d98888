#pragma once
// One page from loaded documents, as `etviz view` and `etviz.visualize` make it: categories,
// a profile overlay (ETDump + ETRecord), several files, or the steps of a trace / an
// ETRecord's stages. The CLI and the Python module call this, so a page is the same whatever
// made it.
#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/document.h"
#include "render/html/html_page.h"
#include "render/html/profile_data.h"
#include "session/profile_session.h"

namespace etviz::session {

struct PageRequest {
  std::string categories;  // JSON file of custom categories (docs/viewer.md), optional
  // Profile overlay: an ETDump path and how to read it (as `etviz profile`).
  std::string etdump, etrecord, method, source_unit, unit, block;
  bool stages = false;  // step through every stage / pass of the (single) document
  // JSON object {node name: partition name} (visualize_with_clusters' contract); optional.
  std::string groups;
  // Model Explorer node data JSON (`--node-data`): values and colours over the nodes.
  std::string node_data;
  bool compress = true;
  bool app = false;  // an app page: carries the WebAssembly readers (docs/app.md)
  // The app's worker: each file's uncompressed column bytes (PageOptions::column_bytes).
  std::vector<std::string>* column_bytes = nullptr;
  void (*progress)(const std::string&) = nullptr;
  std::vector<std::string> warnings;  // filled: profile join warnings, to show the user
};

struct PageInput {
  Document* doc = nullptr;  // the first may gain a graph (the union of its stages)
  std::string file_name;
  uint64_t file_size = 0;
};

// A runtime profile (ETDump) with the page's overlay settings over it, for the page and for
// `etviz export`'s heat colours: `overlay.stats` points into `session`, so the two stay
// together. `block`: the ETDump run to show (empty: Execute).
struct ProfileOverlaySession {
  ProfileSession session;
  render::html::ProfileOverlay overlay;
};
Result<std::unique_ptr<ProfileOverlaySession>> load_profile_overlay(
    const ProfileSessionOptions& load, const std::string& block, const Document& doc);

// A `--groups FILE.json` file: {node name: group name}; errors name the file. parse_partitions
// reads its bytes (the app's pairing tells a groups file by them, session/companions.h).
inline constexpr uint64_t kMaxGroupsFileBytes = 64u << 20;
Result<std::map<std::string, std::string>> load_partitions(const std::string& path);
Result<std::map<std::string, std::string>> parse_partitions(std::span<const uint8_t> bytes,
                                                            const std::string& path);

// The page; an error names the option or file that is wrong. `files` holds at least one.
Result<std::string> render_page(const std::vector<PageInput>& files, PageRequest& request,
                                render::html::PageStats* stats = nullptr);

}  // namespace etviz::session
