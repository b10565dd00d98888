#pragma once
// Writing an output file without harm (docs/limits.md, "Outputs"), for the CLI's -o and the
// Python module alike:
// - a file this process read (any name, symlink or hard link to it: MappedFile::open and
//   note_input_file) is never written;
// - one of the process's own descriptors by name (/dev/stdout, /dev/stderr, /dev/fd/N,
//   /proc/self/fd/N) is written through that descriptor, so a redirection's append mode and a
//   pipe stay what the shell made them;
// - an existing device, FIFO or socket is opened and written in place, never replaced;
// - a regular file or a new path is written to a temporary beside it and renamed into place:
//   complete or untouched. A replaced file keeps its mode (and owner where allowed); a new
//   one gets 0666 less the umask. SIGINT, SIGTERM and SIGHUP during the write remove the
//   temporary (then end the run as they would have, or call the handler the process had).
#include <string>
#include <string_view>

#include "core/status.h"

namespace etviz {

struct OutputFileOptions {
  // Refuse to write to a terminal (binary files: PNG, PDF, gzip).
  bool refuse_terminal = false;
};

// Writes `bytes` to `path` by the rules above. Errors name the path: "PATH: refusing to
// overwrite an input of this command; ...", "PATH: is a directory; ...", "PATH: write failed:
// REASON (nothing was written)".
Status write_output_file(const std::string& path, std::string_view bytes,
                         const OutputFileOptions& options = {});

// Writes all of `bytes` to descriptor `fd`, retrying short writes; false (errno set) on failure.
bool write_all(int fd, std::string_view bytes);

// The message for refusing a binary file on a terminal.
inline constexpr std::string_view kBinaryTerminalMessage =
    "refusing to write a binary file to the terminal; name it with -o FILE or redirect standard "
    "output";

}  // namespace etviz
