// SPDX-License-Identifier: GPL-3.0-or-later
#include "apps/serve/http_server.hpp"

#include <httplib.h>
#include <sys/socket.h>

#include <algorithm>
#include <charconv>
#include <functional>
#include <optional>
#include <stdexcept>
#include <utility>
#include <vector>

#include "apps/serve/peer_socket.hpp"

namespace weightspace::serve {

namespace {

using Clock = std::chrono::steady_clock;
constexpr const char* kJson = "application/json";
constexpr const char* kNdjson = "application/x-ndjson";
// How often a waiting request looks whether its client is still there.
constexpr std::chrono::milliseconds kPoll{50};

// Why a request stopped waiting for its results.
enum class Outcome { done, gone, late, stopped };

// 499: the client closed the connection first (nginx's code; nobody reads the answer).
int status_of(Outcome outcome) {
  switch (outcome) {
    case Outcome::done: return 200;
    case Outcome::gone: return 499;
    case Outcome::late: return 504;
    case Outcome::stopped: return 503;
  }
  return 500;
}

std::string message_of(Outcome outcome) {
  switch (outcome) {
    case Outcome::late: return "the request's deadline passed before its grades were done";
    case Outcome::stopped: return "the server is shutting down";
    default: return "";
  }
}

// cpp-httplib 0.11 listens with a backlog of 5 (CPPHTTPLIB_LISTEN_BACKLOG, fixed when Debian
// compiled it): 64 clients connecting at once overflowed it, and the kernel reset connections
// whose handshake it had completed with SYN cookies. The listening socket is a protected member,
// and listen() again on it only changes the backlog.
class HttpServer : public httplib::Server {
 public:
  void set_backlog(int backlog) { ::listen(svr_sock_, backlog); }
};

}  // namespace

struct Server::Impl {
  ServerOptions options;
  GradingService service;
  Metrics metrics;
  HttpServer http;
  std::atomic<bool> draining{false};

  explicit Impl(ServerOptions chosen) : options(std::move(chosen)), service(options.service) { routes(); }

  using Response = httplib::Response;
  using Request = httplib::Request;

  static void answer(Response& res, int status, const std::string& body, const char* type = kJson) {
    res.status = status;
    res.set_content(body, type);
  }
  static void refuse(Response& res, int status, const std::string& message) {
    answer(res, status, error_json(message));
  }

  // The next result of `ticket`, waiting no later than the deadline and no longer than the
  // client stays connected; a request that stops waiting cancels its records not yet started.
  // The peer is asked after every result too (one poll(2), no wait): records quicker than kPoll
  // would otherwise keep a gone client's request grading to its end.
  static std::optional<BatchResult> await(Ticket& ticket, const PeerSocket& peer, Clock::time_point deadline,
                                          Outcome& outcome) {
    for (;;) {
      const Clock::time_point until = std::min(deadline, Clock::now() + kPoll);
      std::optional<BatchResult> result = ticket.next(until);
      const bool gone = peer.closed();
      if (result && !gone) return result;
      if (ticket.cancelled()) {
        outcome = Outcome::stopped;
      } else if (gone) {
        outcome = Outcome::gone;
      } else if (Clock::now() >= deadline) {
        outcome = Outcome::late;
      } else {
        continue;
      }
      ticket.cancel();
      return std::nullopt;
    }
  }

  // The body, read no further than the limit: a declared length above it is refused before a
  // byte of the body is read, a chunked body as soon as it passes it.
  std::string read_body(const Request& req, const httplib::ContentReader& reader) {
    const std::size_t limit = options.max_request_bytes;
    const std::string too_large = "the request body is larger than --max-request-bytes (" + std::to_string(limit) +
                                  " bytes)";
    if (req.has_header("Content-Length")) {
      const std::string declared = req.get_header_value("Content-Length");
      std::size_t length = 0;
      const auto [end, error] = std::from_chars(declared.data(), declared.data() + declared.size(), length);
      if (error == std::errc::result_out_of_range || (error == std::errc() && length > limit)) {
        throw RequestError(413, too_large);
      }
      if (error != std::errc() || end != declared.data() + declared.size()) {
        throw RequestError(400, "Content-Length is no number: " + declared);
      }
    }
    std::string body;
    bool over = false;
    reader([&](const char* data, std::size_t length) {
      over = body.size() + length > limit;
      if (!over) body.append(data, length);
      return !over;
    });
    if (over) throw RequestError(413, too_large);
    return body;
  }

  std::shared_ptr<Ticket> submit(std::vector<BatchRecord> records) {
    if (draining.load()) throw RequestError(503, "the server is shutting down");
    // A request larger than the whole queue would never fit: retrying cannot help.
    if (records.size() > service.capacity()) {
      throw RequestError(413, std::to_string(records.size()) + " records in one request; --queue holds " +
                                  std::to_string(service.capacity()));
    }
    std::shared_ptr<Ticket> ticket = service.submit(std::move(records));
    if (!ticket) throw RequestError(503, "the grading queue is full; retry later");
    return ticket;
  }

  // Every result of the ticket, in order, or why not.
  static Outcome collect(Ticket& ticket, const PeerSocket& peer, Clock::time_point deadline,
                         std::vector<BatchResult>& results) {
    Outcome outcome = Outcome::done;
    while (results.size() < ticket.size()) {
      std::optional<BatchResult> result = await(ticket, peer, deadline, outcome);
      if (!result) return outcome;
      results.push_back(std::move(*result));
    }
    return outcome;
  }

  enum class Route { grade, grade_many, get_reward };

  int post(Route route, const Request& req, Response& res, const std::string& body, Clock::time_point start) {
    const nlohmann::json json = parse_body(body);
    std::vector<BatchRecord> records;
    switch (route) {
      case Route::grade: records.push_back(grade_record(json, options.defaults)); break;
      case Route::grade_many: records = grade_many_records(json, options.defaults); break;
      case Route::get_reward: records = reward_records(json, options.defaults); break;
    }
    std::shared_ptr<Ticket> ticket = submit(std::move(records));
    const Clock::time_point deadline = start + options.deadline;
    const PeerSocket peer = PeerSocket::find(req.remote_addr, req.remote_port, req.local_port);
    if (route == Route::grade_many && req.get_header_value("Accept").find(kNdjson) != std::string::npos) {
      stream(std::move(ticket), peer, deadline, res, start);
      return 0;  // recorded when the stream ends
    }
    std::vector<BatchResult> results;
    const Outcome outcome = collect(*ticket, peer, deadline, results);
    if (outcome != Outcome::done) {
      refuse(res, status_of(outcome), message_of(outcome));
      return res.status;
    }
    std::string text;
    if (route == Route::grade) {
      text = result_json(results.front());
    } else if (route == Route::get_reward) {
      text = rewards_json(results);
    } else {
      text = "{\"results\": [";
      for (std::size_t index = 0; index < results.size(); ++index) {
        text += (index > 0 ? ", " : "") + result_json(results[index]);
      }
      text += "]}";
    }
    answer(res, 200, text);
    return 200;
  }

  // NDJSON: one result_json line per record as it is done; a request that cannot finish ends
  // with an {"error": ...} line (the 200 status went out with the first line).
  void stream(std::shared_ptr<Ticket> ticket, PeerSocket peer, Clock::time_point deadline, Response& res,
              Clock::time_point start) {
    struct Stream {
      std::shared_ptr<Ticket> ticket;
      std::size_t sent = 0;
      Outcome outcome = Outcome::done;
    };
    auto state = std::make_shared<Stream>(Stream{std::move(ticket)});
    res.status = 200;
    res.set_chunked_content_provider(
        kNdjson,
        [state, peer, deadline](std::size_t, httplib::DataSink& sink) {
          std::optional<BatchResult> result = await(*state->ticket, peer, deadline, state->outcome);
          if (!result && state->outcome == Outcome::gone) return false;
          const std::string line = (result ? result_json(*result) : error_json(message_of(state->outcome))) + "\n";
          if (!sink.write(line.data(), line.size())) return false;
          if (!result || ++state->sent == state->ticket->size()) sink.done();
          return true;
        },
        [this, state, start](bool success) {
          if (!success && state->outcome == Outcome::done) state->outcome = Outcome::gone;
          state->ticket->cancel();  // a client gone mid-stream leaves nothing queued
          metrics.record("/v1/grade_many", status_of(state->outcome),
                         std::chrono::duration<double>(Clock::now() - start).count());
        });
  }

  void handle_post(const std::string& endpoint, Route route, const Request& req, Response& res,
                   const httplib::ContentReader& reader) {
    const Clock::time_point start = Clock::now();
    int status = 0;
    std::string body;
    try {
      body = read_body(req, reader);
    } catch (const RequestError& error) {
      refuse(res, error.status(), error.what());
      // The rest of the body is never read: the connection cannot carry another request.
      res.set_header("Connection", "close");
      metrics.record(endpoint, error.status(), std::chrono::duration<double>(Clock::now() - start).count());
      return;
    }
    try {
      status = post(route, req, res, body, start);
    } catch (const RequestError& error) {
      refuse(res, error.status(), error.what());
      status = error.status();
      if (status == 503) res.set_header("Retry-After", "1");
    }
    if (status != 0) metrics.record(endpoint, status, std::chrono::duration<double>(Clock::now() - start).count());
  }

  // Only the probes go without the token: a kubelet or load balancer carries none.
  bool authorized(const Request& req) const {
    if (options.token.empty() || req.path == "/healthz" || req.path == "/readyz") return true;
    return same_token(req.get_header_value("Authorization"), "Bearer " + options.token);
  }

  static std::string endpoint_of(const std::string& path) {
    for (const char* known : {"/v1/grade", "/v1/grade_many", "/get_reward", "/healthz", "/readyz", "/metrics"}) {
      if (path == known) return known;
    }
    return "other";
  }

  void get(const std::string& path, const std::function<void(Response&)>& handler) {
    http.Get(path, [this, path, handler](const Request&, Response& res) {
      const Clock::time_point start = Clock::now();
      handler(res);
      metrics.record(path, res.status, std::chrono::duration<double>(Clock::now() - start).count());
    });
  }

  void post_route(const std::string& path, Route route) {
    http.Post(path, [this, path, route](const Request& req, Response& res, const httplib::ContentReader& reader) {
      handle_post(path, route, req, res, reader);
    });
  }

  void routes() {
    http.new_task_queue = [this] { return new httplib::ThreadPool(static_cast<std::size_t>(options.connections)); };
    http.set_keep_alive_max_count(100000);
    http.set_tcp_nodelay(true);
    http.set_pre_routing_handler([this](const Request& req, Response& res) {
      if (authorized(req)) return httplib::Server::HandlerResponse::Unhandled;
      refuse(res, 401, "a bearer token is required: Authorization: Bearer <token from --token-file>");
      res.set_header("WWW-Authenticate", "Bearer");
      metrics.record(endpoint_of(req.path), 401, 0.0);
      return httplib::Server::HandlerResponse::Handled;
    });
    http.set_exception_handler([this](const Request& req, Response& res, std::exception_ptr failure) {
      std::string message = "internal error";
      try {
        std::rethrow_exception(failure);
      } catch (const std::exception& error) {
        message += std::string(": ") + error.what();
      } catch (...) {
      }
      refuse(res, 500, message);
      metrics.record(endpoint_of(req.path), 500, 0.0);
    });
    get("/healthz", [](Response& res) { answer(res, 200, "{\"status\": \"ok\"}"); });
    get("/readyz", [this](Response& res) {
      if (draining.load()) return refuse(res, 503, "the server is shutting down");
      answer(res, 200, "{\"status\": \"ready\"}");
    });
    get("/metrics", [this](Response& res) {
      answer(res, 200, metrics.text(service.counts()), "text/plain; version=0.0.4; charset=utf-8");
    });
    post_route("/v1/grade", Route::grade);
    post_route("/v1/grade_many", Route::grade_many);
    post_route("/get_reward", Route::get_reward);
  }
};

}  // namespace weightspace::serve

namespace weightspace::serve {

Server::Server(ServerOptions options) : impl_(std::make_unique<Impl>(std::move(options))) {
  if (impl_->options.connections < 1) throw std::invalid_argument("the connection count must be at least 1");
}

Server::~Server() {
  stop();
  impl_->service.stop();
}

int Server::bind() {
  Impl& impl = *impl_;
  const int port = impl.options.port == 0 ? impl.http.bind_to_any_port(impl.options.host)
                                          : (impl.http.bind_to_port(impl.options.host, impl.options.port)
                                                 ? impl.options.port
                                                 : -1);
  if (port < 0) {
    throw std::runtime_error("cannot listen on " + impl.options.host + ":" + std::to_string(impl.options.port));
  }
  impl.http.set_backlog(std::max(impl.options.connections, 128));
  return port;
}

void Server::run() { impl_->http.listen_after_bind(); }

void Server::stop() {
  impl_->draining.store(true);
  impl_->http.stop();
}

void Server::cancel_all() { impl_->service.stop(); }

}  // namespace weightspace::serve
