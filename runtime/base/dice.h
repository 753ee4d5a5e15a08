// Random numbers for what a stub leaves to chance (probabilistic faults, latency ranges):
// reproducible when seeded (`--seed`, `_rift.seed`), and lock-free. The n-th roll is a hash of
// (seed, n), so a seeded imposter answers the same sequence of requests the same way whichever
// worker thread serves each one.
#pragma once

#include <atomic>
#include <cstdint>

namespace rift {

class Dice {
 public:
  explicit Dice(uint64_t seed) : seed_(seed) {}
  // A seed from the operating system, for an imposter nobody seeded.
  static uint64_t unseeded();

  uint64_t next();
  // Uniform in [0, 1): `unit() < p` holds always for p = 1 and never for p = 0.
  double unit();
  // Uniform in [low, high], both included; `low` when high < low.
  int64_t between(int64_t low, int64_t high);

 private:
  const uint64_t seed_;
  std::atomic<uint64_t> rolls_{0};
};

}  // namespace rift
