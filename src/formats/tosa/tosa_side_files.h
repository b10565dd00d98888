#pragma once
// TOSA files given beside a program (`--tosa FILE|DIR`, OpenOptions::tosa_files, `tosa=` in
// Python, dropped together in the app): each is the graph the Arm compiler wrote for one
// delegate before Vela compiled it away, and is attached to the delegate whose inputs and
// outputs it matches (count, then per position dtype and shape), never by position in the list:
// Arm names the files by partition tag, which does not follow delegate order.
//
// Only Arm delegates whose payload shows no operators are candidates (EthosUBackend and the
// legacy ArmBackend id; VgfBackend and TOSABackend payloads that could not be decoded). When
// several files or delegates share the same inputs and outputs, files are paired with
// delegates in the order given and both are reported as ambiguous. Files that attach nowhere
// (no delegate with those inputs and outputs, every matching delegate taken, not a TOSA file,
// damaged) are listed with the reason; the program opens either way. Document::side_files
// records every file, Document::diagnostics says the same in words.
//
// An attached file's graph becomes the delegate's subgraph (the delegation report counts its
// operators as delegated); the command-stream summary the Ethos-U decoder found stays on it as
// attributes (NPU operation histogram beside `tosa_operations`).
#include <string>
#include <vector>

#include "core/document.h"
#include "core/status.h"

namespace etviz::tosa {

// The files `paths` name: files as given, directories as their *.tosa files in name order.
// Fails for a path that does not exist.
Result<std::vector<std::string>> expand_tosa_paths(const std::vector<std::string>& paths);

// Attaches the files (see above). Fails only when a path cannot be opened at all.
Status attach_tosa_files(Document& doc, const std::vector<std::string>& paths);

}  // namespace etviz::tosa
