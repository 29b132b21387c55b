// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include <weightspace/batch_grader.hpp>

#include "parser/python/error.hpp"

namespace weightspace::app {

// One line of `weightspace batch` output (without the newline): a JSON object whose "reward"
// member is verbatim the reward.json text verify.py writes, so json.dumps(line["reward"]) is
// that text. Keys, in order: id, input, game, source, episodes, reward, weights_sha256,
// error_kind, error_line, error_column, refused (only on a record refused for a limit of this
// machine: true), cached, weightspace_version, and with timings seconds, steps.
std::string batch_line(const BatchResult& result, bool timings);

// A line batch_line wrote, read back (a resumed run); throws EditError saying what is wrong
// with any other text. The reward member must be exactly as weightspace writes it.
// `timings`: whether the line has the timing members. A line of another weightspace version is
// refused unless `version` is given (`weightspace compare`), which then receives that version.
BatchResult parse_batch_line(std::string_view line, bool& timings, std::string* version = nullptr);

// Whether a result written earlier is that of `record` (same id, input, game, source and
// episodes): what a resumed run checks before it skips the record.
bool same_record(const BatchResult& written, const BatchRecord& record);

// The --csv table: the header and one row per result (RFC 4180 quoting, CRLF-free: rows end
// in \n). Floats are Python's repr.
std::string csv_header(bool timings);
std::string csv_row(const BatchResult& result, bool timings);

// The --rewards-dir file of the record on output line `line` (1-based): the line number,
// then the id, game, source and episodes, with anything but [A-Za-z0-9._-] as '_'.
std::string reward_file_name(std::uint64_t line, const BatchResult& result);

// The text of a record id as batch_line writes it (a JSON string or integer).
std::string id_text(std::string_view id_json);

}  // namespace weightspace::app
