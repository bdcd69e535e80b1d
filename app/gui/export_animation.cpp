#include "app/gui/export_animation.h"

#include <gif_lib.h>

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QPainter>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <span>
#include <unordered_map>
#include <vector>

#include "app/gui/side_by_side.h"
#include "app/gui/webm_writer.h"
#include "kernels/core/output_file.h"
#include "kernels/core/printable.h"
#include "kernels/core/report.h"
#include "kernels/core/session.h"
#include "kernels/analysis/document.h"
#include "viz/views/theme.h"

namespace threadmap::gui {

namespace {

using analysis::TraceDocument;

// A line on stderr: names and messages from files are made printable, so a
// crafted session's text cannot act on the terminal.
void say(const QString& text) {
  std::fprintf(stderr, "threadmap export: %s\n", printable(text.toStdString()).c_str());
}

// What the first frame (and every frame) says the animation is: the kernel,
// then "NVIDIA H100 80GB HBM3 · block_x=32 block_y=32 ...".
QString device_and_parameters(const TraceDocument& doc) {
  const std::string device = device_or_default(doc.session.device).name;
  const QString name = QString::fromStdString(device.empty() ? doc.trace().backend : device);
  QStringList params;
  for (const auto& [key, value] : traced_params(doc.session)) params << QString::fromStdString(key + "=" + value);
  return name + " · " + params.join(' ');
}

// A pane caption's line height in a frame `height` pixels high.
int caption_line_height(int height) { return std::max(18, height / 28); }

// One pane: the view at `step`, under its caption; its second line is
// `note` where there is one (what this pane lacks of the other's step).
void paint_pane(QPainter& p, const QRect& area, views::TraceView& view, const TraceDocument& doc, std::size_t step,
                const QString& note, const views::Theme& theme) {
  const int line_h = caption_line_height(area.height());
  const int caption_h = 2 * line_h + line_h / 2;
  const int left = area.left() + 12, width = area.width() - 24;
  QFont title = theme.font(1.0, true);
  title.setPixelSize(line_h * 8 / 10);
  QFont detail = theme.font();
  detail.setPixelSize(line_h * 6 / 10);
  p.setPen(theme.text);
  p.setFont(title);
  p.drawText(QRect(left, area.top() + line_h / 4, width, line_h), Qt::AlignVCenter | Qt::AlignLeft,
             QFontMetrics(title).elidedText(QString::fromStdString(doc.session.kernel_id), Qt::ElideRight, width));
  p.setPen(theme.muted);
  p.setFont(detail);
  p.drawText(
      QRect(left, area.top() + line_h / 4 + line_h, width, line_h), Qt::AlignVCenter | Qt::AlignLeft,
      QFontMetrics(detail).elidedText(note.isEmpty() ? device_and_parameters(doc) : note, Qt::ElideRight, width));
  const QRect body(area.left(), area.top() + caption_h, area.width(), area.height() - caption_h);
  view.resize(body.size());
  view.set_step(step, 1.0);
  QImage image(body.size(), QImage::Format_ARGB32_Premultiplied);
  image.fill(theme.background);
  view.render(&image);
  p.drawImage(body.topLeft(), image);
}

// The frames as one palette: median cut (GifQuantizeBuffer) over a few
// frames spread through the animation, then every colour to its nearest
// entry. One palette keeps the frames' shared pixels identical, so each
// frame after the first stores only the rectangle that changed.
std::vector<GifColorType> shared_palette(const std::vector<QImage>& frames) {
  const std::size_t samples = std::min<std::size_t>(frames.size(), 6);
  std::vector<GifByteType> r, g, b;
  int w = 0, rows = 0;
  for (std::size_t s = 0; s < samples; ++s) {
    const std::size_t f = samples == 1 ? 0 : s * (frames.size() - 1) / (samples - 1);
    const QImage small = frames[f].scaled(frames[f].size() / 2).convertToFormat(QImage::Format_RGB888);
    w = small.width();
    rows += small.height();
    for (int y = 0; y < small.height(); ++y) {
      const uchar* line = small.constScanLine(y);
      for (int x = 0; x < w; ++x) {
        r.push_back(line[3 * x]);
        g.push_back(line[3 * x + 1]);
        b.push_back(line[3 * x + 2]);
      }
    }
  }
  int colours = 256;
  std::vector<GifColorType> palette(256);
  std::vector<GifByteType> ignored(r.size());
  if (GifQuantizeBuffer(w, rows, &colours, r.data(), g.data(), b.data(), ignored.data(), palette.data()) == GIF_ERROR)
    return {};
  return palette;
}

class NearestColour {
 public:
  explicit NearestColour(const std::vector<GifColorType>& palette) : palette_(palette) {}
  GifByteType operator()(QRgb c) {
    const auto hit = cache_.find(c);
    if (hit != cache_.end()) return hit->second;
    int best = 0, best_d = 1 << 30;
    for (int i = 0; i < static_cast<int>(palette_.size()); ++i) {
      const int dr = palette_[i].Red - qRed(c), dg = palette_[i].Green - qGreen(c), db = palette_[i].Blue - qBlue(c);
      const int d = dr * dr + dg * dg + db * db;
      if (d < best_d) best_d = d, best = i;
    }
    return cache_[c] = static_cast<GifByteType>(best);
  }

 private:
  const std::vector<GifColorType>& palette_;
  std::unordered_map<QRgb, GifByteType> cache_;
};

// GIF through giflib: one palette, looping, `delay_cs` hundredths of a second
// a frame, each frame after the first only where it differs.
QString write_gif(OutputFile& out, const std::vector<QImage>& frames, int delay_cs) {
  const QString path = QString::fromStdString(out.target().string());
  std::vector<GifColorType> palette = shared_palette(frames);
  if (palette.empty()) return "could not build the animation's colour palette";
  const int fd = ::dup(out.fd());  // giflib closes its own
  if (fd < 0) return QString("cannot write %1: %2").arg(path, std::strerror(errno));
  int error = 0;
  GifFileType* gif = EGifOpenFileHandle(fd, &error);
  if (!gif) {
    ::close(fd);
    return QString("cannot write %1: %2").arg(path, GifErrorString(error));
  }
  const auto fail = [&](const char* what) {
    const QString message = QString("%1 failed writing %2: %3").arg(what, path, GifErrorString(gif->Error));
    EGifCloseFile(gif, &error);
    return message;
  };
  const int w = frames.front().width(), h = frames.front().height();
  ColorMapObject* map = GifMakeMapObject(256, palette.data());
  EGifSetGifVersion(gif, true);
  const bool screen_ok = EGifPutScreenDesc(gif, w, h, 8, 0, map) != GIF_ERROR;
  GifFreeMapObject(map);
  if (!screen_ok) return fail("EGifPutScreenDesc");
  // Loop for ever (the NETSCAPE2.0 application extension).
  const unsigned char loop[] = {1, 0, 0};
  if (EGifPutExtensionLeader(gif, APPLICATION_EXT_FUNC_CODE) == GIF_ERROR ||
      EGifPutExtensionBlock(gif, 11, "NETSCAPE2.0") == GIF_ERROR || EGifPutExtensionBlock(gif, 3, loop) == GIF_ERROR ||
      EGifPutExtensionTrailer(gif) == GIF_ERROR)
    return fail("the loop extension");
  NearestColour nearest(palette);
  std::vector<GifByteType> previous, index(static_cast<std::size_t>(w) * h);
  for (const QImage& frame : frames) {
    const QImage rgb = frame.convertToFormat(QImage::Format_RGB32);
    for (int y = 0; y < h; ++y) {
      const auto* line = reinterpret_cast<const QRgb*>(rgb.constScanLine(y));
      for (int x = 0; x < w; ++x) index[static_cast<std::size_t>(y) * w + x] = nearest(line[x]);
    }
    // The rectangle that changed since the last frame (the whole first frame).
    int left = 0, top = 0, right = w - 1, bottom = h - 1;
    if (!previous.empty()) {
      left = w, top = h, right = -1, bottom = -1;
      for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
          if (index[static_cast<std::size_t>(y) * w + x] != previous[static_cast<std::size_t>(y) * w + x]) {
            left = std::min(left, x), right = std::max(right, x);
            top = std::min(top, y), bottom = std::max(bottom, y);
          }
      if (right < 0) left = top = right = bottom = 0;  // unchanged: one pixel, for the delay
    }
    GraphicsControlBlock control{};
    control.DisposalMode = DISPOSE_DO_NOT;
    control.DelayTime = delay_cs;
    control.TransparentColor = NO_TRANSPARENT_COLOR;
    GifByteType extension[4];
    EGifGCBToExtension(&control, extension);
    const int rw = right - left + 1, rh = bottom - top + 1;
    if (EGifPutExtension(gif, GRAPHICS_EXT_FUNC_CODE, 4, extension) == GIF_ERROR ||
        EGifPutImageDesc(gif, left, top, rw, rh, false, nullptr) == GIF_ERROR)
      return fail("a frame's header");
    for (int y = top; y <= bottom; ++y)
      if (EGifPutLine(gif, index.data() + static_cast<std::size_t>(y) * w + left, rw) == GIF_ERROR)
        return fail("EGifPutLine");
    previous = index;
  }
  if (EGifCloseFile(gif, &error) == GIF_ERROR) return QString("closing %1 failed: %2").arg(path, GifErrorString(error));
  return {};
}

// One recording's steps: each of its requests in turn.
std::vector<PairedStep> one_recording_steps(const analysis::Analysis& a) {
  std::vector<PairedStep> steps(a.requests.size());
  for (std::size_t i = 0; i < steps.size(); ++i) steps[i].request[0] = i;
  return steps;
}

// A PNG frame written into its temporary file, not yet in place: the
// sequence's frames are committed together once every one is written.
QString write_png(const QImage& frame, OutputFile& out) {
  QFile file;
  if (!file.open(out.fd(), QIODevice::WriteOnly, QFileDevice::DontCloseHandle) || !frame.save(&file, "PNG"))
    return QCoreApplication::translate("Export", "cannot write %1").arg(QString::fromStdString(out.target().string()));
  file.close();
  out.finish();
  return {};
}

constexpr int kMaxFps = 50;
// A PNG sequence's frames wait together before they are renamed into place
// (kernels/core/output_file.h holds 1024 such files at once).
constexpr int kMaxFrames = 1000;

// An option's whole number: digits only (no sign, no spaces, no exponent),
// at most `high`; -1 for anything else, which the range check then names.
int whole_number(const QString& text, int high) {
  if (text.isEmpty() || text.size() > 9) return -1;
  for (const QChar c : text)
    if (c < '0' || c > '9') return -1;
  const int value = text.toInt();
  return value <= high ? value : -1;
}

// "STEM-0001.png": a sequence's frame by its number from 1.
QString frame_path(const QString& stem, std::size_t number) {
  return QString("%1-%2.png").arg(stem).arg(number, 4, 10, QChar('0'));
}

// The frames of an earlier, longer export under the same stem, past `count`:
// regular files only, up to the first number missing. Returns how many.
int remove_frames_after(const QString& stem, std::size_t count) {
  int removed = 0;
  for (std::size_t n = count + 1;; ++n) {
    const std::string path = QFile::encodeName(frame_path(stem, n)).toStdString();
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode) || ::unlink(path.c_str()) != 0) return removed;
    ++removed;
  }
}

// The files the frames come from, which an export never writes over.
std::vector<std::filesystem::path> input_files(const std::vector<std::shared_ptr<const TraceDocument>>& docs) {
  std::vector<std::filesystem::path> inputs;
  for (const auto& doc : docs)
    if (doc) inputs.emplace_back(doc->origin);
  return inputs;
}

}  // namespace

AnimationResult write_animation(const std::vector<std::shared_ptr<const TraceDocument>>& docs,
                                const AnimationRequest& request,
                                const std::function<bool(int done, int total)>& progress) {
  const auto refuse = [](const QString& why) { return AnimationResult{2, why}; };
  if (docs.empty() || docs.size() > 2) return refuse("give one session file, or two to show side by side");
  if (!make_view(request.view))
    return refuse("--view " + request.view + ": use grid, banks, barrier, coalescing or schedule");
  const QString& format = request.format;
  if (format != "gif" && format != "webm" && format != "png")
    return refuse("--format " + format + ": use gif, webm or png");
  if (request.output.isEmpty()) return refuse("-o OUT is required");
  const int width = request.size.width(), height = request.size.height();
  if (width < 320 || height < 240 || width > 7680 || height > 4320)
    return refuse(QString("--size %1x%2: WxH from 320x240 to 7680x4320").arg(width).arg(height));
  if (format == "webm" && (width % 2 || height % 2))
    return refuse(QString("--size %1x%2: a WebM video needs an even width and height").arg(width).arg(height));
  if (request.fps < 1 || request.fps > kMaxFps)
    return refuse(QString("--fps %1: give a whole number from 1 to %2").arg(request.fps).arg(kMaxFps));
  if (request.max_frames < 1 || request.max_frames > kMaxFrames)
    return refuse(QString("--max-frames %1: give a whole number from 1 to %2").arg(request.max_frames).arg(kMaxFrames));

  // The output is checked before any frame is drawn: never a device, a link
  // or one of the sessions it is made from.
  // (A file that is not there yet is checked when it is written.)
  const std::vector<std::filesystem::path> inputs = input_files(docs);
  const std::filesystem::path output = QFile::encodeName(request.output).toStdString();
  std::error_code ec;
  if (format != "png" && std::filesystem::symlink_status(output, ec).type() != std::filesystem::file_type::not_found)
    if (const std::string problem = output_problem(output, inputs); !problem.empty())
      return refuse(QString::fromStdString(problem));

  const views::Theme theme = views::Theme::projector();
  std::vector<std::unique_ptr<views::TraceView>> panes;
  for (const auto& doc : docs) {
    if (!doc) return refuse(QCoreApplication::translate("Export", "a recording without a trace cannot be animated"));
    panes.push_back(make_view(request.view));
    panes.back()->set_theme(theme);
    panes.back()->set_document(doc);
  }
  // A pair steps through corresponding requests (side_by_side.h); one
  // recording through its own.
  const std::vector<PairedStep> paired =
      docs.size() == 2 ? pair_steps(docs[0]->analysis, docs[1]->analysis) : one_recording_steps(docs[0]->analysis);
  const std::size_t steps = paired.size();
  if (steps == 0) return refuse(QCoreApplication::translate("Export", "the trace has no requests to step through"));
  const std::size_t count = std::min<std::size_t>(steps, static_cast<std::size_t>(request.max_frames));
  const auto render = [&](std::size_t f) {
    const std::size_t step = count == 1 ? 0 : f * (steps - 1) / (count - 1);
    QImage frame(width, height, QImage::Format_RGB32);
    frame.fill(theme.background);
    QPainter p(&frame);
    const int pane_w = width / static_cast<int>(panes.size());
    for (std::size_t i = 0; i < panes.size(); ++i) {
      const int side = static_cast<int>(i);
      const std::optional<std::size_t> other = docs.size() == 2 ? paired[step].request[1 - side] : std::nullopt;
      const QString note =
          !paired[step].request[side] && other ? missing_text(*docs[i], *docs[1 - i], *other) : QString();
      paint_pane(p, QRect(side * pane_w, 0, pane_w, height), *panes[i], *docs[i],
                 shown_request(paired, step, side).value_or(0), note, theme);
    }
    return frame;
  };
  const auto go_on = [&](std::size_t done) {
    return !progress || progress(static_cast<int>(done), static_cast<int>(count));
  };
  const AnimationResult cancelled{4, "cancelled"};

  if (format == "png") {
    // Every frame is written to a temporary file first (removed on failure,
    // cancel, SIGINT or SIGTERM, so while frames are drawn the earlier
    // sequence stays as it was); once all are drawn and every name checked,
    // all are renamed into place in one pass, then the frames an earlier,
    // longer export left past the new last one are removed.
    const QString stem = request.output.endsWith(".png") ? request.output.chopped(4) : request.output;
    std::vector<std::unique_ptr<OutputFile>> written;
    try {
      for (std::size_t f = 0; f < count; ++f) {
        written.push_back(std::make_unique<OutputFile>(QFile::encodeName(frame_path(stem, f + 1)).toStdString(),
                                                       Durability::Synced, inputs));
        if (const QString problem = write_png(render(f), *written.back()); !problem.isEmpty()) return {3, problem};
        if (!go_on(f + 1)) return cancelled;
      }
      // Every name checked before any is replaced, then one quick pass of renames.
      for (const auto& frame : written)
        if (const std::string problem = output_problem(frame->target(), inputs); !problem.empty())
          return {3, QString::fromStdString(problem)};
      for (const auto& frame : written) frame->commit();
    } catch (const OutputError& e) {
      return {3, QString::fromStdString(e.what())};
    }
    const int removed = remove_frames_after(stem, count);
    return {0, QString("wrote %1 frames %2-0001.png ... at %3x%4").arg(count).arg(stem).arg(width).arg(height) +
                   (removed ? QString(" (and removed %1 frames past the last, left by an earlier export)").arg(removed)
                            : QString())};
  }
  if (format == "webm") {
    // Streamed: one frame in memory at a time.
    WebmWriter video;
    if (const QString problem = video.open(request.output, request.size, request.fps, inputs); !problem.isEmpty())
      return {3, problem};
    for (std::size_t f = 0; f < count; ++f) {
      if (const QString problem = video.add(render(f)); !problem.isEmpty()) return {3, problem};
      if (!go_on(f + 1)) return cancelled;
    }
    const QString codec = video.codec_name();
    if (const QString problem = video.close(); !problem.isEmpty()) return {3, problem};
    return {0, QString("wrote %1: %2 frames at %3x%4, %5 per second (WebM, %6)")
                   .arg(request.output)
                   .arg(count)
                   .arg(width)
                   .arg(height)
                   .arg(request.fps)
                   .arg(codec)};
  }
  std::vector<QImage> frames;
  for (std::size_t f = 0; f < count; ++f) {
    frames.push_back(render(f));
    if (!go_on(f + 1)) return cancelled;
  }
  try {
    OutputFile out(QFile::encodeName(request.output).toStdString(), Durability::Synced, inputs);
    if (const QString problem = write_gif(out, frames, std::max(2, 100 / request.fps)); !problem.isEmpty())
      return {3, problem};
    out.commit();
  } catch (const OutputError& e) {
    return {3, QString::fromStdString(e.what())};
  }
  return {0, QString("wrote %1: %2 frames at %3x%4, %5 per second")
                 .arg(request.output)
                 .arg(count)
                 .arg(width)
                 .arg(height)
                 .arg(request.fps)};
}

QSize exported_view_size(QSize frame, int panes) {
  const int line_h = caption_line_height(frame.height());
  return {frame.width() / std::max(panes, 1), frame.height() - (2 * line_h + line_h / 2)};
}

int export_animation(const QStringList& args) {
  QCommandLineParser parser;
  parser.setApplicationDescription(
      "threadmap export SESSION [SESSION2] --view VIEW --format gif|webm|png -o OUT: a trace view of a "
      "recording (or two side by side, stepping together) as an animated GIF, a WebM video or numbered PNGs");
  parser.addHelpOption();
  const QCommandLineOption view_option("view", "grid, banks, barrier, coalescing or schedule", "VIEW", "banks");
  const QCommandLineOption format_option("format", "gif, webm (VP9) or png (a numbered PNG sequence: OUT-0001.png ...)",
                                         "FORMAT", "gif");
  const QCommandLineOption output_option({"o", "output"}, "the file to write (png: the sequence's prefix)", "OUT");
  const QCommandLineOption size_option("size", "frame size", "WxH", "1920x1080");
  const QCommandLineOption fps_option("fps", "frames per second, 1 to 50", "N", "4");
  const QCommandLineOption frames_option("max-frames", "at most this many frames, up to 1000 (steps are sampled evenly)",
                                         "N", "240");
  parser.addOptions({view_option, format_option, output_option, size_option, fps_option, frames_option});
  parser.addPositionalArgument("sessions", "one or two .threadmap files", "SESSION [SESSION2]");
  QStringList argv{"threadmap export"};
  argv << args;
  if (!parser.parse(argv)) {
    say(parser.errorText());
    return 2;
  }
  if (parser.isSet("help")) {
    std::printf("%s", qPrintable(parser.helpText()));
    return 0;
  }
  const QStringList files = parser.positionalArguments();
  if (files.isEmpty() || files.size() > 2) {
    say("give one session file, or two to show side by side");
    return 2;
  }
  AnimationRequest request;
  request.view = parser.value(view_option);
  request.format = parser.value(format_option);
  request.output = parser.value(output_option);
  const QStringList size_parts = parser.value(size_option).split('x');
  const int width = size_parts.size() == 2 ? whole_number(size_parts[0], 7680) : -1;
  const int height = size_parts.size() == 2 ? whole_number(size_parts[1], 4320) : -1;
  if (width < 320 || height < 240) {
    say("--size " + parser.value(size_option) + ": give WxH in whole pixels, from 320x240 to 7680x4320");
    return 2;
  }
  request.size = QSize(width, height);
  const auto number = [&](const QCommandLineOption& option, int high) {
    const int value = whole_number(parser.value(option), high);
    if (value < 1)
      say("--" + option.names().constFirst() + " " + parser.value(option) + ": give a whole number from 1 to " +
          QString::number(high));
    return value;
  };
  request.fps = number(fps_option, kMaxFps);
  if (request.fps < 1) return 2;
  request.max_frames = number(frames_option, kMaxFrames);
  if (request.max_frames < 1) return 2;

  std::vector<std::shared_ptr<const TraceDocument>> docs;
  for (const QString& file : files) {
    try {
      auto doc = analysis::make_document(load_session(file.toStdString()), file.toStdString());
      if (!doc) {
        say(file + " holds no trace to animate");
        return 2;
      }
      docs.push_back(std::move(doc));
    } catch (const std::exception& e) {
      say(file + ": " + e.what());
      return 2;
    }
  }
  const AnimationResult result = write_animation(docs, request);
  if (result.exit_code != 0) {
    say(result.message);
    return result.exit_code;
  }
  std::printf("%s\n", qPrintable(result.message));
  return 0;
}

}  // namespace threadmap::gui
