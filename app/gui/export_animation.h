#pragma once
// `threadmap export`: a trace view of one recording, or of two side by side
// stepping together, played into an animated GIF or a numbered PNG sequence
// for slides. Headless (the offscreen platform); no worker, no device.
#include <QString>
#include <QStringList>

namespace threadmap::gui {

// args: what follows `threadmap export` on the command line. Prints what it
// wrote or what is wrong; returns the process exit code (0 written, 2 bad
// arguments or files, 3 the output could not be written).
int export_animation(const QStringList& args);

}  // namespace threadmap::gui
