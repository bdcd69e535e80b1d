#pragma once
// `threadmap export`: a trace view of one recording, or of two side by side
// stepping together, played into an animated GIF, a WebM video or a numbered
// PNG sequence for slides. Headless (the offscreen platform); no worker, no
// device. The GUI's export of the Trace and Side by side tabs calls
// write_animation with its open recordings.
#include <QSize>
#include <QString>
#include <QStringList>

#include <functional>
#include <memory>
#include <vector>

#include "kernels/analysis/document.h"

namespace threadmap::gui {

struct AnimationRequest {
  QString view = "banks";  // grid, banks, barrier, coalescing, schedule
  QString format = "gif";  // gif, webm, png
  QString output;          // the file (png: the sequence's prefix)
  QSize size{1920, 1080};
  int fps = 4;
  int max_frames = 240;  // longer traces are sampled evenly
};

struct AnimationResult {
  int exit_code = 0;  // 0 written, 2 a bad request, 3 not written, 4 cancelled
  QString message;    // what was written, or why not
};

// `progress(done, total)` after each frame; returning false cancels.
AnimationResult write_animation(const std::vector<std::shared_ptr<const analysis::TraceDocument>>& docs,
                                const AnimationRequest& request,
                                const std::function<bool(int done, int total)>& progress = {});

// The size each trace view is drawn at (projector theme) in an exported
// frame of `frame` pixels holding `panes` panes side by side, each under its
// two-line caption. The legibility test draws the views at it.
QSize exported_view_size(QSize frame, int panes);

// args: what follows `threadmap export` on the command line. Prints what it
// wrote or what is wrong; returns the process exit code (0 written, 2 bad
// arguments or files, 3 the output could not be written).
int export_animation(const QStringList& args);

}  // namespace threadmap::gui
