#include "runtime/base/dice.h"

#include <random>

namespace rift {

uint64_t Dice::unseeded() {
  std::random_device device;
  return (static_cast<uint64_t>(device()) << 32) ^ device();
}

// SplitMix64 (Steele, Lea, Flood 2014) over the roll number: a counter hashed, not a state
// stepped, which is what lets every thread roll without a lock.
uint64_t Dice::next() {
  uint64_t z = seed_ + (rolls_.fetch_add(1, std::memory_order_relaxed) + 1) * 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

double Dice::unit() {
  return static_cast<double>(next() >> 11) * 0x1.0p-53;
}

int64_t Dice::between(int64_t low, int64_t high) {
  if (high <= low) return low;
  const uint64_t span = static_cast<uint64_t>(high - low) + 1;
  return low + static_cast<int64_t>(next() % span);  // modulo bias: span / 2^64, negligible
}

}  // namespace rift
