// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "parser/python/error.hpp"
#include "parser/python/syntax_tree.hpp"
#include "parser/python/token_memo.hpp"
#include "parser/python/tokenizer.hpp"

namespace weightspace::python {

// A top-level statement as verify.apply_edits looks at it.
struct ParsedStatement {
  enum class Shape : std::uint8_t { Assign, AugAssign, Other };
  Shape shape = Shape::Other;
  BinaryOperator operation = BinaryOperator::Add;  // AugAssign
  NodeIndex target = kNoNode;                      // the single target
  NodeIndex value = kNoNode;
  int line = 0, column = 0;  // 1-based line, 0-based byte column (ast's lineno/col_offset)
  std::uint32_t begin = 0;   // byte offset of the statement's first token
};

// Limits that CPython imposes and the grader hits on hostile input.
// kMaxParserLevel: pegen's MAXSTACK (6000) counted in CPython rule calls; this parser charges
// each construct the number of rule calls CPython makes for it, measured on 3.11.2 within a
// few levels (20000 unary minuses -> MemoryError, 5000 -> fine).
// kMaxAstDepth: ast2obj gives up after 3 * sys.getrecursionlimit() = 3000 nested ast objects,
// minus 3 per Python frame on the caller's stack; the grader calls ast.parse 6 frames deep
// (module, main, grade_answer, apply_edits, ast.parse, compile), which leaves 2982.
constexpr int kMaxParserLevel = 6000;
constexpr int kMaxAstDepth = 2982;

// Thrown when the tokens cannot continue; the parser knows the furthest token it read.
struct SyntaxFailure {};
// Thrown when the second pass has worked too long (see kSecondPassRuleCalls); the first pass's
// plain "invalid syntax" is reported instead of a specialised message.
struct SecondPassExhausted {};
// A SyntaxError the parser itself raises (string literal errors, `expected ':'`, the
// specialised messages of the second pass). CPython still lets a later tokenizer error win.
struct RaisedSyntaxError {
  EditError error;
};

// A recursive-descent parser for the Python 3.11 grammar (Grammar/python.gram), accepting
// exactly what CPython's PEG parser accepts. Like pegen it runs a second pass over the failing
// statement to find the specialised error message ("invalid_*" rules), and reports a plain
// "invalid syntax" at the furthest token read otherwise.
class Parser {
 public:
  using StatementCallback = std::function<void(const Tree&, const ParsedStatement&)>;

  // `source`: translated text (line ends '\n', ends with '\n').
  explicit Parser(std::string_view source);

  // Parses a whole file, calling `on_statement` for each top-level statement in order.
  // Throws EditError for anything ast.parse would raise.
  void parse_file(const StatementCallback& on_statement);

  // f-string replacement fields: parses `(expression)` as pegen's fstring rule does and
  // returns the depth of the resulting ast. Errors get CPython's "f-string: " prefix.
  static int parse_fstring_expression(std::string_view source, int line);

  std::string_view source() const { return source_; }
  const Tree& tree() const { return tree_; }

 private:
  friend class LevelGuard;
  // A point to come back to: tokens, tree and the children being collected.
  struct Mark {
    std::size_t position, nodes, child_slots, scratch;
  };
  enum class Targets : std::uint8_t { Star, For, Delete };
  struct CallArguments {
    int keywords = 0;
    int keyword_depth = 0;
  };
  static constexpr std::size_t kTokenWindowSize = 4096;  // consumed tokens kept in memory
  static constexpr std::size_t kMaxIntDigits = 4300;     // sys.int_info.default_max_str_digits

  // --- tokens (parser_core.cpp) ---
  const Token& peek(std::size_t ahead = 0) {
    if (position_ + ahead < tokens_.size()) [[likely]] return tokens_[position_ + ahead];
    return fetch(ahead);
  }
  const Token& fetch(std::size_t ahead);
  const Token& next_token() { return peek(0); }
  Token consume();
  bool at(Op op) { return next_token().op() == op; }
  bool at(Keyword keyword) { return next_token().keyword() == keyword; }
  bool accept(Op op);
  bool accept(Keyword keyword);
  void expect(Op op);
  void expect(Keyword keyword);
  void expect_forced(Op op, const char* text);
  Token expect_name();
  [[noreturn]] void fail();
  [[noreturn]] void raise_tokenizer_error(const Token& token);
  Mark mark() const;
  void reset(const Mark& saved);
  void enter_level(int cost) {
    level_ += cost;
    if (level_ > kMaxParserLevel || ++rule_calls_ > rule_call_budget_) [[unlikely]] {
      over_limit();
    }
  }
  [[noreturn]] void over_limit();
  [[noreturn]] void stack_overflow();
  // TokenMemo flags: checks that ran (0-2), parses without the invalid_* rules (3-4), failed
  // brackets (from 5: four pass-flag combinations for each Bracketed construct).
  // The invalid_* checks `check` of an expression starting at `start` ran and raised nothing.
  bool already_checked(const Mark& start, int check) {
    return memo_.test_and_set(start.position, 1U << check);
  }
  void leave_level(int cost) { level_ -= cost; }
  enum class Bracketed : std::uint8_t { Parenthesized, List, Braced, Call, Subscript };
  template <class Parse>
  NodeIndex unless_failed_before(Bracketed construct, Parse&& parse) {
    const std::uint32_t flag = 1U << (5 + 4 * static_cast<int>(construct) +
                                      (second_pass_ ? 2 : 0) + (error_pass_ ? 1 : 0));
    const std::size_t position = position_;
    if (memo_.test(position, flag)) fail();
    try {
      return parse();
    } catch (const SyntaxFailure&) {
      memo_.test_and_set(position, flag);
      throw;
    }
  }
  // pegen memoises `expression`, `disjunction`, `arguments` and the left-recursive
  // `bitwise_or` whether or not the invalid_* rules are on: once parsed at a position inside
  // expression_without_invalid, a later parse there with the rules on gets that result back,
  // with no specialised error from anywhere inside it. Records such a parse, or tells whether
  // this one must repeat it (rules off).
  enum class Memoised : std::uint8_t { Expression, Disjunction, Arguments, BitwiseOr };
  bool reuse_without_invalid(Memoised rule) {
    // bits 3 and 4, then 25 and 26 (bits 5 to 24 are unless_failed_before's)
    const int bit = rule == Memoised::Arguments   ? 25
                    : rule == Memoised::BitwiseOr ? 26
                                                  : 3 + static_cast<int>(rule);
    const std::uint32_t flag = 1U << bit;
    if (!second_pass_) {
      memo_.test_and_set(position_, flag);
      return false;
    }
    return memo_.test(position_, flag);
  }
  class InvalidRulesOff {
   public:
    explicit InvalidRulesOff(Parser& parser) : parser_(parser), saved_(parser.second_pass_) {
      parser.second_pass_ = false;
    }
    ~InvalidRulesOff() { parser_.second_pass_ = saved_; }
    InvalidRulesOff(const InvalidRulesOff&) = delete;
    InvalidRulesOff& operator=(const InvalidRulesOff&) = delete;

   private:
    Parser& parser_;
    bool saved_;
  };
  void mark_shallow_primary(int saving) {
    shallow_primary_position_ = token_base_ + position_;
    shallow_primary_saving_ = saving;
  }
  const Token& previous_token() const { return tokens_[position_ - 1]; }
  bool can_start_expression(bool allow_star);
  bool can_start_target();
  bool at_comprehension();

  // --- errors and passes (parser_errors.cpp) ---
  [[noreturn]] void raise_at(const std::string& message, int line, int byte_column,
                             const char* kind = "SyntaxError");
  [[noreturn]] void raise_at_token(const std::string& message, const Token& token,
                                   const char* kind = "SyntaxError");
  [[noreturn]] void raise_at_node(const std::string& message, NodeIndex node);
  [[noreturn]] void raise_at_last_token(const std::string& message,
                                        const char* kind = "SyntaxError");
  [[noreturn]] void raise_range(const std::string& message, NodeIndex first, NodeIndex last);
  EditError generic_error(const Token& last);
  void check_rest_of_source(EditError& error);
  bool second_pass_is_further() const;
  const Token& last_token() const;
  Tokenizer& furthest_tokenizer();
  int tokenizer_column(const Tokenizer& tokenizer) const;
  EditError tokenizer_error(const Token& token);
  int character_column(int line, int byte_column) const;
  void run_statements();
  void run_second_pass();
  void start_second_pass();

  // --- simple statements (parser_statements.cpp) ---
  int statement(bool top_level);
  int compound_top_level(bool top_level);
  void report_other(bool top_level, const Token& first);
  int simple_statements(bool top_level);
  int simple_statement(bool top_level);
  int expression_statement(ParsedStatement& parsed);
  int expression_statement_body(ParsedStatement& parsed, bool& assignment_matched);
  void invalid_assignment(const Mark& start);
  int import_statement();
  int del_statement();
  void invalid_delete(const Mark& start);
  int global_statement();
  int raise_statement();
  int return_statement();
  int assert_statement();

  // --- compound statements (parser_compound.cpp) ---
  int compound_statement();
  int block(const Token& keyword, const char* what);
  void header_colon();
  int if_statement(const Token& keyword, const char* what);
  int else_block();
  int while_statement();
  int for_statement(bool async);
  int with_statement(bool async);
  int with_statement_body(bool async);
  void invalid_with_statement(const Mark& start, bool async);
  int with_items(bool parenthesized);
  int try_statement();
  void mixed_except(bool star);
  int except_clause(bool star);
  int finally_block();
  int decorated();
  void annotation_prefix(const Mark& arrow);
  int function_definition(bool async);
  int class_definition();

  // --- parameters (parser_parameters.cpp) ---
  int parameters(bool lambda);
  void parenthesized_parameters(bool lambda, const Token& open);

  // --- match (parser_patterns.cpp) ---
  bool try_match_statement(int& statement_depth);
  int match_statement();
  void invalid_match_statement(const Mark& start);
  int case_block();
  int patterns();
  int maybe_star_pattern();
  int pattern();
  int or_pattern();
  int closed_pattern();
  int signed_number_pattern();
  void ensure_number(const Token& token, bool imaginary);
  int name_pattern();
  int class_pattern_arguments();
  int group_or_sequence_pattern();
  int mapping_pattern();

  // --- expressions (parser_expressions.cpp) ---
  NodeIndex star_expressions();
  NodeIndex star_expression();
  NodeIndex star_named_expression();
  NodeIndex named_expression();
  NodeIndex expression();
  NodeIndex simple_atom_fast_path();
  NodeIndex expression_without_invalid();
  NodeIndex disjunction();
  NodeIndex conjunction();
  NodeIndex inversion();
  NodeIndex comparison();
  NodeIndex bitwise_or();
  NodeIndex binary(int minimum_precedence);
  NodeIndex factor();
  NodeIndex power();
  NodeIndex await_primary();
  NodeIndex yield_expression();
  NodeIndex lambda_expression();
  template <class Operand>
  bool operand_or_give_back(const Mark& before_operator, Operand&& parse, NodeIndex& out);
  void invalid_expression_checks(const Mark& start, NodeIndex first);
  NodeIndex star_expressions_as_targets();
  void raise_held_legacy_error(std::size_t from, std::size_t to);
  void invalid_named_expression_checks(const Mark& start, NodeIndex value);
  void invalid_named_expression_display(const Mark& start);

  // --- primaries and atoms (parser_atoms.cpp, parser_calls.cpp, parser_strings.cpp) ---
  NodeIndex primary();
  NodeIndex atom();
  NodeIndex name_node(const Token& token);
  NodeIndex number();
  NodeIndex strings();
  NodeIndex display(NodeIndex (Parser::*parse)());
  NodeIndex parenthesized();
  NodeIndex bracketed();
  NodeIndex braced();
  NodeIndex braced_display();
  void invalid_dictionary(const Mark& open);
  NodeIndex call(const Token& first, NodeIndex callee);
  // `call`: a call's arguments, which may be one generator expression (`primary genexp`);
  // class bases may not.
  CallArguments call_arguments(std::size_t positional_base, bool call = true);
  int arguments_depth();
  NodeIndex argument_expression();
  void genexp_needs_parentheses(NodeIndex element);
  void positional_after_keyword(bool unpacking);
  NodeIndex subscript(const Token& first, NodeIndex value);
  NodeIndex slice();
  int comprehension_clauses();
  void invalid_comprehension_check(NodeIndex starred);
  void invalid_comprehension_at_bracket();
  void invalid_comprehension_target(std::size_t base);

  // --- nodes and targets (parser_targets.cpp) ---
  NodeIndex make_node(NodeKind kind, const Token& first, std::span<const NodeIndex> children,
                      std::uint8_t detail = 0, int extra_depth = 0);
  std::span<const NodeIndex> children_since(std::size_t base) const;
  NodeIndex star_targets();
  NodeIndex star_target();
  bool is_star_target(NodeIndex node) const;
  bool is_single_target(NodeIndex node) const;
  bool annotation_group_comes_first(NodeIndex node) const;
  bool is_delete_target(NodeIndex node) const;
  NodeIndex invalid_target(NodeIndex node, Targets type) const;
  void raise_invalid_target(NodeIndex node, Targets type);
  const char* expression_name(NodeIndex node) const;
  bool is_bitwise_or_level(NodeIndex node) const;
  bool starts_with_display_or_constant(const Mark& start, NodeIndex node) const;
  bool is_legacy_call_name(NodeIndex node) const;
  Node& node(NodeIndex index) { return tree_.at(index); }
  const Node& node(NodeIndex index) const { return tree_.at(index); }
  int depth(NodeIndex index) const { return index == kNoNode ? 0 : tree_.at(index).depth; }

  std::string_view source_;
  Tokenizer tokenizer_;
  std::vector<Token> tokens_;
  std::size_t token_base_ = 0;  // tokens dropped from the front of tokens_
  std::size_t position_ = 0;
  std::optional<Tokenizer> first_pass_tokenizer_;  // set during the second pass
  Token first_pass_last_;
  std::size_t first_pass_last_index_ = 0;
  Tree tree_;
  std::vector<NodeIndex> scratch_;  // children being collected, shared by nested constructs
  const StatementCallback* on_statement_ = nullptr;
  int level_ = 0;
  // pegen parses the primary that starts a statement, or the value after an assignment's `=`,
  // first as a target (t_primary), fewer rule calls deep than the expression path; memoisation
  // keeps that depth. A primary starting at this absolute token position is charged that way.
  std::size_t shallow_primary_position_ = static_cast<std::size_t>(-1);
  int shallow_primary_saving_ = 0;
  // pegen memoises its rules. Without memo a failing bracket inside failing brackets is
  // re-parsed by every alternative around it (`{{{{{{{{{{{{{{{{{{{{{{{{a b` took minutes), and
  // the invalid_* checks of `+1,foo +1,foo ... if` ran 2^n times. So it records where brackets
  // failed, where checks ran, and where expression_without_invalid parsed.
  TokenMemo memo_;
  bool without_invalid_entry_ = false;  // the next expression() is expression_without_invalid
  // pegen parses an assignment's targets with its target rules, which never try
  // invalid_legacy_expression at a target's first name: `print[7] = 0` followed by an error
  // is no "Missing parentheses in call to 'print'". star_expressions_as_targets() parses
  // star_expressions where pegen tries star_targets first: at the token where an element
  // starts (target_head_, absolute) that error is held, not raised. It is raised once the
  // elements turn out not to be targets, or when an expression is parsed at that token again,
  // as pegen's expression rule would raise it there.
  struct HeldLegacyError {
    std::size_t position;  // absolute token position
    Token name;
    std::string message;
  };
  bool parse_targets_next_ = false;
  std::size_t target_head_ = static_cast<std::size_t>(-1);
  std::vector<HeldLegacyError> held_legacy_errors_;
  std::uint64_t rule_calls_ = 0;
  std::uint64_t rule_call_budget_ = static_cast<std::uint64_t>(-1);
  bool second_pass_ = false;  // pegen's call_invalid_rules: the invalid_* checks are on
  bool error_pass_ = false;   // the whole second pass, also where invalid_* checks are off
  bool fstring_mode_ = false;
  int line_offset_ = 0;
  int max_depth_ = 0;
};

// Charges CPython's rule-call depth while a construct is parsed.
class LevelGuard {
 public:
  LevelGuard(Parser& parser, int cost) : parser_(parser), cost_(cost) { parser.enter_level(cost); }
  ~LevelGuard() { parser_.leave_level(cost_); }
  LevelGuard(const LevelGuard&) = delete;
  LevelGuard& operator=(const LevelGuard&) = delete;

 private:
  Parser& parser_;
  int cost_;
};

}  // namespace weightspace::python
