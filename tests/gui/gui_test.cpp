// The GUI against the real worker (threadmap-cli serve) on the first OpenCL
// device: slider -> run -> chart, exports that parse back, sessions saved,
// opened, recorded and bundled, a killed or hung worker restarted and
// reported, values outside the catalog refused.
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

namespace {

constexpr int kRunTimeoutMs = 60000;

WindowOptions small_runs() {
  WindowOptions o;
  o.worker = THREADMAP_CLI;
  o.size = 256;
  o.reps = 3;
  o.debounce_ms = 20;
  return o;
}

// The latest report of `kernel`, or null.
json latest(MainWindow& w, const std::string& kernel) {
  const auto& reports = w.runs().history().reports();
  for (auto it = reports.rbegin(); it != reports.rend(); ++it)
    if (it->value("kernel", "") == kernel) return *it;
  return json();
}

// transpose.shared at tile 8 on the first OpenCL device, its live run done:
// the run the change starts lands first, so a later one cannot replace the
// status of a recording made next.
void select_small_shared_transpose(MainWindow& w) {
  QTRY_VERIFY_WITH_TIMEOUT(w.device_picker().currentData().toString().startsWith("opencl"), kRunTimeoutMs);
  QVERIFY(w.kernel_tree().select("transpose.shared"));
  QVERIFY(w.params().set_value("tile", "8"));
  QTRY_VERIFY_WITH_TIMEOUT(latest(w, "transpose.shared")["parameters"]["tile"] == 8 && !w.runs().running(),
                           kRunTimeoutMs);
}

std::optional<double> bar_of(MainWindow& w, const std::string& kernel) {
  for (const Bar& b : w.family_chart().drawn_bars())
    if (b.kernel == kernel) return b.gbps;
  return std::nullopt;
}

QSlider* slider(MainWindow& w, const std::string& name) {
  QWidget* control = w.params().control(name);
  return control ? control->findChild<QSlider*>() : nullptr;
}

// Visible widgets lying outside the window or outside their parent (a layout
// squeezed below its minimum places them there); what a scroll area holds
// is clipped on purpose and not counted.
QStringList widgets_outside(QWidget& window) {
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
QStringList overlapping_tick_labels(QCustomPlot& plot) {
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

DecodedVideo decode_video(const QString& path) {
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
double mean_difference(const QImage& a, const QImage& b) {
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
void when_modal(std::function<void(T&)> act) {
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
bool copy_rowsum_pack(const QString& folder, const QString& name) {
  const QString from = QString(THREADMAP_SOURCE_DIR) + "/tests/data/packs/rowsum/";
  if (!QDir().mkpath(folder) || !QFile::copy(from + "rowsum.cl", folder + "/rowsum.cl")) return false;
  QFile in(from + "pack.toml"), out(folder + "/pack.toml");
  if (!in.open(QIODevice::ReadOnly) || !out.open(QIODevice::WriteOnly)) return false;
  QString text = QString::fromUtf8(in.readAll());
  text.replace("name = \"rowsum\"", "name = \"" + name + "\"").replace("id = \"rowsum\"", "id = \"" + name + "\"");
  return out.write(text.toUtf8()) > 0;
}

// Drops without a drag manager: the window's own handler, as a real drop reaches it.
class DropTarget : public MainWindow {
 public:
  using MainWindow::dropEvent;
  using MainWindow::MainWindow;
};

}  // namespace

class GuiTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    // The type the program starts with (main.cpp): the layouts are tested at the size they are shown.
    QFont font = QApplication::font();
    font.setPointSizeF(std::max(font.pointSizeF(), 12.0));
    QApplication::setFont(font);
  }

  // Animations for slides: the bank view of the 32-way conflicts, alone and
  // beside its padded fix, as a GIF a viewer plays (Qt's reader decodes every
  // frame) and as numbered PNGs; bad arguments are refused with exit 2.
  void exportWritesAnimationsForSlides() {
    QTemporaryDir dir;
    const QString plain = QString(THREADMAP_RECORDINGS) + "/smem.setRowReadCol.threadmap";
    const QString pad = QString(THREADMAP_RECORDINGS) + "/smem.setRowReadColPad.threadmap";
    for (const QStringList& sessions : {QStringList{plain}, QStringList{plain, pad}}) {
      const QString gif = dir.filePath(QString("banks%1.gif").arg(sessions.size()));
      QCOMPARE(export_animation(QStringList(sessions) << "--view"
                                                      << "banks"
                                                      << "--format"
                                                      << "gif"
                                                      << "--max-frames"
                                                      << "24"
                                                      << "-o" << gif),
               0);
      QImageReader reader(gif);
      QVERIFY(reader.supportsAnimation());
      QCOMPARE(reader.size(), QSize(1920, 1080));
      int frames = 0;
      for (QImage frame; reader.read(&frame); ++frames) QCOMPARE(frame.size(), QSize(1920, 1080));
      QCOMPARE(frames, 24);
    }
    QCOMPARE(export_animation({plain, "--view", "grid", "--format", "png", "--size", "800x600", "--max-frames", "12",
                               "-o", dir.filePath("grid")}),
             0);
    QCOMPARE(QImage(dir.filePath("grid-0012.png")).size(), QSize(800, 600));
    QVERIFY(!QFile::exists(dir.filePath("grid-0013.png")));
    // WebM: the pair at the default 1920x1080, decoded back with libavformat:
    // VP9 in a WebM file, every frame there, the first one (with the
    // caption) the same picture as the first PNG of the same export.
    QCOMPARE(export_animation({plain, pad, "--view", "banks", "--format", "webm", "--max-frames", "12", "-o",
                               dir.filePath("pair.webm")}),
             0);
    QCOMPARE(export_animation(
                 {plain, pad, "--view", "banks", "--format", "png", "--max-frames", "12", "-o", dir.filePath("pair")}),
             0);
    const DecodedVideo video = decode_video(dir.filePath("pair.webm"));
    QVERIFY2(video.error.isEmpty(), qPrintable(video.error));
    QVERIFY2(video.container.contains("webm"), qPrintable(video.container));
    QCOMPARE(video.codec, QString("vp9"));
    QCOMPARE(video.size, QSize(1920, 1080));
    QCOMPARE(video.frames, 12);
    const double difference = mean_difference(video.first, QImage(dir.filePath("pair-0001.png")));
    QVERIFY2(difference < 6, qPrintable(QString("first frame differs from the PNG by %1 per channel").arg(difference)));
    QVERIFY(mean_difference(video.first, QImage(dir.filePath("pair-0012.png"))) > difference);
    QCOMPARE(export_animation({plain, "--format", "webm", "--size", "801x600", "-o", dir.filePath("odd.webm")}), 2);
    QVERIFY(!QFile::exists(dir.filePath("odd.webm")));
    QCOMPARE(export_animation({plain, "--format", "webm", "-o", dir.filePath("no/such/folder.webm")}), 3);
    QCOMPARE(export_animation({plain, "--format", "mp4", "-o", dir.filePath("x.mp4")}), 2);
    QCOMPARE(export_animation({plain, "--view", "nope", "-o", dir.filePath("x.gif")}), 2);
    QCOMPARE(export_animation({dir.filePath("missing.threadmap"), "-o", dir.filePath("x.gif")}), 2);
    QCOMPARE(export_animation({plain, "--size", "10x10", "-o", dir.filePath("x.gif")}), 2);
  }

  // An export never destroys what it is made from or what it replaces: the
  // session itself as -o is refused, as are a FIFO and a link; on a full disk
  // (RLIMIT_FSIZE: writes past 16 KB fail) the old GIF and PNG stay whole
  // and no temporary file is left.
  void exportNeverDestroysItsInputOrAnOldFile() {
    QTemporaryDir dir;
    const QString session = dir.filePath("s.threadmap");
    QVERIFY(QFile::copy(QString(THREADMAP_RECORDINGS) + "/smem.setRowReadCol.threadmap", session));
    const qint64 size = QFileInfo(session).size();
    for (const QString& format : {"gif", "webm"})
      QCOMPARE(export_animation({session, "--format", format, "-o", session}), 2);
    QCOMPARE(QFileInfo(session).size(), size);
    QVERIFY(threadmap::load_session(session.toStdString()).trace.has_value());
    QCOMPARE(::mkfifo(QFile::encodeName(dir.filePath("pipe")).constData(), 0600), 0);
    QCOMPARE(export_animation({session, "-o", dir.filePath("pipe")}), 2);
    QVERIFY(QFile::link("/dev/null", dir.filePath("link.gif")));
    QCOMPARE(export_animation({session, "-o", dir.filePath("link.gif")}), 2);
    QVERIFY(QFileInfo(dir.filePath("link.gif")).isSymLink());

    const auto write_old = [&](const QString& name) {
      QFile old(dir.filePath(name));
      QVERIFY(old.open(QIODevice::WriteOnly));
      old.write("the old file");
    };
    write_old("old.gif");
    write_old("frames-0001.png");
    const QStringList before = QDir(dir.path()).entryList(QDir::Files | QDir::Hidden | QDir::System);
    ::signal(SIGXFSZ, SIG_IGN);
    rlimit saved{};
    ::getrlimit(RLIMIT_FSIZE, &saved);
    const rlimit small{16384, saved.rlim_max};
    ::setrlimit(RLIMIT_FSIZE, &small);
    const int gif = export_animation({session, "--max-frames", "12", "-o", dir.filePath("old.gif")});
    const int png = export_animation({session, "--format", "png", "--max-frames", "2", "-o", dir.filePath("frames")});
    ::setrlimit(RLIMIT_FSIZE, &saved);
    QCOMPARE(gif, 3);
    QCOMPARE(png, 3);
    for (const QString& name : {"old.gif", "frames-0001.png"}) {
      QFile old(dir.filePath(name));
      QVERIFY(old.open(QIODevice::ReadOnly));
      QCOMPARE(old.readAll(), QByteArray("the old file"));
    }
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden | QDir::System), before);
  }

  // On a 1024 x 768 projector the window opens inside the screen, not at 1600 x 1000.
  void windowOpensWithinItsScreen() {
    MainWindow w(small_runs());
    w.show();
    QVERIFY(w.screen());
    const QSize free = w.screen()->availableGeometry().size();
    QCOMPARE(w.size(), QSize(1600, 1000).boundedTo(free).expandedTo(w.minimumSizeHint()));
    // The layout's minimum fits a 1024 x 768 screen with a 48-pixel panel.
    const QSize least = w.minimumSizeHint();
    QVERIFY2(least.width() <= 1024 && least.height() <= 768 - 48,
             qPrintable(QString("the window needs at least %1x%2").arg(least.width()).arg(least.height())));
  }

  // 1024 x 768 and 1280 x 720 projectors: on every tab, with the controls
  // shown and collapsed (F9), every widget lies inside the window, the
  // chart's x labels (the ten shared-memory variants, the longest names) do
  // not overlap, its title fits, and the run's status is on screen.
  void layoutFitsProjectorScreens() {
    MainWindow w(small_runs());
    QVERIFY(w.compare_files(QString(THREADMAP_RECORDINGS) + "/smem.setRowReadCol.threadmap",
                            QString(THREADMAP_RECORDINGS) + "/smem.setRowReadColPad.threadmap")
                .isEmpty());
    QVERIFY(w.open_bundled_recording("smem.setRowReadCol").isEmpty());
    QCOMPARE(w.family_chart().drawn_bars().size(), std::size_t{10});
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    const QString shots = qEnvironmentVariable("THREADMAP_LAYOUT_SHOTS");
    for (const QSize size : {QSize(1024, 768), QSize(1280, 720)}) {
      for (const bool collapsed : {false, true}) {
        w.set_controls_collapsed(collapsed);
        w.resize(size);
        QTest::qWait(50);
        QCOMPARE(w.size(), size);
        QCOMPARE(w.controls_collapsed(), collapsed);
        QCOMPARE(w.status().isVisible(), !collapsed);
        for (int tab = 0; tab < w.chart_tabs().count(); ++tab) {
          w.chart_tabs().setCurrentIndex(tab);
          QTest::qWait(50);
          const QString where = QString("%1x%2, tab %3%4")
                                    .arg(size.width())
                                    .arg(size.height())
                                    .arg(tab)
                                    .arg(collapsed ? ", controls collapsed" : "");
          const QStringList outside = widgets_outside(w);
          QVERIFY2(outside.isEmpty(), qPrintable(where + ": " + outside.join("; ")));
          // Every tab title read whole: the window's and the trace views'.
          for (QTabBar* bar : {w.chart_tabs().tabBar(), w.trace_views().tabs().tabBar()}) {
            if (!bar->isVisible()) continue;  // laid out once its page is shown
            const QStringList cut = cut_tabs(*bar);
            QVERIFY2(cut.isEmpty(), qPrintable(where + ": " + cut.join("; ")));
          }
          // The status line's run: badge, GB/s and median, whatever the layout.
          QLabel& headline = w.status().headline();
          QVERIFY2(headline.isVisible() && headline.text().contains("GB/s") && headline.text().contains("median"),
                   qPrintable(where + ": " + headline.text()));
          if (!shots.isEmpty())
            w.grab().save(QString("%1/layout-%2x%3-%4%5.png")
                              .arg(shots)
                              .arg(size.width())
                              .arg(size.height())
                              .arg(tab)
                              .arg(collapsed ? "-collapsed" : ""));
        }
        w.chart_tabs().setCurrentIndex(0);
        QTest::qWait(50);
        FamilyChart& chart = w.family_chart();
        chart.replot();
        const QStringList overlaps = overlapping_tick_labels(chart);
        QVERIFY2(overlaps.isEmpty(), qPrintable(overlaps.join("; ")));
        const QFontMetrics title_metrics(qobject_cast<QCPTextElement*>(chart.plotLayout()->element(0, 0))->font());
        for (const QString& line : chart.shown_title().split('\n'))
          QVERIFY2(title_metrics.horizontalAdvance(line) <= chart.width(), qPrintable(line));
        QVERIFY(chart.full_title().contains(chart.shown_title().split('\n').front().chopped(1)));
      }
    }
    // Longer words: every tab still fits 1024 x 768 in Portuguese and Spanish.
    const QString language_before = language::current();
    const QLocale locale_before;
    for (const QString lang : {"pt_BR", "es"}) {
      w.set_language(lang);
      w.set_controls_collapsed(false);
      w.resize(1024, 768);
      for (int tab = 0; tab < w.chart_tabs().count(); ++tab) {
        w.chart_tabs().setCurrentIndex(tab);
        QTest::qWait(50);
        QStringList widths;  // what each page needs, should one outgrow the screen
        for (int k = 0; k < w.chart_tabs().count(); ++k)
          widths << QString::number(w.chart_tabs().widget(k)->minimumSizeHint().width());
        QVERIFY2(w.size() == QSize(1024, 768),
                 qPrintable(QString("%1, tab %2: the pages need %3 px").arg(lang).arg(tab).arg(widths.join(", "))));
        const QStringList outside = widgets_outside(w);
        QVERIFY2(outside.isEmpty(), qPrintable(QString("%1, tab %2: %3").arg(lang).arg(tab).arg(outside.join("; "))));
        for (QTabBar* bar : {w.chart_tabs().tabBar(), w.trace_views().tabs().tabBar()}) {
          if (!bar->isVisible()) continue;
          const QStringList cut = cut_tabs(*bar);
          QVERIFY2(cut.isEmpty(), qPrintable(QString("%1, tab %2: %3").arg(lang).arg(tab).arg(cut.join("; "))));
        }
        if (!shots.isEmpty()) w.grab().save(QString("%1/layout-%2-1024x768-%3.png").arg(shots, lang).arg(tab));
      }
    }
    w.set_language(language_before);
    QLocale::setDefault(locale_before);  // the tests after this one read dates in the locale they started with
    // F9 brings the controls back from the strip, to the width they had.
    w.set_controls_collapsed(true);
    const int collapsed_chart = w.chart_tabs().width();
    w.activateWindow();
    QTest::keyClick(&w, Qt::Key_F9);
    QVERIFY(!w.controls_collapsed());
    QTest::qWait(50);
    QVERIFY(w.chart_tabs().width() < collapsed_chart);
    // Even expanded, the charts and views take most of the width.
    QVERIFY2(w.chart_tabs().width() > w.width() * 6 / 10, qPrintable(QString::number(w.chart_tabs().width())));
  }

  // PoCL's reductions (about 1 GB/s) under its 73 GB/s copy: on a linear axis
  // the bars are a few pixels high; the chart turns logarithmic by itself,
  // can be set linear or logarithmic by hand, and its exports follow.
  void chartTurnsLogarithmicWhenBarsVanish() {
    MainWindow w(small_runs());
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    FamilyChart& chart = w.family_chart();
    const std::vector<Bar> pocl{{"reduce.interleaved", 0.85}, {"reduce.sequential", 1.26}};
    auto bar_height = [&chart](double gbps) {
      chart.replot();
      return chart.yAxis->coordToPixel(chart.yAxis->range().lower) - chart.yAxis->coordToPixel(gbps);
    };
    QTemporaryDir dir;
    auto exported_axis = [&](const QString& name) {
      const QString path = dir.filePath(name);
      w.chart_tabs().setCurrentWidget(&chart);
      if (!w.export_to(path).isEmpty()) return QString();
      QFile svg(path);
      return svg.open(QIODevice::ReadOnly) && svg.readAll().contains("log scale") ? QString("log") : QString("linear");
    };
    chart.show_family("Parallel reduction", pocl, 73.0);
    QCOMPARE(chart.scale(), FamilyChart::Scale::Automatic);
    QVERIFY(chart.logarithmic());
    QVERIFY(chart.yAxis->label().contains("log"));
    QVERIFY2(bar_height(0.85) > 40, qPrintable(QString::number(bar_height(0.85))));
    if (const QString shots = qEnvironmentVariable("THREADMAP_LAYOUT_SHOTS"); !shots.isEmpty())
      QVERIFY(w.export_to(shots + "/log-chart.png").isEmpty());
    QCOMPARE(exported_axis("auto.svg"), QString("log"));
    // By hand, from the View menu: linear shows what the room could not read.
    auto* linear = w.findChild<QAction*>("chartScale1");
    QVERIFY(linear);
    linear->trigger();
    QCOMPARE(chart.scale(), FamilyChart::Scale::Linear);
    QVERIFY(!chart.logarithmic());
    QVERIFY2(bar_height(0.85) < 10, qPrintable(QString::number(bar_height(0.85))));
    QCOMPARE(exported_axis("linear.svg"), QString("linear"));
    QCOMPARE(chart.drawn_bars().size(), std::size_t{2});  // the same bars, redrawn
    w.findChild<QAction*>("chartScale2")->trigger();
    chart.show_family("Parallel reduction", {{"reduce.sequential", 1000}, {"reduce.warp_shuffle", 2000}}, 2500.0);
    QVERIFY(chart.logarithmic());  // by hand stays so
    // Automatic and comparable bars: linear.
    w.findChild<QAction*>("chartScale0")->trigger();
    QVERIFY(!chart.logarithmic());
    QVERIFY(!chart.yAxis->label().contains("log"));
  }

  // F11: one screen for a room (run at 1024 x 768 by the gui_tests_1024x768
  // entry): the controls, menus, status bar and lesson gone; the chart over
  // the trace views with the source line highlighted, all inside the screen,
  // 24-pixel type, the Okabe-Ito palette; keys step, play and switch views;
  // Esc gives the window back as it was.
  void presentationModeFitsOneScreen() {
    MainWindow w(small_runs());
    QVERIFY(w.open_bundled_recording("smem.setRowReadCol").isEmpty());
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    // The default offscreen screen (800 x 800) is narrower than any projector.
    const QString expected = qEnvironmentVariable("THREADMAP_EXPECT_SCREEN");
    if (expected.isEmpty()) QSKIP("run on a 1024x768 screen by the gui_tests_1024x768 entry");
    QCOMPARE(QString("%1x%2").arg(w.screen()->geometry().width()).arg(w.screen()->geometry().height()), expected);
    w.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&w));
    // The Trace tab as F11 finds it, to be given back exactly by Esc; the
    // window smaller than the screen, so that F11 stretches the layout.
    w.chart_tabs().setCurrentWidget(&w.trace_views());
    w.resize(960, 700);
    QTest::qWait(50);
    auto layout = [&w] {
      auto& views = w.trace_views();
      return std::tuple{w.size(),
                        views.geometry(),
                        views.splitter().sizes(),
                        views.tabs().geometry(),
                        w.findChild<QSplitter*>("mainSplitter")->sizes(),
                        w.chart_tabs().currentIndex()};
    };
    const auto before = layout();
    QTest::keyClick(&w, Qt::Key_F11);
    QVERIFY(w.presenting());
    QTRY_COMPARE(w.size(), w.screen()->geometry().size());
    QTest::qWait(100);
    QVERIFY(!w.findChild<QWidget*>("controls")->isVisible());
    QVERIFY(!w.menuBar()->isVisible());
    QVERIFY(!w.statusBar()->isVisible());
    QVERIFY(!w.lesson().isVisible());
    QVERIFY(w.family_chart().isVisible());
    QVERIFY(w.trace_views().isVisible());
    QVERIFY(w.trace_views().grid().isVisible());
    if (const QString shots = qEnvironmentVariable("THREADMAP_LAYOUT_SHOTS"); !shots.isEmpty())
      w.grab().save(shots + "/presentation.png");
    if (const QString shots = qEnvironmentVariable("THREADMAP_LAYOUT_SHOTS"); !shots.isEmpty()) {
      w.trace_views().tabs().setCurrentIndex(1);
      QTest::qWait(50);
      w.grab().save(shots + "/presentation-banks.png");
      w.trace_views().tabs().setCurrentIndex(0);
    }
    const QStringList outside = widgets_outside(w);
    QVERIFY2(outside.isEmpty(), qPrintable(outside.join("; ")));
    // The highlighted source line is inside the source pane's visible part.
    auto& source = w.trace_views().source();
    QVERIFY(source.isVisible() && source.highlighted_line() > 0);
    const QRect line =
        source.cursorRect(QTextCursor(source.document()->findBlockByNumber(source.highlighted_line() - 1)));
    QVERIFY2(source.viewport()->rect().contains(line),
             qPrintable(QString("line at y %1 of %2").arg(line.y()).arg(source.viewport()->height())));
    // Large type everywhere the room reads.
    FamilyChart& chart = w.family_chart();
    QVERIFY(chart.presentation());
    // (The variants' names may shrink to fit: ten of them share the width.)
    for (const QFont& f : {chart.yAxis->tickLabelFont(), w.trace_views().playback_bar().font(), source.font()})
      QVERIFY2(f.pixelSize() >= 24, qPrintable(f.toString()));
    QVERIFY(w.trace_views().grid().theme().font_px >= 24);
    QCOMPARE(chart.plottable(0)->brush().color(), threadmap::views::okabe_ito::kBlue);
    QCOMPARE(chart.graph(0)->pen().color(), threadmap::views::okabe_ito::kVermillion);
    const QStringList overlaps = overlapping_tick_labels(chart);
    QVERIFY2(overlaps.isEmpty(), qPrintable(overlaps.join("; ")));
    // The keys, without a mouse: step, a presenter's PageDown, views, play and pause.
    auto& play = w.trace_views().playback();
    auto press = [&w](int key, Qt::KeyboardModifiers mods = Qt::NoModifier) {
      QWidget* focus = QApplication::focusWidget();
      QTest::keyClick(focus ? focus : &w, static_cast<Qt::Key>(key), mods);
    };
    const std::size_t step = play.step();
    press(Qt::Key_Right);
    QCOMPARE(play.step(), step + 1);
    press(Qt::Key_PageDown);
    QCOMPARE(play.step(), step + 2);
    press(Qt::Key_Left);
    QCOMPARE(play.step(), step + 1);
    QCOMPARE(source.highlighted_line(), int{w.trace_views().document()->analysis.requests[step + 1].line});
    const int view = w.trace_views().tabs().currentIndex();
    press(Qt::Key_V);
    QCOMPARE(w.trace_views().tabs().currentIndex(), (view + 1) % 5);
    press(Qt::Key_V, Qt::ShiftModifier);
    QCOMPARE(w.trace_views().tabs().currentIndex(), view);
    press(Qt::Key_Space);
    QVERIFY(play.playing());
    press(Qt::Key_Space);
    QVERIFY(!play.playing());
    // C: the views take the whole screen, and give the chart its place back.
    const int views_height = w.trace_views().height();
    press(Qt::Key_C);
    QTRY_VERIFY(!chart.isVisible() && w.trace_views().height() > views_height);
    press(Qt::Key_C);
    QTRY_VERIFY(chart.isVisible() && w.trace_views().height() == views_height);
    // Esc: the window as it was, the chart and views back in their tabs.
    press(Qt::Key_Escape);
    QVERIFY(!w.presenting());
    QTRY_VERIFY(w.findChild<QWidget*>("controls")->isVisible());
    QVERIFY(w.menuBar()->isVisible());
    QCOMPARE(w.chart_tabs().indexOf(&chart), 0);
    QCOMPARE(w.chart_tabs().indexOf(&w.trace_views()), 3);
    // The title is the name alone (six whole on a projector); the key is in its tooltip.
    QCOMPARE(w.chart_tabs().tabText(3), QString("Trace"));
    QCOMPARE(w.chart_tabs().tabToolTip(3), QString("Trace (Ctrl+4)"));
    QVERIFY(!chart.presentation());
    QVERIFY(w.trace_views().grid().theme().font_px < 24);
    // The window, its splitters and the Trace tab exactly as before F11 (the
    // views came back about 15 % narrower).
    QTest::qWait(50);
    QVERIFY2(layout() == before, qPrintable(QString("trace views %1 px wide, were %2; splitter %3, was %4")
                                                .arg(w.trace_views().width())
                                                .arg(std::get<1>(before).width())
                                                .arg(w.trace_views().splitter().sizes().value(0))
                                                .arg(std::get<2>(before).value(0))));
    // The trace's keys work at once: the focus left the controls.
    const std::size_t after_esc = play.step();
    press(Qt::Key_Right);
    QCOMPARE(play.step(), after_esc + 1);
    // The chart's title and y caption fit in each language, and the title
    // keeps the device copy's value whole.
    presentedChartFits(w);
    if (QTest::currentTestFailed()) return;
    // Closed while presenting: the window's own layout is what is saved.
    QTest::keyClick(&w, Qt::Key_F11);
    QVERIFY(w.presenting());
    w.close();
    QVERIFY(!w.presenting());
    QCOMPARE(w.chart_tabs().indexOf(&chart), 0);
  }

  // Two recordings of a family in the same view, stepping together through
  // corresponding requests (the same block and warp at corresponding sites)
  // as the export pairs them; the current site's figures and the timing
  // under each; the difference spelled out site by site from the
  // recordings' own numbers. Another family, or a session without a trace,
  // is refused with a message.
  void compareShowsTwoRecordingsInLockstep() {
    MainWindow w(small_runs());
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    const QString plain = QString(THREADMAP_RECORDINGS) + "/smem.setRowReadCol.threadmap";
    const QString pad = QString(THREADMAP_RECORDINGS) + "/smem.setRowReadColPad.threadmap";
    QVERIFY(w.compare_files(plain, pad).isEmpty());
    CompareView& pair = w.compare_view();
    QCOMPARE(w.chart_tabs().currentWidget(), &pair);
    QCOMPARE(pair.document(0)->session.kernel_id, std::string("smem.setRowReadCol"));
    QCOMPARE(pair.document(1)->session.kernel_id, std::string("smem.setRowReadColPad"));
    // The lesson: the column read's 32-way conflict gone with one word of padding.
    QVERIFY2(pair.difference_text().startsWith("shared load, wavefronts per request: 32 → 1"),
             qPrintable(pair.difference_text()));
    const PaneNumbers a = numbers_of(*pair.document(0)), b = numbers_of(*pair.document(1));
    QVERIFY(a.gbps && b.gbps);
    QVERIFY2(pair.difference_text().contains(
                 QString("%1× the bandwidth").arg(QLocale().toString(*b.gbps / *a.gbps, 'f', 1))),
             qPrintable(pair.difference_text()));
    QVERIFY(pair.counters_text(0).contains(QLocale().toString(*a.gbps, 'f', 2)));
    QVERIFY(pair.counters_text(1).contains(QLocale().toString(*b.gbps, 'f', 2)));
    // Lockstep: one step moves both, each to the same block and warp's request.
    QCOMPARE(pair.playback().steps(), pair.steps().size());
    pair.setFocus();
    for (int i = 0; i < 5; ++i) QTest::keyClick(QApplication::focusWidget(), Qt::Key_Right);
    QCOMPARE(pair.playback().step(), std::size_t{5});
    for (int i = 0; i < 2; ++i) {
      QVERIFY(pair.pane_request(i));
      QCOMPARE(pair.pane(i).step(), *pair.pane_request(i));
    }
    const auto& ra = pair.document(0)->analysis.requests[*pair.pane_request(0)];
    const auto& rb = pair.document(1)->analysis.requests[*pair.pane_request(1)];
    QCOMPARE(std::pair(ra.block, ra.warp), std::pair(rb.block, rb.warp));
    // At the column read, block 0 warp 0 in both panes (both recordings
    // traced blocks 0 and 1), each pane's figures that site's alone.
    std::size_t column_read = pair.steps().size();
    for (std::size_t s = 0; s < pair.steps().size() && column_read == pair.steps().size(); ++s) {
      const auto& r = pair.document(0)->analysis.requests[*pair.steps()[s].request[0]];
      if (r.block == 0 && r.warp == 0 && r.space == threadmap::Space::Shared && !r.store) column_read = s;
    }
    QVERIFY(column_read < pair.steps().size());
    pair.playback().seek(column_read);
    for (int i = 0; i < 2; ++i) {
      const auto& r = pair.document(i)->analysis.requests[pair.pane(i).step()];
      QVERIFY(r.block == 0 && r.warp == 0 && r.space == threadmap::Space::Shared && !r.store);
      QVERIFY2(pair.caption_text(i).contains("block (0, 0) warp 0"), qPrintable(pair.caption_text(i)));
    }
    QVERIFY2(pair.counters_text(0).startsWith("line 71 shared load: 32 wavefront"), qPrintable(pair.counters_text(0)));
    QVERIFY2(pair.counters_text(1).startsWith("line 92 shared load: 1 wavefront"), qPrintable(pair.counters_text(1)));
    QVERIFY(!pair.counters_text(1).contains("1 wavefronts"));
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_End);
    for (int i = 0; i < 2; ++i) QCOMPARE(pair.pane(i).step(), *pair.steps().back().request[i]);
    // V: the next view, for both panes.
    const int view = pair.view_index();
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_V);
    QCOMPARE(pair.view_index(), (view + 1) % 5);
    QCOMPARE(QString(pair.pane(0).metaObject()->className()), QString(pair.pane(1).metaObject()->className()));
    if (const QString shots = qEnvironmentVariable("THREADMAP_LAYOUT_SHOTS"); !shots.isEmpty()) {
      pair.set_view(1);
      pair.playback().seek(column_read);
      w.resize(1024, 768);
      QTest::qWait(100);
      w.grab().save(shots + "/compare.png");
      w.set_presentation(true);
      QTest::qWait(200);
      w.grab().save(shots + "/compare-presented.png");
      w.set_presentation(false);
    }
    // File ▸ Export on this tab: the pair as a WebM video, 1920x1080, in the view shown.
    QTemporaryDir out;
    QVERIFY(w.export_to(out.filePath("pair.webm")).isEmpty());
    const DecodedVideo video = decode_video(out.filePath("pair.webm"));
    QVERIFY2(video.error.isEmpty(), qPrintable(video.error));
    QCOMPARE(video.size, QSize(1920, 1080));
    QCOMPARE(static_cast<std::size_t>(video.frames), std::min<std::size_t>(240, pair.playback().steps()));
    QVERIFY(w.export_to(out.filePath("pair.mp4")).contains(".webm"));
    // Refused: another family; a session with no trace. The pair stays.
    const QString naive = QString(THREADMAP_RECORDINGS) + "/transpose.naive.threadmap";
    QVERIFY(w.compare_files(plain, naive).contains("different lessons"));
    QCOMPARE(pair.document(1)->session.kernel_id, std::string("smem.setRowReadColPad"));
    QVERIFY(w.status().worker_text().contains("different lessons"));
    Session untraced;
    QVERIFY(SessionStore::load(pad, untraced).isEmpty());
    untraced.trace.reset();
    QTemporaryDir dir;
    QVERIFY(SessionStore::save(dir.filePath("run.threadmap"), untraced).isEmpty());
    QVERIFY(w.compare_files(plain, dir.filePath("run.threadmap")).contains("holds no trace"));
    QVERIFY(w.compare_files(plain, dir.filePath("missing.threadmap")).contains("missing.threadmap"));
    QCOMPARE(pair.document(1)->session.kernel_id, std::string("smem.setRowReadColPad"));
    if (const QString shots = qEnvironmentVariable("THREADMAP_LAYOUT_SHOTS"); !shots.isEmpty()) {
      // transpose.naive where it has no counterpart to the coalesced kernel's shared load.
      QVERIFY(w.compare_files(naive, QString(THREADMAP_RECORDINGS) + "/transpose.coalesced.threadmap").isEmpty());
      std::size_t alone = 0;
      while (pair.steps()[alone].request[0]) ++alone;
      pair.playback().seek(alone + 40);
      QTest::qWait(100);
      w.grab().save(shots + "/compare-transpose.png");
      w.set_presentation(true);
      QTest::qWait(200);
      w.grab().save(shots + "/compare-transpose-presented.png");
      w.set_presentation(false);
      MainWindow fresh(small_runs());
      fresh.show();
      fresh.resize(1024, 768);
      fresh.chart_tabs().setCurrentWidget(&fresh.compare_view());
      QTest::qWait(100);
      fresh.grab().save(shots + "/compare-empty.png");
    }
  }

  // The lecturer's walk, keys only: pick a kernel and run it, compare it with
  // its neighbour, present, step, export the pair as WebM, leave.
  void keyboardWalkWithoutAMouse() {
    MainWindow w(small_runs());
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&w));
    QTRY_VERIFY_WITH_TIMEOUT(w.device_picker().currentData().toString().startsWith("opencl"), kRunTimeoutMs);
    auto press = [&w](int key, Qt::KeyboardModifiers mods = Qt::NoModifier) {
      QWidget* focus = QApplication::focusWidget();
      QTest::keyClick(focus ? focus : &w, static_cast<Qt::Key>(key), mods);
    };
    // Ctrl+K, type the kernel's name, F5.
    press(Qt::Key_K, Qt::ControlModifier);
    QCOMPARE(QApplication::focusWidget(), static_cast<QWidget*>(&w.kernel_tree()));
    QTest::keyClicks(QApplication::focusWidget(), "transpose.coalesced");  // a 'c' is the list's, not a shortcut's
    QTRY_VERIFY(w.kernel_tree().current_variant() && w.kernel_tree().current_variant()->id == "transpose.coalesced");
    QTest::qWait(500);  // the list's search starts again after a pause
    QTest::keyClicks(QApplication::focusWidget(), "transpose.naive");
    QTRY_VERIFY(w.kernel_tree().current_variant() && w.kernel_tree().current_variant()->id == "transpose.naive");
    QTRY_VERIFY_WITH_TIMEOUT(!w.runs().running(), kRunTimeoutMs);
    const std::size_t before = w.runs().history().reports().size();
    press(Qt::Key_F5);
    QTRY_VERIFY_WITH_TIMEOUT(w.runs().history().reports().size() > before, kRunTimeoutMs);
    QTRY_VERIFY_WITH_TIMEOUT(w.status().headline_text().contains("GB/s"), kRunTimeoutMs);
    // F7: the dialog offers the family's recordings, this kernel's first; Enter compares.
    QString offered;
    when_modal<CompareDialog>([&offered](CompareDialog& d) {
      offered = d.first().currentText() + " | " + d.second().currentText();
      QTest::keyClick(&d, Qt::Key_Return);
    });
    press(Qt::Key_F7);
    QVERIFY2(offered.startsWith("transpose.naive"), qPrintable(offered));
    CompareView& pair = w.compare_view();
    QTRY_VERIFY(!pair.empty());
    QCOMPARE(pair.document(0)->session.kernel_id, std::string("transpose.naive"));
    QCOMPARE(pair.document(1)->session.kernel_id, std::string("transpose.shared"));
    QCOMPARE(w.chart_tabs().currentWidget(), &pair);
    // F11 presents the pair; the arrows step both; V switches the view.
    QVERIFY(QTest::qWaitForWindowActive(&w));
    press(Qt::Key_F11);
    QVERIFY(w.presenting());
    QTRY_VERIFY(pair.isVisible());
    if (!qEnvironmentVariable("THREADMAP_EXPECT_SCREEN").isEmpty()) {
      QTRY_COMPARE(w.size(), w.screen()->geometry().size());
      QTest::qWait(100);
      const QStringList outside = widgets_outside(w);
      QVERIFY2(outside.isEmpty(), qPrintable(outside.join("; ")));
      for (int i = 0; i < 2; ++i) QVERIFY(pair.pane(i).height() >= 240);
    }
    press(Qt::Key_Right);
    press(Qt::Key_Right);
    QCOMPARE(pair.playback().step(), std::size_t{2});
    QCOMPARE(pair.pane(1).step(), *shown_request(pair.steps(), 2, 1));
    pair.set_view(0);
    press(Qt::Key_V, Qt::ShiftModifier);
    QCOMPARE(pair.view_name(), QString("schedule"));
    press(Qt::Key_V);
    press(Qt::Key_V);
    press(Qt::Key_V);
    press(Qt::Key_V);
    QCOMPARE(pair.view_name(), QString("coalescing"));
    // Ctrl+E: type the file's name in the save dialog, Enter.
    QTemporaryDir dir;
    const QString video = dir.filePath("walk.webm");
    when_modal<QFileDialog>([video](QFileDialog& d) {
      QTest::keyClicks(QApplication::focusWidget(), video);
      QTest::keyClick(QApplication::focusWidget(), Qt::Key_Return);
    });
    press(Qt::Key_E, Qt::ControlModifier);
    QTRY_VERIFY(QFile::exists(video));
    const DecodedVideo decoded = decode_video(video);
    QVERIFY2(decoded.error.isEmpty(), qPrintable(decoded.error));
    QVERIFY(decoded.frames >= 10);
    QVERIFY2(w.status().worker_text().contains("exported"), qPrintable(w.status().worker_text()));
    // Esc: the window as it was.
    QVERIFY(QTest::qWaitForWindowActive(&w));
    press(Qt::Key_Escape);
    QVERIFY(!w.presenting());
    QTRY_VERIFY(w.menuBar()->isVisible());
  }

  void catalogTreeAndGeneratedControls() {
    MainWindow w(small_runs());
    QVERIFY(w.kernel_tree().select("transpose.shared"));
    // tile: a slider over exactly the allowed values 4, 8, 16, 32.
    QSlider* tile = slider(w, "tile");
    QVERIFY(tile);
    QCOMPARE(tile->maximum() - tile->minimum() + 1, 4);
    std::set<std::string> seen;
    for (int i = tile->minimum(); i <= tile->maximum(); ++i) {
      tile->setValue(i);
      seen.insert(w.params().values().at("tile"));
    }
    QCOMPARE(seen, (std::set<std::string>{"4", "8", "16", "32"}));
    QVERIFY(qobject_cast<QSpinBox*>(w.params().control("width")));
    QVERIFY(qobject_cast<QComboBox*>(w.params().control("type")));
    QVERIFY(w.lesson().source_text().contains("transpose_shared"));
    QVERIFY(w.lesson().lesson_text().contains("Shared Memory"));
  }

  void sliderChangeRunsAndUpdatesChart() {
    MainWindow w(small_runs());
    QTRY_VERIFY_WITH_TIMEOUT(w.device_picker().currentData().toString().startsWith("opencl"), kRunTimeoutMs);
    QVERIFY(w.kernel_tree().select("transpose.shared"));
    QTRY_VERIFY_WITH_TIMEOUT(bar_of(w, "transpose.shared").has_value(), kRunTimeoutMs);
    QCOMPARE(latest(w, "transpose.shared")["parameters"]["tile"].get<int>(), 16);

    slider(w, "tile")->setValue(3);  // 32
    QTRY_VERIFY_WITH_TIMEOUT(latest(w, "transpose.shared")["parameters"]["tile"] == 32, kRunTimeoutMs);
    const json report = latest(w, "transpose.shared");
    QCOMPARE(report["status"].get<std::string>(), std::string("ok"));
    QCOMPARE(report["parameters"]["width"].get<int>(), 256);
    QVERIFY(report["bandwidth_gbps"].get<double>() > 0);
    QTRY_COMPARE_WITH_TIMEOUT(bar_of(w, "transpose.shared").value_or(-1), report["bandwidth_gbps"].get<double>(),
                              kRunTimeoutMs);
    QVERIFY(w.status().badge_text().contains("verified"));
    QVERIFY(w.status().numbers_text().contains("GB/s"));
    // The ceiling line comes from a device copy the worker measured.
    QTRY_VERIFY_WITH_TIMEOUT(w.family_chart().drawn_ceiling().has_value(), kRunTimeoutMs);
    QVERIFY(*w.family_chart().drawn_ceiling() > 0);
  }

  void exportsEveryFormatAndReadsThemBack() {
    MainWindow w(small_runs());
    QVERIFY(w.kernel_tree().select("matadd.elements"));
    QTRY_VERIFY_WITH_TIMEOUT(bar_of(w, "matadd.elements").has_value(), kRunTimeoutMs);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString png = dir.filePath("chart.png"), pdf = dir.filePath("chart.pdf"), svg = dir.filePath("chart.svg"),
                  csv = dir.filePath("runs.csv"), json_path = dir.filePath("runs.json");
    for (const QString& path : {png, pdf, svg, csv, json_path}) QVERIFY2(w.export_to(path).isEmpty(), qPrintable(path));

    const QImage image(png);
    QVERIFY(!image.isNull());
    QVERIFY(image.width() >= 1200 && image.height() >= 700);

    QFile pdf_file(pdf);
    QVERIFY(pdf_file.open(QIODevice::ReadOnly));
    const QByteArray pdf_bytes = pdf_file.readAll();
    QVERIFY(pdf_bytes.startsWith("%PDF"));
    QVERIFY(pdf_bytes.contains("/Type /Page") || pdf_bytes.contains("/Type/Page"));

    QSvgRenderer renderer(svg);
    QVERIFY(renderer.isValid());
    QFile svg_file(svg);
    QVERIFY(svg_file.open(QIODevice::ReadOnly));
    QXmlStreamReader xml(&svg_file);
    int elements = 0;
    while (!xml.atEnd())
      if (xml.readNext() == QXmlStreamReader::StartElement) ++elements;
    QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
    QVERIFY(elements > 10);

    QFile csv_file(csv);
    QVERIFY(csv_file.open(QIODevice::ReadOnly));
    const QStringList lines = QString::fromUtf8(csv_file.readAll()).trimmed().split('\n');
    QCOMPARE(lines.size(), static_cast<qsizetype>(w.runs().history().reports().size() + 1));
    QVERIFY(lines[0].startsWith("kernel,device,parameters"));
    const QStringList header = lines[0].split(',');
    const QStringList last = lines.back().split(',');
    QCOMPARE(last.size(), header.size());
    QCOMPARE(last[0], QString("matadd.elements"));
    const qsizetype gbps_column = header.indexOf("bandwidth_gbps");
    QVERIFY(gbps_column >= 0);
    bool numeric = false;
    const double gbps = last[gbps_column].toDouble(&numeric);
    QVERIFY(numeric);
    QVERIFY2(gbps > 0, "the exported bandwidth is the run's measured value");

    QFile json_file(json_path);
    QVERIFY(json_file.open(QIODevice::ReadOnly));
    const json saved = json::parse(json_file.readAll().toStdString());
    QCOMPARE(RunHistory::from_json(saved).reports().size(), w.runs().history().reports().size());
  }

  void saveAndOpenSession() {
    QTemporaryDir dir;
    const QString path = dir.filePath("reduce.threadmap");
    double gbps = 0;
    json report;
    {
      MainWindow w(small_runs());
      QVERIFY(!w.save_to(path).isEmpty());  // nothing has run yet
      QVERIFY(w.kernel_tree().select("reduce.sequential"));
      QTRY_VERIFY_WITH_TIMEOUT(bar_of(w, "reduce.sequential").has_value(), kRunTimeoutMs);
      gbps = *bar_of(w, "reduce.sequential");
      report = latest(w, "reduce.sequential");
      QVERIFY(w.save_to(path).isEmpty());
    }
    const threadmap::Session saved = threadmap::load_session(path.toStdString());
    QCOMPARE(saved.kernel_id, std::string("reduce.sequential"));
    QCOMPARE(saved.run["bandwidth_gbps"], report["bandwidth_gbps"]);
    QCOMPARE(saved.params.at("n"), std::to_string(256 * 256));
    QCOMPARE(saved.device["spec"], report["device"]["spec"]);
    QVERIFY(!saved.trace);

    MainWindow w(small_runs());
    QTRY_VERIFY_WITH_TIMEOUT(w.device_picker().currentData().toString().startsWith("opencl"), kRunTimeoutMs);
    QVERIFY(w.open_from(path).isEmpty());
    QCOMPARE(bar_of(w, "reduce.sequential").value_or(-1), gbps);
    QVERIFY(w.status().badge_text().contains("verified"));
    QVERIFY(w.status().origin_text().contains(QString::fromStdString(saved.device["name"])));
    QCOMPARE(w.params().values().at("n"), std::to_string(256 * 256));
    QVERIFY(!w.trace_document());  // a run without a trace
    QCOMPARE(QSettings().value("recentFiles").toStringList().value(0), path);
    QVERIFY(!w.open_from(dir.filePath("missing.threadmap")).isEmpty());

    // A recording dropped on the window opens like one chosen with Ctrl+O.
    QTemporaryDir drop_dir;
    const QString dropped = drop_dir.filePath("transpose.naive.threadmap");
    QVERIFY(QFile::copy(":/recordings/h100/transpose.naive.threadmap", dropped));
    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(dropped)});
    QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    DropTarget target(small_runs());
    target.dropEvent(&drop);
    QVERIFY(target.trace_document());
    QCOMPARE(target.trace_document()->session.kernel_id, std::string("transpose.naive"));
    QVERIFY(target.status().origin_text().contains("H100"));

    // Truncated, corrupt or foreign files are refused with the reason; what is shown stays.
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray bytes = file.readAll();
    const QByteArray bad_files[] = {bytes.left(bytes.size() / 2), bytes.left(8), QByteArray("not a session"),
                                    QByteArray(R"({"format": "threadmap-gui-runs", "runs": []})")};
    for (const QByteArray& content : bad_files) {
      QFile bad(dir.filePath("bad.threadmap"));
      QVERIFY(bad.open(QIODevice::WriteOnly | QIODevice::Truncate));
      bad.write(content);
      bad.close();
      const QString error = w.open_from(bad.fileName());
      QVERIFY2(error.contains("not a readable ThreadMap session"), qPrintable(error));
      QVERIFY(w.status().worker_text().contains("not a readable"));
      QCOMPARE(bar_of(w, "reduce.sequential").value_or(-1), gbps);
    }
  }

  void bundledH100RecordingOpens() {
    // Every embedded recording loads and holds a trace.
    const QStringList names = QDir(":/recordings/h100").entryList({"*.threadmap"});
    QCOMPARE(names.size(), 22);
    for (const QString& name : names) {
      threadmap::Session s;
      QVERIFY2(SessionStore::load(":/recordings/h100/" + name, s).isEmpty(), qPrintable(name));
      QVERIFY2(s.trace && !s.trace->accesses.empty(), qPrintable(name));
    }

    MainWindow w(small_runs());
    QSignalSpy changed(&w, &MainWindow::traceDocumentChanged);
    QVERIFY(w.open_bundled_recording("transpose.shared").isEmpty());
    QCOMPARE(changed.count(), 1);
    const auto doc = w.trace_document();
    QVERIFY(doc);
    QCOMPARE(changed.front().front().value<std::shared_ptr<const threadmap::analysis::TraceDocument>>(), doc);
    QCOMPARE(doc->session.kernel_id, std::string("transpose.shared"));
    QVERIFY(!doc->trace().accesses.empty());
    QVERIFY(!doc->analysis.requests.empty());
    QVERIFY(w.status().origin_text().contains("H100"));
    QVERIFY(w.status().origin_text().contains(QString::fromStdString(doc->session.created_at.substr(0, 10))));
    QVERIFY(w.status().badge_text().contains("verified"));
    QVERIFY(w.status().numbers_text().contains("GB/s"));
    // The family's five bundled runs, all made on the H100, fill the chart.
    QCOMPARE(w.family_chart().drawn_bars().size(), std::size_t{5});
    QCOMPARE(bar_of(w, "transpose.shared").value_or(-1), doc->session.run["bandwidth_gbps"].get<double>());
    // The Recording tab: the analysis' sites, one row each.
    QAbstractItemModelTester tester(const_cast<SiteModel*>(&w.recording().sites()));
    QCOMPARE(w.recording().sites().rowCount(), static_cast<int>(doc->analysis.sites.size()));
    QVERIFY(w.recording().sites().rowCount() > 0);
    QVERIFY(w.recording().summary_text().contains("Traced 4 of"));
    QVERIFY(w.recording().summary_text().contains("bank conflicts"));
    // The controls hold the recording's parameters, so F5 runs the same live here.
    QCOMPARE(w.params().values().at("width"), doc->session.params.at("width"));
    QTRY_VERIFY_WITH_TIMEOUT(w.device_picker().currentData().toString().startsWith("opencl"), kRunTimeoutMs);
    w.run_now();
    QTRY_VERIFY_WITH_TIMEOUT(latest(w, "transpose.shared")["device"]["spec"].get<std::string>().starts_with("opencl"),
                             kRunTimeoutMs);
    QVERIFY(w.status().origin_text().isEmpty());
    QCOMPARE(w.trace_document(), doc);  // the recording stays open for the views
  }

  void firstStartWithoutCudaOpensTheH100Recording() {
    WindowOptions o = small_runs();
    o.first_start = true;
    MainWindow w(o);
    QTRY_VERIFY_WITH_TIMEOUT(w.device_picker().currentData().toString().contains(':'), kRunTimeoutMs);
    for (int i = 0; i < w.device_picker().count(); ++i)
      if (w.device_picker().itemData(i).toString().startsWith("cuda"))
        QSKIP("a CUDA device is present: the first start selects a kernel instead");
    QTRY_VERIFY_WITH_TIMEOUT(w.trace_document() != nullptr, kRunTimeoutMs);
    QCOMPARE(w.kernel_tree().current_variant()->id, std::string("transpose.shared"));
    QVERIFY(w.status().origin_text().contains("H100"));
    QVERIFY(!w.runs().running());  // shown, not re-run
  }

  // The window on a laptop, the kernels on a GPU server: the worker reached
  // through a real OpenSSH server on 127.0.0.1 (tests/remote/start_sshd.sh).
  // The device list names the server, a run and a recording come back, the
  // recording is written here and plays.
  void recordThroughSshAndPlay() {
    QTemporaryDir dir;
    QProcess start;
    start.start("bash", {QString(THREADMAP_SOURCE_DIR) + "/tests/remote/start_sshd.sh", dir.filePath("sshd")});
    QVERIFY(start.waitForFinished(30000));
    if (start.exitCode() != 0)
      QSKIP(qPrintable("no OpenSSH server to test against (Debian: openssh-server): " + start.readAllStandardError()));
    auto read = [&](const char* name) {
      QFile f(dir.filePath(QString("sshd/") + name));
      return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()).trimmed() : QString();
    };
    const auto stop = qScopeGuard([&] { ::kill(read("sshd.pid").toInt(), SIGTERM); });
    qputenv("THREADMAP_SSH", read("ssh_command").toUtf8());
    qputenv("THREADMAP_REMOTE_COMMAND", QByteArray(THREADMAP_CLI) + " serve");
    const auto unset = qScopeGuard([] {
      qunsetenv("THREADMAP_SSH");
      qunsetenv("THREADMAP_REMOTE_COMMAND");
    });
    WindowOptions options = small_runs();
    options.remote = "127.0.0.1:" + read("port");
    MainWindow w(options);
    w.show();
    select_small_shared_transpose(w);
    if (QTest::currentTestFailed()) return;
    QVERIFY2(w.device_picker().currentText().endsWith(" on 127.0.0.1"), qPrintable(w.device_picker().currentText()));
    QVERIFY2(w.status().worker_text().contains("127.0.0.1"), qPrintable(w.status().worker_text()));
    QSignalSpy changed(&w, &MainWindow::traceDocumentChanged);
    w.record_now();
    QTRY_COMPARE_WITH_TIMEOUT(changed.count(), 1, kRunTimeoutMs);
    const auto doc = w.trace_document();
    QVERIFY(doc);
    QCOMPARE(doc->session.kernel_id, std::string("transpose.shared"));
    QCOMPARE(doc->session.params.at("tile"), std::string("8"));
    QVERIFY(!doc->trace().accesses.empty());
    QCOMPARE(doc->session.trace_verification["verified"], true);
    // It plays: a few steps forward move the views to later requests.
    auto& playback = w.trace_views().playback();
    QVERIFY(playback.steps() > 3);
    for (int i = 0; i < 3; ++i) playback.step_forward();
    QCOMPARE(playback.step(), std::size_t{3});
    // Back to this computer: the server's name leaves the device list.
    QVERIFY(w.connect_to_server("").isEmpty());
    QTRY_VERIFY_WITH_TIMEOUT(w.device_picker().count() > 0 && !w.device_picker().currentText().contains(" on "),
                             kRunTimeoutMs);
  }

  // A pack opens in the window (File ▸ Open pack… and a dropped folder call
  // open_pack): a bad one gets one pack.toml:LINE:COL message and the window
  // goes on; a good one's kernels join the tree beside the built-in ones, run
  // verified on PoCL through the worker, are recorded, and the views play.
  void aPackOpensRunsVerifiedAndItsRecordingPlays() {
    MainWindow w(small_runs());
    QTemporaryDir bad;
    QFile manifest(bad.filePath("pack.toml"));
    QVERIFY(manifest.open(QIODevice::WriteOnly));
    manifest.write("[pack]\nname = \"broken\"\n[[family]]\nid = \"broken\"\nopencl = \"missing.cl\"\n");
    manifest.close();
    const QString problem = w.open_pack(bad.path());
    QVERIFY2(problem.contains(QRegularExpression("pack\\.toml:5:\\d+: ")), qPrintable(problem));
    QVERIFY2(w.status().worker_text().contains(problem), qPrintable(w.status().worker_text()));
    QVERIFY(!w.kernel_tree().select("broken.naive"));

    const QString rowsum = QString(THREADMAP_SOURCE_DIR) + "/tests/data/packs/rowsum";
    QTRY_VERIFY_WITH_TIMEOUT(w.device_picker().currentData().toString().startsWith("opencl"), kRunTimeoutMs);
    QVERIFY2(w.open_pack(rowsum).isEmpty(), qPrintable(w.status().worker_text()));
    QVERIFY(w.open_pack(rowsum).contains("open already"));
    const auto family = w.kernel_tree().findItems("rowsum (pack rowsum)", Qt::MatchExactly);
    QCOMPARE(family.size(), 1);
    QCOMPARE(family.front()->childCount(), 3);
    QVERIFY(w.kernel_tree().select("transpose.shared"));  // the built-in catalog is still there
    QVERIFY(w.kernel_tree().select("rowsum.tree"));
    QVERIFY(w.lesson().source_text().contains("row_sum_tree"));
    QVERIFY(w.params().set_value("wg", "32"));
    QTRY_VERIFY_WITH_TIMEOUT(latest(w, "rowsum.tree")["parameters"]["wg"] == 32 && !w.runs().running(), kRunTimeoutMs);
    QCOMPARE(latest(w, "rowsum.tree")["verification"]["verified"], true);
    QVERIFY(w.status().badge_text().contains("verified"));

    QSignalSpy changed(&w, &MainWindow::traceDocumentChanged);
    w.record_now();
    QTRY_COMPARE_WITH_TIMEOUT(changed.count(), 1, kRunTimeoutMs);
    const auto doc = w.trace_document();
    QVERIFY(doc);
    QCOMPARE(doc->session.kernel_id, std::string("rowsum.tree"));
    QCOMPARE(doc->session.trace_verification["verified"], true);
    QVERIFY(doc->session.kernel_file.ends_with("rowsum.cl"));
    QVERIFY(w.trace_views().source().toPlainText().contains("row_sum_tree"));
    auto& playback = w.trace_views().playback();
    QVERIFY(playback.steps() > 3);
    for (int i = 0; i < 3; ++i) playback.step_forward();
    QCOMPARE(playback.step(), std::size_t{3});
    const int line = w.trace_views().source().highlighted_line();
    QVERIFY(line > 0);
    // The highlighted line, numbered, is the kept text's line.
    const QString shown = w.trace_views().source().document()->findBlockByNumber(line - 1).text();
    const QString kept =
        QString::fromStdString(threadmap::text_line(doc->session.kernel_text, static_cast<std::uint32_t>(line)));
    QVERIFY(!kept.isEmpty());
    QVERIFY2(shown.trimmed().startsWith(QString::number(line)) && shown.endsWith(kept),
             qPrintable(shown + " / " + kept));
  }

  // Exercise > New kernel: a pack of the learner's own in the packs folder,
  // whose kernel runs verified; edited, File > Reload packs shows the new
  // text and the worker records it.
  void newKernelRunsAndReloadReadsItsEdits() {
    const QString packs = PackLibrary::user_folder();
    const auto cleanup = qScopeGuard([&] { QDir(packs).removeRecursively(); });
    MainWindow w(small_runs());
    QTRY_VERIFY_WITH_TIMEOUT(w.device_picker().currentData().toString().startsWith("opencl"), kRunTimeoutMs);
    QVERIFY2(w.new_kernel("learnerkernel").isEmpty(), qPrintable(w.status().worker_text()));
    QVERIFY(w.status().worker_text().contains("scale.cl"));
    QVERIFY(w.new_kernel("learnerkernel").contains("exists already"));
    QVERIFY(w.kernel_tree().select("learnerkernel.grid_stride"));
    QVERIFY(w.lesson().source_text().contains("scale_grid_stride"));
    QVERIFY(w.params().set_value("n", "1000"));
    QTRY_VERIFY_WITH_TIMEOUT(latest(w, "learnerkernel.grid_stride")["parameters"]["n"] == 1000 && !w.runs().running(),
                             kRunTimeoutMs);
    QCOMPARE(latest(w, "learnerkernel.grid_stride")["verification"]["verified"], true);

    QFile kernel(packs + "/learnerkernel/scale.cl");
    QVERIFY(kernel.open(QIODevice::ReadOnly));
    QString text = QString::fromUtf8(kernel.readAll());
    kernel.close();
    text.replace("y[i] = (ELEM)a * x[i];\n}\n", "y[i] = (ELEM)a * x[i];  // edited by the learner\n}\n");
    QVERIFY(kernel.open(QIODevice::WriteOnly | QIODevice::Truncate));
    kernel.write(text.toUtf8());
    kernel.close();
    QVERIFY2(w.reload_packs().isEmpty(), qPrintable(w.status().worker_text()));
    QVERIFY(w.lesson().source_text().contains("edited by the learner"));
    QSignalSpy changed(&w, &MainWindow::traceDocumentChanged);
    w.record_now();
    QTRY_COMPARE_WITH_TIMEOUT(changed.count(), 1, kRunTimeoutMs);
    const auto doc = w.trace_document();
    QVERIFY(doc);
    QCOMPARE(doc->session.kernel_id, std::string("learnerkernel.grid_stride"));
    QVERIFY(doc->session.kernel_text.find("edited by the learner") != std::string::npos);
  }

  // Every pack in the user's packs folder opens at start, a bad one named in
  // the status area; a pack folder dropped on the window opens.
  void packsInThePacksFolderOrDroppedOpen() {
    const QString packs = PackLibrary::user_folder();
    const auto cleanup = qScopeGuard([&] { QDir(packs).removeRecursively(); });
    QVERIFY(copy_rowsum_pack(packs + "/sums", "rowsum_user"));
    QVERIFY(QDir().mkpath(packs + "/broken"));
    QFile broken(packs + "/broken/pack.toml");
    QVERIFY(broken.open(QIODevice::WriteOnly));
    broken.write("[pack]\nname = 7\n");
    broken.close();
    DropTarget w(small_runs());
    QVERIFY(w.kernel_tree().select("rowsum_user.tree"));
    QVERIFY2(w.status().worker_text().contains(QRegularExpression("broken/pack\\.toml:2:\\d+: ")),
             qPrintable(w.status().worker_text()));

    QTemporaryDir dropped;
    QVERIFY(copy_rowsum_pack(dropped.filePath("dropped"), "rowsum_dropped"));
    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(dropped.filePath("dropped"))});
    QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    w.dropEvent(&drop);
    QCOMPARE(w.kernel_tree().current_variant()->id, std::string("rowsum_dropped.serial"));
    QTRY_VERIFY_WITH_TIMEOUT(w.device_picker().currentData().toString().startsWith("opencl"), kRunTimeoutMs);
    QTRY_VERIFY_WITH_TIMEOUT(
        latest(w, "rowsum_dropped.serial")["verification"]["verified"] == true && !w.runs().running(), kRunTimeoutMs);
  }

  void recordTraceOpensTheSession() {
    MainWindow w(small_runs());
    select_small_shared_transpose(w);
    if (QTest::currentTestFailed()) return;
    QSignalSpy changed(&w, &MainWindow::traceDocumentChanged);
    w.record_now();
    QTRY_COMPARE_WITH_TIMEOUT(changed.count(), 1, kRunTimeoutMs);
    const auto doc = w.trace_document();
    QVERIFY(doc);
    QCOMPARE(doc->session.kernel_id, std::string("transpose.shared"));
    QCOMPARE(doc->session.params.at("tile"), std::string("8"));
    // The recording carries its device copy: the chart draws that ceiling.
    const double copy_gbps = doc->session.run["device_copy"]["bandwidth_gbps"].get<double>();
    QVERIFY(copy_gbps > 0);
    QCOMPARE(w.family_chart().drawn_ceiling(), std::optional<double>(copy_gbps));
    QCOMPARE(doc->session.params.at("width"), std::string("256"));
    QVERIFY(doc->session.device["spec"].get<std::string>().starts_with("opencl"));
    QVERIFY(!doc->trace().accesses.empty());
    QVERIFY(!doc->analysis.requests.empty());
    QCOMPARE(doc->session.trace_verification["verified"], true);
    QVERIFY(w.status().origin_text().contains("Recorded just now"));
    QVERIFY(w.status().badge_text().contains("verified"));
    QCOMPARE(latest(w, "transpose.shared")["parameters"]["tile"], 8);
    // Save writes the recording, trace included.
    QTemporaryDir dir;
    const QString path = dir.filePath("recorded.threadmap");
    QVERIFY(w.save_to(path).isEmpty());
    const threadmap::Session saved = threadmap::load_session(path.toStdString());
    QVERIFY(saved.trace);
    QCOMPARE(saved.trace->accesses.size(), doc->trace().accesses.size());
  }

  // The editor walked as a learner walks it: the exercise's starting kernel
  // run with a prediction (revealed, the trace stepped to the first request
  // unlike it), a typo marked at its line, the fix run to the goal, the
  // attempts kept in the profile, the session saved and reopened with the
  // edited text.
  void exerciseEditorWalk() {
    QDir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation)).removeRecursively();
    MainWindow w(small_runs());
    w.show();
    QTRY_VERIFY_WITH_TIMEOUT(w.device_picker().currentData().toString().startsWith("opencl"), kRunTimeoutMs);
    const threadmap::Exercise* e = threadmap::find_exercise("smem-conflict-free");
    QVERIFY(e);
    w.open_exercise(e);
    ExercisePanel& panel = w.exercise_panel();
    QCOMPARE(w.chart_tabs().currentWidget(), static_cast<QWidget*>(&panel));
    QCOMPARE(panel.editor().toPlainText().toStdString(), e->start_in("opencl").text);
    QCOMPARE(w.profile().state(e->id), LearnerProfile::State::NotStarted);
    QCOMPARE(w.kernel_tree().current_variant()->id, e->kernel_id);

    // 1. The starting kernel, predicted conflict-free: the column read says otherwise.
    panel.set_prediction(1, 0, 0);
    QTest::keyClick(&w, Qt::Key_F5);
    QTRY_VERIFY_WITH_TIMEOUT(!panel.running() && panel.result_text().contains("Goal not met"), kRunTimeoutMs);
    QVERIFY2(panel.prediction_text().contains("Wavefronts per shared-memory request: you predicted 1; measured"),
             qPrintable(panel.prediction_text()));
    QVERIFY(panel.prediction_text().contains("32 on 50 %"));
    const auto doc = w.trace_document();
    QVERIFY(doc);
    QCOMPARE(doc->session.source_text, e->start_in("opencl").text);
    const auto unlike = threadmap::first_request_unlike(doc->analysis, threadmap::Space::Shared, 1);
    QVERIFY(unlike);
    QCOMPARE(doc->analysis.requests[*unlike].wavefronts, 32);
    QCOMPARE(w.trace_views().playback().step(), *unlike);
    QCOMPARE(w.trace_views().tabs().currentWidget(), static_cast<QWidget*>(&w.trace_views().banks()));
    QCOMPARE(w.profile().state(e->id), LearnerProfile::State::Attempted);
    // The trace views show the learner's text, whose lines the trace's are.
    const QString shown = w.trace_views().source().toPlainText();
    QVERIFY2(shown.contains("5    __local ELEM tile[BLOCK_Y][BLOCK_X];"), qPrintable(shown));
    QCOMPARE(shown.count('\n'), QString::fromStdString(e->start_in("opencl").text).count('\n'));

    // 2. A typo on the column read: not compiled, marked at its line.
    QTextCursor c = panel.editor().document()->find("out[idx] = tile[");
    QVERIFY(!c.isNull());
    const int typo_line = c.blockNumber() + 1;
    c.clearSelection();
    c.movePosition(QTextCursor::Left, QTextCursor::MoveAnchor, 5);
    c.movePosition(QTextCursor::Right, QTextCursor::KeepAnchor, 4);
    c.insertText("tiel");
    QTest::keyClick(&w, Qt::Key_F5);
    QTRY_VERIFY_WITH_TIMEOUT(!panel.running() && panel.result_text().contains("Not compiled"), kRunTimeoutMs);
    QVERIFY(!panel.editor().marks().empty());
    QCOMPARE(panel.editor().marks().front().line, typo_line);
    QVERIFY(panel.editor().message_at(typo_line).contains("tiel"));
    QVERIFY(panel.verdict_text().startsWith(QString("✘ Not compiled: line %1").arg(typo_line)));
    QVERIFY(panel.messages().isVisible());
    QVERIFY(panel.messages().item(0)->text().contains(QString("line %1").arg(typo_line)));
    QCOMPARE(panel.editor().textCursor().blockNumber() + 1, typo_line);
    // Undo takes the typo back.
    panel.editor().undo();
    QVERIFY(panel.editor().marks().empty());  // an edit takes the stale marks away
    QCOMPARE(panel.editor().toPlainText().toStdString(), e->start_in("opencl").text);

    // 3. The fix: one word more per row. Conflict-free, as predicted; the goal met.
    QTextCursor tile = panel.editor().document()->find("[BLOCK_X]");
    QVERIFY(!tile.isNull());
    tile.insertText("[BLOCK_X + 1]");
    QTest::mouseClick(panel.findChild<QPushButton*>("exerciseRun"), Qt::LeftButton);  // the Run button, this time
    QTRY_VERIFY_WITH_TIMEOUT(!panel.running() && panel.result_text().contains("Goal met."), kRunTimeoutMs);
    QVERIFY(panel.editor().marks().empty());
    QVERIFY2(panel.prediction_text().contains("you predicted 1; every one of the"),
             qPrintable(panel.prediction_text()));
    QVERIFY(panel.verdict_text().startsWith("✔ Goal met"));
    QCOMPARE(w.profile().state(e->id), LearnerProfile::State::GoalMet);
    const json attempts = w.profile().attempts(e->id);
    QCOMPARE(attempts.size(), std::size_t{3});
    QCOMPARE(attempts[0]["prediction"]["shared_wavefronts_per_request"], 1);
    QCOMPARE(attempts[1]["outcome"], "invalid");
    QCOMPARE(attempts[2]["goal_met"], true);
    const std::string fixed = panel.editor().toPlainText().toStdString();
    QCOMPARE(w.trace_document()->session.source_text, fixed);
    // The variants chart draws the learner's run as its own bar, after the catalog's.
    QVERIFY(bar_of(w, "smem.setRowReadCol (smem-conflict-free.cl)"));
    // Beside the lesson's kernel, recorded on the same device with the same parameters.
    QTest::mouseClick(panel.findChild<QPushButton*>("exerciseCompare"), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(!w.compare_view().empty(), kRunTimeoutMs);
    QCOMPARE(w.chart_tabs().currentWidget(), static_cast<QWidget*>(&w.compare_view()));
    QVERIFY(w.compare_view().document(0)->session.source_text.empty());
    QCOMPARE(w.compare_view().document(1)->session.source_text, fixed);
    QVERIFY2(w.compare_view().caption_text(1).contains("yours: smem-conflict-free.cl"),
             qPrintable(w.compare_view().caption_text(1)));
    QVERIFY(w.compare_view().difference_text().contains("32 → 1"));
    // The edit is autosaved in the profile.
    QTRY_COMPARE(w.profile().edit("exercise/smem-conflict-free.cl").toStdString(), fixed);

    // 4. Handed in: the session keeps the text; opened again, the editor shows it.
    QTemporaryDir dir;
    const QString path = dir.filePath("handed-in.threadmap");
    QVERIFY(w.save_to(path).isEmpty());
    QCOMPARE(threadmap::load_session(path.toStdString()).source_text, fixed);
    MainWindow lecturer(small_runs());
    QVERIFY(lecturer.open_from(path).isEmpty());
    QCOMPARE(lecturer.exercise_panel().editor().toPlainText().toStdString(), fixed);
    QVERIFY(lecturer.exercise_panel().exercise() == e);
    QCOMPARE(lecturer.trace_document()->session.source_text, fixed);
    // Reset brings the starting kernel back, as one undoable edit.
    panel.reset_text();
    QCOMPARE(panel.editor().toPlainText().toStdString(), e->start_in("opencl").text);
    panel.editor().undo();
    QCOMPARE(panel.editor().toPlainText().toStdString(), fixed);
  }

  // A learner's endless loop stops the worker, not the window: past the
  // timeout it is killed and restarted, the message says why, the text stays.
  void exerciseEndlessLoopStopsOnlyTheWorker() {
    MainWindow w(small_runs());
    w.show();
    QTRY_VERIFY_WITH_TIMEOUT(w.device_picker().currentData().toString().startsWith("opencl"), kRunTimeoutMs);
    QVERIFY(w.kernel_tree().select("smem.setRowReadCol"));
    w.edit_kernel();
    ExercisePanel& panel = w.exercise_panel();
    QCOMPARE(panel.file_name(), QString("smem.cl"));
    const QTextCursor kernel = panel.editor().document()->find("void setRowReadCol(");
    QVERIFY(!kernel.isNull());
    QTextCursor c = panel.editor().document()->find("barrier(CLK_LOCAL_MEM_FENCE);", kernel);
    QVERIFY(!c.isNull());
    c.insertText("barrier(CLK_LOCAL_MEM_FENCE);\n  for (volatile int spin = 0; spin >= 0; spin += 0) {}");
    const QString text = panel.editor().toPlainText();
    panel.findChild<QSpinBox*>("exerciseTimeout")->setValue(3);
    const int restarts = w.worker().restarts();
    QTest::keyClick(&w, Qt::Key_F5);
    QTRY_VERIFY2_WITH_TIMEOUT(!panel.running() && panel.result_text().contains("did not finish within 3 s"),
                              qPrintable(panel.result_text()), kRunTimeoutMs);
    QCOMPARE(w.worker().restarts(), restarts + 1);
    QCOMPARE(panel.editor().toPlainText(), text);
    // The restarted worker runs the next request.
    w.run_now();
    QTRY_VERIFY_WITH_TIMEOUT(latest(w, "smem.setRowReadCol").is_object(), kRunTimeoutMs);
  }

  // An exercise opens in the dialect of the picked device: on PoCL, every
  // exercise's .cl start, its label saying OpenCL C. A device of the other
  // dialect (as the window reports one when it is picked) switches an
  // unedited start to its .cu start and back; an edited text is never replaced.
  void exerciseOpensTheStartInTheDevicesDialect() {
    QDir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation)).removeRecursively();
    MainWindow w(small_runs());
    w.show();
    QTRY_VERIFY_WITH_TIMEOUT(w.device_picker().currentData().toString().startsWith("opencl"), kRunTimeoutMs);
    ExercisePanel& panel = w.exercise_panel();
    auto* label = panel.findChild<QLabel*>("exerciseDialect");
    QVERIFY(label);
    for (const threadmap::Exercise& e : threadmap::exercises()) {
      w.open_exercise(&e);
      QCOMPARE(panel.exercise(), &e);
      QCOMPARE(panel.dialect(), std::string("opencl"));
      QCOMPARE(panel.file_name(), QString::fromStdString(e.id + ".cl"));
      QCOMPARE(panel.editor().toPlainText().toStdString(), e.start_in("opencl").text);
      QCOMPARE(label->text(), QString("OpenCL C (.cl)"));
      QVERIFY(label->toolTip().startsWith(QString::fromStdString(e.id + ".cl is written in OpenCL C")));
      QVERIFY(!panel.edited());
    }
    const threadmap::Exercise* e = threadmap::find_exercise("transpose-pad");
    QVERIFY(e);
    w.open_exercise(e);
    QVERIFY(e->start_in("cuda").text != e->start_in("opencl").text);
    panel.follow_device("cuda");
    QCOMPARE(panel.dialect(), std::string("cuda"));
    QCOMPARE(panel.file_name(), QString("transpose-pad.cu"));
    QCOMPARE(panel.editor().toPlainText().toStdString(), e->start_in("cuda").text);
    QCOMPARE(label->text(), QString("CUDA (.cu)"));
    panel.follow_device("opencl");
    QCOMPARE(panel.editor().toPlainText().toStdString(), e->start_in("opencl").text);
    // The learner's edit stays, in its dialect, whatever device is picked.
    QTextCursor c = panel.editor().document()->find("barrier(CLK_LOCAL_MEM_FENCE);");
    QVERIFY(!c.isNull());
    c.insertText("barrier(CLK_LOCAL_MEM_FENCE);  // mine");
    const QString mine = panel.editor().toPlainText();
    QVERIFY(panel.edited());
    panel.follow_device("cuda");
    QCOMPARE(panel.editor().toPlainText(), mine);
    QCOMPARE(panel.file_name(), QString("transpose-pad.cl"));
    QVERIFY2(panel.verdict_text().contains(
                 "Your edited transpose-pad.cl stays open: it is OpenCL C, and the picked device runs CUDA"),
             qPrintable(panel.verdict_text()));
    QDir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation)).removeRecursively();
  }

  void recordTraceFollowsTheTracedBlocks() {
    MainWindow w(small_runs());
    select_small_shared_transpose(w);
    if (QTest::currentTestFailed()) return;
    auto* blocks = w.findChild<QLineEdit*>("tracedBlocks");
    QVERIFY(blocks);
    // Not a block id: refused with a message before anything is sent.
    QSignalSpy changed(&w, &MainWindow::traceDocumentChanged);
    blocks->setText("0, five");
    w.record_now();
    QVERIFY(!w.runs().recording());
    QVERIFY2(w.status().worker_text().contains("\"five\" is not a block id"), qPrintable(w.status().worker_text()));
    // Block ids: exactly those blocks are traced.
    blocks->setText("5 0");
    w.record_now();
    QTRY_COMPARE_WITH_TIMEOUT(changed.count(), 1, kRunTimeoutMs);
    const auto doc = w.trace_document();
    QVERIFY(doc);
    QCOMPARE(doc->trace().traced_blocks, (std::vector<std::uint32_t>{0, 5}));
    std::set<std::uint32_t> seen;
    for (const auto& a : doc->trace().accesses) seen.insert(a.block);
    QCOMPARE(seen, (std::set<std::uint32_t>{0, 5}));
    // A block the grid does not have: the engine's message reaches the window.
    blocks->setText("99999");
    w.record_now();
    QTRY_VERIFY_WITH_TIMEOUT(!w.runs().recording(), kRunTimeoutMs);
    QVERIFY2(w.status().worker_text().contains("99999") || w.status().detail_text().contains("99999"),
             qPrintable(w.status().worker_text() + " | " + w.status().detail_text()));
    QCOMPARE(changed.count(), 1);
  }

  void sweepDrawsOneLinePerVariantAndCancels() {
    MainWindow w(small_runs());
    QVERIFY(w.kernel_tree().select("transpose.naive"));
    w.findChild<QComboBox*>("sweepParameter")->setCurrentText("tile");
    QSignalSpy finished(&w.runs(), &RunController::sweep_finished);
    w.sweep_now();
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 5 * kRunTimeoutMs);
    QCOMPARE(finished.front().front().toBool(), false);
    // Every transpose variant has a tile slider of four values.
    QCOMPARE(w.runs().sweep_data().lines().size(), std::size_t{5});
    QCOMPARE(w.sweep_chart().graphCount(), 5);
    QCOMPARE(w.sweep_chart().point_count(), 20);
    QCOMPARE(w.chart_tabs().currentWidget(), &w.sweep_chart());

    w.sweep_now();
    w.runs().cancel_sweep();
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 2, 5 * kRunTimeoutMs);
    QCOMPARE(finished.back().front().toBool(), true);
    QVERIFY(w.sweep_chart().point_count() < 20);
  }

  void sweepOverPadUsesALinearAxis() {
    MainWindow w(small_runs());
    QVERIFY(w.kernel_tree().select("transpose.shared"));
    w.findChild<QComboBox*>("sweepParameter")->setCurrentText("pad");
    QSignalSpy finished(&w.runs(), &RunController::sweep_finished);
    w.sweep_now();
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 5 * kRunTimeoutMs);
    // transpose.shared and transpose.coalesced have pad 0, 1, 2.
    QCOMPARE(w.sweep_chart().point_count(), 6);
    QCOMPARE(w.sweep_chart().xAxis->scaleType(), QCPAxis::stLinear);
    QVERIFY(w.sweep_chart().xAxis->range().contains(0));
    QVERIFY(w.sweep_chart().xAxis->label().startsWith("pad"));
  }

  void keyboardReachesTheActions() {
    MainWindow w(small_runs());
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QStringList keys;
    for (QAction* a : w.actions()) keys << a->shortcut().toString();
    for (const char* key : {"Ctrl+O", "Ctrl+S", "Ctrl+E", "Ctrl+R", "Ctrl+3", "F5", "F6", "F11", "Ctrl+Q", "Esc"})
      QVERIFY2(keys.contains(key), key);
    QVERIFY(w.kernel_tree().select("matadd.rows"));
    QTRY_VERIFY_WITH_TIMEOUT(bar_of(w, "matadd.rows").has_value(), kRunTimeoutMs);
    const std::size_t before = w.runs().history().reports().size();
    w.activateWindow();
    QTest::keyClick(&w, Qt::Key_F5);
    QTRY_VERIFY_WITH_TIMEOUT(w.runs().history().reports().size() > before, kRunTimeoutMs);
    QTest::keyClick(&w, Qt::Key_2, Qt::ControlModifier);
    QCOMPARE(w.chart_tabs().currentWidget(), &w.sweep_chart());
  }

  void killedWorkerIsRestartedAndReported() {
    MainWindow w(small_runs());
    QVERIFY(w.kernel_tree().select("transpose.copy"));
    QTRY_VERIFY_WITH_TIMEOUT(bar_of(w, "transpose.copy").has_value(), kRunTimeoutMs);
    const qint64 old_pid = w.worker().pid();
    QVERIFY(old_pid > 0);
    ::kill(static_cast<pid_t>(old_pid), SIGKILL);
    QTRY_COMPARE_WITH_TIMEOUT(w.worker().restarts(), 1, kRunTimeoutMs);
    QVERIFY(w.status().worker_text().contains("restarted"));
    const std::size_t before = w.runs().history().reports().size();
    w.run_now();
    QTRY_VERIFY_WITH_TIMEOUT(w.runs().history().reports().size() > before, kRunTimeoutMs);
    QVERIFY(w.worker().pid() > 0 && w.worker().pid() != old_pid);
    QVERIFY(w.status().badge_text().contains("verified"));
    QVERIFY2(w.status().worker_text().contains("restarted 1 time"), qPrintable(w.status().worker_text()));
  }

  void hungWorkerIsRestartedAfterTheTimeout() {
    QTemporaryDir dir;
    const QString script = dir.filePath("silent-worker");
    QFile file(script);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("#!/bin/sh\nexec sleep 600\n");
    file.close();
    file.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    WindowOptions o = small_runs();
    o.worker = script;
    o.worker_timeout_ms = 300;
    MainWindow w(o);
    QTRY_VERIFY_WITH_TIMEOUT(w.worker().restarts() >= 1, 10000);
    QVERIFY(w.status().worker_text().contains("no answer"));
  }

  // A worker that speaks another protocol version is stopped, not restarted
  // as a hung one would be, and the window says which versions the two speak.
  void workerOfAnotherProtocolIsRefused() {
    QTemporaryDir dir;
    const QString script = dir.filePath("future-worker");
    QFile file(script);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(
        "#!/bin/sh\nread line\n"
        "echo '{\"id\":0,\"type\":\"result\",\"result\":{\"pong\":true,\"version\":\"9.0.0\",\"protocol\":999}}'\n"
        "exec sleep 600\n");
    file.close();
    file.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    WindowOptions o = small_runs();
    o.worker = script;
    o.worker_timeout_ms = 300;
    MainWindow w(o);
    QTRY_VERIFY_WITH_TIMEOUT(w.status().worker_text().contains("speaks protocol 999"), 10000);
    QVERIFY2(w.status().worker_text().contains("this threadmap speaks protocol 1"),
             qPrintable(w.status().worker_text()));
    QTest::qWait(1000);  // past the hung-worker timeout: nothing is restarted
    QCOMPARE(w.worker().restarts(), 0);
    QVERIFY(w.kernel_tree().select("transpose.copy"));
    w.run_now();
    QTRY_VERIFY_WITH_TIMEOUT(w.status().detail_text().contains("speaks protocol 999"), 5000);
    QVERIFY(w.status().worker_text().contains("speaks protocol 999"));
  }

  void valuesOutsideTheCatalogAreRefused() {
    MainWindow w(small_runs());
    QVERIFY(w.kernel_tree().select("transpose.coalesced"));
    // Sizes: the spin box cannot hold more than the catalog's maximum.
    auto* width = qobject_cast<QSpinBox*>(w.params().control("width"));
    QVERIFY(width);
    QCOMPARE(width->maximum(), 32768);
    width->selectAll();
    QTest::keyClicks(width, "999999");
    QTest::keyClick(width, Qt::Key_Return);
    QVERIFY(width->value() <= 32768);
    // Sliders and combos offer nothing else; the panel refuses it too.
    QVERIFY(!w.params().set_value("tile", "12"));
    QVERIFY(!w.params().set_value("type", "half"));
    QVERIFY(!w.params().set_value("width", "0"));
    // A relation the ranges cannot express (strips must not exceed tile) is refused
    // by the engine with a message naming the parameters.
    QVERIFY(w.params().set_value("width", "256"));
    QVERIFY(w.params().set_value("tile", "8"));
    QVERIFY(w.params().set_value("strips", "16"));
    w.run_now();
    QTRY_VERIFY_WITH_TIMEOUT(latest(w, "transpose.coalesced")["parameters"]["strips"] == 16, kRunTimeoutMs);
    QCOMPARE(latest(w, "transpose.coalesced")["status"].get<std::string>(), std::string("invalid"));
    QVERIFY(w.status().badge_text().contains("invalid"));
    QVERIFY(w.status().detail_text().contains("strips"));
  }

  // Ctrl+4 and Ctrl+5 hand the keys to the trace views and the pair at once,
  // from the controls; Esc from a presentation gives them back to the tab's
  // page: Right steps and V switches views, no mouse (the focus stayed in
  // the controls, where Right scrolled them).
  void traceKeysWorkAfterEveryTabSwitch() {
    MainWindow w(small_runs());
    QVERIFY(w.open_bundled_recording("smem.setRowReadCol").isEmpty());
    QVERIFY(w.compare_files(QString(THREADMAP_RECORDINGS) + "/smem.setRowReadCol.threadmap",
                            QString(THREADMAP_RECORDINGS) + "/smem.setRowReadColPad.threadmap")
                .isEmpty());
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&w));
    auto press = [&w](int key, Qt::KeyboardModifiers mods = Qt::NoModifier) {
      QWidget* focus = QApplication::focusWidget();
      QTest::keyClick(focus ? focus : &w, static_cast<Qt::Key>(key), mods);
    };
    auto& trace = w.trace_views().playback();
    auto trace_keys_work = [&](const char* after) {
      const std::size_t step = trace.step();
      const int view = w.trace_views().tabs().currentIndex();
      press(Qt::Key_Right);
      press(Qt::Key_V);
      const QString where =
          QString("after %1, focus on %2")
              .arg(after,
                   QApplication::focusWidget() ? QApplication::focusWidget()->metaObject()->className() : "nothing");
      QVERIFY2(trace.step() == step + 1, qPrintable(where));
      QVERIFY2(w.trace_views().tabs().currentIndex() == (view + 1) % 5, qPrintable(where));
    };
    for (const int tab : {Qt::Key_1, Qt::Key_2, Qt::Key_3, Qt::Key_5, Qt::Key_6}) {
      press(Qt::Key_K, Qt::ControlModifier);  // the keys in the controls first
      press(tab, Qt::ControlModifier);
      press(Qt::Key_4, Qt::ControlModifier);
      QCOMPARE(w.chart_tabs().currentWidget(), &w.trace_views());
      trace_keys_work("Ctrl+4");
      if (QTest::currentTestFailed()) return;
    }
    press(Qt::Key_K, Qt::ControlModifier);
    press(Qt::Key_5, Qt::ControlModifier);
    CompareView& pair = w.compare_view();
    const std::size_t pair_step = pair.playback().step();
    press(Qt::Key_Right);
    QCOMPARE(pair.playback().step(), pair_step + 1);
    // Esc from either presentation: the keys are the shown page's again.
    press(Qt::Key_F11);
    QVERIFY(w.presenting());
    press(Qt::Key_Escape);
    QVERIFY(!w.presenting());
    press(Qt::Key_Right);
    QCOMPARE(pair.playback().step(), pair_step + 2);
    press(Qt::Key_4, Qt::ControlModifier);
    press(Qt::Key_F11);
    QVERIFY(w.presenting());
    press(Qt::Key_Escape);
    QVERIFY(!w.presenting());
    trace_keys_work("Esc");
  }

  // The lesson's source opens at the kernel's definition (the __kernel or
  // __global__ line), not at a comment that names it first (smem.cl's
  // table of what each variant shows).
  void lessonSourceShowsTheKernelDefinition() {
    LessonPane pane;
    auto* source = pane.findChild<QPlainTextEdit*>("kernelSource");
    QVERIFY(source);
    for (const auto& [id, backend] :
         {std::pair{"smem.setRowReadCol", "opencl"}, std::pair{"smem.setRowReadCol", "cuda"},
          std::pair{"smem.setRowReadColPad", "opencl"}, std::pair{"transpose.naive", "opencl"}}) {
      const threadmap::Variant* v = threadmap::find_variant(id);
      QVERIFY(v);
      pane.show_variant(*v, backend);
      const QString line = source->textCursor().block().text();
      const QString kernel = QString::fromStdString(v->kernel);
      QVERIFY2(line.contains(QRegularExpression("\\b(__kernel|__global__)\\b.*\\b" + kernel + "\\s*\\(")),
               qPrintable(QString("%1 on %2: '%3'").arg(id, backend, line)));
    }
  }

 private:
  // Tabs whose title is not read whole: narrower than its text and the
  // style's padding (so drawn elided), or lying past the bar's end.
  // In a presentation, in English, Portuguese and Spanish: the chart's title
  // is one line within its width that ends with the device copy's value,
  // and its y caption is no longer than the axis is tall.
  static void presentedChartFits(MainWindow& w) {
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

  static QStringList cut_tabs(QTabBar& bar) {
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
};

QTEST_MAIN(GuiTest)
#include "gui_test.moc"
