// ldd-parse's shim over UDPipe's own C++ API (udpipe.h, UDPipe's public header, copied
// unchanged from UDPipe 1.4.1-dev: the version udpipe-rs 0.2.0 vendors and compiles).
//
// udpipe-rs returns only the syntactic words of a parse. This shim returns UDPipe's whole
// CoNLL-U output (its own `conllu` output format), so multiword-token lines (German
// `3-4 am` = `an dem`, English `2-3 don't` = `do n't`) and the SpaceAfter=No they carry are
// kept. It is linked against the UDPipe library that udpipe-rs builds; see
// crates/parse/README.md, "Multiword tokens".
//
// No C++ exception crosses the C boundary: each function catches everything and reports
// it as an error string.

#include <cstdlib>
#include <cstring>
#include <exception>
#include <memory>
#include <sstream>
#include <string>

#include "udpipe.h"

using ufal::udpipe::input_format;
using ufal::udpipe::model;
using ufal::udpipe::output_format;
using ufal::udpipe::sentence;
using ufal::udpipe::string_piece;

namespace {

// A malloc'ed copy of `s` (freed by ldd_udpipe_free_string), NUL-terminated; `len` gets
// its length when not null.
char *copy_out(const std::string &s, size_t *len) {
  char *out = static_cast<char *>(std::malloc(s.size() + 1));
  if (out != nullptr) {
    std::memcpy(out, s.data(), s.size());
    out[s.size()] = '\0';
    if (len != nullptr) *len = s.size();
  }
  return out;
}

void set_error(char **error, const std::string &message) {
  *error = copy_out(message, nullptr);
}

}  // namespace

extern "C" {

// Loads a UDPipe 1 model. On failure returns null and sets *error.
void *ldd_udpipe_load(const char *path, char **error) {
  *error = nullptr;
  try {
    model *m = model::load(path);
    if (m == nullptr) {
      set_error(error, "UDPipe cannot load it");
      return nullptr;
    }
    return m;
  } catch (const std::exception &e) {
    set_error(error, std::string("UDPipe failed while loading it: ") + e.what());
  } catch (...) {
    set_error(error, "UDPipe failed while loading it");
  }
  return nullptr;
}

void ldd_udpipe_free_model(void *m) { delete static_cast<model *>(m); }

// Tokenizes, tags and parses `len` bytes of UTF-8 `text` with the model's default options
// (what udpipe-rs does) and returns UDPipe's CoNLL-U for every sentence the tokenizer
// found, `*sentences` of them, in a string of `*out_len` bytes. On failure returns null
// and sets *error. Uses only the model's const methods and per-call tokenizer and output
// format objects, so one model may serve several threads (README: thread safety).
char *ldd_udpipe_parse(const void *handle, const char *text, size_t len, size_t *sentences,
                       size_t *out_len, char **error) {
  *error = nullptr;
  *sentences = 0;
  *out_len = 0;
  try {
    const model *m = static_cast<const model *>(handle);
    std::unique_ptr<input_format> tokenizer(m->new_tokenizer(model::DEFAULT));
    std::unique_ptr<output_format> conllu(output_format::new_conllu_output_format());
    if (!tokenizer || !conllu) {
      set_error(error, "the model has no tokenizer");
      return nullptr;
    }
    tokenizer->set_text(string_piece(text, len));
    sentence s;
    std::string err;
    std::ostringstream out;
    while (tokenizer->next_sentence(s, err)) {
      if (!m->tag(s, model::DEFAULT, err) || !m->parse(s, model::DEFAULT, err)) {
        set_error(error, err.empty() ? std::string("tagging or parsing failed") : err);
        return nullptr;
      }
      conllu->write_sentence(s, out);
      ++*sentences;
    }
    if (!err.empty()) {
      set_error(error, err);
      return nullptr;
    }
    char *result = copy_out(out.str(), out_len);
    if (result == nullptr) set_error(error, "out of memory");
    return result;
  } catch (const std::exception &e) {
    set_error(error, e.what());
  } catch (...) {
    set_error(error, "UDPipe failed");
  }
  return nullptr;
}

// Tags `len` bytes of UTF-8 `tokens`, one token per line ('\n'-separated, already
// tokenized: UDPipe's tokenizer is not run), as one sentence with the model's default
// tagger and, when `parse` is not 0, its default parser too, and returns the analysis of
// every token, one line per token in token order, each
// `lemma TAB upostag TAB xpostag TAB feats TAB head TAB deprel` (feats empty when there are
// none; head 0 and deprel empty without the parser), in a string of `*out_len` bytes. On
// failure returns null and sets *error. Const model methods only, as above.
char *ldd_udpipe_tag(const void *handle, const char *tokens, size_t len, int parse,
                     size_t *out_len, char **error) {
  *error = nullptr;
  *out_len = 0;
  try {
    const model *m = static_cast<const model *>(handle);
    sentence s;
    std::string all(tokens, len);
    size_t start = 0;
    while (start <= all.size() && !all.empty()) {
      size_t end = all.find('\n', start);
      if (end == std::string::npos) end = all.size();
      s.add_word(string_piece(all.data() + start, end - start));
      start = end + 1;
    }
    std::string err;
    if (!s.empty() && !m->tag(s, model::DEFAULT, err)) {
      set_error(error, err.empty() ? std::string("tagging failed") : err);
      return nullptr;
    }
    if (!s.empty() && parse != 0 && !m->parse(s, model::DEFAULT, err)) {
      set_error(error, err.empty() ? std::string("parsing failed") : err);
      return nullptr;
    }
    std::string out;
    // words[0] is the technical root.
    for (size_t i = 1; i < s.words.size(); ++i) {
      if (i > 1) out.push_back('\n');
      out += s.words[i].lemma;
      out.push_back('\t');
      out += s.words[i].upostag;
      out.push_back('\t');
      out += s.words[i].xpostag;
      out.push_back('\t');
      out += s.words[i].feats;
      out.push_back('\t');
      out += std::to_string(parse != 0 && s.words[i].head > 0 ? s.words[i].head : 0);
      out.push_back('\t');
      if (parse != 0) out += s.words[i].deprel;
    }
    char *result = copy_out(out, out_len);
    if (result == nullptr) set_error(error, "out of memory");
    return result;
  } catch (const std::exception &e) {
    set_error(error, e.what());
  } catch (...) {
    set_error(error, "UDPipe failed");
  }
  return nullptr;
}

void ldd_udpipe_free_string(char *s) { std::free(s); }

}  // extern "C"
