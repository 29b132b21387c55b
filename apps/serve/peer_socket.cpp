// SPDX-License-Identifier: GPL-3.0-or-later
#include "apps/serve/peer_socket.hpp"

#include <arpa/inet.h>
#include <dirent.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>

#include <array>
#include <charconv>
#include <cstdlib>
#include <string_view>

namespace weightspace::serve {

namespace {

// The address and port of one end of `fd`, or port -1 when it is no IP socket.
struct End {
  std::string address;
  int port = -1;
};

End end_of(int fd, bool peer) {
  sockaddr_storage storage{};
  socklen_t length = sizeof storage;
  auto* address = reinterpret_cast<sockaddr*>(&storage);
  if ((peer ? ::getpeername(fd, address, &length) : ::getsockname(fd, address, &length)) != 0) return {};
  std::array<char, INET6_ADDRSTRLEN> text{};
  if (storage.ss_family == AF_INET) {
    const auto* ip = reinterpret_cast<const sockaddr_in*>(&storage);
    ::inet_ntop(AF_INET, &ip->sin_addr, text.data(), text.size());
    return {text.data(), ntohs(ip->sin_port)};
  }
  if (storage.ss_family == AF_INET6) {
    const auto* ip = reinterpret_cast<const sockaddr_in6*>(&storage);
    ::inet_ntop(AF_INET6, &ip->sin6_addr, text.data(), text.size());
    return {text.data(), ntohs(ip->sin6_port)};
  }
  return {};
}

bool matches(int fd, const std::string& remote_addr, int remote_port, int local_port) {
  if (end_of(fd, false).port != local_port) return false;
  const End peer = end_of(fd, true);
  return peer.port == remote_port && peer.address == remote_addr;
}

int scan(const std::string& remote_addr, int remote_port, int local_port) {
  DIR* folder = ::opendir("/proc/self/fd");
  if (folder == nullptr) return -1;
  int found = -1;
  while (const dirent* entry = ::readdir(folder)) {
    const std::string_view name = entry->d_name;
    int fd = -1;
    if (std::from_chars(name.data(), name.data() + name.size(), fd).ec != std::errc()) continue;
    if (matches(fd, remote_addr, remote_port, local_port)) {
      found = fd;
      break;
    }
  }
  ::closedir(folder);
  return found;
}

}  // namespace

PeerSocket PeerSocket::find(const std::string& remote_addr, int remote_port, int local_port) {
  // A keep-alive connection stays on its worker thread: its later requests find it here with
  // two system calls instead of a scan.
  thread_local int cached = -1;
  PeerSocket socket;
  if (cached >= 0 && matches(cached, remote_addr, remote_port, local_port)) {
    socket.fd_ = cached;
  } else {
    socket.fd_ = cached = scan(remote_addr, remote_port, local_port);
  }
  return socket;
}

bool PeerSocket::closed() const {
  if (fd_ < 0) return false;
  pollfd entry{fd_, POLLRDHUP, 0};
  if (::poll(&entry, 1, 0) <= 0) return false;
  return (entry.revents & (POLLRDHUP | POLLHUP | POLLERR | POLLNVAL)) != 0;
}

}  // namespace weightspace::serve
