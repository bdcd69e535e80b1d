#include "app/gui/chart_export.h"

#include <QFileInfo>
#include <QSaveFile>
#include <QSvgGenerator>

#include <QScopeGuard>

#include <qcustomplot.h>

#include "app/gui/charts.h"

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
  bool ok = false;
  if (s == "png") {
    ok = plot.savePng(path, width, height, 1.0);
  } else if (s == "pdf") {
    ok = plot.savePdf(path, width, height);
  } else if (s == "svg") {
    QSvgGenerator svg;
    svg.setFileName(path);
    svg.setSize(QSize(width, height));
    svg.setViewBox(QRect(0, 0, width, height));
    svg.setTitle(QStringLiteral("ThreadMap chart"));
    QCPPainter painter;
    ok = painter.begin(&svg);
    if (ok) {
      plot.toPainter(&painter, width, height);
      ok = painter.end();
    }
  } else {
    return QObject::tr("%1: a chart is exported as .png, .pdf or .svg").arg(path);
  }
  return ok ? QString() : QObject::tr("could not write %1").arg(path);
}

QString export_text(const std::string& text, const QString& path) {
  QSaveFile file(path);
  if (!file.open(QIODevice::WriteOnly))
    return QObject::tr("could not open %1: %2").arg(path, file.errorString());
  if (file.write(text.data(), static_cast<qint64>(text.size())) != static_cast<qint64>(text.size()) || !file.commit())
    return QObject::tr("could not write %1: %2").arg(path, file.errorString());
  return {};
}

}  // namespace threadmap::gui
