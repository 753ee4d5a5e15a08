#include "runtime/http/worker.h"

namespace rift::http {

Worker::Worker()
    : guard_(boost::asio::make_work_guard(context_)), thread_([this] { context_.run(); }) {}

Worker::~Worker() {
  join();
}

void Worker::join() {
  if (!thread_.joinable()) return;
  guard_.reset();
  context_.stop();
  thread_.join();
}

}  // namespace rift::http
