// SPDX-License-Identifier: GPL-3.0-or-later
#include "apps/report/report_schema.hpp"

#include <cmath>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <string_view>

namespace weightspace::report {
namespace {

using nlohmann::json;

enum class Type { kString, kNumber, kInteger, kBoolean, kObject, kArray };

struct Field {
  std::string_view name;
  Type type;
  bool nullable = false;
};
constexpr bool kNullable = true;

[[noreturn]] void fail(const std::string& where, const std::string& what) {
  throw std::invalid_argument("report data: " + where + ": " + what);
}

const char* describe(Type type) {
  switch (type) {
    case Type::kString: return "a string";
    case Type::kNumber: return "a number";
    case Type::kInteger: return "an integer";
    case Type::kBoolean: return "true or false";
    case Type::kObject: return "an object";
    case Type::kArray: return "an array";
  }
  return "?";
}

bool has_type(const json& value, Type type) {
  switch (type) {
    case Type::kString: return value.is_string();
    case Type::kNumber: return value.is_number();
    case Type::kInteger: return value.is_number_integer();
    case Type::kBoolean: return value.is_boolean();
    case Type::kObject: return value.is_object();
    case Type::kArray: return value.is_array();
  }
  return false;
}

// A value of `type` (or null when allowed); numbers must be finite (a NaN from a division
// by zero upstream would otherwise print as "nan" and plot as nothing).
void check_value(const json& value, const std::string& where, Type type, bool nullable) {
  if (value.is_null() && nullable) return;
  if (!has_type(value, type)) {
    fail(where,
         std::string("expected ") + describe(type) + (nullable ? " or null" : "") + ", got " + value.type_name());
  }
  if (value.is_number_float() && !std::isfinite(value.get<double>())) fail(where, "not a finite number");
}

std::string member(const std::string& where, std::string_view name) {
  return where.empty() ? std::string(name) : where + "." + std::string(name);
}

void check_object(const json& object, const std::string& where, std::initializer_list<Field> fields) {
  if (!object.is_object()) fail(where, std::string("expected an object, got ") + object.type_name());
  for (const Field& field : fields) {
    const auto found = object.find(field.name);
    if (found == object.end()) fail(member(where, field.name), "missing");
    check_value(*found, member(where, field.name), field.type, field.nullable);
  }
}

// Calls check(element, "name[i]") for each element of the array data[name].
template <typename Check>
void check_each(const json& data, std::string_view name, Check check) {
  const json& array = data.at(std::string(name));
  for (std::size_t i = 0; i < array.size(); ++i) check(array[i], std::string(name) + "[" + std::to_string(i) + "]");
}

}  // namespace

void validate_report_data(const json& data) {
  if (!data.is_object()) {
    throw std::invalid_argument(std::string("report data: expected a JSON object, got ") + data.type_name());
  }
  check_object(data, "",
               {{"title", Type::kString},
                {"run", Type::kObject},
                {"baseline", Type::kObject, kNullable},
                {"totals", Type::kObject},
                {"regressions", Type::kArray},
                {"answers_edited", Type::kArray},
                {"groups", Type::kArray},
                {"distributions", Type::kArray},
                {"trend", Type::kArray},
                {"speed", Type::kArray},
                {"speed_judgement", Type::kObject},
                {"records", Type::kArray}});
  check_object(data["run"], "run",
               {{"id", Type::kInteger},
                {"started_at", Type::kString},
                {"finished_at", Type::kString, kNullable},
                {"duration_seconds", Type::kNumber, kNullable},
                {"status", Type::kString},
                {"version", Type::kString},
                {"git_revision", Type::kString, kNullable},
                {"machine", Type::kObject},
                {"config_path", Type::kString, kNullable}});
  check_object(data["run"]["machine"], "run.machine",
               {{"cpu_model", Type::kString, kNullable},
                {"cores", Type::kInteger, kNullable},
                {"simd", Type::kString, kNullable},
                {"hostname", Type::kString, kNullable}});
  if (!data["baseline"].is_null()) {
    check_object(data["baseline"], "baseline",
                 {{"id", Type::kInteger}, {"started_at", Type::kString}, {"version", Type::kString}});
  }
  check_object(data["totals"], "totals",
               {{"records", Type::kInteger},
                {"failed", Type::kInteger},
                {"cached", Type::kInteger},
                {"steps", Type::kInteger},
                {"seconds", Type::kNumber},
                {"records_per_second", Type::kNumber, kNullable}});
  check_each(data, "regressions", [](const json& regression, const std::string& where) {
    check_object(regression, where,
                 {{"kind", Type::kString},
                  {"id", Type::kString, kNullable},
                  {"game", Type::kString, kNullable},
                  {"source", Type::kString, kNullable},
                  {"episodes", Type::kInteger, kNullable},
                  {"detail", Type::kString}});
  });
  check_each(data, "answers_edited", [](const json& edit, const std::string& where) {
    check_object(edit, where,
                 {{"id", Type::kString},
                  {"game", Type::kString},
                  {"source", Type::kString},
                  {"episodes", Type::kInteger},
                  {"baseline_score", Type::kNumber, kNullable},
                  {"score", Type::kNumber, kNullable},
                  {"detail", Type::kString}});
  });
  check_each(data, "groups", [](const json& group, const std::string& where) {
    check_object(group, where,
                 {{"game", Type::kString},
                  {"source", Type::kString},
                  {"episodes", Type::kInteger},
                  {"records", Type::kInteger},
                  {"failed", Type::kInteger},
                  {"mean_score", Type::kNumber, kNullable},
                  {"baseline_mean_score", Type::kNumber, kNullable},
                  {"steps_per_second", Type::kNumber, kNullable}});
  });
  check_each(data, "distributions", [](const json& distribution, const std::string& where) {
    check_object(distribution, where, {{"game", Type::kString}, {"source", Type::kString}, {"scores", Type::kArray}});
    check_each(distribution, "scores", [&](const json& score, const std::string& index) {
      check_value(score, where + "." + index, Type::kNumber, false);
    });
  });
  check_each(data, "trend", [](const json& run, const std::string& where) {
    check_object(run, where,
                 {{"run_id", Type::kInteger},
                  {"started_at", Type::kString},
                  {"mean_scores", Type::kObject},
                  {"steps_per_second", Type::kNumber, kNullable},
                  {"threads", Type::kInteger, kNullable}});
    for (const auto& [key, score] : run["mean_scores"].items()) {
      check_value(score, where + ".mean_scores[\"" + key + "\"]", Type::kNumber, kNullable);
    }
  });
  check_each(data, "speed", [](const json& point, const std::string& where) {
    check_object(point, where,
                 {{"threads", Type::kInteger},
                  {"steps_per_second", Type::kNumber},
                  {"interval", Type::kArray},
                  {"repetitions", Type::kInteger},
                  {"verdict", Type::kString, kNullable},
                  {"steps_per_cpu_second", Type::kNumber, kNullable},
                  {"cpu_interval", Type::kArray, kNullable},
                  {"cpu_verdict", Type::kString, kNullable}});
    for (const char* key : {"interval", "cpu_interval"}) {
      const json& interval = point[key];
      if (interval.is_null()) continue;
      if (interval.size() != 2) fail(where + "." + key, "expected [low, high]");
      for (const json& bound : interval) check_value(bound, where + "." + key, Type::kNumber, kNullable);
    }
  });
  check_object(data.at("speed_judgement"), "speed_judgement",
               {{"note", Type::kString},
                {"instructions", Type::kInteger, kNullable},
                {"instructions_verdict", Type::kString, kNullable}});
  check_each(data, "records", [](const json& record, const std::string& where) {
    check_object(record, where,
                 {{"id", Type::kString},
                  {"input", Type::kString},
                  {"game", Type::kString},
                  {"source", Type::kString},
                  {"episodes", Type::kInteger},
                  {"normalized_score", Type::kNumber, kNullable},
                  {"error_kind", Type::kString, kNullable},
                  {"error_line", Type::kInteger, kNullable},
                  {"error_column", Type::kInteger, kNullable},
                  {"error", Type::kString, kNullable},
                  {"steps", Type::kInteger, kNullable},
                  {"seconds", Type::kNumber, kNullable},
                  {"cached", Type::kBoolean},
                  {"refused", Type::kBoolean},
                  {"changed", Type::kBoolean},
                  {"baseline_score", Type::kNumber, kNullable}});
  });
}

}  // namespace weightspace::report
