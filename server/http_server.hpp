#pragma once
// `scaleopt serve`'s HTTP server: cpp-httplib (Debian's libcpp-httplib-dev) in front of
// server/api_handler.hpp, every request first through server/request_guard.hpp, connections on
// a bounded queue (server/bounded_task_queue.hpp), with the limits of ServeOptions.

#include <functional>
#include <string>

#include "scaleopt/server/api_handler.hpp"

namespace scaleopt::server {

// "http://127.0.0.1:8080/", "http://[::1]:8080/": the URL of `host` and `port`.
std::string server_url(const std::string& host, int port);

// Binds api.options().host and port (port 0: a free one), calls `listening(port)` with the port
// bound, then answers requests until the process ends. Throws InputError "--port: cannot
// listen on HOST:PORT (...)" when the address cannot be bound.
void serve(const Api& api, const std::function<void(int port)>& listening);

}  // namespace scaleopt::server
