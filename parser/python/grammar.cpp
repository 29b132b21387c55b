// SPDX-License-Identifier: GPL-3.0-or-later
// parse_edits_block: what compile() does to the source string before tokenizing, then the
// per-statement view of verify.apply_edits.
#include "parser/python/grammar.hpp"

#include <cstdio>
#include <string>
#include <utility>

#include "parser/python/literal_eval.hpp"
#include "parser/python/parser.hpp"
#include "parser/utf8.hpp"

namespace weightspace {
namespace {

using python::Node;
using python::NodeIndex;
using python::NodeKind;
using python::ParsedStatement;
using python::Tree;

[[noreturn]] void surrogate_error(std::size_t position, std::size_t count, char32_t first) {
  char hex[8];
  std::snprintf(hex, sizeof hex, "%04x", static_cast<unsigned>(first));
  std::string message = "'utf-8' codec can't encode ";
  if (count == 1) {
    message += std::string("character '\\u") + hex + "' in position " + std::to_string(position);
  } else {
    message += "characters in position " + std::to_string(position) + "-" +
               std::to_string(position + count - 1);
  }
  throw EditError("UnicodeEncodeError", message + ": surrogates not allowed");
}

// Length of the UTF-8 (or WTF-8 surrogate) sequence at `offset`, 0 if malformed.
std::size_t sequence_length(std::string_view text, std::size_t offset) {
  const auto byte = [&](std::size_t index) {
    return index < text.size() ? static_cast<unsigned char>(text[index]) : 0u;
  };
  const unsigned lead = byte(offset);
  const auto continuation = [&](std::size_t index) { return (byte(index) & 0xC0) == 0x80; };
  if (lead < 0x80) return 1;
  if (lead >= 0xC2 && lead <= 0xDF) return continuation(offset + 1) ? 2 : 0;
  if (lead >= 0xE0 && lead <= 0xEF) {
    const unsigned second = byte(offset + 1);
    if (lead == 0xE0 && second < 0xA0) return 0;
    return continuation(offset + 1) && continuation(offset + 2) ? 3 : 0;
  }
  if (lead >= 0xF0 && lead <= 0xF4) {
    const unsigned second = byte(offset + 1);
    if ((lead == 0xF0 && second < 0x90) || (lead == 0xF4 && second >= 0x90)) return 0;
    return continuation(offset + 1) && continuation(offset + 2) && continuation(offset + 3) ? 4
                                                                                           : 0;
  }
  return 0;
}

// compile(str): encode to UTF-8 (lone surrogates fail), refuse NUL, then the tokenizer's
// translate_newlines: CRLF and lone CR become LF and a final LF is added.
std::string prepare_source(std::string_view body) {
  if (body.size() > kMaxEditsBlockBytes) {
    throw EditError("MemoryError", "the edits block is " + std::to_string(body.size()) +
                                       " bytes; weightspace parses blocks of less than 4 GiB");
  }
  bool has_nul = false;
  std::size_t position = 0;
  for (std::size_t offset = 0; offset < body.size(); ++position) {
    const std::size_t length = sequence_length(body, offset);
    if (length == 0) {
      throw EditError("UnicodeDecodeError",
                      "edits block is not valid UTF-8 (byte " + std::to_string(offset) + ")");
    }
    if (length == 3 && static_cast<unsigned char>(body[offset]) == 0xED &&
        static_cast<unsigned char>(body[offset + 1]) >= 0xA0) {
      std::uint32_t cursor = static_cast<std::uint32_t>(offset);
      const char32_t first = utf8::decode(body, cursor);
      std::size_t count = 1;
      std::size_t next = offset + 3;
      while (next + 2 < body.size() && static_cast<unsigned char>(body[next]) == 0xED &&
             static_cast<unsigned char>(body[next + 1]) >= 0xA0) {
        ++count;
        next += 3;
      }
      surrogate_error(position, count, first);
    }
    has_nul = has_nul || body[offset] == '\0';
    offset += length;
  }
  if (has_nul) throw EditError("ValueError", "source code string cannot contain null bytes");
  // translate_newlines, including its quirk: when the source ends with CRLF the loop stops on
  // the string's end while skipping the LF, so one more LF is appended ("a\r\n" -> "a\n\n").
  // Runs without CR are copied whole: most answers have no CR at all.
  std::string source;
  source.reserve(body.size() + 2);
  bool ends_with_crlf = false;
  for (std::size_t offset = 0;;) {
    const std::size_t carriage_return = body.find('\r', offset);
    if (carriage_return == std::string_view::npos) {
      source.append(body.substr(offset));
      break;
    }
    source.append(body.substr(offset, carriage_return - offset));
    source += '\n';
    offset = carriage_return + 1;
    if (offset < body.size() && body[offset] == '\n' && ++offset == body.size()) {
      ends_with_crlf = true;
      break;
    }
  }
  if (ends_with_crlf || source.empty() || source.back() != '\n') source += '\n';
  return source;
}

// 1-based character columns of byte offsets. Statements and their index items are asked for
// left to right, so the count goes on from the previous offset of the same line: counting from
// the line's start each time made 76,923 statements on one 1 MB line take 13 s.
class ColumnCounter {
 public:
  explicit ColumnCounter(std::string_view source) : source_(source) {}

  // The column of the byte at `begin`, `byte_column` bytes into its line.
  int operator()(std::uint32_t begin, int byte_column) {
    const std::uint32_t line_start = begin - static_cast<std::uint32_t>(byte_column);
    if (line_start != line_start_ || begin < offset_) {
      line_start_ = line_start;
      offset_ = line_start;
      code_points_ = 0;
    }
    code_points_ += utf8::count_code_points(source_.substr(offset_, begin - offset_));
    offset_ = begin;
    return static_cast<int>(code_points_) + 1;
  }
  int operator()(const Node& node) { return (*this)(node.begin, node.column); }

 private:
  std::string_view source_;
  std::uint32_t line_start_ = 0;
  std::uint32_t offset_ = 0;
  std::size_t code_points_ = 0;
};

class StatementBuilder {
 public:
  explicit StatementBuilder(std::string_view source) : source_(source), column_(source) {}

  Statement build(const Tree& tree, const ParsedStatement& parsed) {
    Statement statement;
    statement.line = parsed.line;
    statement.column = column_(parsed.begin, parsed.column);
    if (parsed.shape == ParsedStatement::Shape::Other) {
      statement.shape = Statement::Shape::NotAnAssignment;
      return statement;
    }
    const Node& target = tree.at(parsed.target);
    if (parsed.shape == ParsedStatement::Shape::Assign) {
      statement.shape = Statement::Shape::Assign;
    } else {
      statement.shape = Statement::Shape::AugAssign;
      switch (parsed.operation) {
        case python::BinaryOperator::Add: statement.op = Statement::Operator::Add; break;
        case python::BinaryOperator::Sub: statement.op = Statement::Operator::Sub; break;
        case python::BinaryOperator::Mult: statement.op = Statement::Operator::Mult; break;
        default: statement.op = Statement::Operator::Other; break;
      }
    }
    const bool indexes_a_name = target.kind == NodeKind::Subscript &&
                                tree.at(tree.child(target, 0)).kind == NodeKind::Name;
    if (!indexes_a_name) {
      statement.target_error = EditError("ValueError", "edit target must index a named tensor",
                                         statement.line, statement.column);
      return statement;
    }
    const Node& name = tree.at(tree.child(target, 0));
    statement.tensor = name.extra >= 0 ? tree.name(name.extra)
                                       : std::string(source_.substr(name.begin, name.end - name.begin));
    const NodeIndex index = tree.child(target, 1);
    const Node& index_node = tree.at(index);
    if (index_node.kind == NodeKind::Tuple) {
      statement.index_is_tuple = true;
      statement.index.reserve(static_cast<std::size_t>(index_node.child_count));
      for (const NodeIndex element : tree.children(index_node)) {
        statement.index.push_back(item(tree, element));
      }
    } else {
      statement.index.push_back(item(tree, index));
    }
    statement.value = python::literal_eval(tree, source_, parsed.value);
    return statement;
  }

 private:
  IndexItem item(const Tree& tree, NodeIndex element) {
    IndexItem result;
    const Node& node = tree.at(element);
    result.line = node.line;
    result.column = column_(node);
    if (node.kind != NodeKind::Slice) {
      result.index = python::literal_eval(tree, source_, element);
      return result;
    }
    SliceBounds& slice = result.slice.ensure();
    std::optional<Evaluated<PyValue>>* bounds[3] = {&slice.lower, &slice.upper, &slice.step};
    for (int position = 0; position < 3; ++position) {
      const NodeIndex bound = tree.child(node, position);
      if (bound != python::kNoNode) *bounds[position] = python::literal_eval(tree, source_, bound);
    }
    return result;
  }

  std::string_view source_;
  ColumnCounter column_;
};

}  // namespace

void for_each_edit_statement(std::string_view body,
                             const std::function<void(Statement&&)>& on_statement) {
  const std::string source = prepare_source(body);
  python::Parser parser(source);
  StatementBuilder builder(source);
  parser.parse_file([&](const Tree& tree, const ParsedStatement& parsed) {
    on_statement(builder.build(tree, parsed));
  });
}

std::vector<Statement> parse_edits_block(std::string_view body) {
  std::vector<Statement> statements;
  for_each_edit_statement(body, [&](Statement&& statement) { statements.push_back(std::move(statement)); });
  return statements;
}

}  // namespace weightspace
