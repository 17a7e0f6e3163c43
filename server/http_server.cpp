#include "scaleopt/server/http_server.hpp"

#include <httplib.h>
#include <sys/socket.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <thread>

#include "scaleopt/costmodel/input_error.hpp"
#include "scaleopt/server/bounded_task_queue.hpp"
#include "scaleopt/server/page_assets.hpp"
#include "scaleopt/server/request_guard.hpp"

namespace scaleopt::server {
namespace {

// With its charset, which JSON always has, as a reason: cpp-httplib 0.11.4 compresses a body
// whose Content-Type is exactly "application/json" (or any "text/...") with Brotli at its
// highest quality whenever the client accepts br, as every browser does. That took 2.7 s for a
// 200-point sweep (680 KB; 36 ms uncompressed) and 0.6 s for Chart.js: on this machine's
// loopback, compression only costs. A type with a parameter is not on its list, so answers and
// the page go uncompressed (tests/test_serve_page.py checks it).
constexpr const char* kJson = "application/json; charset=utf-8";

std::optional<std::string> header(const httplib::Request& request, const char* name) {
  if (!request.has_header(name)) return std::nullopt;
  return request.get_header_value(name);
}

// cpp-httplib's interface to the queue (it deletes the object after its listen ends).
class HttplibQueue : public httplib::TaskQueue {
 public:
  HttplibQueue(unsigned workers, std::size_t capacity) : queue_(workers, capacity) {}
  void enqueue(std::function<void()> fn) override { queue_.enqueue(std::move(fn)); }
  void shutdown() override { queue_.shutdown(); }
  const BoundedTaskQueue& queue() const { return queue_; }

 private:
  BoundedTaskQueue queue_;
};

}  // namespace

std::string server_url(const std::string& host, int port) {
  const bool ipv6 = host.find(':') != std::string::npos;
  return "http://" + (ipv6 ? "[" + host + "]" : host) + ":" + std::to_string(port) + "/";
}

void serve(const Api& api, const std::function<void(int port)>& listening) {
  const ServeOptions& options = api.options();
  httplib::Server server;
  std::atomic<const BoundedTaskQueue*> queue{nullptr};
  const unsigned workers = worker_threads(options);
  server.new_task_queue = [&queue, workers, &options] {
    auto* made = new HttplibQueue(workers, options.queue_capacity);  // httplib deletes it
    queue = &made->queue();
    return made;
  };
  // SO_REUSEADDR alone: cpp-httplib's default adds SO_REUSEPORT, with which a second server
  // (or another program of the same user) binds the same port and takes part of its requests.
  server.set_socket_options([](socket_t socket) {
    const int yes = 1;
    ::setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  });
  server.set_keep_alive_max_count(options.keep_alive_max_count);
  server.set_keep_alive_timeout(options.keep_alive_timeout.count());
  server.set_read_timeout(options.read_timeout.count(), 0);
  server.set_write_timeout(options.write_timeout.count(), 0);
  // A second line of defence: the guard refuses a larger Content-Length before this applies.
  server.set_payload_max_length(options.max_body_bytes);
  int port = options.port;
  const auto refuse = [](httplib::Response& response, int status, const std::string& message) {
    response.status = status;
    response.set_content(error_body(message), kJson);
    // The body was not read: the client should not send another request on this connection
    // (cpp-httplib 0.11.4 itself ends it at the keep-alive timeout, or at the first bytes that
    // are not a request).
    response.set_header("Connection", "close");
  };
  server.set_pre_routing_handler([&](const httplib::Request& request, httplib::Response& response) {
    if (const BoundedTaskQueue* q = queue.load(); q && q->refusing()) {
      refuse(response, 503, "busy: every worker is taken and the queue is full; try again");
      response.set_header("Retry-After", "1");
      return httplib::Server::HandlerResponse::Handled;
    }
    for (const char* name : {"Host", "Origin", "Content-Length", "Transfer-Encoding"}) {
      if (request.get_header_value_count(name) > 1) {
        refuse(response, 400, std::string(name) + ": given more than once");
        return httplib::Server::HandlerResponse::Handled;
      }
    }
    const RequestHead head{request.method,
                           request.path,
                           header(request, "Host"),
                           header(request, "Origin"),
                           header(request, "Content-Length"),
                           header(request, "Transfer-Encoding")};
    if (const auto refusal = refuse_request(head, port, options)) {
      refuse(response, refusal->status, refusal->message);
      return httplib::Server::HandlerResponse::Handled;
    }
    return httplib::Server::HandlerResponse::Unhandled;
  });
  const auto answer = [&api](const httplib::Request& request, httplib::Response& response) {
    if (request.method == "GET") {
      if (const PageAsset* asset = find_page_asset(request.path)) {
        response.set_content(asset->text.data(), asset->text.size(),
                             std::string(asset->content_type));
        response.set_header("Content-Security-Policy", std::string(kPageSecurityPolicy));
        return;
      }
    }
    // A GET's query parameters (a POST's body is its JSON: cpp-httplib would also read a
    // form-encoded body into params, which the API does not take).
    QueryParameters query;
    if (request.method == "GET") query.assign(request.params.begin(), request.params.end());
    const ApiAnswer answer = api.handle(request.method, request.path, request.body, query);
    response.status = answer.status;
    response.set_content(answer.body, kJson);
  };
  server.Get(".*", answer);
  server.Options(".*", answer);
  server.Post(".*", httplib::Server::Handler(answer));
  server.Put(".*", httplib::Server::Handler(answer));
  server.Patch(".*", httplib::Server::Handler(answer));
  server.Delete(".*", httplib::Server::Handler(answer));
  server.set_default_headers(
      {{"Cache-Control", "no-store"}, {"X-Content-Type-Options", "nosniff"}});
  // cpp-httplib's own refusals (a malformed request line, a body past the payload limit) as
  // JSON too; a handler's exception would be a bug, answered 500 rather than ending the server.
  server.set_error_handler([](const httplib::Request&, httplib::Response& response) {
    if (response.body.empty()) {
      response.set_content(
          error_body("HTTP " + std::to_string(response.status) + ": the request was refused"),
          kJson);
    }
  });
  server.set_exception_handler(
      [](const httplib::Request&, httplib::Response& response, std::exception_ptr) {
        response.status = 500;
        response.set_content(error_body("internal error"), kJson);
      });

  if (options.port == 0) {
    port = server.bind_to_any_port(options.host);
    if (port < 0) port = 0;
  } else if (!server.bind_to_port(options.host, options.port)) {
    port = 0;
  }
  if (port <= 0) {
    const int error = errno;
    throw InputError("--port: cannot listen on " + options.host + ":" +
                     std::to_string(options.port) + " (" + std::strerror(error) + ")");
  }
  listening(port);
  server.listen_after_bind();
}

}  // namespace scaleopt::server
