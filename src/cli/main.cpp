// etviz: explore ExecuTorch and torch.export artifacts. The command itself is cli::run
// (cli/run.h), shared with the Python module's `python -m etviz`.
#include "cli/run.h"

int main(int argc, char** argv) {
  return etviz::cli::run(argc, argv);
}
