// threadmap: the Qt GUI. Device work runs in a `threadmap-cli serve` worker.
#include <QApplication>
#include <QCommandLineParser>
#include <QIcon>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <string_view>

#include "app/gui/export_animation.h"
#include "app/gui/kernel_tree.h"
#include "app/gui/language.h"
#include "app/gui/main_window.h"
#include "app/gui/status_panel.h"

int main(int argc, char** argv) {
  // `threadmap export ...`: animations for slides, headless (no display needed).
  if (argc > 1 && std::string_view(argv[1]) == "export") {
    if (!qEnvironmentVariableIsSet("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QStringList args;
    for (int i = 2; i < argc; ++i) args << QString::fromLocal8Bit(argv[i]);
    return threadmap::gui::export_animation(args);
  }
  QApplication app(argc, argv);
  QApplication::setApplicationName("ThreadMap");
  QApplication::setOrganizationName("ThreadMap");
  QApplication::setApplicationVersion(THREADMAP_VERSION);
  // The installed desktop entry and icon (share/applications, share/icons/hicolor).
  QApplication::setDesktopFileName("org.threadmap.threadmap");
  QApplication::setWindowIcon(QIcon(":/icons/org.threadmap.threadmap.svg"));
  // Projected in lecture rooms: start from a larger type than the desktop's.
  QFont font = QApplication::font();
  font.setPointSizeF(std::max(font.pointSizeF(), 12.0));
  QApplication::setFont(font);

  // The language saved from the menu, else the system's (English, Portuguese, Spanish).
  threadmap::gui::language::apply(threadmap::gui::language::initial_choice());

  // The options' help in the interface's language.
  QCommandLineParser parser;
  parser.setApplicationDescription(
      QCoreApplication::translate("main", "ThreadMap: GPU teaching kernels run, verified and timed"));
  parser.addHelpOption();
  parser.addVersionOption();
  QCommandLineOption size({"s", "size"},
                          QCoreApplication::translate("main", "N: N x N matrices and N*N elements to sum"), "N", "0");
  QCommandLineOption reps({"r", "reps"}, QCoreApplication::translate("main", "timed repetitions per run"), "N", "10");
  QCommandLineOption worker("worker", QCoreApplication::translate("main", "the threadmap-cli to run as the worker"),
                            "PATH");
  QCommandLineOption kernel(
      {"k", "kernel"}, QCoreApplication::translate("main", "kernel to select at start, e.g. transpose.shared"), "ID");
  QCommandLineOption timeout(
      "worker-timeout", QCoreApplication::translate("main", "seconds without a reply before the worker is restarted"),
      "S", "120");
  QCommandLineOption quit_after(
      "quit-after",
      QCoreApplication::translate("main", "quit after MS milliseconds (to check that an installed copy starts)"), "MS");
  QCommandLineOption remote("remote",
                            QCoreApplication::translate("main", "run the kernels on this GPU server, through ssh"),
                            "[USER@]HOST[:PORT]");
  QCommandLineOption ssh_command("ssh-command",
                                 QCoreApplication::translate("main", "the ssh command line for --remote"), "COMMAND");
  parser.addOptions({size, reps, worker, kernel, timeout, quit_after, remote, ssh_command});
  parser.addPositionalArgument(
      "session", QCoreApplication::translate("main", "a session file to open, or two to compare side by side"),
      "[A.threadmap [B.threadmap]]");
  parser.process(app);

  threadmap::gui::WindowOptions options;
  options.size = parser.value(size).toLongLong();
  options.reps = std::clamp(parser.value(reps).toInt(), 1, 1000);
  options.worker = parser.value(worker);
  options.remote = parser.value(remote);
  options.ssh_command = parser.value(ssh_command);
  options.worker_timeout_ms = std::max(1, parser.value(timeout).toInt()) * 1000;
  const QStringList files = parser.positionalArguments();
  // With nothing asked for, the window picks once it knows the devices: a
  // bundled H100 recording when there is no CUDA device.
  options.first_start = files.isEmpty() && !parser.isSet(kernel);
  // The last device, kernel, parameters and layout (the language is applied above).
  options.restore_settings = true;
  threadmap::gui::MainWindow window(options);
  window.show();
  // One file opens it; two are compared side by side.
  if (files.size() == 1) window.open_from(files.front());
  if (files.size() == 2 && window.open_from(files[0]).isEmpty()) window.compare_files(files[0], files[1]);
  if (files.size() > 2)
    window.status().set_worker_state(
        QCoreApplication::translate("main", "%1 files given: open one session, or compare two").arg(files.size()),
        true);
  if (parser.isSet(kernel)) window.kernel_tree().select(parser.value(kernel).toStdString());
  if (parser.isSet(quit_after)) {
    QTimer::singleShot(std::max(0, parser.value(quit_after).toInt()), &app, [&window] {
      // What a packaging check wants to see: the window came up and found its worker.
      std::printf("threadmap: started; %s\n", qPrintable(window.status().worker_text()));
      std::fflush(stdout);
      QApplication::quit();
    });
  }
  return app.exec();
}
