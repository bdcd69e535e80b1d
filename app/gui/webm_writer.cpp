#include "app/gui/webm_writer.h"

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/error.h>
#include <libavutil/log.h>
#include <libavutil/opt.h>
#include <libswscale/swscale.h>
}

#include <QCoreApplication>
#include <QFile>

namespace threadmap::gui {

namespace {

QString av_error(int code) {
  char text[AV_ERROR_MAX_STRING_SIZE] = {};
  av_strerror(code, text, sizeof text);
  return QString::fromUtf8(text);
}

}  // namespace

struct WebmWriter::State {
  // Destroyed last, after the muxer closed its handle: a file not closed is
  // removed with it, and the target is untouched.
  std::unique_ptr<OutputFile> out;
  QString path;
  AVFormatContext* format = nullptr;
  AVCodecContext* codec = nullptr;
  AVStream* stream = nullptr;
  SwsContext* scale = nullptr;
  AVFrame* frame = nullptr;
  AVPacket* packet = nullptr;
  std::int64_t next_pts = 0;
  bool header_written = false;

  ~State() {
    sws_freeContext(scale);
    av_frame_free(&frame);
    av_packet_free(&packet);
    avcodec_free_context(&codec);
    if (format) {
      if (format->pb) avio_closep(&format->pb);
      avformat_free_context(format);
    }
  }

  // Sends `f` (null: flush) and writes every packet the encoder gives back.
  QString encode(const AVFrame* f) {
    if (const int e = avcodec_send_frame(codec, f); e < 0)
      return QCoreApplication::translate("Export", "encoding a frame failed: %1").arg(av_error(e));
    for (;;) {
      const int e = avcodec_receive_packet(codec, packet);
      if (e == AVERROR(EAGAIN) || e == AVERROR_EOF) return {};
      if (e < 0) return QCoreApplication::translate("Export", "encoding a frame failed: %1").arg(av_error(e));
      av_packet_rescale_ts(packet, codec->time_base, stream->time_base);
      packet->stream_index = stream->index;
      if (const int w = av_interleaved_write_frame(format, packet); w < 0)
        return QCoreApplication::translate("Export", "writing %1 failed: %2").arg(path, av_error(w));
    }
  }
};

WebmWriter::WebmWriter() = default;
// Not closed: the temporary file goes with the state, and the target is as it was.
WebmWriter::~WebmWriter() = default;

QString WebmWriter::codec_name() const {
  return state_ && state_->codec ? QString::fromUtf8(state_->codec->codec->name) : QString();
}

QString WebmWriter::open(const QString& path, QSize size, int fps, std::span<const std::filesystem::path> inputs) {
  if (size.width() % 2 || size.height() % 2)
    return QString("WebM needs an even width and height, not %1x%2").arg(size.width()).arg(size.height());
  av_log_set_level(AV_LOG_ERROR);  // the encoder's banner is not news; errors come back as messages
  state_ = std::make_unique<State>();
  State& s = *state_;
  s.path = path;
  const AVCodec* codec = avcodec_find_encoder_by_name("libvpx-vp9");
  if (!codec) codec = avcodec_find_encoder_by_name("libvpx");
  if (!codec)
    return QCoreApplication::translate(
        "Export", "this libavcodec has no VP9 or VP8 encoder (Debian's libavcodec59 has libvpx's)");
  const QByteArray file = QFile::encodeName(path);
  if (const int e = avformat_alloc_output_context2(&s.format, nullptr, "webm", file.constData()); e < 0)
    return "libavformat has no WebM muxer: " + av_error(e);
  s.stream = avformat_new_stream(s.format, nullptr);
  s.codec = avcodec_alloc_context3(codec);
  s.packet = av_packet_alloc();
  s.frame = av_frame_alloc();
  if (!s.stream || !s.codec || !s.packet || !s.frame) return "out of memory opening the WebM encoder";
  s.codec->width = size.width();
  s.codec->height = size.height();
  s.codec->time_base = AVRational{1, fps};
  s.codec->framerate = AVRational{fps, 1};
  s.codec->pix_fmt = AV_PIX_FMT_YUV420P;
  s.codec->gop_size = 10 * fps;
  // Constant quality for flat diagrams; realtime speed (seconds, not minutes).
  s.codec->bit_rate = codec->id == AV_CODEC_ID_VP9 ? 0 : 4'000'000;
  av_opt_set(s.codec->priv_data, "crf", "31", 0);
  av_opt_set(s.codec->priv_data, "deadline", "realtime", 0);
  av_opt_set(s.codec->priv_data, "cpu-used", "8", 0);
  av_opt_set(s.codec->priv_data, "row-mt", "1", 0);
  if (s.format->oformat->flags & AVFMT_GLOBALHEADER) s.codec->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
  if (const int e = avcodec_open2(s.codec, codec, nullptr); e < 0)
    return QString("the %1 encoder refused %2x%3 at %4 fps: %5")
        .arg(codec->name)
        .arg(size.width())
        .arg(size.height())
        .arg(fps)
        .arg(av_error(e));
  if (const int e = avcodec_parameters_from_context(s.stream->codecpar, s.codec); e < 0)
    return "the WebM stream's parameters: " + av_error(e);
  s.stream->time_base = s.codec->time_base;
  try {
    s.out = std::make_unique<OutputFile>(QFile::encodeName(path).toStdString(), Durability::Synced, inputs);
  } catch (const OutputError& e) {
    return QString::fromStdString(e.what());
  }
  // The muxer writes the OutputFile's temporary file, reached through its descriptor.
  if (const int e = avio_open(&s.format->pb, s.out->fd_path().c_str(), AVIO_FLAG_WRITE); e < 0)
    return QCoreApplication::translate("Export", "cannot write %1: %2").arg(path, av_error(e));
  if (const int e = avformat_write_header(s.format, nullptr); e < 0)
    return QCoreApplication::translate("Export", "writing %1 failed: %2").arg(path, av_error(e));
  s.header_written = true;
  s.frame->format = AV_PIX_FMT_YUV420P;
  s.frame->width = size.width();
  s.frame->height = size.height();
  if (const int e = av_frame_get_buffer(s.frame, 0); e < 0) return "a frame buffer: " + av_error(e);
  // QImage::Format_RGB32 is 0xffRRGGBB words: B, G, R, A bytes on little-endian machines.
  s.scale =
      sws_getContext(size.width(), size.height(), Q_BYTE_ORDER == Q_LITTLE_ENDIAN ? AV_PIX_FMT_BGRA : AV_PIX_FMT_ARGB,
                     size.width(), size.height(), AV_PIX_FMT_YUV420P, SWS_BICUBIC, nullptr, nullptr, nullptr);
  if (!s.scale) return "libswscale cannot convert the frames to YUV 4:2:0";
  return {};
}

QString WebmWriter::add(const QImage& image) {
  if (!state_ || !state_->header_written) return "the WebM file is not open";
  State& s = *state_;
  const QImage rgb = image.convertToFormat(QImage::Format_RGB32);
  if (rgb.width() != s.codec->width || rgb.height() != s.codec->height)
    return QString("a frame of %1x%2 in a %3x%4 video")
        .arg(rgb.width())
        .arg(rgb.height())
        .arg(s.codec->width)
        .arg(s.codec->height);
  if (const int e = av_frame_make_writable(s.frame); e < 0) return "a frame buffer: " + av_error(e);
  const uint8_t* planes[] = {rgb.constBits()};
  const int strides[] = {static_cast<int>(rgb.bytesPerLine())};
  sws_scale(s.scale, planes, strides, 0, rgb.height(), s.frame->data, s.frame->linesize);
  s.frame->pts = s.next_pts++;
  return s.encode(s.frame);
}

QString WebmWriter::close() {
  if (!state_ || !state_->header_written) return "the WebM file is not open";
  State& s = *state_;
  if (QString e = s.encode(nullptr); !e.isEmpty()) return e;
  if (const int e = av_write_trailer(s.format); e < 0)
    return QCoreApplication::translate("Export", "writing %1 failed: %2").arg(s.path, av_error(e));
  if (const int e = avio_closep(&s.format->pb); e < 0)
    return QCoreApplication::translate("Export", "writing %1 failed: %2").arg(s.path, av_error(e));
  try {
    s.out->commit();
  } catch (const OutputError& e) {
    return QString::fromStdString(e.what());
  }
  state_.reset();
  return {};
}

}  // namespace threadmap::gui
