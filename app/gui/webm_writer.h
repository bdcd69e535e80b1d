#pragma once
// WebM video through Debian's libavformat and libavcodec: VP9 (libvpx), or
// VP8 where the library has no VP9 encoder. For `threadmap export --format
// webm` and the GUI's export of an animation.
#include <QImage>
#include <QString>

#include <filesystem>
#include <memory>
#include <span>

#include "kernels/core/output_file.h"

namespace threadmap::gui {

class WebmWriter {
 public:
  WebmWriter();
  ~WebmWriter();
  // Opens `path` for frames of `size` (even width and height) at `fps`,
  // through an OutputFile that is never one of `inputs`; "" or the reason.
  // The file appears at `path` only when close() succeeds.
  QString open(const QString& path, QSize size, int fps, std::span<const std::filesystem::path> inputs = {});
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
