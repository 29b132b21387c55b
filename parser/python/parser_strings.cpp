// SPDX-License-Identifier: GPL-3.0-or-later
// STRING+ atoms: implicit concatenation, checked piece by piece in the order of 3.11's
// _PyPegen_concatenate_strings (decode errors, then mixing bytes with str, then f-strings).
#include <algorithm>

#include "parser/python/parser.hpp"
#include "parser/python/string_literal.hpp"

namespace weightspace::python {

NodeIndex Parser::strings() {
  LevelGuard guard(*this, 1);
  const Token first = next_token();
  std::vector<StringPiece> pieces;
  while (next_token().kind == TokenKind::String) {
    const Token token = consume();
    pieces.push_back({token.start, token.end});
  }
  bool formatted = false;
  int deepest_field = 0;
  std::u32string text;
  std::string bytes;
  try {
    for (std::size_t index = 0; index < pieces.size(); ++index) {
      const std::string_view token =
          source_.substr(pieces[index].begin, pieces[index].end - pieces[index].begin);
      const StringPrefix prefix = string_prefix(token);
      const std::string_view body = string_body(token, prefix);
      if (prefix.bytes) {
        decode_bytes(body, prefix.raw, bytes);
      } else if (!prefix.formatted) {
        decode_str(body, prefix.raw, text);
      }
      if (index != 0 && prefix.bytes != string_prefix(source_.substr(
                                           pieces[0].begin, pieces[0].end - pieces[0].begin))
                                           .bytes) {
        throw StringLiteralError{"cannot mix bytes and nonbytes literals"};
      }
      if (prefix.formatted) {
        formatted = true;
        const int line = first.line + static_cast<int>(std::count(
                                          source_.begin() + pieces[0].begin,
                                          source_.begin() + pieces[index].begin, '\n'));
        deepest_field = std::max(deepest_field, check_fstring(body, prefix.raw, line + line_offset_));
      }
      text.clear();
      bytes.clear();
    }
  } catch (const StringLiteralError& error) {
    raise_at_last_token(error.message);
  } catch (const EditError& error) {
    throw RaisedSyntaxError{error};
  }
  const NodeKind kind = formatted ? NodeKind::JoinedStr : NodeKind::Constant;
  const NodeIndex result = make_node(kind, first, {}, static_cast<std::uint8_t>(ConstantKind::String),
                                     formatted ? std::max(deepest_field, 1) : 0);
  Node& made = node(result);
  made.first_child = tree_.add_pieces(pieces);
  made.child_count = static_cast<std::int32_t>(pieces.size());
  return result;
}

}  // namespace weightspace::python
