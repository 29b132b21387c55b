// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// EditError, why an answer or a batch record was rejected. In the build tree this forwards to
// the parser's header, which the parser's error rework owns; `cmake --install` installs that
// header itself under this name (cmake/Install.cmake), so consumers never see parser/.
#include "parser/python/error.hpp"  // IWYU pragma: export
