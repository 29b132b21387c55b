// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "apps/cli/errors.hpp"

struct sqlite3;
struct sqlite3_stmt;

// A thin RAII layer over SQLite's C API: a connection, prepared statements with bound
// parameters (values never enter SQL text), and transactions that roll back unless committed.
// Every failure is a CommandError that names the database file and says what happened in
// words a user can act on (locked, disk full, not a database), never a bare result code.
namespace weightspace::app::sqlite {

// How long a statement waits for another connection's lock before it reports "locked".
inline constexpr std::chrono::milliseconds kBusyTimeout{2000};

class Statement;

class Database {
 public:
  enum class Mode {
    Create,    // read-write, created when missing
    Existing,  // read-write; a missing file is a UsageError
  };
  Database(const std::string& path, Mode mode);
  ~Database();
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;

  // SQL without values: schema, pragmas, BEGIN/COMMIT.
  void exec(const char* sql);
  Statement prepare(std::string_view sql);
  // The single value of a query such as "PRAGMA user_version".
  std::int64_t integer(const char* sql);

  std::int64_t last_insert_rowid() const;
  const std::string& path() const { return path_; }
  // Throws the CommandError for SQLite result `code` met while `doing` something.
  [[noreturn]] void fail(int code, std::string_view doing) const;

 private:
  friend class Statement;
  friend class Transaction;
  sqlite3* handle_ = nullptr;
  std::string path_;
};

class Statement {
 public:
  Statement(Database& database, std::string_view sql);
  ~Statement();
  Statement(Statement&& other) noexcept;
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;
  Statement& operator=(Statement&&) = delete;

  // Parameters are 1-based, as in SQLite. NaN binds as NULL (SQLite's REAL has no NaN).
  Statement& bind(int index, std::int64_t value);
  Statement& bind(int index, int value) { return bind(index, std::int64_t{value}); }
  Statement& bind(int index, bool value) { return bind(index, std::int64_t{value ? 1 : 0}); }
  Statement& bind(int index, double value);
  Statement& bind(int index, std::string_view value);
  Statement& bind(int index, const std::string& value) { return bind(index, std::string_view(value)); }
  Statement& bind(int index, const char* value) { return bind(index, std::string_view(value)); }
  Statement& bind(int index, std::nullopt_t);
  template <class T>
  Statement& bind(int index, const std::optional<T>& value) {
    return value ? bind(index, *value) : bind(index, std::nullopt);
  }
  // bind(1, a), bind(2, b), ...
  template <class... T>
  Statement& bind_all(const T&... values) {
    int index = 0;
    (bind(++index, values), ...);
    return *this;
  }

  // Advances to the next row: true while there is one.
  bool step();
  // Runs a statement that returns no rows, then resets it for the next bindings.
  void run();
  void reset();

  bool is_null(int column) const;
  std::int64_t integer(int column) const;
  double real(int column) const;  // NULL reads as NaN
  std::string text(int column) const;
  std::optional<std::string> optional_text(int column) const;
  std::optional<std::int64_t> optional_integer(int column) const;

 private:
  Database& database_;
  sqlite3_stmt* handle_ = nullptr;
};

// BEGIN IMMEDIATE: the write lock is taken at once (waiting up to kBusyTimeout), so a
// transaction never fails half-way for want of it. Rolled back unless commit() is reached.
class Transaction {
 public:
  explicit Transaction(Database& database);
  ~Transaction();
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;
  void commit();

 private:
  Database& database_;
  bool open_ = true;
};

}  // namespace weightspace::app::sqlite
