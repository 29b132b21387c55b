// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "games/cells.hpp"
#include "policy/sampler.hpp"

namespace weightspace {

// The five inner edges of a step's exact cdf (ActionDistribution::cdf[0..4]): all that
// choice() compares a draw with. The sixth edge is 1.0, above every draw.
struct ActionEdges {
  std::array<double, kActionCount - 1> cdf;

  explicit ActionEdges(const ActionDistribution& distribution) {
    for (std::size_t k = 0; k < cdf.size(); ++k) cdf[k] = distribution.cdf[k];
  }
  ActionEdges() = default;

  // ActionDistribution::action: the number of edges <= uniform, without a branch.
  int action(double uniform) const {
    int count = 0;
    for (const double edge : cdf) count += edge <= uniform;
    return count;
  }
};

// An exact memo of one grade's policy. The logits are a pure function of the observation
// restricted to Policy::inputs() (policy/policy.hpp: inputs outside it add +-0 products, which
// change a zero's sign at most, and no action), and a hand-written answer's rollouts revisit a
// few thousand restricted observations over and over. The memo maps a restricted observation,
// its words compared whole on every hit (a hash only picks the slot), to the exact cdf of its
// step, so a hit skips reading the observation back, the forward pass and the exp.
//
// One memo per thread, sized once: kSlots slots with linear probing, at most kMaxEntries
// entries; a full memo stops storing (its misses are computed as without it). A grade starts
// with reset(), which forgets every entry by advancing an epoch rather than clearing memory.
class PolicyMemo {
 public:
  static constexpr int kSlotsLog2 = 14;
  static constexpr std::size_t kSlots = std::size_t{1} << kSlotsLog2;
  static constexpr std::size_t kMaxEntries = kSlots / 2;
  static constexpr int kMaxKeyWords = InputMask::kWords;

  // An observation's words under the mask (only the words where the mask has a bit), and
  // their hash.
  struct Key {
    std::array<std::uint64_t, kMaxKeyWords> words;
    std::uint64_t hash;
  };

  PolicyMemo()
      : meta_(kSlots),
        keys_(std::make_unique_for_overwrite<std::uint64_t[]>(kSlots * kMaxKeyWords)),
        edges_(std::make_unique_for_overwrite<ActionEdges[]>(kSlots)) {}

  // Forgets every entry; keys are now restricted to `inputs`.
  void reset(const InputMask& inputs) {
    key_words_ = 0;
    for (int w = 0; w < InputMask::kWords; ++w) {
      if (inputs.word(w) != 0) {
        mask_[static_cast<std::size_t>(key_words_)] = inputs.word(w);
        word_index_[static_cast<std::size_t>(key_words_++)] = w;
      }
    }
    entries_ = 0;
    if (++epoch_ == 0) {  // after 2^32 grades: stamps of the previous cycle would match again
      for (Meta& meta : meta_) meta.epoch = 0;
      epoch_ = 1;
    }
  }

  Key key(const ObservationBits& bits) const {
    // Each word folded by a full 64x64->128 product (wyhash's "mum": every input bit reaches
    // both halves), the words' folds summed so that they form no multiply chain, then mixed
    // over the bits that pick the slot. A plain sum of products would let high bits cancel
    // (bit 63 in two words), and moving sprites flip exactly such bits.
    static constexpr std::array<std::uint64_t, kMaxKeyWords> kOdd = {
        0x9e3779b97f4a7c15, 0xc2b2ae3d27d4eb4f, 0x165667b19e3779f9, 0xd6e8feb86659fd93, 0xff51afd7ed558ccd,
        0xc4ceb9fe1a85ec53, 0x94d049bb133111eb, 0xbf58476d1ce4e5b9, 0x2545f4914f6cdd1d, 0x9fb21c651e98df25};
    Key key;
    std::uint64_t sum = 0;
    for (int k = 0; k < key_words_; ++k) {
      const std::size_t i = static_cast<std::size_t>(k);
      key.words[i] = bits.word(word_index_[i]) & mask_[i];
      const unsigned __int128 product =
          static_cast<unsigned __int128>(key.words[i] ^ kOdd[i]) * kOdd[kMaxKeyWords - 1 - i];
      sum += static_cast<std::uint64_t>(product) ^ static_cast<std::uint64_t>(product >> 64);
    }
    sum ^= sum >> 31;
    sum *= 0xbf58476d1ce4e5b9;
    key.hash = sum ^ (sum >> 29);
    return key;
  }

  // The edges stored for `key`, or nullptr.
  const ActionEdges* find(const Key& key) const {
    for (std::size_t slot = slot_of(key);; slot = (slot + 1) & (kSlots - 1)) {
      const Meta& meta = meta_[slot];
      if (meta.epoch != epoch_) return nullptr;
      if (meta.check == check_of(key) && same_words(slot, key)) return &edges_[slot];
    }
  }

  // Stores `edges` for `key` (or finds them, stored by an earlier miss of the same step); the
  // stored copy, or nullptr when the memo is full. Pointers stay valid until reset().
  const ActionEdges* insert(const Key& key, const ActionEdges& edges) {
    for (std::size_t slot = slot_of(key);; slot = (slot + 1) & (kSlots - 1)) {
      Meta& meta = meta_[slot];
      if (meta.epoch == epoch_) {
        if (meta.check == check_of(key) && same_words(slot, key)) return &edges_[slot];
        continue;
      }
      if (entries_ == kMaxEntries) return nullptr;
      ++entries_;
      meta = {epoch_, check_of(key)};
      std::copy_n(key.words.begin(), key_words_, &keys_[slot * kMaxKeyWords]);
      edges_[slot] = edges;
      return &edges_[slot];
    }
  }

  std::size_t entries() const { return entries_; }

 private:
  struct Meta {
    std::uint32_t epoch = 0;
    std::uint32_t check = 0;  // low hash bits: most slots of other keys fail here
  };

  static std::size_t slot_of(const Key& key) { return static_cast<std::size_t>(key.hash >> (64 - kSlotsLog2)); }
  static std::uint32_t check_of(const Key& key) { return static_cast<std::uint32_t>(key.hash); }

  bool same_words(std::size_t slot, const Key& key) const {
    const std::uint64_t* stored = &keys_[slot * kMaxKeyWords];
    std::uint64_t differ = 0;
    for (int k = 0; k < key_words_; ++k) differ |= stored[k] ^ key.words[static_cast<std::size_t>(k)];
    return differ == 0;
  }

  std::vector<Meta> meta_;
  // Slot s's key words at [s * kMaxKeyWords, ...): written only when the slot is filled, so
  // the pages of an unused part are never touched.
  std::unique_ptr<std::uint64_t[]> keys_;
  std::unique_ptr<ActionEdges[]> edges_;
  std::array<std::uint64_t, kMaxKeyWords> mask_{};
  std::array<int, kMaxKeyWords> word_index_{};
  int key_words_ = 0;
  std::uint32_t epoch_ = 0;
  std::size_t entries_ = 0;
};

}  // namespace weightspace
