// Output and input hardening (the hostile-input issue): every JSON survives any bytes, no
// output replaces an input (by name, symlink or hard link), outputs are complete or absent,
// write failures are reported, and special files are refused without blocking.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "cli_run.h"
#include "test_support.h"

namespace etviz {
namespace {

namespace fs = std::filesystem;

const char* kKws =
    "pte/pytorch__executorch__examples__arduino__examples__KeywordSpotting__model.pte";

std::string bytes_of(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The KWS program with one byte of an operator name ("cortex_m::...") flipped to 0xFF.
std::string program_with_invalid_utf8(const std::string& dir) {
  std::string bytes = bytes_of(test::corpus(kKws));
  const auto at = bytes.find("cortex_m");
  EXPECT_NE(at, std::string::npos);
  bytes[at + 2] = static_cast<char>(0xFF);
  const std::string path = dir + "/bad_utf8.pte";
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

TEST(HostileOutput, EveryJsonReportSurvivesInvalidUtf8) {
  const std::string dir = test::scratch_dir("hostile");
  const std::string pte = program_with_invalid_utf8(dir);
  for (const std::string& args : {"delegation " + pte + " --format json", "info " + pte + " --json",
                                  "memory " + pte + " --format json",
                                  "diff " + pte + " " + test::corpus(kKws) + " --format json"}) {
    const auto r = test::run_etviz(args);
    ASSERT_EQ(r.exit_code, 0) << args << "\n" << r.err;
    const auto j = nlohmann::json::parse(r.out, nullptr, false);
    EXPECT_FALSE(j.is_discarded()) << args;
    // Reports that print operator names show the bad byte as U+FFFD (memory names tensors).
    if (args.rfind("memory", 0) != 0) {
      EXPECT_NE(r.out.find("\xEF\xBF\xBD"), std::string::npos) << args << ": U+FFFD in place";
    }
  }
}

// The KWS program with terminal escapes in an operator namespace ("cortex_m" -> clear screen,
// right-to-left override, carriage return) and in the method name ("forward" -> set the
// terminal title).
std::string program_with_escapes(const std::string& dir) {
  std::string bytes = bytes_of(test::corpus(kKws));
  auto patch = [&](const std::string& from, const std::string& to) {
    EXPECT_EQ(from.size(), to.size());
    for (size_t at = bytes.find(from); at != std::string::npos; at = bytes.find(from, at + 1))
      bytes.replace(at, from.size(), to);
  };
  patch("cortex_m", "\x1b[2J\xe2\x80\xae\r");
  patch("forward", "\x1b]0;pw\x07");
  const std::string path = dir + "/escapes.pte";
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

TEST(HostileOutput, TerminalEscapesInModelStringsAreShownEscaped) {
  const std::string dir = test::scratch_dir("hostile");
  const std::string pte = program_with_escapes(dir);
  const std::string etdump =
      test::corpus("etdp/pytorch__executorch__docs__source__tutorials_source__etdump.etdp");
  for (const std::string& args :
       {"info " + pte, "delegation " + pte, "delegation " + pte + " --format markdown",
        "delegation " + pte + " --format csv", "delegation " + pte + " --graph", "memory " + pte,
        "memory " + pte + " --format csv", "info " + pte + " --json",
        "delegation " + pte + " --format json", "info " + pte + " --method nope",
        "diff " + pte + " " + test::corpus(kKws), "profile " + etdump + " --pte " + pte}) {
    const auto r = test::run_etviz(args);
    for (const std::string* stream : {&r.out, &r.err}) {
      EXPECT_EQ(stream->find('\x1b'), std::string::npos) << args << ": raw ESC";
      EXPECT_EQ(stream->find('\x07'), std::string::npos) << args << ": raw BEL";
      EXPECT_EQ(stream->find('\r'), std::string::npos) << args << ": raw CR";
      EXPECT_EQ(stream->find("\xe2\x80\xae"), std::string::npos) << args << ": raw U+202E";
    }
    const std::string both = r.out + r.err;
    EXPECT_TRUE(both.find("\\x1b") != std::string::npos ||
                both.find("\\u001b") != std::string::npos)
        << args << ": the escape is shown\n"
        << both.substr(0, 400);
  }
}

// Pictures written to a terminal (`export -o -`): DOT and SVG carry the right-to-left override
// as a character reference (&#x202E;, the same character to Graphviz and to an SVG reader), the
// other controls as U+FFFD, so no raw control reaches the terminal.
TEST(HostileOutput, PicturesCarryNoRawControls) {
  const std::string dir = test::scratch_dir("hostile");
  const std::string pte = program_with_escapes(dir);
  for (const std::string format : {"dot", "svg"}) {
    const auto all = test::run_etviz("export " + pte + " --format " + format + " -o -");
    ASSERT_EQ(all.exit_code, 0) << format << "\n" << all.err;
    EXPECT_EQ(all.out.find("\xe2\x80\xae"), std::string::npos) << format << ": raw U+202E";
    EXPECT_EQ(all.out.find('\x1b'), std::string::npos) << format << ": raw ESC";
    EXPECT_EQ(all.out.find('\r'), std::string::npos) << format << ": raw CR";
    EXPECT_NE(all.out.find("&#x202E;"), std::string::npos) << format << ": the override is kept";
  }
}

TEST(HostileOutput, NoOutputReplacesAnInput) {
  const std::string dir = test::scratch_dir("hostile");
  const std::string pte = dir + "/model.pte";
  fs::copy_file(test::corpus(kKws), pte, fs::copy_options::overwrite_existing);
  const std::string original = bytes_of(pte);
  fs::remove(dir + "/link.pte");
  fs::create_symlink(pte, dir + "/link.pte");
  fs::remove(dir + "/hard.pte");
  fs::create_hard_link(pte, dir + "/hard.pte");
  const std::string etdump =
      test::corpus("etdp/pytorch__executorch__docs__source__tutorials_source__etdump.etdp");
  for (const std::string& out : {pte, dir + "/link.pte", dir + "/hard.pte", dir + "/./model.pte"}) {
    for (const std::string& cmd :
         {"view " + pte + " -o " + out, "info " + pte + " -o " + out,
          "delegation " + pte + " -o " + out, "memory " + pte + " -o " + out,
          "profile " + etdump + " --pte " + pte + " -o " + out}) {
      const auto r = test::run_etviz(cmd);
      EXPECT_EQ(r.exit_code, 1) << cmd;
      EXPECT_NE(r.err.find("refusing to overwrite an input"), std::string::npos) << cmd << "\n"
                                                                                 << r.err;
    }
  }
  EXPECT_EQ(bytes_of(pte), original);
  EXPECT_TRUE(fs::is_symlink(dir + "/link.pte"));
}

TEST(HostileOutput, WritesAreCompleteOrAbsentAndFailuresAreReported) {
  const std::string dir = test::scratch_dir("hostile");
  const std::string kws = test::corpus(kKws);
  const std::string page = dir + "/page.html";
  std::ofstream(page) << "previous contents";
  // A file size limit makes the write fail half way (as a full disk does): the old file stays,
  // no temporary is left, the command says so.
  const auto limited = test::run_shell("ulimit -f 8; trap '' XFSZ; " + test::etviz_binary() +
                                       " view " + kws + " -o " + page);
  EXPECT_EQ(limited.exit_code, 1) << limited.err;
  EXPECT_NE(limited.err.find("write failed"), std::string::npos) << limited.err;
  EXPECT_EQ(bytes_of(page), "previous contents");
  for (const auto& e : fs::directory_iterator(dir))
    EXPECT_EQ(e.path().filename().string().find(".page.html.etviz-"), std::string::npos)
        << e.path();
  // A full standard output is an error for every command, page included.
  for (const std::string& cmd :
       {"info " + kws, "view " + kws + " -o -", "delegation " + kws, "memory " + kws}) {
    const auto r = test::run_shell(test::etviz_binary() + " " + cmd + " > /dev/full");
    EXPECT_EQ(r.exit_code, 1) << cmd;
    EXPECT_NE(r.err.find("cannot write to standard output"), std::string::npos) << cmd << r.err;
  }
  // A directory is not an output file; a missing directory leaves nothing behind.
  EXPECT_EQ(test::run_etviz("info " + kws + " -o " + dir).exit_code, 1);
  EXPECT_EQ(test::run_etviz("info " + kws + " -o " + dir + "/missing/x.txt").exit_code, 1);
  EXPECT_FALSE(fs::exists(dir + "/missing"));
}

TEST(HostileOutput, SpecialFilesAreRefusedWithoutBlocking) {
  const std::string dir = test::scratch_dir("hostile");
  const std::string fifo = dir + "/fifo";
  fs::remove(fifo);
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const std::string kws = test::corpus(kKws);
  for (const std::string& cmd :
       {"info " + fifo, "view " + kws + " --data " + fifo + " -o " + dir + "/x.html",
        "view " + kws + " --categories " + fifo + " -o " + dir + "/x.html",
        "view " + kws + " --categories /dev/zero -o " + dir + "/x.html"}) {
    // `timeout` turns a hang into exit 124.
    const auto r = test::run_shell("timeout 10 " + test::etviz_binary() + " " + cmd);
    EXPECT_EQ(r.exit_code, 1) << cmd << "\n" << r.err;
    EXPECT_NE(r.err.find("not a regular file"), std::string::npos) << cmd << "\n" << r.err;
  }
}

// Model strings cannot run as spreadsheet formulas, forge lines or inject HTML: an operator
// namespace "cortex_m" patched to "=a<b>[\n]" (8 bytes).
TEST(HostileOutput, ReportsDefuseFormulasLinesAndHtml) {
  const std::string dir = test::scratch_dir("hostile");
  std::string bytes = bytes_of(test::corpus(kKws));
  for (size_t at = bytes.find("cortex_m"); at != std::string::npos;
       at = bytes.find("cortex_m", at + 1))
    bytes.replace(at, 8, "=a<b>[\n]");
  const std::string pte = dir + "/formula.pte";
  std::ofstream(pte, std::ios::binary) << bytes;
  const auto csv = test::run_etviz("delegation " + pte + " --format csv");
  ASSERT_EQ(csv.exit_code, 0) << csv.err;
  EXPECT_NE(csv.out.find("'=a<b>[\\n]"), std::string::npos) << csv.out;
  EXPECT_EQ(csv.out.find("\n=a"), std::string::npos) << csv.out;
  EXPECT_EQ(csv.out.find(",=a"), std::string::npos) << csv.out;
  const auto md = test::run_etviz("delegation " + pte + " --format markdown");
  ASSERT_EQ(md.exit_code, 0) << md.err;
  EXPECT_EQ(md.out.find("<b>"), std::string::npos) << md.out;
  EXPECT_NE(md.out.find("&lt;b&gt;\\["), std::string::npos) << md.out;
  const auto table = test::run_etviz("delegation " + pte);
  ASSERT_EQ(table.exit_code, 0) << table.err;
  EXPECT_NE(table.out.find("=a<b>[\\n]"), std::string::npos) << table.out;
  for (const std::string& out : {csv.out, md.out, table.out})
    EXPECT_EQ(out.find("[\n]"), std::string::npos) << "a model string forged a line";
}

// An output that is not a regular file is written in place, never replaced by a file: a FIFO's
// reader gets the bytes, /dev/stdout keeps the shell's append redirection, and the input check
// still applies through /dev/stdout.
TEST(HostileOutput, SpecialTargetsAreWrittenInPlace) {
  const std::string dir = test::scratch_dir("hostile");
  const std::string kws = test::corpus(kKws);
  const std::string expected = test::run_etviz("info " + kws).out;
  ASSERT_FALSE(expected.empty());
  // A FIFO: the reader gets the whole report and the FIFO stays a FIFO.
  const std::string fifo = dir + "/out.fifo";
  fs::remove(fifo);
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const std::string got = dir + "/from_fifo.txt";
  const auto r =
      test::run_shell("cat " + fifo + " > " + got + " & timeout 10 " + test::etviz_binary() +
                      " info " + kws + " -o " + fifo + "; s=$?; wait; exit $s");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(bytes_of(got), expected);
  EXPECT_TRUE(fs::is_fifo(fifo));
  // /dev/stdout into a pipe: the pipe gets the report.
  const auto piped = test::run_etviz("info " + kws + " -o /dev/stdout");
  EXPECT_EQ(piped.exit_code, 0) << piped.err;
  EXPECT_EQ(piped.out, expected);
  // /dev/stdout appended to a log: the log keeps its lines, the report follows them.
  const std::string log = dir + "/log.txt";
  std::ofstream(log) << "earlier line\n";
  for (const std::string name : {"/dev/stdout", "/proc/self/fd/1", "/dev/fd/1"}) {
    const auto appended =
        test::run_shell(test::etviz_binary() + " info " + kws + " -o " + name + " >> " + log);
    EXPECT_EQ(appended.exit_code, 0) << name << "\n" << appended.err;
  }
  EXPECT_EQ(bytes_of(log), "earlier line\n" + expected + expected + expected);
  // A device is opened, not replaced (as root, /dev/null would otherwise become a file).
  const auto null = test::run_etviz("info " + kws + " -o /dev/null");
  EXPECT_EQ(null.exit_code, 0) << null.err;
  EXPECT_TRUE(fs::is_character_file("/dev/null"));
  // Standard output redirected onto an input is still an input.
  const std::string pte = dir + "/in.pte";
  fs::copy_file(kws, pte, fs::copy_options::overwrite_existing);
  const auto onto_input =
      test::run_shell(test::etviz_binary() + " info " + pte + " -o /dev/stdout >> " + pte);
  EXPECT_EQ(onto_input.exit_code, 1);
  EXPECT_NE(onto_input.err.find("refusing to overwrite an input"), std::string::npos)
      << onto_input.err;
  EXPECT_EQ(bytes_of(pte), bytes_of(kws));
}

// A replaced file keeps its mode; a new one gets 0666 less the umask.
TEST(HostileOutput, ReplacedFileKeepsItsMode) {
  const std::string dir = test::scratch_dir("hostile");
  const std::string kws = test::corpus(kKws);
  const std::string secret = dir + "/secret.txt";
  std::ofstream(secret) << "old";
  ASSERT_EQ(::chmod(secret.c_str(), 0600), 0);
  const auto r = test::run_etviz("info " + kws + " -o " + secret);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  struct stat st {};
  ASSERT_EQ(::stat(secret.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0600u);
  EXPECT_NE(bytes_of(secret), "old");
  const std::string fresh = dir + "/fresh.txt";
  fs::remove(fresh);
  EXPECT_EQ(test::run_shell("umask 022; " + test::etviz_binary() + " info " + kws + " -o " + fresh)
                .exit_code,
            0);
  ASSERT_EQ(::stat(fresh.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0644u);
}

// SIGINT or SIGTERM half way through a write: the run ends by the signal, the target is as it
// was and no temporary is left beside it.
TEST(HostileOutput, InterruptedWriteLeavesNoTemporary) {
  const std::string dir = test::scratch_dir("hostile_signal");
  const std::string kws = test::corpus(kKws);
  const std::string page = dir + "/page.html";
  for (const std::string sig : {"INT", "TERM"}) {
    std::ofstream(page) << "previous contents";
    // The test hook holds the write for 5 s after its first bytes; the signal comes at 1 s. A
    // shell starts background commands with SIGINT ignored (which etviz keeps): env restores it.
    const auto r =
        test::run_shell("env --default-signal=INT ETVIZ_TEST_HOLD_WRITE_MS=5000 " +
                        test::etviz_binary() + " view " + kws + " -q -o " + page +
                        " & pid=$!; sleep 1; kill -" + sig + " $pid; wait $pid; echo $?");
    EXPECT_EQ(r.out, sig == "INT" ? "130\n" : "143\n") << r.err;
    EXPECT_EQ(bytes_of(page), "previous contents") << sig;
    for (const auto& e : fs::directory_iterator(dir))
      EXPECT_EQ(e.path().filename().string().find(".etviz-"), std::string::npos)
          << sig << ": " << e.path();
  }
}

// A program whose last segment the end of the file cuts off: every command shows what is there
// (report on stdout, page written), names the damage on stderr and exits 1.
TEST(HostileOutput, DamagedFilesShowTheRestAndExitOne) {
  const std::string dir = test::scratch_dir("hostile");
  const std::string whole = bytes_of(test::corpus(kKws));
  const std::string pte = dir + "/cut.pte";
  std::ofstream(pte, std::ios::binary) << whole.substr(0, whole.size() - 1000);
  const std::string page = dir + "/cut.html";
  for (const std::string& cmd :
       {"info " + pte, "info " + pte + " --json", "delegation " + pte, "size " + pte,
        "memory " + pte, "view " + pte + " -o " + page + " -q",
        "profile " +
            test::corpus("etdp/pytorch__executorch__docs__source__tutorials_source__etdump.etdp") +
            " --pte " + pte}) {
    const auto r = test::run_etviz(cmd);
    EXPECT_EQ(r.exit_code, 1) << cmd << "\n" << r.err;
    EXPECT_NE(r.err.find("etviz: error: " + pte + ": segment 0 (constants)"), std::string::npos)
        << cmd << "\n"
        << r.err;
    EXPECT_NE(r.err.find("1000 of its bytes are missing"), std::string::npos) << cmd << r.err;
    if (cmd.rfind("view", 0) != 0) {
      EXPECT_FALSE(r.out.empty()) << cmd << ": the report is printed";
    }
  }
  EXPECT_NE(test::run_etviz("info " + pte).out.find("quantized_conv2d"), std::string::npos)
      << "the operators are listed";
  ASSERT_TRUE(fs::exists(page));
  EXPECT_NE(bytes_of(page).find("<html"), std::string::npos);
}

}  // namespace
}  // namespace etviz
