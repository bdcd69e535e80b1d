#include "viz/views/theme.h"

#include <algorithm>
#include <array>

namespace threadmap::views {

using namespace okabe_ito;

QFont Theme::font(qreal scale, bool bold) const {
  QFont f;
  f.setPixelSize(std::max(floor_px, static_cast<int>(font_px * scale + 0.5)));
  f.setBold(bold);
  return f;
}

QColor Theme::wavefront(int n) const {
  static const std::array<QColor, 6> cycle{kBluishGreen, kOrange, kReddishPurple, kSkyBlue, kVermillion, kYellow};
  return cycle[static_cast<std::size_t>(n) % cycle.size()];
}

Theme Theme::standard() {
  Theme t;
  t.background = QColor(0xff, 0xff, 0xff);
  t.text = QColor(0x20, 0x20, 0x20);
  t.muted = QColor(0x70, 0x70, 0x70);
  t.grid = QColor(0xd8, 0xd8, 0xd8);
  t.read = kBlue;
  t.write = kVermillion;
  t.earlier_read = kSkyBlue.lighter(135);
  t.earlier_write = kOrange.lighter(150);
  t.other_block = QColor(0xc8, 0xc8, 0xc8);
  t.untouched = QColor(0xf6, 0xf6, 0xf6);
  t.tile_even = QColor(0xee, 0xf4, 0xfa);
  t.tile_odd = QColor(0xdc, 0xe8, 0xf3);
  t.padding = QColor(0x9a, 0x9a, 0x9a);
  t.current = kBlack;
  t.highlight = kYellow;
  t.problem = QColor(0x9b, 0x00, 0x5c);  // dark magenta: apart from vermillion and the purple wavefront
  return t;
}

Theme Theme::projector() {
  Theme t = standard();
  t.presentation = true;
  t.font_px = 24;
  t.floor_px = 24;
  t.stroke = 2.0;
  t.text = kBlack;
  t.muted = QColor(0x30, 0x30, 0x30);
  t.grid = QColor(0xa0, 0xa0, 0xa0);
  t.earlier_read = kSkyBlue;
  t.earlier_write = kOrange;
  t.other_block = QColor(0x90, 0x90, 0x90);
  t.untouched = QColor(0xff, 0xff, 0xff);
  t.tile_even = QColor(0xff, 0xff, 0xff);
  t.tile_odd = QColor(0xd0, 0xd0, 0xd0);
  t.padding = QColor(0x40, 0x40, 0x40);
  return t;
}

}  // namespace threadmap::views
