// How compile-spec values are shown: text when printable, else a hex preview with the size.
#include <gtest/gtest.h>

#include "core/document.h"

namespace etviz::test {
namespace {

CompileSpec spec(std::string bytes) {
  CompileSpec cs;
  cs.key = "k";
  cs.value.assign(bytes.begin(), bytes.end());
  return cs;
}

TEST(CompileSpecDisplay, PrintableText) {
  EXPECT_EQ(spec("ethos-u55-128").display(), "ethos-u55-128");
}

TEST(CompileSpecDisplay, OneTrailingNulIsNotPartOfTheText) {
  EXPECT_EQ(spec(std::string("CPU\0", 4)).display(), "CPU");
}

TEST(CompileSpecDisplay, BinaryValuesShowAHexPreview) {
  EXPECT_EQ(spec(std::string("\x01\x02", 2)).display(), "<2 bytes: 0102>");
  EXPECT_EQ(spec(std::string("A\0\0", 3)).display(), "<3 bytes: 410000>");
  EXPECT_EQ(spec(std::string(20, '\x7f')).display().rfind("<20 bytes: 7f7f", 0), 0u);
}

}  // namespace
}  // namespace etviz::test
