// SPDX-License-Identifier: GPL-3.0-or-later
// Files embedded into the renderer at build time (apps/report/CMakeLists.txt runs
// cmake/EmbedFiles.cmake): the chart library as npm installed it from the lockfile in
// apps/report/web/, its licences, and the page's own script and style sheet.
#pragma once

#include <string_view>

namespace weightspace::report_assets {

extern const std::string_view kChartJs;             // chart.js/dist/chart.umd.min.js
extern const std::string_view kChartJsLicense;      // chart.js/LICENSE.md
extern const std::string_view kKurkleColorLicense;  // @kurkle/color, bundled inside Chart.js's UMD build
extern const std::string_view kReportJs;            // apps/report/web/report.js
extern const std::string_view kReportCss;           // apps/report/web/report.css

}  // namespace weightspace::report_assets
