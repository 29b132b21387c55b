// SPDX-License-Identifier: GPL-3.0-or-later
#include "parser/python/names.hpp"

#include <cstdlib>
#include <memory>

#include <utf8proc.h>

namespace weightspace::python {

std::string nfkc_normalize(std::string_view name) {
  utf8proc_uint8_t* normalized = nullptr;
  const utf8proc_ssize_t length = utf8proc_map(
      reinterpret_cast<const utf8proc_uint8_t*>(name.data()),
      static_cast<utf8proc_ssize_t>(name.size()), &normalized,
      static_cast<utf8proc_option_t>(UTF8PROC_STABLE | UTF8PROC_COMPOSE | UTF8PROC_COMPAT));
  if (length < 0) return std::string(name);  // not reachable: identifiers are valid UTF-8
  const std::unique_ptr<utf8proc_uint8_t, decltype(&std::free)> owner(normalized, &std::free);
  return std::string(reinterpret_cast<const char*>(normalized), static_cast<std::size_t>(length));
}

}  // namespace weightspace::python
