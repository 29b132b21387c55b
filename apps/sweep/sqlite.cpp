// SPDX-License-Identifier: GPL-3.0-or-later
#include "apps/sweep/sqlite.hpp"

#include <sqlite3.h>
#include <sys/resource.h>
#include <sys/statvfs.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>

namespace weightspace::app::sqlite {

namespace {

std::string system_reason(sqlite3* handle) {
  const int error = handle != nullptr ? sqlite3_system_errno(handle) : 0;
  return error != 0 ? std::string(" (") + std::strerror(error) + ")" : "";
}

// SQLite keeps no errno for a full disk, and often a stale one for a failed write: what the
// user can act on is the space left beside the database and the process's file size limit.
std::string storage_note(const std::string& path) {
  std::string note;
  std::filesystem::path folder = std::filesystem::path(path).parent_path();
  if (folder.empty()) folder = ".";
  struct statvfs space{};
  if (::statvfs(folder.c_str(), &space) == 0) {
    note = std::to_string(static_cast<unsigned long long>(space.f_bavail) * space.f_frsize / 1024) +
           " KiB free on its file system";
  }
  struct rlimit limit{};
  if (::getrlimit(RLIMIT_FSIZE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY) {
    note += (note.empty() ? "" : ", ") + std::string("file size limit ") + std::to_string(limit.rlim_cur) + " bytes";
  }
  return note.empty() ? "" : " (" + note + ")";
}

// A store on a read-only file system (an archive, a snapshot, a read-only mount) is opened
// immutable: in WAL mode SQLite otherwise creates DATABASE-shm beside it even to read, and on
// such a file system fails with a misleading "No such file or directory" (issue 34). Only
// without a DATABASE-wal left beside it: an immutable open would ignore that file's transactions.
bool read_only_place(const std::string& path) {
  std::filesystem::path folder = std::filesystem::path(path).parent_path();
  if (folder.empty()) folder = ".";
  struct statvfs space{};
  std::error_code error;
  return ::statvfs(folder.c_str(), &space) == 0 && (space.f_flag & ST_RDONLY) != 0 &&
         !std::filesystem::exists(path + "-wal", error);
}

// An SQLite URI naming `path` as it is (RFC 3986 escapes for what a URI would read otherwise;
// an absolute path after an empty authority, so that "//x" is not read as a host).
std::string immutable_uri(const std::string& path) {
  std::string uri = path.starts_with('/') ? "file://" : "file:";
  for (const char c : path) {
    if (c == '%' || c == '?' || c == '#') {
      static constexpr char kHex[] = "0123456789ABCDEF";
      const auto byte = static_cast<unsigned char>(c);
      uri += {'%', kHex[byte >> 4], kHex[byte & 15]};
    } else {
      uri += c;
    }
  }
  return uri + "?immutable=1";
}

}  // namespace

Database::Database(const std::string& path, Mode mode) : path_(path) {
  std::error_code error;
  if (mode == Mode::Existing && !std::filesystem::exists(path, error)) {
    throw UsageError("no results database at " + path + " (a sweep creates it; --db names another)");
  }
  if (std::filesystem::is_directory(path, error)) throw UsageError("database " + path + " is a folder");
  int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_EXRESCODE | SQLITE_OPEN_NOMUTEX;
  if (mode == Mode::Create) flags |= SQLITE_OPEN_CREATE;
  std::string name = path;
  if (mode == Mode::Existing && read_only_place(path)) {
    flags = SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_EXRESCODE | SQLITE_OPEN_NOMUTEX;
    name = immutable_uri(path);
  }
  const int code = sqlite3_open_v2(name.c_str(), &handle_, flags, nullptr);
  if (code != SQLITE_OK) {
    const std::string reason = system_reason(handle_);
    sqlite3_close(handle_);
    handle_ = nullptr;
    throw CommandError("cannot open database " + path + ": " + sqlite3_errstr(code) + reason);
  }
  sqlite3_busy_timeout(handle_, static_cast<int>(kBusyTimeout.count()));
  sqlite3_extended_result_codes(handle_, 1);
}

Database::~Database() { sqlite3_close_v2(handle_); }

void Database::fail(int code, std::string_view doing) const {
  const std::string where = " (" + std::string(doing) + ")";
  switch (code & 0xff) {
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      throw CommandError("database " + path_ + " is locked by another process (waited " +
                         std::to_string(kBusyTimeout.count()) + " ms)" + where);
    case SQLITE_FULL:
      throw CommandError("database " + path_ + ": the disk or the database is full" + storage_note(path_) + where);
    case SQLITE_IOERR:
      throw CommandError("database " + path_ + ": input/output error" + storage_note(path_) + where);
    case SQLITE_NOTADB:
      throw UsageError(path_ + " is not an SQLite database" + where);
    case SQLITE_CORRUPT:
      throw CommandError("database " + path_ + " is corrupt: " + sqlite3_errmsg(handle_) + where);
    case SQLITE_READONLY:
      throw CommandError("database " + path_ + " is read-only" + system_reason(handle_) + where);
    case SQLITE_CANTOPEN:
      throw CommandError("cannot open database " + path_ + system_reason(handle_) + where);
    default:
      throw CommandError("database " + path_ + ": " + sqlite3_errmsg(handle_) + where);
  }
}

void Database::exec(const char* sql) {
  const int code = sqlite3_exec(handle_, sql, nullptr, nullptr, nullptr);
  if (code != SQLITE_OK) fail(code, std::string_view(sql).substr(0, 40));
}

Statement Database::prepare(std::string_view sql) { return Statement(*this, sql); }

std::int64_t Database::integer(const char* sql) {
  Statement statement(*this, sql);
  if (!statement.step()) fail(SQLITE_ERROR, std::string("no value from ") + sql);
  return statement.integer(0);
}

std::int64_t Database::last_insert_rowid() const { return sqlite3_last_insert_rowid(handle_); }

Statement::Statement(Database& database, std::string_view sql) : database_(database) {
  const int code = sqlite3_prepare_v2(database.handle_, sql.data(), static_cast<int>(sql.size()), &handle_, nullptr);
  if (code != SQLITE_OK) database.fail(code, "preparing " + std::string(sql.substr(0, 40)));
}

Statement::Statement(Statement&& other) noexcept : database_(other.database_), handle_(other.handle_) {
  other.handle_ = nullptr;
}

Statement::~Statement() { sqlite3_finalize(handle_); }

Statement& Statement::bind(int index, std::int64_t value) {
  const int code = sqlite3_bind_int64(handle_, index, value);
  if (code != SQLITE_OK) database_.fail(code, "binding a value");
  return *this;
}

Statement& Statement::bind(int index, double value) {
  if (std::isnan(value)) return bind(index, std::nullopt);
  const int code = sqlite3_bind_double(handle_, index, value);
  if (code != SQLITE_OK) database_.fail(code, "binding a value");
  return *this;
}

Statement& Statement::bind(int index, std::string_view value) {
  const int code = sqlite3_bind_text64(handle_, index, value.data(), value.size(), SQLITE_TRANSIENT, SQLITE_UTF8);
  if (code != SQLITE_OK) database_.fail(code, "binding a value");
  return *this;
}

Statement& Statement::bind(int index, std::nullopt_t) {
  const int code = sqlite3_bind_null(handle_, index);
  if (code != SQLITE_OK) database_.fail(code, "binding a value");
  return *this;
}

bool Statement::step() {
  const int code = sqlite3_step(handle_);
  if (code == SQLITE_ROW) return true;
  if (code == SQLITE_DONE) return false;
  // The statement stays usable: a caller that catches the error may reset and retry it.
  sqlite3_reset(handle_);
  database_.fail(code, std::string("running ") + std::string(sqlite3_sql(handle_)).substr(0, 40));
}

void Statement::run() {
  while (step()) {
  }
  reset();
}

void Statement::reset() {
  sqlite3_reset(handle_);
  sqlite3_clear_bindings(handle_);
}

bool Statement::is_null(int column) const { return sqlite3_column_type(handle_, column) == SQLITE_NULL; }

std::int64_t Statement::integer(int column) const { return sqlite3_column_int64(handle_, column); }

double Statement::real(int column) const {
  return is_null(column) ? std::numeric_limits<double>::quiet_NaN() : sqlite3_column_double(handle_, column);
}

std::string Statement::text(int column) const {
  const auto* bytes = reinterpret_cast<const char*>(sqlite3_column_text(handle_, column));
  return bytes == nullptr ? std::string() : std::string(bytes, static_cast<std::size_t>(sqlite3_column_bytes(handle_, column)));
}

std::optional<std::int64_t> Statement::optional_integer(int column) const {
  if (is_null(column)) return std::nullopt;
  return integer(column);
}

std::optional<std::string> Statement::optional_text(int column) const {
  if (is_null(column)) return std::nullopt;
  return text(column);
}

Transaction::Transaction(Database& database) : database_(database) { database_.exec("BEGIN IMMEDIATE"); }

Transaction::~Transaction() {
  // A failed statement may have rolled the transaction back already; ROLLBACK then reports an
  // error that says nothing new.
  if (open_) sqlite3_exec(database_.handle_, "ROLLBACK", nullptr, nullptr, nullptr);
}

void Transaction::commit() {
  database_.exec("COMMIT");
  open_ = false;
}

}  // namespace weightspace::app::sqlite
