#include "kernels/core/learner_source.h"

#include <cctype>

#include "kernels/core/dialect.h"
#include "kernels/core/error.h"
#include "kernels/core/sources.h"

namespace threadmap {

std::string learner_source(std::string_view file_name) {
  const std::string_view text = embedded_source(file_name);
  if (text.empty() || !dialect_of_file(file_name))
    throw InvalidRequest("there is no kernel source named " + std::string(file_name));
  return std::string(text);
}

std::string compiler_file_name(std::string_view file_name) {
  std::string name(file_name);
  for (char& c : name)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f || c == '"' || c == '\\' || c == '?') c = '_';
  return name;
}

namespace {

bool is_identifier_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// "name(parameters)" where `text` defines the function `name` (after "void"), its parameters
// on one line; empty where it has no such definition.
std::string signature_in(std::string_view text, std::string_view name) {
  for (std::size_t at = text.find(name); at != std::string_view::npos; at = text.find(name, at + 1)) {
    std::size_t open = at + name.size();
    while (open < text.size() && std::isspace(static_cast<unsigned char>(text[open]))) ++open;
    std::size_t before = at;
    while (before > 0 && std::isspace(static_cast<unsigned char>(text[before - 1]))) --before;
    const bool defined = before < at && before >= 4 && text.substr(before - 4, 4) == "void";
    if (!defined || open >= text.size() || text[open] != '(') continue;
    const std::size_t close = text.find(')', open);
    if (close == std::string_view::npos) break;
    std::string signature(name);
    bool space = false;
    for (char c : text.substr(open, close - open + 1)) {
      const bool blank = std::isspace(static_cast<unsigned char>(c));
      if (!blank && space && signature.back() != '(') signature += ' ';
      if (!blank) signature += c;
      space = blank;
    }
    return signature;
  }
  return {};
}

}  // namespace

bool names_identifier(std::string_view text, std::string_view name) {
  for (std::size_t at = text.find(name); at != std::string_view::npos; at = text.find(name, at + 1)) {
    const std::size_t end = at + name.size();
    if ((at == 0 || !is_identifier_char(text[at - 1])) && (end == text.size() || !is_identifier_char(text[end])))
      return true;
  }
  return false;
}

InvalidRequest missing_kernel(const std::string& learner_file, std::string_view catalog_file,
                              const std::string& kernel) {
  const std::string signature = signature_in(embedded_source(catalog_file), kernel);
  return InvalidRequest(learner_file + " has no kernel named " + kernel + " (the catalog's kernel is " +
                        (signature.empty() ? kernel : signature) + "): keep the catalog kernel's name and parameters");
}

}  // namespace threadmap
