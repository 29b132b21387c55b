// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace weightspace::python {

// The expression nodes of Python's ast module (3.11), as far as the edits need them: kinds,
// positions and children. Statements are not kept; only their depth counts.
enum class NodeKind : std::uint8_t {
  Name, Constant, Tuple, List, Set, Dict, Call, BinOp, UnaryOp, BoolOp, Compare, IfExp, Lambda,
  NamedExpr, Await, Yield, YieldFrom, JoinedStr, FormattedValue, ListComp, SetComp, DictComp,
  GeneratorExp, Attribute, Subscript, Starred, Slice,
};

const char* node_class_name(NodeKind kind);  // "BinOp", as in <ast.BinOp object at 0x...>

enum class ConstantKind : std::uint8_t { Number, String, True, False, None, Ellipsis };
enum class UnaryOperator : std::uint8_t { Plus, Minus, Invert, Not };
enum class BinaryOperator : std::uint8_t {
  Add, Sub, Mult, MatMult, Div, Mod, Pow, LShift, RShift, BitOr, BitXor, BitAnd, FloorDiv,
};

using NodeIndex = std::int32_t;
constexpr NodeIndex kNoNode = -1;

struct Node {
  NodeKind kind = NodeKind::Name;
  std::uint8_t detail = 0;  // ConstantKind, UnaryOperator or BinaryOperator
  bool parenthesized = false;
  std::int32_t line = 0, column = 0, end_line = 0, end_column = 0;  // byte columns, like ast
  std::uint32_t begin = 0, end = 0;  // source bytes: a Name's text, a number's text
  // Children, in ast field order. Dict: key, value, key, value... (kNoNode for `**x` keys);
  // Slice: lower, upper, step (kNoNode when absent); Call: the callee, then the positional
  // arguments. A string Constant or JoinedStr instead lists its STRING tokens (Tree::pieces).
  std::int32_t first_child = 0, child_count = 0;
  std::int32_t depth = 1;  // nesting of ast objects below and including this node
  // Call: number of keyword arguments; Name: index of its NFKC text in Tree::name, or -1
  // when the source text is ASCII and therefore already normal.
  std::int32_t extra = -1;
};

struct StringPiece {
  std::uint32_t begin = 0, end = 0;  // one STRING token
};

// Arena for one top-level statement; reused (clear() keeps the memory).
class Tree {
 public:
  void clear() {
    nodes_.clear();
    children_.clear();
    pieces_.clear();
    names_.clear();
  }
  NodeIndex add_node() {  // a default Node, to be filled in place
    nodes_.emplace_back();
    return static_cast<NodeIndex>(nodes_.size() - 1);
  }
  Node& at(NodeIndex index) { return nodes_[static_cast<std::size_t>(index)]; }
  const Node& at(NodeIndex index) const { return nodes_[static_cast<std::size_t>(index)]; }
  std::int32_t add_children(std::span<const NodeIndex> children) {
    const auto first = static_cast<std::int32_t>(children_.size());
    children_.insert(children_.end(), children.begin(), children.end());
    return first;
  }
  std::span<const NodeIndex> children(const Node& node) const {
    return {children_.data() + node.first_child, static_cast<std::size_t>(node.child_count)};
  }
  NodeIndex child(const Node& node, int position) const {
    return children_[static_cast<std::size_t>(node.first_child + position)];
  }
  std::int32_t add_pieces(std::span<const StringPiece> pieces) {
    const auto first = static_cast<std::int32_t>(pieces_.size());
    pieces_.insert(pieces_.end(), pieces.begin(), pieces.end());
    return first;
  }
  std::span<const StringPiece> pieces(const Node& node) const {
    return {pieces_.data() + node.first_child, static_cast<std::size_t>(node.child_count)};
  }
  std::int32_t add_name(std::string normalized) {
    names_.push_back(std::move(normalized));
    return static_cast<std::int32_t>(names_.size() - 1);
  }
  const std::string& name(std::int32_t index) const {
    return names_[static_cast<std::size_t>(index)];
  }
  std::size_t node_count() const { return nodes_.size(); }
  std::size_t child_slots() const { return children_.size(); }
  // Forgets what a failed attempt built (pieces and names stay: nothing refers to them).
  void truncate(std::size_t nodes, std::size_t child_slots) {
    if (nodes < nodes_.size()) nodes_.resize(nodes);
    if (child_slots < children_.size()) children_.resize(child_slots);
  }

 private:
  std::vector<Node> nodes_;
  std::vector<NodeIndex> children_;
  std::vector<StringPiece> pieces_;
  std::vector<std::string> names_;
};

}  // namespace weightspace::python
