#include "scaleopt/server/page_assets.hpp"

namespace scaleopt::server {

const PageAsset* find_page_asset(std::string_view path) {
  for (const PageAsset& asset : page_assets()) {
    if (asset.path == path) return &asset;
  }
  return nullptr;
}

}  // namespace scaleopt::server
