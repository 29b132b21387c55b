// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The socket of the connection a request came on, to see whether its client is gone while
// the request waits for its grades. cpp-httplib 0.11 keeps that socket to itself, so it is
// found by the addresses the request carries (Linux: /proc/self/fd), once per connection and
// thread.

#include <string>

namespace weightspace::serve {

class PeerSocket {
 public:
  // The connected socket whose peer is remote_addr:remote_port and whose own port is
  // local_port; an unknown socket (never closed()) when there is none.
  static PeerSocket find(const std::string& remote_addr, int remote_port, int local_port);

  // Whether the peer has closed or reset the connection; never blocks, reads nothing.
  bool closed() const;
  bool known() const { return fd_ >= 0; }

 private:
  int fd_ = -1;
};

}  // namespace weightspace::serve
