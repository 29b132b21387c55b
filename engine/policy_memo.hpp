// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <memory_resource>
#include <type_traits>
#include <vector>

#include "games/cells.hpp"
#include "games/channel_boards.hpp"
#include "policy/forward.hpp"
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

  int action(double uniform) const { return action_for_edges(cdf, uniform); }
};

// An exact memo of one grade's policy. The logits are a pure function of the observation
// restricted to Policy::inputs() (policy/policy.hpp: inputs outside it add +-0 products, which
// change a zero's sign at most, and no action), and a hand-written answer's rollouts revisit a
// few thousand restricted observations over and over. The memo maps a restricted observation,
// its words compared whole on every hit (a hash only picks the slot), to its step's logits,
// and from the first time it is found again to the exact cdf of those logits too: a hit skips
// reading the observation back, the forward pass and (after an entry's first hit) the exp,
// while a miss costs only the lookup and a copy of the logits, which go through the batched
// sampler as without the memo. (Storing the exact cdf at the miss cost every miss six exp,
// most of them for observations never seen again: docs/performance.md, "Exact memo".)
//
// One memo per thread, sized once: kSlots slots with linear probing, each empty or the index of
// an entry; at most kMaxEntries entries, stored densely in the order they came, so that a
// grade's few thousand stay in the core's cache (slot-indexed storage spread them over 2 MB and
// made a hit cost a cache miss). A full memo stops storing (its misses are computed as without
// it). reset() starts a grade by emptying just the slots its entries used.
class PolicyMemo {
 public:
  static constexpr int kSlotsLog2 = 14;
  static constexpr std::size_t kSlots = std::size_t{1} << kSlotsLog2;
  static constexpr std::size_t kMaxEntries = kSlots / 2;
  // The most words a key has: six channels of 100 cells, in two words each.
  static constexpr int kMaxKeyWords = ChannelBoards::kWords;
  static_assert(kMaxKeyWords >= InputMask::kWords);

  // How the observations given to key() lay out the inputs: as ObservationBits (input i is
  // bit i) or as ChannelBoards (channel by channel). Equal keys mean equal observations under
  // the mask either way; a grade keeps one layout.
  enum class Layout { cells, channels };

  // An observation's words under the mask (only the words where the mask has a bit), and
  // their hash.
  struct Key {
    std::array<std::uint64_t, kMaxKeyWords> words;
    std::uint64_t hash;
  };

  // The table and the entries come from `memory`; entries are left uninitialised, so that only
  // the pages of those stored are ever touched.
  explicit PolicyMemo(std::pmr::memory_resource* memory = std::pmr::get_default_resource())
      : slots_(kSlots, 0, memory),
        memory_(memory),
        entries_(static_cast<Entry*>(memory->allocate(sizeof(Entry) * kMaxEntries, alignof(Entry)))) {
    std::uninitialized_default_construct_n(entries_, kMaxEntries);
  }
  ~PolicyMemo() { memory_->deallocate(entries_, sizeof(Entry) * kMaxEntries, alignof(Entry)); }
  PolicyMemo(const PolicyMemo&) = delete;
  PolicyMemo& operator=(const PolicyMemo&) = delete;

  // Forgets every entry; keys are now restricted to `inputs`, from observations laid out as
  // `layout`.
  void reset(const InputMask& inputs, Layout layout = Layout::cells) {
    key_words_ = 0;
    for_each_key_word(inputs, layout, [this](int word, std::uint64_t mask) {
      mask_[static_cast<std::size_t>(key_words_)] = mask;
      word_index_[static_cast<std::size_t>(key_words_++)] = word;
    });
    for (std::size_t entry = 0; entry < count_; ++entry) slots_[entries_[entry].slot] = 0;
    count_ = 0;
  }

  // How many words a key restricted to `inputs` has in `layout`: what a step's key costs to
  // make, hash and compare.
  static int key_words(const InputMask& inputs, Layout layout) {
    int words = 0;
    for_each_key_word(inputs, layout, [&words](int, std::uint64_t) { ++words; });
    return words;
  }

  // `observation`: ObservationBits or ChannelBoards, as reset() was told.
  template <class Observation>
  Key key(const Observation& observation) const {
    Key made;
    make_key(observation, made);
    return made;
  }

  // key(observation), written into `key` in place: the lockstep keeps a key per slot, and a
  // key made on the stack and copied there was read back as 16-byte words just after its
  // 8-byte stores, which cannot be forwarded.
  template <class Observation>
  void make_key(const Observation& observation, Key& key) const {
    // Each word folded by a full 64x64->128 product (wyhash's "mum": every input bit reaches
    // both halves), the words' folds summed so that they form no multiply chain, then mixed
    // over the bits that pick the slot. A plain sum of products would let high bits cancel
    // (bit 63 in two words), and moving sprites flip exactly such bits.
    static constexpr std::array<std::uint64_t, kMaxKeyWords> kOdd = {
        0x9e3779b97f4a7c15, 0xc2b2ae3d27d4eb4f, 0x165667b19e3779f9, 0xd6e8feb86659fd93,
        0xff51afd7ed558ccd, 0xc4ceb9fe1a85ec53, 0x94d049bb133111eb, 0xbf58476d1ce4e5b9,
        0x2545f4914f6cdd1d, 0x9fb21c651e98df25, 0x2127599bf4325c37, 0x880355f21e6d1965};
    std::uint64_t sum = 0;
    for (int k = 0; k < key_words_; ++k) {
      const std::size_t i = static_cast<std::size_t>(k);
      key.words[i] = observation.word(word_index_[i]) & mask_[i];
      const unsigned __int128 product =
          static_cast<unsigned __int128>(key.words[i] ^ kOdd[i]) * kOdd[kMaxKeyWords - 1 - i];
      sum += static_cast<std::uint64_t>(product) ^ static_cast<std::uint64_t>(product >> 64);
    }
    sum ^= sum >> 31;
    sum *= 0xbf58476d1ce4e5b9;
    key.hash = sum ^ (sum >> 29);
  }

  // The exact cdf of the logits stored for `key` (computed at the entry's first hit), or
  // nullptr. Pointers stay valid until reset().
  const ActionEdges* find(const Key& key) {
    for (std::size_t slot = slot_of(key);; slot = (slot + 1) & (kSlots - 1)) {
      const std::uint32_t index = slots_[slot];
      if (index == 0) return nullptr;
      Entry& entry = entries_[index - 1];
      if (!matches(entry, key)) continue;
      if (!entry.exact) {
        entry.edges = ActionEdges(action_distribution(entry.logits));
        entry.exact = true;
      }
      return &entry.edges;
    }
  }

  // Asks for the entry find(key) reads first (its slot's, which is key's own when it is stored
  // and not displaced), so that a find() made later finds it in the cache. (Asking for the
  // slot first and for the entry in a second round over the batch measured the same.)
  void prefetch(const Key& key) const {
    const std::uint32_t index = slots_[slot_of(key)];
    __builtin_prefetch(entries_ + (index == 0 ? 0 : index - 1));
  }

  // Stores `logits` for `key`, unless it is stored already (an earlier miss of the same step);
  // false when the memo is full and `key` is not in it.
  bool insert(const Key& key, const Logits& logits) {
    for (std::size_t slot = slot_of(key);; slot = (slot + 1) & (kSlots - 1)) {
      const std::uint32_t index = slots_[slot];
      if (index != 0) {
        if (matches(entries_[index - 1], key)) return true;
        continue;
      }
      if (count_ == kMaxEntries) return false;
      Entry& entry = entries_[count_++];
      slots_[slot] = static_cast<std::uint16_t>(count_);
      entry.slot = static_cast<std::uint32_t>(slot);
      entry.hash = key.hash;
      std::copy_n(key.words.begin(), key_words_, entry.words.begin());
      entry.logits = logits;
      entry.exact = false;
      return true;
    }
  }

  std::size_t entries() const { return count_; }
  // Slots that list an entry: entries() after every reset() and insert() (for tests).
  std::size_t slots_in_use() const { return kSlots - static_cast<std::size_t>(std::ranges::count(slots_, 0)); }

 private:
  // What a hit reads first (hash, exact, words, edges: 152 bytes), then what only a miss and
  // an entry's first hit touch.
  struct Entry {
    std::uint64_t hash;
    std::uint32_t slot;  // where it is listed, to empty on reset()
    bool exact;
    std::array<std::uint64_t, kMaxKeyWords> words;  // the first key_words_ are the key
    ActionEdges edges;  // valid once exact
    Logits logits;
  };
  static_assert(sizeof(Entry) == 176, "docs/architecture.md gives the memo's size");

  // add(word, mask) for each word of an observation in `layout` that holds inputs of `inputs`,
  // with those inputs' bits.
  template <class Add>
  static void for_each_key_word(const InputMask& inputs, Layout layout, Add&& add) {
    if (layout == Layout::cells) {
      for (int w = 0; w < InputMask::kWords; ++w) {
        if (inputs.word(w) != 0) add(w, inputs.word(w));
      }
      return;
    }
    for (int w = 0; w < ChannelBoards::kWords; ++w) {
      std::uint64_t cells = 0;  // the cells of word w whose input of its channel is read
      for (int k = 0; k < 64; ++k) {
        const int cell = 64 * (w & 1) + k;
        if (cell < kGridSize * kGridSize && inputs.test(cell * kObservationChannels + (w >> 1))) {
          cells |= std::uint64_t{1} << k;
        }
      }
      if (cells != 0) add(w, cells);
    }
  }

  static std::size_t slot_of(const Key& key) { return static_cast<std::size_t>(key.hash >> (64 - kSlotsLog2)); }

  bool matches(const Entry& entry, const Key& key) const {
    if (entry.hash != key.hash) return false;  // most entries of other keys fail here
    std::uint64_t differ = 0;
    for (int k = 0; k < key_words_; ++k) {
      differ |= entry.words[static_cast<std::size_t>(k)] ^ key.words[static_cast<std::size_t>(k)];
    }
    return differ == 0;
  }

  // 0: empty; else 1 + the index of its entry. Two bytes a slot keep the table in 32 KB, a
  // core's L1 data cache.
  std::pmr::vector<std::uint16_t> slots_;
  static_assert(kMaxEntries < 65536);
  static_assert(std::is_trivially_destructible_v<Entry>);  // freed without destroying them
  std::pmr::memory_resource* memory_;
  Entry* entries_;
  std::size_t count_ = 0;
  // Key word k: the bits mask_[k] of the observation's word word_index_[k].
  std::array<std::uint64_t, kMaxKeyWords> mask_{};
  std::array<int, kMaxKeyWords> word_index_{};
  int key_words_ = 0;
};

}  // namespace weightspace
