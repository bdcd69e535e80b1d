// The GUI against the real worker (threadmap-cli serve) on the first OpenCL
// device: slider -> run -> chart, exports that parse back, sessions saved,
// opened, recorded and bundled, packs and exercises, a killed worker
// restarted and reported, values outside the catalog refused.
#include <QAbstractItemView>
#include <QCompleter>
#include <QTextDocument>

#include "tests/gui/gui_test_support.h"

class GuiTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { start_gui_test(); }

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
    // Each bundled recording names the GPU it was made on: a pair compares like with like.
    QVERIFY2(offered.count("(NVIDIA H100)") == 2, qPrintable(offered));
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
    // Typed into the name field itself, and again while the dialog stays
    // open: under load the dialog can be the active modal before its field
    // has the focus, and its completer's popup, filled from another thread,
    // can take a Return.
    QTimer type_name;
    QObject::connect(&type_name, &QTimer::timeout, [video] {
      auto* d = qobject_cast<QFileDialog*>(QApplication::activeModalWidget());
      auto* name = d ? d->findChild<QLineEdit*>("fileNameEdit") : nullptr;
      if (!name) return;
      name->setFocus();
      if (name->text() != video) {
        name->selectAll();
        QTest::keyClicks(name, video);
      }
      if (name->completer() && name->completer()->popup()) name->completer()->popup()->hide();
      QTest::keyClick(name, Qt::Key_Return);
    });
    type_name.start(300);
    press(Qt::Key_E, Qt::ControlModifier);
    type_name.stop();
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

  // An open exercise whose pack, read again, no longer has it stays open with
  // the learner's text, marked in the picker and the task, and choosing that
  // entry again changes nothing. A pack exercise without a lesson names none;
  // the not-run verdict and the trace views' title follow the language.
  void anExerciseItsPackWithdrawsStaysOpenMarked() {
    const QString packs = PackLibrary::user_folder();
    const auto cleanup = qScopeGuard([&] { QDir(packs).removeRecursively(); });
    QVERIFY(copy_rowsum_pack(packs + "/withdrawing", "rowsum_ex"));
    QFile manifest(packs + "/withdrawing/pack.toml");
    QVERIFY(manifest.open(QIODevice::ReadOnly));
    const QByteArray without = manifest.readAll();
    manifest.close();
    const QByteArray with = without + R"(
  [[family.exercise]]
  id = "rowsum-last-column"
  variant = "off_by_one"
  start = { opencl = "rowsum.cl" }
  solution = { opencl = "rowsum.cl" }
    [[family.exercise.goal]]
    metric = "verified"
    [family.exercise.text.en]
    title = "Add the last column"
    task = "The loop stops one column short."
    hints = []
)";
    const auto write = [&](const QByteArray& text) {
      return manifest.open(QIODevice::WriteOnly | QIODevice::Truncate) && manifest.write(text) == text.size() &&
             (manifest.close(), true);
    };
    QVERIFY(write(with));
    MainWindow w(small_runs());
    const threadmap::Exercise* exercise = threadmap::find_exercise("rowsum-last-column");
    QVERIFY(exercise);
    w.open_exercise(exercise);
    auto* picker = w.exercise_panel().findChild<QComboBox*>("exercisePicker");
    QVERIFY(picker);
    QCOMPARE(picker->currentText(), QString("Add the last column"));
    w.exercise_panel().editor().appendPlainText("// the learner's line");

    QVERIFY(write(without));
    QVERIFY(reloaded_alone(w, "withdrawing"));
    QVERIFY(!threadmap::find_exercise("rowsum-last-column"));
    QCOMPARE(w.exercise_panel().exercise(), exercise);
    QVERIFY(w.exercise_panel().editor().toPlainText().contains("the learner's line"));
    QCOMPARE(picker->currentText(), QString("Add the last column (removed)"));
    QCOMPARE(picker->findData("rowsum-last-column"), picker->count() - 1);
    const auto* task = w.exercise_panel().findChild<QLabel*>("exerciseTask");
    QVERIFY(task);
    QVERIFY2(task->text().contains("no longer in its pack"), qPrintable(task->text()));
    QVERIFY2(!task->text().contains("Lesson:"), qPrintable(task->text()));
    w.set_language("es");
    QTRY_VERIFY2(w.exercise_panel().verdict_text().startsWith("Aún no"),
                 qPrintable(w.exercise_panel().verdict_text()));
    const auto* trace_title = w.trace_views().findChild<QLabel*>("traceTitle");
    QVERIFY(trace_title);
    QVERIFY2(trace_title->text().startsWith("No hay ninguna grabación abierta"), qPrintable(trace_title->text()));
    w.set_language("en");
    QTRY_VERIFY(w.exercise_panel().verdict_text().startsWith("Not run yet"));
    emit picker->activated(picker->currentIndex());
    QCOMPARE(w.exercise_panel().exercise(), exercise);
    QVERIFY(w.exercise_panel().editor().toPlainText().contains("the learner's line"));

    QVERIFY(write(with));  // back: listed again, the mark gone
    QVERIFY(reloaded_alone(w, "withdrawing"));
    QCOMPARE(threadmap::find_exercise("rowsum-last-column"), exercise);
    QCOMPARE(picker->currentText(), QString("Add the last column"));
    QVERIFY(!task->text().contains("no longer in its pack"));

    // Renamed: a restart reads it; until then the pack and its exercise stay.
    QVERIFY(write(QByteArray(with).replace("name = \"rowsum_ex\"", "name = \"rowsum_renamed\"")));
    QVERIFY(!reloaded_alone(w, "withdrawing"));
    QVERIFY2(w.status().worker_text().contains("withdrawing: its pack's name is not the one read before "
                                               "('rowsum_ex', now 'rowsum_renamed'); start ThreadMap again"),
             qPrintable(w.status().worker_text()));
    QCOMPARE(threadmap::find_exercise("rowsum-last-column"), exercise);
    QVERIFY(w.kernel_tree().select("rowsum_ex.off_by_one"));
  }

  // File > Reload packs after a variant was added to a pack and another
  // renamed: the window and its worker list the new ones and not the old
  // name, and the renamed kernel runs verified (before, such a pack was
  // refused until ThreadMap started again).
  void aReloadWithAVariantAddedAndOneRenamedRuns() {
    const QString packs = PackLibrary::user_folder();
    const auto cleanup = qScopeGuard([&] { QDir(packs).removeRecursively(); });
    QVERIFY(copy_rowsum_pack(packs + "/growing", "rowsum_grow"));
    MainWindow w(small_runs());
    QTRY_VERIFY_WITH_TIMEOUT(w.device_picker().currentData().toString().startsWith("opencl"), kRunTimeoutMs);
    QVERIFY(w.kernel_tree().select("rowsum_grow.tree"));
    QFile manifest(packs + "/growing/pack.toml");
    QVERIFY(manifest.open(QIODevice::ReadOnly));
    QByteArray text = manifest.readAll();
    manifest.close();
    text.replace("  id = \"tree\"\n", "  id = \"tree_renamed\"\n");
    const qsizetype checks = text.indexOf("  [[family.check]]");
    QVERIFY(checks > 0);
    text.insert(checks, R"(  [[family.variant]]
  id = "tree_again"
  title = "The tree, once more"
  summary = "The same kernel under a second name."
  kernel = "row_sum_tree"

)");
    QVERIFY(manifest.open(QIODevice::WriteOnly | QIODevice::Truncate));
    manifest.write(text);
    manifest.close();
    QVERIFY(reloaded_alone(w, "growing"));
    QVERIFY(!threadmap::find_variant("rowsum_grow.tree"));
    QVERIFY(!w.kernel_tree().select("rowsum_grow.tree"));
    QVERIFY(w.kernel_tree().select("rowsum_grow.tree_again"));
    QVERIFY(w.kernel_tree().select("rowsum_grow.tree_renamed"));
    QVERIFY(w.params().set_value("width", "333"));
    QTRY_VERIFY_WITH_TIMEOUT(latest(w, "rowsum_grow.tree_renamed")["parameters"]["width"] == 333 &&
                                 !w.runs().running(),
                             kRunTimeoutMs);
    QCOMPARE(latest(w, "rowsum_grow.tree_renamed")["verification"]["verified"], true);
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

    // A pack named as an open one (its families others) is refused, named.
    QVERIFY(copy_rowsum_pack(dropped.filePath("twin"), "rowsum_twin"));
    QFile twin(dropped.filePath("twin/pack.toml"));
    QVERIFY(twin.open(QIODevice::ReadWrite));
    const QByteArray renamed = twin.readAll().replace("name = \"rowsum_twin\"", "name = \"rowsum_user\"");
    QVERIFY(twin.resize(0) && twin.write(renamed) == renamed.size());
    twin.close();
    const QString refused = w.open_pack(dropped.filePath("twin"));
    QVERIFY2(refused.contains("a pack named 'rowsum_user' is open already, from " + packs + "/sums"),
             qPrintable(refused));
    QVERIFY(!w.kernel_tree().select("rowsum_twin.tree"));
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

  // What the Task and Result pages say, as a reader sees the rich text: the
  // whole goal, its bounds too ("<=" was read as markup, and the goal lost
  // its last term); a kernel whose trace shows a race is not "goal met", and
  // the problem is a failed line of its own.
  void aProblemFailsTheGoalAndTheGoalIsShownWhole() {
    MainWindow w(small_runs());
    w.show();
    QTRY_VERIFY_WITH_TIMEOUT(w.device_picker().currentData().toString().startsWith("opencl"), kRunTimeoutMs);
    const threadmap::Exercise* e = threadmap::find_exercise("reduce-tree");
    QVERIFY(e);
    w.open_exercise(e);
    ExercisePanel& panel = w.exercise_panel();
    const auto shown = [](const QString& rich) {
      QTextDocument d;
      d.setHtml(rich);
      return d.toPlainText();
    };
    const QString task = shown(panel.task_text());
    QVERIFY2(task.contains("shared_ld_requests <= 128 x global_st_requests, and global_ld_lanes >= 16 x "
                           "global_ld_requests"),
             qPrintable(task));
    QFile cheat(QString(THREADMAP_SOURCE_DIR) + "/tests/data/cheats/reduce-tree.early-return.cl");
    QVERIFY(cheat.open(QIODevice::ReadOnly));
    panel.editor().setPlainText(QString::fromUtf8(cheat.readAll()));
    QTest::keyClick(&w, Qt::Key_F5);
    QTRY_VERIFY_WITH_TIMEOUT(!panel.running() && panel.result_text().contains("Goal not met"), kRunTimeoutMs);
    const QString result = shown(panel.result_text());
    QVERIFY2(result.contains("✘ the trace shows a problem: data race (write-after-read)"), qPrintable(result));
    QVERIFY2(panel.verdict_text().startsWith("✘ Goal not met yet"), qPrintable(panel.verdict_text()));
    QVERIFY2(panel.verdict_text().contains(QRegularExpression("· \\d+ problems? in the trace ·")),
             qPrintable(panel.verdict_text()));
    QCOMPARE(panel.verdict_text().count("shared_ld_requests:"), 1);  // two terms bound it: said once
  }

  // One grader: every built-in exercise's start and solution, and the two
  // cheats only other runs find (one fitted to the exercise's size, one to
  // the inputs of the default seed), graded in the Exercise tab and by
  // `threadmap-cli check`: the same verdict, verified and goal, for each.
  void theTabGradesAsCheckDoes() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    MainWindow w(small_runs());
    w.show();
    QTRY_VERIFY_WITH_TIMEOUT(w.device_picker().currentData().toString().startsWith("opencl"), kRunTimeoutMs);
    ExercisePanel& panel = w.exercise_panel();
    const QString cheats = QString(THREADMAP_SOURCE_DIR) + "/tests/data/cheats/";
    struct Graded {
      QString file;
      bool met = false, verified = false;
    };
    int graded = 0;
    for (const threadmap::Exercise& e : threadmap::exercises()) {
      if (!e.pack.empty() || !e.starts.count(threadmap::Dialect::OpenCL)) continue;
      std::vector<std::pair<QString, std::string>> files{
          {QString::fromStdString(e.id + ".start.cl"), e.start_in(threadmap::Dialect::OpenCL).text},
          {QString::fromStdString(e.id + ".solution.cl"), e.solutions.at(threadmap::Dialect::OpenCL).text}};
      for (const char* cheat : {"smem-conflict-free.one-size.cl", "transpose-pad.default-seed.cl"}) {
        if (!QString(cheat).startsWith(QString::fromStdString(e.id + "."))) continue;
        QFile f(cheats + cheat);
        QVERIFY(f.open(QIODevice::ReadOnly));
        files.emplace_back(cheat, f.readAll().toStdString());
      }
      std::vector<Graded> tab;
      QStringList paths;
      for (const auto& [name, text] : files) {
        QFile out(dir.filePath(name));
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(QByteArray::fromStdString(text));
        out.close();
        paths << out.fileName();
        w.open_exercise(&e);
        panel.editor().setPlainText(QString::fromStdString(text));
        QTest::keyClick(&w, Qt::Key_F5);
        QTRY_VERIFY_WITH_TIMEOUT(!panel.running() && panel.result_text().contains("Goal"), kRunTimeoutMs);
        const QStringList verdict = panel.verdict_text().split(" · ");
        QVERIFY2(verdict.size() >= 2, qPrintable(panel.verdict_text()));
        tab.push_back({name, verdict[0].startsWith("✔ Goal met"), verdict[1] == "verified"});
      }
      QProcess check;
      check.start(THREADMAP_CLI, QStringList{"check", QString::fromStdString(e.id)} + paths +
                                     QStringList{"--device", "opencl:0:0", "--format", "json"});
      QVERIFY(check.waitForFinished(kRunTimeoutMs * 2));
      const auto rows = json::parse(check.readAllStandardOutput().toStdString())["submissions"];
      QCOMPARE(rows.size(), tab.size());
      for (std::size_t i = 0; i < tab.size(); ++i) {
        const QString what = tab[i].file + ": " + QString::fromStdString(rows[i].dump());
        QVERIFY2(rows[i]["goal_met"].get<bool>() == tab[i].met, qPrintable(what));
        QVERIFY2(rows[i]["verified"].get<bool>() == tab[i].verified, qPrintable(what));
        // The cheats are not verified; each solution meets its goal, no start does.
        if (!tab[i].file.contains(".start.") && !tab[i].file.contains(".solution."))
          QVERIFY2(!tab[i].verified, qPrintable(what));
        else QVERIFY2(tab[i].met == tab[i].file.contains(".solution."), qPrintable(what));
        ++graded;
      }
    }
    QCOMPARE(graded, 12);  // five exercises' starts and solutions, and the two cheats
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
    QCOMPARE(panel.editor().toPlainText().toStdString(), e->start_in(threadmap::Dialect::OpenCL).text);
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
    QCOMPARE(doc->session.source_text, e->start_in(threadmap::Dialect::OpenCL).text);
    const auto unlike = threadmap::first_request_unlike(doc->analysis, threadmap::Space::Shared, 1);
    QVERIFY(unlike);
    QCOMPARE(doc->analysis.requests[*unlike].wavefronts, 32);
    QCOMPARE(w.trace_views().playback().step(), *unlike);
    QCOMPARE(w.trace_views().tabs().currentWidget(), static_cast<QWidget*>(&w.trace_views().banks()));
    QCOMPARE(w.profile().state(e->id), LearnerProfile::State::Attempted);
    // The trace views show the learner's text, whose lines the trace's are.
    const QString shown = w.trace_views().source().toPlainText();
    QVERIFY2(shown.contains("5    __local ELEM tile[BLOCK_Y][BLOCK_X];"), qPrintable(shown));
    QCOMPARE(shown.count('\n'), QString::fromStdString(e->start_in(threadmap::Dialect::OpenCL).text).count('\n'));

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
    QCOMPARE(panel.editor().toPlainText().toStdString(), e->start_in(threadmap::Dialect::OpenCL).text);

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
    QCOMPARE(panel.editor().toPlainText().toStdString(), e->start_in(threadmap::Dialect::OpenCL).text);
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
      QCOMPARE(panel.dialect(), threadmap::Dialect::OpenCL);
      QCOMPARE(panel.file_name(), QString::fromStdString(e.id + ".cl"));
      QCOMPARE(panel.editor().toPlainText().toStdString(), e.start_in(threadmap::Dialect::OpenCL).text);
      QCOMPARE(label->text(), QString("OpenCL C (.cl)"));
      QVERIFY(label->toolTip().startsWith(QString::fromStdString(e.id + ".cl is written in OpenCL C")));
      QVERIFY(!panel.edited());
    }
    const threadmap::Exercise* e = threadmap::find_exercise("transpose-pad");
    QVERIFY(e);
    w.open_exercise(e);
    QVERIFY(e->start_in(threadmap::Dialect::Cuda).text != e->start_in(threadmap::Dialect::OpenCL).text);
    panel.follow_device(threadmap::Dialect::Cuda);
    QCOMPARE(panel.dialect(), threadmap::Dialect::Cuda);
    QCOMPARE(panel.file_name(), QString("transpose-pad.cu"));
    QCOMPARE(panel.editor().toPlainText().toStdString(), e->start_in(threadmap::Dialect::Cuda).text);
    QCOMPARE(label->text(), QString("CUDA (.cu)"));
    panel.follow_device(threadmap::Dialect::OpenCL);
    QCOMPARE(panel.editor().toPlainText().toStdString(), e->start_in(threadmap::Dialect::OpenCL).text);
    // The learner's edit stays, in its dialect, whatever device is picked.
    QTextCursor c = panel.editor().document()->find("barrier(CLK_LOCAL_MEM_FENCE);");
    QVERIFY(!c.isNull());
    c.insertText("barrier(CLK_LOCAL_MEM_FENCE);  // mine");
    const QString mine = panel.editor().toPlainText();
    QVERIFY(panel.edited());
    panel.follow_device(threadmap::Dialect::Cuda);
    QCOMPARE(panel.editor().toPlainText(), mine);
    QCOMPARE(panel.file_name(), QString("transpose-pad.cl"));
    QVERIFY2(panel.verdict_text().contains(
                 "Your edited transpose-pad.cl stays open: it is OpenCL C, and the picked device runs CUDA"),
             qPrintable(panel.verdict_text()));
    QDir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation)).removeRecursively();
  }

  // A bundled pack's exercise as a learner meets it: listed at start (the
  // window opens the bundled packs), opened at its start beside the pack's
  // lesson section, the start graded not met and the solution met on PoCL.
  void aBundledPacksExerciseIsGradedInTheWindow() {
    QDir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation)).removeRecursively();
    MainWindow w(small_runs());
    w.show();
    QTRY_VERIFY_WITH_TIMEOUT(w.device_picker().currentData().toString().startsWith("opencl"), kRunTimeoutMs);
    const threadmap::Exercise* e = threadmap::find_exercise("histogram-privatise");
    QVERIFY2(e, "the bundled histogram pack's exercise is listed");
    w.open_exercise(e);
    ExercisePanel& panel = w.exercise_panel();
    QCOMPARE(w.kernel_tree().current_variant()->id, std::string("histogram.shared"));
    QCOMPARE(panel.editor().toPlainText().toStdString(), e->start_in(threadmap::Dialect::OpenCL).text);
    bool lesson_named = false;
    for (const QLabel* l : panel.findChildren<QLabel*>())
      lesson_named = lesson_named || l->text().contains("Lesson: Bins per block in shared memory");
    QVERIFY2(lesson_named, "the task names the pack lesson's section");
    QTest::keyClick(&w, Qt::Key_F5);
    QTRY_VERIFY_WITH_TIMEOUT(!panel.running() && panel.result_text().contains("Goal not met"), kRunTimeoutMs);
    panel.editor().setPlainText(QString::fromStdString(e->solutions.at(threadmap::Dialect::OpenCL).text));
    QTest::keyClick(&w, Qt::Key_F5);
    QTRY_VERIFY_WITH_TIMEOUT(!panel.running() && panel.result_text().contains("Goal met"), kRunTimeoutMs);
    QCOMPARE(w.profile().state(e->id), LearnerProfile::State::GoalMet);
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
};

QTEST_MAIN(GuiTest)
#include "gui_test.moc"
