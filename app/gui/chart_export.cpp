#include "app/gui/chart_export.h"

#include <QFileInfo>
#include <QFile>
#include <QSvgGenerator>

#include <QScopeGuard>

#include <qcustomplot.h>

#include "app/gui/charts.h"
#include "kernels/core/output_file.h"

namespace threadmap::gui {

namespace {

QString suffix(const QString& path) { return QFileInfo(path).suffix().toLower(); }

}  // namespace

bool is_chart_format(const QString& path) {
  const QString s = suffix(path);
  return s == "png" || s == "pdf" || s == "svg";
}

QString export_filters() {
  return QObject::tr(
      "PNG image (*.png);;PDF document (*.pdf);;SVG drawing (*.svg);;CSV data (*.csv);;JSON data "
      "(*.json)");
}

QString export_chart(QCustomPlot& plot, const QString& path) {
  const QString s = suffix(path);
  if (!is_chart_format(path)) return QObject::tr("%1: a chart is exported as .png, .pdf or .svg").arg(path);
  const int width = std::max(plot.width(), 1200);
  const int height = std::max(plot.height(), 700);
  // Titles and labels fitted to the export's size, then back to the widget's.
  auto* fitted = qobject_cast<FittedChart*>(&plot);
  if (fitted) fitted->fit_to_size({width, height});
  const auto refit = qScopeGuard([fitted] {
    if (fitted) {
      fitted->fit_to_width();
      fitted->replot();
    }
  });
  try {
    // Drawn into an OutputFile's temporary file, reached by its descriptor,
    // then renamed over `path`.
    OutputFile out(QFile::encodeName(path).toStdString());
    const QString file = QString::fromStdString(out.fd_path());
    bool ok = false;
    if (s == "png") {
      ok = plot.savePng(file, width, height, 1.0);
    } else if (s == "pdf") {
      ok = plot.savePdf(file, width, height);
    } else {
      QSvgGenerator svg;
      svg.setFileName(file);
      svg.setSize(QSize(width, height));
      svg.setViewBox(QRect(0, 0, width, height));
      svg.setTitle(QStringLiteral("ThreadMap chart"));
      QCPPainter painter;
      ok = painter.begin(&svg);
      if (ok) {
        plot.toPainter(&painter, width, height);
        ok = painter.end();
      }
    }
    if (!ok) return QObject::tr("could not write %1").arg(path);
    out.commit();
  } catch (const OutputError& e) {
    return QString::fromStdString(e.what());
  }
  return {};
}

QString export_text(const std::string& text, const QString& path) {
  try {
    write_file(QFile::encodeName(path).toStdString(), text);
  } catch (const OutputError& e) {
    return QString::fromStdString(e.what());
  }
  return {};
}

}  // namespace threadmap::gui
