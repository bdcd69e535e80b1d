#pragma once
// What the GUI suites share: gui_window_test.cpp (the window alone: layouts,
// exports, comparisons, keys; the worker it starts is not waited on) and
// gui_test.cpp (against the real worker, threadmap-cli serve, on the first
// OpenCL device). Test code only.
#include <QAbstractItemModelTester>
#include <QAbstractScrollArea>
#include <QAction>
#include <QLabel>
#include <QPushButton>
#include <QApplication>
#include <QFileDialog>
#include <QMenuBar>
#include <QTimer>
#include <QStatusBar>
#include <QTextBlock>
#include <QTextCursor>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QImage>
#include <QLineEdit>
#include <QMimeData>
#include <QSettings>
#include <QSignalSpy>
#include <QSlider>
#include <QSpinBox>
#include <QStandardPaths>
#include <QSvgRenderer>
#include <QTabWidget>
#include <QSplitter>
#include <QTabBar>
#include <QStyle>
#include <QRegularExpression>
#include <QPlainTextEdit>
#include <QProcess>
#include <QTemporaryDir>
#include <QScreen>
#include <QTest>
#include <QXmlStreamReader>

#include <QScopeGuard>

#include <csignal>
#include <sys/resource.h>
#include <sys/stat.h>
#include <functional>
#include <memory>
#include <set>
#include <tuple>
#include <sstream>

#include <QImageReader>

#include "app/gui/charts.h"
#include "app/gui/compare_dialog.h"
#include "app/gui/compare_view.h"
#include "app/gui/side_by_side.h"
#include "app/gui/code_editor.h"
#include "app/gui/exercise_panel.h"
#include "app/gui/export_animation.h"
#include "app/gui/kernel_tree.h"
#include "app/gui/language.h"
#include "app/gui/lesson_pane.h"
#include "app/gui/main_window.h"
#include "app/gui/pack_library.h"
#include "app/gui/param_panel.h"
#include "app/gui/recording_panel.h"
#include "app/gui/session_store.h"
#include "app/gui/site_model.h"
#include "app/gui/status_panel.h"
#include "viz/views/bank_view.h"
#include "viz/views/grid_view.h"
#include "viz/views/playback_bar.h"
#include "viz/views/playback_controller.h"
#include "viz/views/source_pane.h"
#include "viz/views/theme.h"
#include "viz/views/timeline.h"
#include "viz/views/trace_view.h"
#include "viz/views/trace_views_widget.h"

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libswscale/swscale.h>
}

using namespace threadmap::gui;
using threadmap::Session;
namespace views = threadmap::views;
using nlohmann::json;

namespace threadmap::gui::testing {

inline constexpr int kRunTimeoutMs = 60000;

// Each suite's initTestCase: settings and data in the test folders, and the
// type the program starts with (main.cpp), so layouts are tested at the size
// they are shown.
inline void start_gui_test() {
  QStandardPaths::setTestModeEnabled(true);
  QFont font = QApplication::font();
  font.setPointSizeF(std::max(font.pointSizeF(), 12.0));
  QApplication::setFont(font);
}

inline WindowOptions small_runs() {
  WindowOptions o;
  o.worker = THREADMAP_CLI;
  o.size = 256;
  o.reps = 3;
  o.debounce_ms = 20;
  return o;
}

// The latest report of `kernel`, or null.
inline json latest(MainWindow& w, const std::string& kernel) {
  const auto& reports = w.runs().history().reports();
  for (auto it = reports.rbegin(); it != reports.rend(); ++it)
    if (it->value("kernel", "") == kernel) return *it;
  return json();
}

// transpose.shared at tile 8 on the first OpenCL device, its live run done:
// the run the change starts lands first, so a later one cannot replace the
// status of a recording made next.
inline void select_small_shared_transpose(MainWindow& w) {
  QTRY_VERIFY_WITH_TIMEOUT(w.device_picker().currentData().toString().startsWith("opencl"), kRunTimeoutMs);
  QVERIFY(w.kernel_tree().select("transpose.shared"));
  QVERIFY(w.params().set_value("tile", "8"));
  QTRY_VERIFY_WITH_TIMEOUT(latest(w, "transpose.shared")["parameters"]["tile"] == 8 && !w.runs().running(),
                           kRunTimeoutMs);
}

inline std::optional<double> bar_of(MainWindow& w, const std::string& kernel) {
  for (const Bar& b : w.family_chart().drawn_bars())
    if (b.kernel == kernel) return b.gbps;
  return std::nullopt;
}

inline QSlider* slider(MainWindow& w, const std::string& name) {
  QWidget* control = w.params().control(name);
  return control ? control->findChild<QSlider*>() : nullptr;
}

// Visible widgets lying outside the window or outside their parent (a layout
// squeezed below its minimum places them there); what a scroll area holds
// is clipped on purpose and not counted.
inline QStringList widgets_outside(QWidget& window) {
  QStringList out;
  for (QWidget* w : window.findChildren<QWidget*>()) {
    if (!w->isVisible() || w->isWindow() || w->size().isEmpty()) continue;
    bool scrolled = false;
    for (QWidget* p = w->parentWidget(); p && p != &window && !scrolled; p = p->parentWidget())
      scrolled = qobject_cast<QAbstractScrollArea*>(p) != nullptr;
    if (scrolled) continue;
    const QRect in_window(w->mapTo(&window, QPoint(0, 0)), w->size());
    const QRect in_parent(w->mapTo(w->parentWidget(), QPoint(0, 0)), w->size());
    // A label squeezed under its neighbour in a layout (a text cut off).
    if (qobject_cast<QLabel*>(w) && w->parentWidget()->layout())
      for (QWidget* other : w->parentWidget()->findChildren<QWidget*>(Qt::FindDirectChildrenOnly))
        if (other != w && other->isVisible() && !other->isWindow() && other->geometry().intersects(w->geometry()))
          out << QString("%1 '%2' overlaps %3")
                     .arg(w->metaObject()->className(), qobject_cast<QLabel*>(w)->text().left(40),
                          other->metaObject()->className());
    if (!window.rect().contains(in_window) || !w->parentWidget()->rect().contains(in_parent))
      out << QString("%1 %2 at (%3,%4) %5x%6 in a %7x%8 window")
                 .arg(w->metaObject()->className(), w->objectName())
                 .arg(in_window.x())
                 .arg(in_window.y())
                 .arg(w->width())
                 .arg(w->height())
                 .arg(window.width())
                 .arg(window.height());
  }
  return out;
}

// Pairs of x tick labels that overlap, as QCustomPlot draws them: each
// label's (multi-line) text centred on its tick.
inline QStringList overlapping_tick_labels(QCustomPlot& plot) {
  QStringList out;
  auto ticker = plot.xAxis->ticker().dynamicCast<QCPAxisTickerText>();
  if (!ticker) return {"the x axis has no text ticker"};
  const QFontMetrics fm(plot.xAxis->tickLabelFont());
  std::vector<std::tuple<double, double, QString>> spans;  // left, right, label
  for (auto it = ticker->ticks().cbegin(); it != ticker->ticks().cend(); ++it) {
    const double centre = plot.xAxis->coordToPixel(it.key());
    const double half = fm.boundingRect(QRect(), Qt::TextDontClip | Qt::AlignHCenter, it.value()).width() / 2.0;
    spans.emplace_back(centre - half, centre + half, it.value());
  }
  for (std::size_t i = 0; i + 1 < spans.size(); ++i)
    if (std::get<1>(spans[i]) > std::get<0>(spans[i + 1]))
      out << QString("'%1' and '%2'").arg(std::get<2>(spans[i]), std::get<2>(spans[i + 1]));
  return out;
}

// A video file as libavformat reads it back: its container and codec, frame
// size and count, and the first frame as an image.
struct DecodedVideo {
  QString error, container, codec;
  QSize size;
  int frames = 0;
  QImage first;
};

inline DecodedVideo decode_video(const QString& path) {
  DecodedVideo v;
  AVFormatContext* format = nullptr;
  if (avformat_open_input(&format, QFile::encodeName(path).constData(), nullptr, nullptr) < 0) {
    v.error = "libavformat cannot open " + path;
    return v;
  }
  const auto close_format = qScopeGuard([&format] { avformat_close_input(&format); });
  if (avformat_find_stream_info(format, nullptr) < 0) {
    v.error = "no stream information";
    return v;
  }
  v.container = QString::fromUtf8(format->iformat->name);
  const int index = av_find_best_stream(format, AVMEDIA_TYPE_VIDEO, -1, -1, nullptr, 0);
  if (index < 0) {
    v.error = "no video stream";
    return v;
  }
  const AVCodecParameters* params = format->streams[index]->codecpar;
  v.codec = QString::fromUtf8(avcodec_get_name(params->codec_id));
  v.size = QSize(params->width, params->height);
  const AVCodec* decoder = avcodec_find_decoder(params->codec_id);
  AVCodecContext* codec = avcodec_alloc_context3(decoder);
  const auto free_codec = qScopeGuard([&codec] { avcodec_free_context(&codec); });
  avcodec_parameters_to_context(codec, params);
  if (!decoder || avcodec_open2(codec, decoder, nullptr) < 0) {
    v.error = "no decoder for " + v.codec;
    return v;
  }
  AVPacket* packet = av_packet_alloc();
  AVFrame* frame = av_frame_alloc();
  const auto free_all = qScopeGuard([&] {
    av_packet_free(&packet);
    av_frame_free(&frame);
  });
  auto drain = [&] {
    while (avcodec_receive_frame(codec, frame) == 0) {
      if (v.frames++ == 0) {
        QImage rgb(frame->width, frame->height, QImage::Format_RGB32);
        SwsContext* sws =
            sws_getContext(frame->width, frame->height, static_cast<AVPixelFormat>(frame->format), frame->width,
                           frame->height, AV_PIX_FMT_BGRA, SWS_BICUBIC, nullptr, nullptr, nullptr);
        uint8_t* planes[] = {rgb.bits()};
        const int strides[] = {static_cast<int>(rgb.bytesPerLine())};
        sws_scale(sws, frame->data, frame->linesize, 0, frame->height, planes, strides);
        sws_freeContext(sws);
        v.first = rgb;
      }
    }
  };
  while (av_read_frame(format, packet) >= 0) {
    if (packet->stream_index == index && avcodec_send_packet(codec, packet) == 0) drain();
    av_packet_unref(packet);
  }
  avcodec_send_packet(codec, nullptr);
  drain();
  return v;
}

// The mean absolute difference of two same-sized images, per channel (0-255).
inline double mean_difference(const QImage& a, const QImage& b) {
  if (a.size() != b.size() || a.isNull()) return 255;
  const QImage x = a.convertToFormat(QImage::Format_RGB32), y = b.convertToFormat(QImage::Format_RGB32);
  double sum = 0;
  for (int row = 0; row < x.height(); ++row) {
    const auto* p = reinterpret_cast<const QRgb*>(x.constScanLine(row));
    const auto* q = reinterpret_cast<const QRgb*>(y.constScanLine(row));
    for (int col = 0; col < x.width(); ++col)
      sum += std::abs(qRed(p[col]) - qRed(q[col])) + std::abs(qGreen(p[col]) - qGreen(q[col])) +
             std::abs(qBlue(p[col]) - qBlue(q[col]));
  }
  return sum / (3.0 * x.width() * x.height());
}

// Once a modal dialog of type T is up (a key opened it and waits in its own
// event loop), `act` drives it by keys.
template <class T>
inline void when_modal(std::function<void(T&)> act) {
  auto* poll = new QTimer;
  QObject::connect(poll, &QTimer::timeout, [poll, act] {
    if (auto* dialog = qobject_cast<T*>(QApplication::activeModalWidget())) {
      poll->stop();
      poll->deleteLater();
      act(*dialog);
    }
  });
  poll->start(50);
}

// tests/data/packs/rowsum copied into `folder` as the pack and family `name`
// (the catalog is the process's: each test's pack needs its own ids).
inline bool copy_rowsum_pack(const QString& folder, const QString& name) {
  const QString from = QString(THREADMAP_SOURCE_DIR) + "/tests/data/packs/rowsum/";
  if (!QDir().mkpath(folder) || !QFile::copy(from + "rowsum.cl", folder + "/rowsum.cl")) return false;
  QFile in(from + "pack.toml"), out(folder + "/pack.toml");
  if (!in.open(QIODevice::ReadOnly) || !out.open(QIODevice::WriteOnly)) return false;
  QString text = QString::fromUtf8(in.readAll());
  text.replace("name = \"rowsum\"", "name = \"" + name + "\"").replace("id = \"rowsum\"", "id = \"" + name + "\"");
  return out.write(text.toUtf8()) > 0;
}

// File > Reload packs read the pack in the packs folder's `folder` without a
// problem (packs that earlier tests of the process opened, their folders
// removed since, may report theirs; each problem names its pack's folder).
inline bool reloaded_alone(MainWindow& w, const QString& folder) {
  const QString problems = w.reload_packs();
  if (!problems.contains("/" + folder + ":") && !problems.contains("/" + folder + "/")) return true;
  qWarning("%s", qPrintable(problems));
  return false;
}

// Drops without a drag manager: the window's own handler, as a real drop reaches it.
class DropTarget : public MainWindow {
 public:
  using MainWindow::dropEvent;
  using MainWindow::MainWindow;
};

// Tabs whose title is not read whole: narrower than its text and the
// style's padding (so drawn elided), or lying past the bar's end.
// In a presentation, in English, Portuguese and Spanish: the chart's title
// is one line within its width that ends with the device copy's value,
// and its y caption is no longer than the axis is tall.
inline void presentedChartFits(MainWindow& w) {
  const QString language_before = language::current();
  const QLocale locale_before;
  const auto restore = qScopeGuard([&] {
    w.set_presentation(false);
    w.set_language(language_before);
    QLocale::setDefault(locale_before);
  });
  FamilyChart& chart = w.family_chart();
  QVERIFY(chart.drawn_ceiling());
  for (const QString lang : {"en", "pt_BR", "es"}) {
    w.set_language(lang);
    w.set_presentation(true);
    QTRY_COMPARE(w.size(), w.screen()->geometry().size());
    QTest::qWait(100);
    chart.replot();
    const QString title = chart.shown_title();
    const QFontMetrics title_metrics(qobject_cast<QCPTextElement*>(chart.plotLayout()->element(0, 0))->font());
    const QString value = QLocale().toString(*chart.drawn_ceiling(), 'f', 0) + " GB/s";
    QVERIFY2(
        !title.contains('\n') && title_metrics.horizontalAdvance(title) <= chart.width() && title.endsWith(value),
        qPrintable(QString("%1: '%2' (%3 of %4 px)")
                       .arg(lang, title)
                       .arg(title_metrics.horizontalAdvance(title))
                       .arg(chart.width())));
    const QString caption = chart.yAxis->label();
    const int caption_px = QFontMetrics(chart.yAxis->labelFont()).horizontalAdvance(caption);
    QVERIFY2(caption_px <= chart.axisRect()->height(), qPrintable(QString("%1: '%2' is %3 px on a %4 px axis")
                                                                      .arg(lang, caption)
                                                                      .arg(caption_px)
                                                                      .arg(chart.axisRect()->height())));
    if (const QString shots = qEnvironmentVariable("THREADMAP_LAYOUT_SHOTS"); !shots.isEmpty())
      w.grab().save(QString("%1/presentation-%2.png").arg(shots, lang));
    w.set_presentation(false);
  }
}

inline QStringList cut_tabs(QTabBar& bar) {
  QStringList out;
  const int padding = bar.style()->pixelMetric(QStyle::PM_TabBarTabHSpace, nullptr, &bar);
  for (int i = 0; i < bar.count(); ++i) {
    const int needed = bar.fontMetrics().horizontalAdvance(bar.tabText(i)) + padding;
    const QRect r = bar.tabRect(i);
    if (r.width() < needed || r.right() >= bar.width())
      out << QString("'%1' (%2 of %3 px, ends at %4 in %5)")
                 .arg(bar.tabText(i))
                 .arg(r.width())
                 .arg(needed)
                 .arg(r.right())
                 .arg(bar.width());
  }
  return out;
}

}  // namespace threadmap::gui::testing

using namespace threadmap::gui::testing;
