#pragma once
// The catalog: every kernel variant the program knows, built in (the lessons'
// manifest, kernels/lessons/catalog.toml, read by the packs' loader) and
// added by packs. GUI, CLI and tests read it; nothing else lists the variants.
#include <cstddef>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include "kernels/core/variant.h"

namespace threadmap {

// The variants listed now, in order: iterates as `const Variant&`. A copy
// of the list: it does not see variants added or read again after it was
// taken.
class CatalogView {
 public:
  class iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = Variant;
    using difference_type = std::ptrdiff_t;
    using pointer = const Variant*;
    using reference = const Variant&;
    iterator() = default;
    explicit iterator(std::vector<const Variant*>::const_iterator at) : at_(at) {}
    reference operator*() const { return **at_; }
    pointer operator->() const { return *at_; }
    iterator& operator++() {
      ++at_;
      return *this;
    }
    iterator operator++(int) {
      iterator was = *this;
      ++at_;
      return was;
    }
    bool operator==(const iterator&) const = default;

   private:
    std::vector<const Variant*>::const_iterator at_;
  };

  CatalogView() = default;
  explicit CatalogView(std::vector<const Variant*> listed) : listed_(std::move(listed)) {}
  iterator begin() const { return iterator(listed_.begin()); }
  iterator end() const { return iterator(listed_.end()); }
  std::size_t size() const { return listed_.size(); }
  bool empty() const { return listed_.empty(); }
  const Variant& operator[](std::size_t i) const { return *listed_[i]; }
  const Variant& front() const { return *listed_.front(); }

 private:
  std::vector<const Variant*> listed_;
};

// The built-in variants, then the packs' in the order they were added. A
// variant, once listed, is never destroyed: a pointer to it stays valid
// after its pack is read again, showing the new text where the pack still
// has it (it is replaced in place), else the last one read (no longer listed
// nor found).
CatalogView catalog();
const Variant* find_variant(std::string_view id);
std::vector<std::string> family_names();  // in catalog order

// At most this many variants listed, built-in and added.
inline constexpr std::size_t kMaxCatalogVariants = 4096;
// Adds variants (a pack's, kernels/pack/pack_variants.h) after the ones
// there. Throws InvalidRequest, adding none, when an id or family is already
// in the catalog or the catalog would be full. Call it before any other
// thread reads the catalog (the CLI does, at start-up).
void add_variants(std::vector<Variant> variants);
// A pack's variants read again (its files edited): they take the place of
// the pack's listed ones. A variant of the same id is replaced in place (a
// pointer to it shows the new text); new ones (added or renamed) are listed
// where the pack's were, and those the pack no longer has are no longer
// listed. A pack not listed yet is added. Throws InvalidRequest, changing
// nothing, for an id or family another pack or the built-in catalog has, or
// a full catalog. Not while another thread reads the catalog.
void update_pack_variants(std::vector<Variant> variants);

}  // namespace threadmap
