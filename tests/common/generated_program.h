#pragma once
// A generated transformer-shaped program (tools/gen) written to a suite's scratch directory:
// shapes the corpus lacks (N identical blocks, delegated MLPs, exact QDQ counts), kept small by
// the spec's dims so a suite stays fast. Suites that include this link etviz_gen.
#include <gtest/gtest.h>

#include <string>

#include "test_support.h"
#include "transformer_model.h"

namespace etviz::test {

// Writes the program of `spec` to scratch_dir(suite)/file and returns its path; a write error is
// a test failure (the load that follows then fails with the reader's message too).
inline std::string write_transformer_program(const gen::TransformerSpec& spec,
                                             const std::string& suite, const std::string& file) {
  gen::ProgramBuilder builder;
  gen::build_transformer(builder, spec);
  const std::string path = scratch_dir(suite) + "/" + file;
  std::string error;
  EXPECT_TRUE(builder.write(path, {}, error)) << error;
  return path;
}

}  // namespace etviz::test
