// SPDX-License-Identifier: GPL-3.0-or-later
// `weightspace parse`: what the grader makes of an answer, without playing it.
#include <CLI/CLI.hpp>

#include <iostream>

#include <nlohmann/json.hpp>

#include "apps/batch/answer_input.hpp"
#include "apps/commands/commands.hpp"
#include "apps/cli/files.hpp"
#include "apps/batch/weights_json.hpp"
#include "parser/answer.hpp"
#include "parser/numpy/apply_edits.hpp"

namespace weightspace::app {

void add_parse_command(CLI::App& app) {
  struct Options {
    AnswerSource source;
    std::string weights_out;
  };
  auto options = std::make_shared<Options>();
  auto* command = app.add_subcommand("parse", "Parse an answer's edits block; print the outcome as JSON");
  options->source.add_options(*command);
  command->add_option("--weights-out", options->weights_out, "Write the weights JSON here (on success)");
  command->callback([options] {
    const AnswerSource::Loaded loaded = options->source.load();
    nlohmann::ordered_json out;
    std::optional<EditError> error = loaded.error;
    std::optional<ParsedAnswer> parsed;
    if (!error) {
      parsed = parse_answer(loaded.answer);
      if (!parsed->success) error = parsed->error;
    }
    out["parse_success"] = !error.has_value();
    if (!error) {
      out["edit_count"] = parsed->edit_count;
      out["nonzero_weights"] = parsed->nonzero_weights;
      out["weights_sha256"] = weights_sha256(parsed->weights);
      if (!options->weights_out.empty()) write_file(options->weights_out, write_weights_json(parsed->weights));
    } else {
      out["error"] = error->what();
      out["error_kind"] = error->kind();
      if (error->line() > 0) {
        out["line"] = error->line();
        out["column"] = error->column();
      }
      out["python_grader_crashes"] = loaded.error.has_value() || error->python_grader_crashes();
    }
    std::cout << out.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
  });
}

}  // namespace weightspace::app
