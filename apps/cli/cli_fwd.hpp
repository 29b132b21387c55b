// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// CLI::App declared for headers that only name it. <CLI/CLI.hpp> (CLI11 2.1) defines its
// validators (ExistingFile, PositiveNumber, ...) as const objects at namespace scope, so every
// translation unit that includes it constructs its own copies when the process starts; only
// the files that build options include it (docs/performance.md, "the process floor, round two").
namespace CLI {
class App;
}  // namespace CLI
