#pragma once
// The options of `etviz view` that shape the page of files already chosen: a profile's
// method, block and units, an ETRecord's stages, categories, groups and node-data files, the
// profile and its record. One definition of each (its flag, its help, where it goes in a
// PageRequest): the CLI registers them with its parser (cli/cmd_view.cpp) and the app page
// (docs/app.md) lists the value options to the user and applies what they chose through
// apply_page_option, the files among them coming from the files dropped together
// (session/companions.h). So both take the same flags, with the same words and checks.
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"
#include "session/page_session.h"

namespace etviz::session {

struct PageOption {
  const char* flag;  // "--stages"
  const char* help;
  std::string PageRequest::*text = nullptr;  // a value option, or
  bool PageRequest::*set = nullptr;          // a flag
  // The value names a file: the app takes it from the files dropped together, by its bytes.
  bool file = false;
};

const std::vector<PageOption>& page_options();

// `flag` with `value` ("" for a flag, whose value is "true" or "" to clear it) into `request`;
// an error names an unknown flag.
Status apply_page_option(PageRequest& request, std::string_view flag, const std::string& value);

}  // namespace etviz::session
