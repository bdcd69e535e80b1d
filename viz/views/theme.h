#pragma once
// Colours and type for the views. The palette is Okabe-Ito (safe for the
// common colour-vision deficiencies); read is blue and write is vermillion
// everywhere. Presentation mode keeps the palette, enlarges the type and the
// strokes, and drops pale tints that wash out on a projector.
#include <QColor>
#include <QFont>

namespace threadmap::views {

namespace okabe_ito {
inline const QColor kBlack{0x00, 0x00, 0x00};
inline const QColor kOrange{0xE6, 0x9F, 0x00};
inline const QColor kSkyBlue{0x56, 0xB4, 0xE9};
inline const QColor kBluishGreen{0x00, 0x9E, 0x73};
inline const QColor kYellow{0xF0, 0xE4, 0x42};
inline const QColor kBlue{0x00, 0x72, 0xB2};
inline const QColor kVermillion{0xD5, 0x5E, 0x00};
inline const QColor kReddishPurple{0xCC, 0x79, 0xA7};
}  // namespace okabe_ito

struct Theme {
  bool presentation = false;
  int font_px = 13;
  // The smallest type any text may shrink to: 24 px in a presentation (read
  // from the back of a room), else 10.
  int floor_px = 10;
  qreal stroke = 1.0;
  QColor background, text, muted, grid;
  QColor read, write, earlier_read, earlier_write, other_block, untouched;
  QColor tile_even, tile_odd, padding, current, highlight;
  // The chosen problem's marks: a colour no access, wavefront or tile has.
  QColor problem;

  // The body font scaled, never under floor_px.
  QFont font(qreal scale = 1.0, bool bold = false) const;
  // Wavefront n (0: the first pass of the banks) in a cycle of distinct colours.
  QColor wavefront(int n) const;

  static Theme standard();
  static Theme projector();
};

}  // namespace threadmap::views
