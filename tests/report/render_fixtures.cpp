// SPDX-License-Identifier: GPL-3.0-or-later
// Renders the report fixtures for the browser test (check_report.js):
//   render_fixtures OUT_DIR [--large RECORDS [REGRESSIONS]]
// writes OUT_DIR/{sweep,first_run,empty,hostile}.html and OUT_DIR/hostile.literals.json (the
// strings the hostile page must show literally, for check_report.js --literals); with
// --large, only OUT_DIR/large.html, of RECORDS records (and REGRESSIONS regressions, default 3).
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "apps/report/report_html.hpp"
#include "report/fixtures.hpp"

namespace {

bool write_file(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  out.close();
  if (!out) {
    std::cerr << "render_fixtures: cannot write " << path << "\n";
    return false;
  }
  return true;
}

bool write(const std::string& path, const nlohmann::json& data) {
  return write_file(path, weightspace::render_report_html(data));
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2 && !((argc == 4 || argc == 5) && std::string(argv[2]) == "--large")) {
    std::cerr << "usage: render_fixtures OUT_DIR [--large RECORDS [REGRESSIONS]]\n";
    return 2;
  }
  const std::string dir = argv[1];
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  if (error) {
    std::cerr << "render_fixtures: cannot create " << dir << ": " << error.message() << "\n";
    return 1;
  }
  namespace fixtures = weightspace::report_fixtures;
  if (argc >= 4) {
    char* end = nullptr;
    const unsigned long long records = std::strtoull(argv[3], &end, 10);
    if (*end != '\0' || records == 0) {
      std::cerr << "render_fixtures: --large wants a positive record count, not '" << argv[3] << "'\n";
      return 2;
    }
    unsigned long long regressions = 3;
    if (argc == 5) {
      regressions = std::strtoull(argv[4], &end, 10);
      if (*end != '\0' || regressions > records) {
        std::cerr << "render_fixtures: REGRESSIONS must be a count of at most RECORDS, not '" << argv[4] << "'\n";
        return 2;
      }
    }
    return write(dir + "/large.html", fixtures::sweep(records, regressions)) ? 0 : 1;
  }
  const std::vector<std::string> literals(fixtures::kHostileStrings,
                                          fixtures::kHostileStrings + fixtures::kHostileStringCount);
  const bool ok = write(dir + "/sweep.html", fixtures::sweep(3000, 2)) &&
                  write(dir + "/first_run.html", fixtures::first_run(60)) &&
                  write(dir + "/empty.html", fixtures::empty()) && write(dir + "/hostile.html", fixtures::hostile()) &&
                  write_file(dir + "/hostile.literals.json", nlohmann::json(literals).dump());
  return ok ? 0 : 1;
}
