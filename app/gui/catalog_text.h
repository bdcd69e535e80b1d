#pragma once
// The catalog's texts (kernels/lessons/catalog.toml: titles, summaries, parameter
// meanings; English, shared with threadmap-cli) in the interface's language.
// The GUI translates them under the "Catalog" context of its .ts files; a text
// the table below does not know stays English.
#include <QString>
#include <QStringList>

#include "kernels/pack/catalog.h"

namespace threadmap::gui::catalog_text {

QString text(const std::string& english);
// "one of 8, 16, 32 or 64", "1 to 32.768", "int, float or double", in the language.
QString range(const ParamSpec& spec);
// A kernel's tooltip: "title: summary".
QString tooltip(const Variant& variant);
// A parameter's tooltip: "meaning (range)".
QString parameter_tip(const ParamSpec& spec);
// The English texts the table translates (the test checks the catalog against it).
QStringList known();

}  // namespace threadmap::gui::catalog_text
