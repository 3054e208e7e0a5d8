// lsp::parse_message reads long strings itself: it must give exactly what json::parse gives.
#include <doctest/doctest.h>

#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "lint/lsp/lsp_message.hpp"

using json = nlohmann::json;
using planlint::lsp::kLongString;
using planlint::lsp::parse_message;

namespace {

void same_as_nlohmann(const std::string& body) {
  json want = json::parse(body, nullptr, false);
  json got = parse_message(body);
  REQUIRE(got.is_discarded() == want.is_discarded());
  if (!want.is_discarded()) CHECK(got == want);
}

std::string did_open(const std::string& escaped_text) {
  return R"({"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///a.txt",)"
         R"("languageId":"sparkplan","version":1,"text":")" +
         escaped_text + R"("}}})";
}

}  // namespace

TEST_CASE("lsp message: long strings read the same as by nlohmann, escapes and UTF-8 included") {
  std::string text;
  for (int i = 0; i < 500; ++i) text += "+- Project [a#1, \"b\"\\c\t(€ 𝄞 ü)] /\x7f\n";
  REQUIRE(text.size() > kLongString);
  same_as_nlohmann(did_open(json(text).dump().substr(1, json(text).dump().size() - 2)));
  // Escapes nlohmann's dump never writes: \/, \b, \f, \uXXXX (BMP, surrogate pair, NUL).
  std::string escaped;
  for (int i = 0; i < 400; ++i) escaped += R"(a\/b\b\f\u00e9\u20AC\ud834\udd1e\u0000z )";
  same_as_nlohmann(did_open(escaped));
  // Two long strings, and one long key (left to nlohmann).
  std::string long_ascii(kLongString + 10, 'x');
  same_as_nlohmann(R"({")" + long_ascii + R"(": ")" + long_ascii + R"(", "b": [")" + long_ascii + R"(", 1]})");
}

TEST_CASE("lsp message: invalid long strings stay invalid, with nlohmann's verdict") {
  std::string pad(kLongString, 'p');
  for (std::string bad : {std::string("\x01"), std::string("\xC0\xAF"), std::string("\xED\xA0\x80"),
                          std::string("\xF4\x90\x80\x80"), std::string("\xE2\x82"), std::string("\\x"),
                          std::string("\\u12G4"), std::string("\\udc00"), std::string("\\ud834x"),
                          std::string("\\ud834\\u0041"), std::string("\n")}) {
    CAPTURE(bad);
    same_as_nlohmann(did_open(pad + bad + pad));
    same_as_nlohmann(did_open(pad + bad));
  }
  same_as_nlohmann(R"({"text":")" + pad);              // unterminated
  same_as_nlohmann(R"({"text":")" + pad + R"(" "x":1})");  // broken after a valid long string
  same_as_nlohmann(R"({"text": tru ")" + pad + R"("})");    // broken before it
}

TEST_CASE("lsp message: a string that spells a placeholder is read as written") {
  std::string pad(kLongString, 'p');
  for (std::string fake : {std::string(R"(\u0000planlint-long:0)"), std::string(R"(\u0000\u0070lanlint-long:0)"),
                           std::string(R"(\u0000\u0070lanlint-long:1)"), std::string(R"(\u0000\u0070lanlint-long:x)"),
                           std::string(R"(\u0000\u0070lanlint-long:00)")}) {
    CAPTURE(fake);
    same_as_nlohmann(R"({"a":")" + pad + R"(","b":")" + fake + R"("})");
    same_as_nlohmann(R"({"b":")" + fake + R"(","a":")" + pad + R"("})");
  }
}

TEST_CASE("lsp message: random bodies around long strings agree with nlohmann") {
  std::mt19937 rng(37);
  const std::vector<std::string> pieces = {"a", "\\n", "\\\"", "\\\\", "\\u00e9", "\\ud83d\\ude00", "\xC3\xA9",
                                           "\xF0\x9F\x98\x80", "\\", "\x1F", "\xFF", "\"", "\\u", "}", ":"};
  for (int round = 0; round < 300; ++round) {
    std::string s(kLongString - 8, 'q');
    for (int k = 0; k < 20; ++k) s.insert(rng() % s.size(), pieces[rng() % pieces.size()]);
    same_as_nlohmann(R"({"x":[")" + s + R"("],"y":2})");
  }
}
