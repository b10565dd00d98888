#pragma once
// The options of a view::Request (view/request.h), each defined once: its flag, its help,
// the commands that take it and where its value goes. `etviz view`, `etviz export` and
// `etviz profile` register them with their parsers (cli/cmd_*.cpp), the app page (docs/app.md)
// lists the value options and flags to the user and applies what they chose through
// apply_page_option (the files among them come from the files dropped together,
// session/companions.h), and Python takes them as keywords. So every output takes the same
// flags, with the same words and checks.
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"
#include "view/request.h"

namespace etviz::session {

// The commands an option belongs to.
enum Command : unsigned {
  kViewCommand = 1,     // `etviz view`, the app page, Python's visualize
  kExportCommand = 2,   // `etviz export`
  kProfileCommand = 4,  // `etviz profile`, Python's Inspector (ProfileRequest fields only)
};

struct PageOption {
  const char* flag;  // "--stages"
  const char* help;
  unsigned commands = 0;
  // Where its value goes: one of these.
  std::string view::Request::*text = nullptr;               // a value
  std::string view::ProfileRequest::*profile = nullptr;     // a value of Request::profile
  std::vector<std::string> view::Request::*list = nullptr;  // values, the flag repeated
  bool view::Request::*set = nullptr;                       // a flag
  // The value names a file: the app takes it from the files dropped together, by its bytes.
  bool file = false;
  std::string view::NumericsRequest::*numerics = nullptr;  // a value of Request::numerics

  bool takes(Command c) const { return (commands & c) != 0; }
  // A value the app offers in its panel and Python as a keyword: a text or a flag (a list
  // names files the app pairs and Python opens with the document).
  bool single() const { return text || profile || numerics || set; }
  // Where a text or profile option's value goes in `r`, else null.
  std::string* target(view::Request& r) const;
  std::string* target(view::ProfileRequest& p) const { return profile ? &(p.*profile) : nullptr; }
};

const std::vector<PageOption>& page_options();
// The option with this flag ("--tosa"); every flag asked for is in the table.
const PageOption& page_option(std::string_view flag);

// `flag` with `value` into `request` ("" for a flag, whose value is "true", or "" or "false"
// to clear it; a list option's value is appended); an error names an unknown flag.
Status apply_page_option(view::Request& request, std::string_view flag, const std::string& value);

// A profile's settings need its ETDump: an error listing the profile flags `command` takes
// when one is given without --etdump.
Status check_profile_flags(const view::Request& request, Command command);
// Numerics options need --reference, and --reference needs --etdump (the run).
Status check_numerics_flags(const view::Request& request);

}  // namespace etviz::session
