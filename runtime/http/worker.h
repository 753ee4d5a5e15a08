// One event loop on its own thread. Every socket lives on exactly one worker, so nothing that
// touches a connection needs a lock.
#pragma once

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <thread>

namespace rift::http {

class Worker {
 public:
  Worker();
  ~Worker();
  Worker(const Worker&) = delete;
  Worker& operator=(const Worker&) = delete;

  boost::asio::io_context& context() { return context_; }
  bool is_current() { return context_.get_executor().running_in_this_thread(); }
  // Stops the loop and joins the thread; pending handlers are destroyed with the worker.
  void join();

 private:
  boost::asio::io_context context_{1};
  boost::asio::executor_work_guard<boost::asio::io_context::executor_type> guard_;
  std::thread thread_;
};

}  // namespace rift::http
