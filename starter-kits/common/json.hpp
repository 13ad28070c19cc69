// json.hpp: a small JSON reader and writer for Meeple Arena bots (C++17, standard library only).
//
// Written for the starter kits; copied into each C++ kit by starter-kits/sync.py. It reads
// what the host sends (one message per line) into json::Value and writes Values back:
//
//     json::Value message = json::parse(line);
//     if (message["type"].as_string() == "decide") { ... message["options"][0]["kind"] ... }
//
// A missing key or index reads as null, so lookups on optional fields need no checks; asking a
// value for the wrong type (as_string() of a number) throws json::Error.
#pragma once

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace json {

struct Error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class Value {
 public:
  enum class Type { Null, Bool, Number, String, Array, Object };
  using Members = std::vector<std::pair<std::string, Value>>;

  Value() = default;
  Value(bool b) : type_(Type::Bool), bool_(b) {}
  Value(double n) : type_(Type::Number), number_(n) {}
  Value(int n) : type_(Type::Number), number_(n) {}
  Value(long long n) : type_(Type::Number), number_(static_cast<double>(n)) {}
  Value(std::string s) : type_(Type::String), string_(std::move(s)) {}
  Value(const char* s) : type_(Type::String), string_(s) {}
  static Value array() { Value v; v.type_ = Type::Array; return v; }
  static Value object() { Value v; v.type_ = Type::Object; return v; }

  Type type() const { return type_; }
  bool is_null() const { return type_ == Type::Null; }
  bool is_number() const { return type_ == Type::Number; }
  bool is_string() const { return type_ == Type::String; }
  bool is_array() const { return type_ == Type::Array; }
  bool is_object() const { return type_ == Type::Object; }

  bool as_bool() const { expect(Type::Bool, "a boolean"); return bool_; }
  double as_number() const { expect(Type::Number, "a number"); return number_; }
  long long as_int() const { return static_cast<long long>(std::llround(as_number())); }
  const std::string& as_string() const { expect(Type::String, "a string"); return string_; }
  const std::vector<Value>& as_array() const { expect(Type::Array, "an array"); return items_; }
  const Members& members() const { expect(Type::Object, "an object"); return members_; }

  // Number of items of an array or members of an object; 0 for anything else.
  size_t size() const { return is_array() ? items_.size() : is_object() ? members_.size() : 0; }
  bool has(const std::string& key) const { return find(key) != nullptr; }

  // The member ``key`` of an object, or null when it is missing (or this is no object).
  const Value& operator[](const std::string& key) const {
    const Value* found = find(key);
    return found ? *found : null_value();
  }
  const Value& operator[](const char* key) const { return (*this)[std::string(key)]; }
  // The item ``i`` of an array, or null when it is out of range (or this is no array).
  const Value& operator[](size_t i) const {
    return is_array() && i < items_.size() ? items_[i] : null_value();
  }

  void push_back(Value v) { expect(Type::Array, "an array"); items_.push_back(std::move(v)); }
  void set(const std::string& key, Value v) {
    expect(Type::Object, "an object");
    for (auto& member : members_) {
      if (member.first == key) { member.second = std::move(v); return; }
    }
    members_.emplace_back(key, std::move(v));
  }

  std::string dump() const {
    std::string out;
    write(out);
    return out;
  }

  bool operator==(const Value& other) const { return dump() == other.dump(); }

 private:
  friend class Parser;

  Type type_ = Type::Null;
  bool bool_ = false;
  double number_ = 0;
  std::string string_;
  std::vector<Value> items_;
  Members members_;

  static const Value& null_value() {
    static const Value null;
    return null;
  }
  void expect(Type wanted, const char* what) const {
    if (type_ != wanted) throw Error(std::string("JSON value is not ") + what);
  }
  const Value* find(const std::string& key) const {
    if (!is_object()) return nullptr;
    for (const auto& member : members_) {
      if (member.first == key) return &member.second;
    }
    return nullptr;
  }

  static void write_string(std::string& out, const std::string& s) {
    out += '"';
    for (unsigned char c : s) {
      switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        default:
          if (c < 0x20) {
            char buffer[8];
            std::snprintf(buffer, sizeof buffer, "\\u%04x", c);
            out += buffer;
          } else {
            out += static_cast<char>(c);
          }
      }
    }
    out += '"';
  }

  void write(std::string& out) const {
    switch (type_) {
      case Type::Null: out += "null"; break;
      case Type::Bool: out += bool_ ? "true" : "false"; break;
      case Type::Number: {
        char buffer[32];
        if (number_ == std::floor(number_) && std::fabs(number_) < 1e15) {
          std::snprintf(buffer, sizeof buffer, "%lld", static_cast<long long>(number_));
        } else {
          std::snprintf(buffer, sizeof buffer, "%.17g", number_);
        }
        out += buffer;
        break;
      }
      case Type::String: write_string(out, string_); break;
      case Type::Array:
        out += '[';
        for (size_t i = 0; i < items_.size(); ++i) {
          if (i) out += ", ";
          items_[i].write(out);
        }
        out += ']';
        break;
      case Type::Object:
        out += '{';
        for (size_t i = 0; i < members_.size(); ++i) {
          if (i) out += ", ";
          write_string(out, members_[i].first);
          out += ": ";
          members_[i].second.write(out);
        }
        out += '}';
        break;
    }
  }
};

// A recursive-descent reader of one JSON text (RFC 8259); Error says where it went wrong.
class Parser {
 public:
  explicit Parser(const std::string& text) : text_(text) {}

  Value parse_document() {
    Value v = parse_value(0);
    skip_space();
    if (pos_ != text_.size()) fail("unexpected text after the value");
    return v;
  }

 private:
  static constexpr int kMaxDepth = 200;
  const std::string& text_;
  size_t pos_ = 0;

  [[noreturn]] void fail(const std::string& why) const {
    throw Error("JSON: " + why + " at offset " + std::to_string(pos_));
  }
  void skip_space() {
    while (pos_ < text_.size() &&
           (text_[pos_] == ' ' || text_[pos_] == '\n' || text_[pos_] == '\r' ||
            text_[pos_] == '\t')) {
      ++pos_;
    }
  }
  char peek() {
    skip_space();
    if (pos_ >= text_.size()) fail("unexpected end");
    return text_[pos_];
  }
  void literal(const char* word) {
    for (const char* c = word; *c; ++c, ++pos_) {
      if (pos_ >= text_.size() || text_[pos_] != *c) fail(std::string("expected ") + word);
    }
  }

  Value parse_value(int depth) {
    if (depth > kMaxDepth) fail("nested too deeply");
    switch (peek()) {
      case '{': return parse_object(depth);
      case '[': return parse_array(depth);
      case '"': return Value(parse_string());
      case 't': literal("true"); return Value(true);
      case 'f': literal("false"); return Value(false);
      case 'n': literal("null"); return Value();
      default: return parse_number();
    }
  }

  Value parse_object(int depth) {
    Value v = Value::object();
    ++pos_;  // '{'
    if (peek() == '}') { ++pos_; return v; }
    while (true) {
      if (peek() != '"') fail("expected a key");
      std::string key = parse_string();
      if (peek() != ':') fail("expected ':'");
      ++pos_;
      v.members_.emplace_back(std::move(key), parse_value(depth + 1));
      char c = peek();
      ++pos_;
      if (c == '}') return v;
      if (c != ',') fail("expected ',' or '}'");
    }
  }

  Value parse_array(int depth) {
    Value v = Value::array();
    ++pos_;  // '['
    if (peek() == ']') { ++pos_; return v; }
    while (true) {
      v.items_.push_back(parse_value(depth + 1));
      char c = peek();
      ++pos_;
      if (c == ']') return v;
      if (c != ',') fail("expected ',' or ']'");
    }
  }

  Value parse_number() {
    const char* start = text_.c_str() + pos_;
    char* end = nullptr;
    double n = std::strtod(start, &end);
    if (end == start) fail("expected a value");
    pos_ += static_cast<size_t>(end - start);
    return Value(n);
  }

  unsigned hex4() {
    if (pos_ + 4 > text_.size()) fail("short \\u escape");
    unsigned code = 0;
    for (int i = 0; i < 4; ++i) {
      char c = text_[pos_++];
      code <<= 4;
      if (c >= '0' && c <= '9') code |= static_cast<unsigned>(c - '0');
      else if (c >= 'a' && c <= 'f') code |= static_cast<unsigned>(c - 'a' + 10);
      else if (c >= 'A' && c <= 'F') code |= static_cast<unsigned>(c - 'A' + 10);
      else fail("bad \\u escape");
    }
    return code;
  }

  static void append_utf8(std::string& out, unsigned code) {
    if (code < 0x80) {
      out += static_cast<char>(code);
    } else if (code < 0x800) {
      out += static_cast<char>(0xC0 | (code >> 6));
      out += static_cast<char>(0x80 | (code & 0x3F));
    } else if (code < 0x10000) {
      out += static_cast<char>(0xE0 | (code >> 12));
      out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (code & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (code >> 18));
      out += static_cast<char>(0x80 | ((code >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (code & 0x3F));
    }
  }

  std::string parse_string() {
    std::string out;
    ++pos_;  // opening quote
    while (true) {
      if (pos_ >= text_.size()) fail("unterminated string");
      char c = text_[pos_++];
      if (c == '"') return out;
      if (c != '\\') { out += c; continue; }
      if (pos_ >= text_.size()) fail("unterminated escape");
      char e = text_[pos_++];
      switch (e) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          unsigned code = hex4();
          // A character beyond the first 65536 comes as two escapes (a surrogate pair).
          if (code >= 0xD800 && code < 0xDC00 && text_.compare(pos_, 2, "\\u") == 0) {
            pos_ += 2;
            unsigned low = hex4();
            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
          }
          append_utf8(out, code);
          break;
        }
        default: fail("bad escape");
      }
    }
  }
};

// Read one JSON text; throws json::Error if it is not valid JSON.
inline Value parse(const std::string& text) { return Parser(text).parse_document(); }

}  // namespace json
