#pragma once
// What a user asks to see of files already chosen: how to show them (categories, groups),
// what to lay over them (a runtime profile, node data) and which graph. One request for every
// shown output: the page (`etviz view`, the app page, Python's visualize) and pictures (`etviz
// export`) are resolved from it by one session call (session/view_session.h). Its flags are
// defined once, in session/page_options.h.
#include <string>
#include <vector>

namespace etviz::view {

// A runtime profile (ETDump) and how to read it, as `etviz profile` reads one.
struct ProfileRequest {
  std::string etdump;       // .etdp; empty: no profile
  std::string etrecord;     // its ETRecord (module paths, delegate maps), optional
  std::string method;       // the method that ran; empty: the graph the view opens on
                            // (Request::graph, else Document::default_graph())
  std::string source_unit;  // what one tick is ("ns", ...); empty: raw ticks
  std::string unit;         // the unit shown; microseconds when source_unit is given
  std::string block;        // the event block shown; empty: Execute, else the longest
};

// Numerics over the profile's run (ProfileRequest::etdump): its intermediate outputs against a
// reference's, per node (session/numerics_session.h, docs/numerics.md).
struct NumericsRequest {
  std::string debug_buffer;            // the run's debug buffer
  std::string reference;               // another run's .etdp, or a bundled program (.bpte)
  std::string reference_debug_buffer;  // the reference run's debug buffer
  std::string threshold;               // METRIC=VALUE[,METRIC=VALUE...]; empty: snr=20
};

struct Request {
  std::vector<std::string> data;  // FlatTensor files (.ptd) of the first file's program
  std::vector<std::string> tosa;  // TOSA files or directories of its Arm delegates
  std::string categories;         // JSON categories and colours (docs/viewer.md)
  std::string groups;             // JSON {node name: group name}
  std::string node_data;          // Model Explorer node data JSON
  ProfileRequest profile;
  NumericsRequest numerics;  // with profile.etdump, the run
  // The graph to open on or draw, by name (a method, stage or graph); empty: the first file's
  // Document::default_graph().
  std::string graph;
  bool stages = false;  // step through every stage / pass of the (single) document
};

}  // namespace etviz::view
