#pragma once
// Writes a chart as PNG, PDF or SVG and numbers as CSV or JSON; the format
// comes from the file's suffix. Returns an empty string on success, else why not.
#include <QString>

#include <string>

class QCustomPlot;

namespace threadmap::gui {

QString export_chart(QCustomPlot& plot, const QString& path);
QString export_text(const std::string& text, const QString& path);
bool is_chart_format(const QString& path);  // png, pdf, svg
QString export_filters();                   // for QFileDialog

}  // namespace threadmap::gui
