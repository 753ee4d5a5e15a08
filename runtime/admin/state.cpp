#include "runtime/admin/state.h"

namespace rift {

RenderOptions AdminState::render(const Call& call, ImposterForm form, bool remove_proxies) const {
  return RenderOptions{form, remove_proxies, options.debug, call.base_url};
}

bool AdminState::saved(Call& call, const std::optional<std::string>& failure) {
  if (!failure) return true;
  logger.error("--datadir: " + *failure);
  call.fail(500, {datadir_error(*failure)});
  return false;
}

MbError datadir_error(const std::string& failure) {
  return MbError{"datadir error", "the change could not be saved to --datadir: " + failure,
                 std::nullopt};
}

}  // namespace rift
