// SPDX-License-Identifier: GPL-3.0-or-later
// spdlog's own definitions, compiled once for the executable (WEIGHTSPACE_STATIC_DEPS). Debian
// ships spdlog as a shared library or as headers only; header-only, every translation unit that
// logs compiled the logger, registry, sinks and pattern formatter again (about 8 s each at -O3,
// some 30 units). Here they are compiled once, as spdlog's own compiled build does
// (SPDLOG_COMPILED_LIB: the headers declare, the -inl.h files define), and the executable still
// loads no libspdlog.so. Only what apps/ uses is instantiated: a link error names anything new.
#ifndef SPDLOG_COMPILED_LIB
#error "compile with SPDLOG_COMPILED_LIB"
#endif

#include <mutex>

#include <spdlog/async.h>
#include <spdlog/common-inl.h>
#include <spdlog/details/backtracer-inl.h>
#include <spdlog/details/file_helper-inl.h>
#include <spdlog/details/log_msg-inl.h>
#include <spdlog/details/log_msg_buffer-inl.h>
#include <spdlog/details/null_mutex.h>
#include <spdlog/details/os-inl.h>
#include <spdlog/details/periodic_worker-inl.h>
#include <spdlog/details/registry-inl.h>
#include <spdlog/logger-inl.h>
#include <spdlog/pattern_formatter-inl.h>
#include <spdlog/sinks/ansicolor_sink-inl.h>
#include <spdlog/sinks/base_sink-inl.h>
#include <spdlog/sinks/sink-inl.h>
#include <spdlog/sinks/stdout_color_sinks-inl.h>
#include <spdlog/sinks/stdout_sinks-inl.h>
#include <spdlog/spdlog-inl.h>

// The templates the headers only declare under SPDLOG_COMPILED_LIB.
template class SPDLOG_API spdlog::sinks::base_sink<std::mutex>;
template class SPDLOG_API spdlog::sinks::base_sink<spdlog::details::null_mutex>;
template class SPDLOG_API spdlog::sinks::ansicolor_sink<spdlog::details::console_mutex>;
template class SPDLOG_API spdlog::sinks::ansicolor_sink<spdlog::details::console_nullmutex>;
template class SPDLOG_API spdlog::sinks::ansicolor_stdout_sink<spdlog::details::console_mutex>;
template class SPDLOG_API spdlog::sinks::ansicolor_stderr_sink<spdlog::details::console_mutex>;
template SPDLOG_API std::shared_ptr<spdlog::logger>
spdlog::stderr_color_mt<spdlog::synchronous_factory>(const std::string &logger_name, color_mode mode);
