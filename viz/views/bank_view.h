#pragma once
// The bank view: 32 banks as columns, the shared window's words as rows, the
// tile as the kernel declares it (padding hatched). The current shared
// request's lanes fly onto their banks, one wavefront at a time: lanes that
// share a bank with a different word wait for a later wavefront (a replay).
#include <functional>
#include <optional>
#include <set>
#include <vector>

#include "viz/views/bank_model.h"
#include "viz/views/trace_view.h"

namespace threadmap::views {

class BankView : public TraceView {
  Q_OBJECT
 public:
  using TraceView::TraceView;
  const BankFrame& frame() const { return frame_; }

 protected:
  void document_changed() override;
  void step_changed() override;
  void paint(QPainter& p) override;

 private:
  QString headline() const;
  QString not_shared_note() const;
  void paint_request(QPainter& p, qreal y);
  void draw_grid(QPainter& p, const std::vector<std::uint32_t>& shown, qreal grid_x, qreal grid_y, qreal cell_w,
                 qreal cell_h, int margin, qreal label_w);
  void draw_numbers(QPainter& p, qreal grid_x, qreal y, qreal cell_w, qreal h, int margin, qreal label_w);
  void draw_lanes(QPainter& p, const std::vector<std::uint32_t>& shown, qreal grid_x, qreal lanes_y, qreal lane_h,
                  qreal grid_y, qreal cell_w, qreal cell_h);
  void draw_served(QPainter& p, const BankLane& lane, QPointF at, qreal cell_w, qreal cell_h, const QColor& colour,
                   bool alone);
  // The chosen problem, where this frame shows one of its sites' requests.
  bool shows_problem() const;
  // The problem's key: the word, and each thread with its access and line,
  // in one of kProblemKeyWordings wordings (0 the fullest); flows onto as
  // many lines as `area` needs. Returns the height it takes.
  static constexpr int kProblemKeyWordings = 3;
  qreal draw_problem_key(QPainter& p, const QRectF& area, int wording, bool draw);
  // The word outlined in its cell, the current request's thread outlined in its lane box.
  void draw_problem_marks(QPainter& p, const std::vector<std::uint32_t>& shown, qreal grid_x, qreal lanes_y,
                          qreal lane_h, qreal grid_y, qreal cell_w, qreal cell_h);
  // The chosen problem's shared access in no array, where the frame shows
  // its warp's request: its lanes' boxes hatched in the lane row, and under
  // the grid an arrow off the grid's foot (past its last row) to a cell for
  // the stray word, the offset and the threads named (TraceView::OutsideMark).
  struct Stray {
    OutsideMark mark;
    std::uint64_t word = 0;  // in the window
    bool before = false;     // before the first row
  };
  std::optional<Stray> stray() const;
  // A form of the stray's band: its wording (0 the fullest), with the
  // problem's key above the grid or not, with the rows' caption or not.
  struct StrayBand {
    int wording = 0;
    bool key = true, caption = true;
    qreal height = 0;
    bool placed = false;
  };
  StrayBand place_stray_band(const OutsideMark& mark, qreal width_in,
                             const std::function<bool(const StrayBand&)>& fits) const;
  std::vector<std::uint32_t> rows_to_draw(const std::set<std::uint32_t>& touched, int all_fit, int can) const;
  void draw_stray_lanes(QPainter& p, qreal grid_x, qreal lanes_y, qreal lane_h, qreal cell_w);
  void draw_caption(QPainter& p, const std::vector<std::uint32_t>& shown, const std::set<std::uint32_t>& touched,
                    const QRectF& box);

  std::optional<BankModel> model_;
  BankFrame frame_;
};

}  // namespace threadmap::views
