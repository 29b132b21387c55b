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
  class Cursor;

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

  // reversed() for a body that changes the list only through its cursor: cursor.remove() is
  // lst.remove(x) for its own loop variable x, and nothing else removes from or appends to the
  // list while it runs (no Loop either). The loop variable is the cursor's own copy, put back
  // into the list at the next step, so that a body's writes to it stay in registers (a Loop's
  // go through the list: int8_t members alias everything, which made each write reload the
  // binding). Same visits, same removals, same list afterwards as reversed().
  Cursor reversed_cursor() { return Cursor(*this); }

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

  // lst.remove(value) for a Cursor whose loop variable `value` is the object at `own` (or was
  // removed: kDetached): where that object is afterwards.
  int remove_own(int own, T value) {
    if (own != kDetached) items_[own] = value;  // remove() compares the current value
    for (int index = 0; index < size_; ++index) {
      if (items_[index] == value) {
        erase(index);
        if (index == own) return kDetached;
        return index < own ? own - 1 : own;
      }
    }
    throw std::invalid_argument("list.remove(x): x not in list");
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

// A reversed() loop whose loop variable is a copy (PythonList::reversed_cursor). Scoped like
// Loop; the last value goes back into the list when the loop ends or the cursor is destroyed.
//   for (auto sub = subs.reversed_cursor(); sub.next();) { sub->x += 1; ... sub.remove(); }
template <class T, int Capacity, int MaxLoops>
class PythonList<T, Capacity, MaxLoops>::Cursor {
 public:
  Cursor(const Cursor&) = delete;
  Cursor& operator=(const Cursor&) = delete;
  ~Cursor() { put_back(); }

  // listreverseiterator's __next__: the object at the index counting down from len(lst) - 1,
  // while 0 <= index < len(lst); false for good from the first index outside.
  bool next() {
    put_back();
    if (--index_ < 0 || index_ >= list_->size_) {
      index_ = 0;  // every later call decrements to -1
      return false;
    }
    value_ = list_->items_[index_];
    own_ = index_;
    return true;
  }

  T& operator*() { return value_; }
  T* operator->() { return &value_; }

  // lst.remove(x): the first element EQUAL to x, which need not be x's own object (then x
  // stays in the list, one place down, and reversed() visits it again).
  void remove() { own_ = list_->remove_own(own_, value_); }
  // True once the loop variable's object itself left the list.
  bool removed() const { return own_ == kDetached; }

 private:
  friend class PythonList;

  explicit Cursor(PythonList& list) : list_(&list), index_(list.size_) {}

  void put_back() {
    if (own_ != kDetached) list_->items_[own_] = value_;
    own_ = kDetached;
  }

  PythonList* list_;
  int index_;  // CPython's it_index, plus one
  int own_ = kDetached;  // where value_'s object is in the list
  T value_{};
};

}  // namespace weightspace
