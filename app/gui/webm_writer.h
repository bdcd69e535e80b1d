#pragma once
// WebM video through Debian's libavformat and libavcodec: VP9 (libvpx), or
// VP8 where the library has no VP9 encoder. For `threadmap export --format
// webm` and the GUI's export of an animation.
#include <QImage>
#include <QString>

#include <memory>

namespace threadmap::gui {

class WebmWriter {
 public:
  WebmWriter();
  ~WebmWriter();
  // Opens `path` for frames of `size` (even width and height) at `fps`;
  // "" or the reason.
  QString open(const QString& path, QSize size, int fps);
  // One frame of the opened size; "" or the reason.
  QString add(const QImage& frame);
  // Flushes the encoder and writes the file's index; "" or the reason.
  QString close();
  QString codec_name() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace threadmap::gui
