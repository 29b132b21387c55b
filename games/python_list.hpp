// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A CPython list of small value objects (MinAtar's entities such as [x, y, dir, timer]) with
// the exact behaviour of the operations MinAtar mixes together: `for x in lst` and
// `for x in reversed(lst)` while `lst.remove(...)` runs on the same list, and a loop
// variable that keeps naming its object after that object left the list.
//
// Objects are stored by value, in list order. Python's object identity, which decides where
// a loop variable's object is after a removal, is tracked for the loop variables only: the
// list keeps one binding per running loop (its object's index) and every removal moves a
// binding down with its object, or gives it a private copy when its own object is removed.

#include <array>
#include <cstddef>
#include <span>
#include <stdexcept>
#include <string>

namespace weightspace {

// Capacity: most objects the list can hold; append() beyond it throws std::length_error.
// MaxLoops: most loops that may run over one list at the same time (nested); a further one
// throws std::length_error.
template <class T, int Capacity, int MaxLoops = 2>
class PythonList {
  static_assert(Capacity > 0 && MaxLoops > 0);

 public:
  using value_type = T;
  static constexpr int capacity = Capacity;

  class Loop;

  PythonList() = default;
  // A copy is a new list (Python's list(lst)): same objects by value, bound to no loop.
  PythonList(const PythonList& other) { copy_items(other); }
  PythonList& operator=(const PythonList& other) {
    if (this != &other) {
      require_no_loops("assignment");
      copy_items(other);
    }
    return *this;
  }
  ~PythonList() = default;

  int size() const { return size_; }
  bool empty() const { return size_ == 0; }
  std::span<const T> items() const { return {items_.data(), static_cast<std::size_t>(size_)}; }
  const T* begin() const { return items_.data(); }
  const T* end() const { return items_.data() + size_; }

  // lst[index]: negative indices count from the end; outside [-len, len) is Python's
  // IndexError, here std::out_of_range.
  T& operator[](int index) { return items_[checked_index(index)]; }
  const T& operator[](int index) const { return items_[checked_index(index)]; }

  // lst.append(value). The value is taken by copy, so appending an element of this list is
  // safe. Overflowing the fixed capacity is never silent.
  void append(T value) {
    if (size_ == Capacity) throw std::length_error("PythonList::append: fixed capacity exceeded");
    items_[size_++] = value;
  }

  // lst.remove(value): removes the FIRST element equal to value (==, as Python compares
  // lists element by element), which need not be the object value was read from. No equal
  // element is Python's ValueError, here std::invalid_argument.
  void remove(T value) {
    for (int index = 0; index < size_; ++index) {
      if (items_[index] == value) {
        erase(index);
        return;
      }
    }
    throw std::invalid_argument("list.remove(x): x not in list");
  }

  // lst.clear() / lst = []. Refused while a loop runs over the list (its bindings would dangle).
  void clear() {
    require_no_loops("clear");
    size_ = 0;
  }

  // for x in lst: CPython's listiterator. It yields lst[index] and increments index while
  // index < len(lst), evaluated at each step: removing the current or an earlier element
  // makes it skip the next one, and elements appended during the loop are visited.
  Loop forward() { return Loop(*this, false); }

  // for x in reversed(lst): CPython's listreverseiterator. index starts at len(lst) - 1 and
  // counts down; a step yields lst[index] only while 0 <= index < len(lst) and otherwise
  // ends the loop for good, so a loop whose list shrank below index stops early.
  Loop reversed() { return Loop(*this, true); }

 private:
  static constexpr int kDetached = -1;

  // Where one running loop's variable is: items_[position], or `detached` once removed. Kept
  // in the list (not in the loop) so that the loop object itself never escapes and stays in
  // registers.
  struct Binding {
    int position = kDetached;
    bool active = false;
    T detached{};
  };

  // Only the live prefix: copying an empty list costs nothing however large its capacity.
  void copy_items(const PythonList& other) {
    for (int i = 0; i < other.size_; ++i) items_[i] = other.items_[i];
    size_ = other.size_;
  }

  int checked_index(int index) const {
    if (index < 0) index += size_;
    if (index < 0 || index >= size_) throw std::out_of_range("list index out of range");
    return index;
  }

  // Removes items_[index] and updates every running loop: a loop variable naming that object
  // keeps a private copy of it; one naming a later object follows it down one place.
  void erase(int index) {
    for (Binding& binding : bindings_) {
      if (!binding.active) continue;
      if (binding.position == index) {
        binding.position = kDetached;
        binding.detached = items_[index];
      } else if (binding.position > index) {
        --binding.position;
      }
    }
    for (int i = index; i + 1 < size_; ++i) items_[i] = items_[i + 1];
    --size_;
  }

  int claim_binding() {
    for (int slot = 0; slot < MaxLoops; ++slot) {
      if (!bindings_[slot].active) {
        bindings_[slot].active = true;
        bindings_[slot].position = kDetached;
        return slot;
      }
    }
    throw std::length_error("PythonList: too many simultaneous loops over one list");
  }

  void require_no_loops(const char* operation) const {
    for (const Binding& binding : bindings_) {
      if (binding.active)
        throw std::logic_error(std::string("PythonList: ") + operation + " during a loop");
    }
  }

  std::array<T, Capacity> items_{};
  int size_ = 0;
  std::array<Binding, MaxLoops> bindings_{};
};

// One running `for` loop over a PythonList. Scoped: it must not outlive its list, and the
// list must not be moved or assigned while it runs.
//   for (auto fish = fishes.reversed(); fish.next();) { fish->x += 1; ... }
// Access the loop variable through the loop (*fish, fish->) after any removal: a T& taken
// earlier may name another element once the list shifted.
template <class T, int Capacity, int MaxLoops>
class PythonList<T, Capacity, MaxLoops>::Loop {
 public:
  Loop(const Loop&) = delete;
  Loop& operator=(const Loop&) = delete;
  ~Loop() { list_->bindings_[slot_].active = false; }

  // The iterator's __next__: binds the loop variable to the next object and returns true, or
  // returns false, then and on every later call.
  bool next() {
    if (exhausted_) return false;
    if (reversed_) {
      if (index_ >= 0 && index_ < list_->size_) {
        binding().position = index_--;
        return true;
      }
    } else if (index_ < list_->size_) {
      binding().position = index_++;
      return true;
    }
    exhausted_ = true;
    return false;
  }

  // The loop variable's object, wherever it is now (in the list or removed from it). Before
  // the first successful next() it names no object of the list and its value is unspecified.
  T& operator*() {
    Binding& bound = binding();
    return bound.position == kDetached ? bound.detached : list_->items_[bound.position];
  }
  T* operator->() { return &**this; }

  // True once the loop variable's object itself (not merely an equal one) left the list.
  bool removed() const { return list_->bindings_[slot_].position == kDetached; }
  // Index of the loop variable's object in the list; only meaningful while !removed().
  int position() const { return list_->bindings_[slot_].position; }

 private:
  friend class PythonList;

  Loop(PythonList& list, bool reversed)
      : list_(&list),
        slot_(list.claim_binding()),
        index_(reversed ? list.size_ - 1 : 0),
        reversed_(reversed) {}

  Binding& binding() { return list_->bindings_[slot_]; }

  PythonList* list_;
  int slot_;
  int index_;  // CPython's it_index
  bool reversed_;
  bool exhausted_ = false;
};

}  // namespace weightspace
