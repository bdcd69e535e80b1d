#pragma once
// The interface language: English (the source text), Brazilian Portuguese or
// Spanish. The translations are Qt Linguist .qm files embedded under
// :/i18n (built from resources/translations/*.ts). Switching installs the
// new translator, so every open widget receives QEvent::LanguageChange and
// retranslates itself; numbers and dates follow through QLocale::setDefault.
#include <QString>
#include <QStringList>

#include <string>

namespace threadmap::gui::language {

// "en", "pt_BR", "es".
QStringList codes();
// The language's own name for itself: "English", "Português (Brasil)", "Español".
QString native_name(const QString& code);
// The first of the system's UI languages ThreadMap has, else "en".
QString system_choice();
// The language saved in the settings ("language"), else system_choice().
QString initial_choice();
// The language now installed ("en" before apply() was called).
QString current();
// Installs the translators of `code` (unknown codes fall back to "en") and
// makes its QLocale the default. Returns the code applied.
QString apply(const QString& code);
// A recording's ISO 8601 UTC time ("2026-11-22T15:04:05Z") as the locale writes
// it, with "UTC"; ISO 8601 under the C locale (no language set); the text
// itself when it is not a time.
QString date_time(const std::string& iso);
// The suffix of lesson translations in that language: "pt_BR", "es", "en".
QString lesson_suffix(const QString& code);

}  // namespace threadmap::gui::language
