// The GUI window alone, headless (offscreen): the layouts on projector and
// laptop screens, exports of animations and their refusals, two recordings
// compared in lockstep, the catalog tree and its generated controls, the
// trace views' keys, the lesson pane, and workers that hang or speak another
// protocol (shell scripts standing in). A window starts its worker; nothing
// here waits on its replies (gui_test.cpp does).
#include "tests/gui/gui_test_support.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>

// An executable stand-in for the worker in `dir`: the shell script `text`.
// Its path, or "" when it could not be written.
QString fake_worker(const QTemporaryDir& dir, const char* name, const char* text) {
  const QString path = dir.filePath(name);
  QFile file(path);
  if (!file.open(QIODevice::WriteOnly) || file.write(text) < 0) return {};
  file.close();
  return file.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner) ? path : QString();
}

// What `body` writes to stderr (file descriptor 2).
QString stderr_of(const std::function<void()>& body) {
  std::fflush(stderr);
  const int saved = ::dup(2);
  std::FILE* capture = std::tmpfile();
  ::dup2(::fileno(capture), 2);
  body();
  std::fflush(stderr);
  ::dup2(saved, 2);
  ::close(saved);
  std::rewind(capture);
  QByteArray said;
  char buffer[4096];
  for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, capture)) > 0;) said.append(buffer, n);
  std::fclose(capture);
  return QString::fromUtf8(said);
}

// The bank-conflict lesson's pair: the 32-way column read and its padded fix.
const QString kSmemPair[2] = {QString(THREADMAP_RECORDINGS) + "/smem.setRowReadCol.threadmap",
                              QString(THREADMAP_RECORDINGS) + "/smem.setRowReadColPad.threadmap"};

class GuiWindowTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { start_gui_test(); }

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

  // A PNG sequence is written whole or not at all: an export cancelled, or
  // ended by SIGTERM, after three frames leaves the earlier twelve as they
  // were and no file of its own; a shorter export then replaces them and
  // removes the seven past its last. Bad numbers are named with their range.
  void pngSequenceIsWholeOrNotAtAll() {
    QTemporaryDir dir;
    const QString session = QString(THREADMAP_RECORDINGS) + "/smem.setRowReadCol.threadmap";
    const QString stem = dir.filePath("seq");
    QCOMPARE(export_animation({session, "--format", "png", "--size", "640x480", "--max-frames", "12", "-o", stem}), 0);
    const auto bytes = [&](int n) {
      QFile f(QString("%1-%2.png").arg(stem).arg(n, 4, 10, QChar('0')));
      return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    };
    const QByteArray first = bytes(1), last = bytes(12);
    QVERIFY(!first.isEmpty() && !last.isEmpty());
    const QStringList before = QDir(dir.path()).entryList(QDir::Files | QDir::Hidden | QDir::System);
    QCOMPARE(before.size(), 12);

    const std::shared_ptr<const threadmap::analysis::TraceDocument> doc =
        threadmap::analysis::make_document(threadmap::load_session(session.toStdString()), session.toStdString());
    QVERIFY(doc);
    threadmap::gui::AnimationRequest request;
    request.view = "grid";  // other pictures than the sequence there
    request.format = "png";
    request.output = stem;
    request.size = QSize(640, 480);
    request.max_frames = 5;
    const auto cancelled =
        write_animation({doc}, request, [](int done, int) { return done < 3; });
    QCOMPARE(cancelled.exit_code, 4);
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden | QDir::System), before);
    QCOMPARE(bytes(1), first);

    const pid_t child = ::fork();
    if (child == 0) {
      write_animation({doc}, request, [](int done, int) {
        if (done == 3) ::raise(SIGTERM);
        return true;
      });
      ::_exit(0);
    }
    int status = 0;
    QCOMPARE(::waitpid(child, &status, 0), child);
    QVERIFY2(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM, "the export was not ended by SIGTERM");
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden | QDir::System), before);
    QCOMPARE(bytes(1), first);

    const auto shorter = write_animation({doc}, request);
    QCOMPARE(shorter.exit_code, 0);
    QVERIFY2(shorter.message.contains("removed 7 frames past the last"), qPrintable(shorter.message));
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden | QDir::System),
             QStringList({"seq-0001.png", "seq-0002.png", "seq-0003.png", "seq-0004.png", "seq-0005.png"}));
    QVERIFY(bytes(1) != first);

    const std::vector<std::pair<QStringList, QString>> bad{
        {{"--max-frames", "abc"}, "--max-frames abc: give a whole number from 1 to 1000"},
        {{"--max-frames", "1001"}, "--max-frames 1001: give a whole number from 1 to 1000"},
        {{"--fps", "0"}, "--fps 0: give a whole number from 1 to 50"},
        {{"--size", "800xabc"}, "--size 800xabc: give WxH in whole pixels, from 320x240 to 7680x4320"},
        {{"--size", "1e3x600"}, "--size 1e3x600: give WxH in whole pixels, from 320x240 to 7680x4320"}};
    for (const auto& [args, message] : bad) {
      int code = 0;
      const QString said = stderr_of(
          [&] { code = export_animation(QStringList{session, "-o", dir.filePath("bad.gif")} + args); });
      QCOMPARE(code, 2);
      QCOMPARE(said, "threadmap export: " + message + "\n");
    }
    QVERIFY(!QFile::exists(dir.filePath("bad.gif")));
    // A file name that would clear the terminal reaches it escaped.
    const QString said = stderr_of(
        [&] { export_animation({dir.filePath("evil\x1b[2J.threadmap"), "-o", dir.filePath("bad.gif")}); });
    QVERIFY2(said.contains("evil\\x1b[2J.threadmap") && !said.contains(QChar(0x1b)), qPrintable(said));
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
    const QString plain = kSmemPair[0], pad = kSmemPair[1];
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
      // Step 1, both panes at the same block and warp, presented.
      pair.playback().seek(0);
      w.set_presentation(true);
      QTest::qWait(200);
      w.grab().save(shots + "/compare-transpose-step1-presented.png");
      w.set_presentation(false);
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

  // Esc from a pair's presentation: the variants chart stayed painted over
  // both panes (it was shown while its tab was not the current one) until
  // Ctrl+1, Ctrl+5. After, the pair's page is the only one shown, and the
  // chart, shown again, has its window type, not the presentation's. A pair
  // opens on the view of its lesson.
  void leavingAPairsPresentationLeavesNoChartOverIt() {
    MainWindow w(small_runs());
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    const QString plain = kSmemPair[0], pad = kSmemPair[1];
    QVERIFY(w.compare_files(plain, pad).isEmpty());
    FamilyChart& chart = w.family_chart();
    const QFont label = chart.xAxis->labelFont(), ticks = chart.xAxis->tickLabelFont();
    QCOMPARE(w.chart_tabs().currentWidget(), &w.compare_view());
    w.set_presentation(true);
    QTest::qWait(50);
    w.set_presentation(false);
    QTest::qWait(50);
    QCOMPARE(w.chart_tabs().currentWidget(), &w.compare_view());
    QVERIFY(w.compare_view().isVisible());
    QVERIFY2(!chart.isVisible(), "the variants chart is shown over the pair's page");
    w.chart_tabs().setCurrentWidget(&chart);
    QVERIFY(chart.isVisible());
    QCOMPARE(chart.xAxis->labelFont(), label);
    QCOMPARE(chart.xAxis->tickLabelFont(), ticks);
    // Each pair opens on the view of its lesson: the smem pair's banks, the
    // transpose pair's sectors (it opened on Banks: "This kernel makes no
    // shared-memory accesses").
    QCOMPARE(w.compare_view().view_name(), QString("banks"));
    QVERIFY(w.compare_files(QString(THREADMAP_RECORDINGS) + "/transpose.naive.threadmap",
                            QString(THREADMAP_RECORDINGS) + "/transpose.coalesced.threadmap")
                .isEmpty());
    QCOMPARE(w.compare_view().view_name(), QString("coalescing"));
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

  void hungWorkerIsRestartedAfterTheTimeout() {
    QTemporaryDir dir;
    const QString script = fake_worker(dir, "silent-worker", "#!/bin/sh\nexec sleep 600\n");
    QVERIFY(!script.isEmpty());
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
    const QString script = fake_worker(
        dir, "future-worker",
        "#!/bin/sh\nread line\n"
        "echo '{\"id\":0,\"type\":\"result\",\"result\":{\"pong\":true,\"version\":\"9.0.0\",\"protocol\":999}}'\n"
        "exec sleep 600\n");
    QVERIFY(!script.isEmpty());
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
         {std::pair{"smem.setRowReadCol", threadmap::Dialect::OpenCL}, std::pair{"smem.setRowReadCol", threadmap::Dialect::Cuda},
          std::pair{"smem.setRowReadColPad", threadmap::Dialect::OpenCL},
          std::pair{"transpose.naive", threadmap::Dialect::OpenCL}}) {
      const threadmap::Variant* v = threadmap::find_variant(id);
      QVERIFY(v);
      pane.show_variant(*v, backend);
      const QString line = source->textCursor().block().text();
      const QString kernel = QString::fromStdString(v->kernel);
      QVERIFY2(line.contains(QRegularExpression("\\b(__kernel|__global__)\\b.*\\b" + kernel + "\\s*\\(")),
               qPrintable(QString("%1 on %2: '%3'").arg(id, QString::fromUtf8(threadmap::dialect_key(backend)), line)));
    }
  }
};

QTEST_MAIN(GuiWindowTest)
#include "gui_window_test.moc"
