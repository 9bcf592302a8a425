// SPDX-License-Identifier: GPL-2.0
/*
 * smart-play: play media files in real time without a display, the way
 * the video player of the SMART paper (§6.1) does, with a real decoder.
 *
 * Each file gets a video thread and, if it has one, an audio thread.
 *
 * Video: packets are decoded (libavcodec, one thread) and the decoded
 * picture is converted into a BGRA frame buffer (libswscale); the frame is
 * then "presented" at its presentation time, base + PTS, on the
 * CLOCK_MONOTONIC play-out clock: the player sleeps until then if it is
 * early.  On time means presented within 20 ms of that time.  The decode
 * of a packet must be done by the presentation of the next frame due (with
 * B frames the decoder returns frames in presentation order, not in the
 * order they are decoded), plus the 20 ms.
 *
 *  - SMART mode (the default): each packet is decoded under a time
 *    constraint (libsmart) whose deadline is that time and whose estimate
 *    is the paper's estimator for the packet's frame type, an exponential
 *    average of the CPU time of earlier frames of that type plus 10%, with
 *    SMART_CONSTRAINT_NOTIFY.  A packet for which the kernel says the
 *    deadline cannot be met before it starts (the notification, or the
 *    status INFEASIBLE) is skipped (see below).
 *  - Plain mode (--no-smart, or a kernel without SCHED_SMART): no SMART
 *    call; the player skips a packet that its wall-clock estimate of the
 *    frame type says would finish late, as the paper's SVR4 player does.
 *
 * Only B frames are skipped for a prediction: nothing refers to them.  An
 * I or P frame predicted late is decoded anyway (the frames up to the
 * next key frame refer to it) and counted as "decoded anyway", and so is
 * one whose time has passed already (the B frames skipped meanwhile let
 * the player catch up); only one whose time passed more than --max-behind
 * (200 ms) ago is skipped together with every frame up to the next key
 * frame, which is how a player far behind catches up.  After a reference
 * decoded anyway the player skips every B frame until a frame is done in
 * time again ("catching up", as players that drop non-reference frames
 * when behind do).  Frame types come from the packets: I is a key
 * frame, B a frame shown before one decoded earlier (its PTS is below the
 * largest seen), P the rest.
 *
 * Audio: packets are decoded ahead into a device buffer of at most
 * --audio-ahead ms, which the device drains in real time from the start of
 * play-out.  An underrun is the buffer running dry.  In SMART mode each
 * packet has a time constraint whose deadline is the moment the buffer
 * would run dry.
 *
 * Output: per stream the frames on time, early, late and skipped, the CPU
 * used, and per frame type the decode time and the estimator's error;
 * --json for a machine, --frames FILE for one line per frame.
 */
#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/imgutils.h>
#include <libswscale/swscale.h>

#include "smart.h"

#define PROG		"smart-play"
#define NSEC_PER_SEC	1000000000LL
#define MS(x)		((int64_t)(x) * 1000000LL)
#define TOLERANCE	MS(20)	/* on time: within 20 ms (§6.1) */

enum ftype { FT_I, FT_P, FT_B, FT_AUDIO, FT_NR };
static const char *const ftype_name[FT_NR] = { "I", "P", "B", "audio" };

enum mode { MODE_SMART, MODE_PLAIN };

static struct {
	enum mode mode;
	bool smart_kernel;
	bool json;
	bool quiet;
	bool no_audio;
	int64_t duration;	/* of play-out, ns; 0: the whole file */
	int64_t lead;		/* from the start to the first presentation */
	int64_t start_at;	/* --start-at: the base, CLOCK_MONOTONIC ns */
	int64_t audio_ahead;	/* device buffer */
	int64_t max_behind;	/* a reference later than this: skip to a key frame */
	double alpha;		/* estimator weight */
	double margin;		/* estimator margin (SMART mode) */
	FILE *frames;		/* --frames */
	pthread_mutex_t frames_lock;
	int64_t base;		/* play-out clock: presentation time of PTS 0 */
} opt = {
	.mode = MODE_SMART,
	.lead = MS(200),
	.audio_ahead = MS(500),
	.max_behind = MS(200),
	.alpha = 0.25,
	.margin = SMART_ESTIMATOR_MARGIN_PAPER,
	.frames_lock = PTHREAD_MUTEX_INITIALIZER,
};

static volatile sig_atomic_t stop;
static __thread volatile uint64_t notified_cookie;
static pthread_mutex_t smart_lock = PTHREAD_MUTEX_INITIALIZER;
static bool smart_fell_back;

/* Decode CPU time of one frame type: samples, for the mean and quantiles. */
struct type_stats {
	uint64_t *ns;
	size_t n, cap;
	double est_err_sum;	/* sum of (estimate - used) / used */
	double est_abs_sum;
	long est_n;
};

struct stream {
	const char *file;
	enum { ST_VIDEO, ST_AUDIO } kind;
	AVFormatContext *fmt;
	AVCodecContext *dec;
	int index;
	AVRational tb;
	int64_t first_pts;
	int64_t period;		/* frame period, ns (video) */
	pthread_t thread;
	int error;		/* a fatal error ended the stream */
	char errmsg[256];

	/* video */
	long frames, on_time, early, late;
	long skipped_notified, skipped_estimate, skipped_late, skipped_ref, skipped_behind;
	long decoded_anyway, lost, cut;
	long notified, overran;
	double err_sum, err_sq;
	struct SwsContext *sws;
	uint8_t *fb;
	int fb_linesize;
	int sws_w, sws_h, sws_fmt;

	/* audio */
	long segments, underruns;
	double underrun_ms;
	int64_t buffered;	/* ns of sound decoded */

	uint64_t cpu_ns;
	struct type_stats ts[FT_NR];
	struct smart_estimator cpu_est[FT_NR], wall_est[FT_NR];
};

static const char *averr(int err)
{
	static __thread char buf[AV_ERROR_MAX_STRING_SIZE];

	return av_make_error_string(buf, sizeof(buf), err);
}

static int64_t now_ns(void)
{
	return (int64_t)smart_now_ns();
}

static void sleep_until(int64_t t)
{
	struct timespec ts = { t / NSEC_PER_SEC, t % NSEC_PER_SEC };

	while (!stop && clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

static void on_notify(int sig, siginfo_t *si, void *ctx)
{
	(void)sig;
	(void)ctx;
	if (si->si_code == SMART_NOTIFY_INFEASIBLE || si->si_code == SMART_NOTIFY_EXPIRED)
		notified_cookie = (uintptr_t)si->si_value.sival_ptr;
}

static void on_stop(int sig)
{
	(void)sig;
	stop = 1;
}

/* ---- statistics ---------------------------------------------------------- */

static void ts_add(struct type_stats *t, uint64_t ns, uint64_t estimate)
{
	if (t->n == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 256;
		uint64_t *p = realloc(t->ns, cap * sizeof(*p));

		if (!p)
			errx(1, "out of memory");
		t->ns = p;
		t->cap = cap;
	}
	t->ns[t->n++] = ns;
	if (estimate && ns) {
		double e = ((double)estimate - (double)ns) / (double)ns;

		t->est_err_sum += e;
		t->est_abs_sum += fabs(e);
		t->est_n++;
	}
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

struct summary {
	double mean, sd, p50, p99, max;	/* ms */
};

static struct summary ts_summary(struct type_stats *t)
{
	struct summary s = { 0 };
	double sum = 0, sq = 0;

	if (!t->n)
		return s;
	qsort(t->ns, t->n, sizeof(*t->ns), cmp_u64);
	for (size_t i = 0; i < t->n; i++) {
		sum += t->ns[i] / 1e6;
		sq += (t->ns[i] / 1e6) * (t->ns[i] / 1e6);
	}
	s.mean = sum / t->n;
	s.sd = sqrt(fmax(0, sq / t->n - s.mean * s.mean));
	s.p50 = t->ns[(t->n - 1) / 2] / 1e6;
	s.p99 = t->ns[(size_t)((t->n - 1) * 0.99)] / 1e6;
	s.max = t->ns[t->n - 1] / 1e6;
	return s;
}

static void frame_log(const struct stream *s, long i, enum ftype t, const char *what,
		      uint64_t estimate, uint64_t used, int64_t err)
{
	if (!opt.frames)
		return;
	pthread_mutex_lock(&opt.frames_lock);
	fprintf(opt.frames, "%s,%s,%ld,%s,%s,%.3f,%.3f,%.3f\n", s->file,
		s->kind == ST_VIDEO ? "video" : "audio", i, ftype_name[t], what,
		estimate / 1e6, used / 1e6, err / 1e6);
	pthread_mutex_unlock(&opt.frames_lock);
}

/* ---- SMART ------------------------------------------------------------------ */

/*
 * Fall back to plain mode for the whole process, once, with the reason.
 * Called by a thread whose first constraint the kernel refused for a
 * reason that will not go away (no SCHED_SMART, not allowed).
 */
static void smart_fall_back(int err)
{
	pthread_mutex_lock(&smart_lock);
	if (!smart_fell_back) {
		smart_fell_back = true;
		warnx("time constraints unavailable: %s; playing best-effort (as --no-smart)",
		      smart_strerror(SMART_CALL_CONSTRAINT_BEGIN, err));
	}
	opt.mode = MODE_PLAIN;
	pthread_mutex_unlock(&smart_lock);
}

enum begin { BEGUN, NOT_BEGUN, SKIP, LATE };

/*
 * Begin the constraint of one unit of work.  SKIP: the kernel says before
 * it starts that it cannot be done in time (the status INFEASIBLE or the
 * notification); LATE: its deadline has passed already.
 */
static enum begin tc_begin(int64_t deadline, uint64_t estimate, int64_t period,
			   uint64_t cookie)
{
	struct smart_constraint c = { .size = sizeof(c) };

	if (opt.mode != MODE_SMART)
		return NOT_BEGUN;
	c.flags = SMART_CONSTRAINT_NOTIFY;
	c.deadline = deadline;
	c.estimate = estimate ? estimate : 1;
	/* an I frame longer than the period is not periodic load */
	c.period = (uint64_t)period >= c.estimate ? (uint64_t)period : 0;
	c.cookie = cookie;
	notified_cookie = 0;
	if (smart_constraint_begin(&c, 0)) {
		if (errno == ETIME)
			return LATE;
		if (errno == EINVAL && deadline - now_ns() > 60 * NSEC_PER_SEC)
			return NOT_BEGUN;	/* further than a constraint may reach */
		smart_fall_back(errno);
		return NOT_BEGUN;
	}
	if (c.status == SMART_STATUS_INFEASIBLE || notified_cookie == cookie) {
		smart_constraint_end(&c, 0);
		return SKIP;
	}
	return BEGUN;
}

/* End it; true if it overran its estimate. */
static bool tc_end(void)
{
	struct smart_constraint c = { .size = sizeof(c) };

	if (smart_constraint_end(&c, 0))
		return false;	/* ENOENT: expired at its deadline */
	return c.used > c.estimate;
}

/* ---- opening ------------------------------------------------------------------- */

static int open_stream(struct stream *s, const char *file, enum AVMediaType type)
{
	const AVCodec *codec = NULL;
	AVStream *st;
	int ret;

	s->file = file;
	s->kind = type == AVMEDIA_TYPE_VIDEO ? ST_VIDEO : ST_AUDIO;
	ret = avformat_open_input(&s->fmt, file, NULL, NULL);
	if (ret < 0)
		errx(1, "cannot open '%s': %s", file, averr(ret));
	ret = avformat_find_stream_info(s->fmt, NULL);
	if (ret < 0)
		errx(1, "'%s': cannot read its streams: %s", file, averr(ret));
	ret = av_find_best_stream(s->fmt, type, -1, -1, &codec, 0);
	if (ret == AVERROR_STREAM_NOT_FOUND) {
		avformat_close_input(&s->fmt);
		return -1;
	}
	if (ret == AVERROR_DECODER_NOT_FOUND) {
		int i = av_find_best_stream(s->fmt, type, -1, -1, NULL, 0);

		errx(1, "'%s': no decoder for its %s codec '%s' in this libavcodec", file,
		    av_get_media_type_string(type),
		    avcodec_get_name(s->fmt->streams[i]->codecpar->codec_id));
	}
	if (ret < 0)
		errx(1, "'%s': %s", file, averr(ret));
	s->index = ret;
	st = s->fmt->streams[ret];
	s->tb = st->time_base;
	s->first_pts = st->start_time != AV_NOPTS_VALUE ? st->start_time : 0;
	if (type == AVMEDIA_TYPE_VIDEO) {
		AVRational fr = st->avg_frame_rate.num ? st->avg_frame_rate : st->r_frame_rate;

		if (!fr.num || !fr.den)
			errx(1, "'%s': video stream without a frame rate", file);
		s->period = av_rescale(NSEC_PER_SEC, fr.den, fr.num);
	}
	s->dec = avcodec_alloc_context3(codec);
	if (!s->dec)
		errx(1, "out of memory");
	ret = avcodec_parameters_to_context(s->dec, st->codecpar);
	if (ret < 0)
		errx(1, "'%s': %s", file, averr(ret));
	/* one decoding thread: its CPU time is the frame's, under its constraint */
	s->dec->thread_count = 1;
	ret = avcodec_open2(s->dec, codec, NULL);
	if (ret < 0)
		errx(1, "'%s': cannot open the %s decoder: %s", file, codec->name, averr(ret));
	for (int t = 0; t < FT_NR; t++) {
		smart_estimator_init(&s->cpu_est[t], opt.alpha, opt.margin);
		smart_estimator_init(&s->wall_est[t], opt.alpha, 0);
	}
	return 0;
}

/* The presentation time of @pts on the play-out clock. */
static int64_t pts_time(const struct stream *s, int64_t pts)
{
	return opt.base + av_rescale_q(pts - s->first_pts, s->tb, (AVRational){ 1, NSEC_PER_SEC });
}

/*
 * The estimate for a frame of type @t: its own estimator once it has a
 * sample, else that of another type, else a quarter of the period.
 */
static uint64_t estimate(struct smart_estimator *e, enum ftype t, int64_t period)
{
	static const enum ftype order[][3] = {
		[FT_I] = { FT_I, FT_P, FT_B }, [FT_P] = { FT_P, FT_I, FT_B },
		[FT_B] = { FT_B, FT_P, FT_I }, [FT_AUDIO] = { FT_AUDIO, FT_AUDIO, FT_AUDIO },
	};

	for (int i = 0; i < 3; i++)
		if (e[order[t][i]].samples)
			return smart_estimator_get(&e[order[t][i]]);
	return period / 4 ? period / 4 : 1;
}

/*
 * The next packet of the stream into @pkt: true, or false at the end of
 * the file or on a read error (then said in @s->errmsg).
 */
static bool next_packet(struct stream *s, AVPacket *pkt)
{
	for (;;) {
		int ret = av_read_frame(s->fmt, pkt);

		if (ret == AVERROR_EOF)
			return false;
		if (ret < 0) {
			snprintf(s->errmsg, sizeof(s->errmsg), "read error: %s", averr(ret));
			s->error = 1;
			return false;
		}
		if (pkt->stream_index == s->index)
			return true;
		av_packet_unref(pkt);
	}
}

/* ---- video ----------------------------------------------------------------------- */

/* PTS of frames sent to the decoder and not yet returned (B-frame reorder) */
#define MAX_PENDING 64

struct pending {
	int64_t pts[MAX_PENDING];
	int n;
};

static void pending_add(struct stream *s, struct pending *p, int64_t pts)
{
	if (p->n == MAX_PENDING) {	/* a decoder holding more lost the oldest */
		memmove(p->pts, p->pts + 1, --p->n * sizeof(p->pts[0]));
		s->lost++;
	}
	p->pts[p->n++] = pts;
}

/*
 * The decoder returned the frame of @pts: take it off the list.  Frames
 * before it that did not come out never will (the decoder dropped them):
 * they are lost.  A frame the decoder made up (not on the list) is one
 * more frame.
 */
static void pending_take(struct stream *s, struct pending *p, int64_t pts)
{
	bool found = false;
	int j = 0;

	for (int i = 0; i < p->n; i++) {
		if (p->pts[i] > pts)
			p->pts[j++] = p->pts[i];
		else if (p->pts[i] == pts && !found)
			found = true;
		else
			s->lost++;
	}
	p->n = j;
	if (!found)
		s->frames++;
}

/* The earliest presentation time still to come: @pts or one pending. */
static int64_t pending_min(const struct pending *p, int64_t pts)
{
	for (int i = 0; i < p->n; i++)
		if (p->pts[i] < pts)
			pts = p->pts[i];
	return pts;
}

static void convert(struct stream *s, const AVFrame *f)
{
	if (!s->sws || f->width != s->sws_w || f->height != s->sws_h || f->format != s->sws_fmt) {
		int ret;

		sws_freeContext(s->sws);
		s->sws = sws_getContext(f->width, f->height, f->format, f->width, f->height,
					AV_PIX_FMT_BGRA, SWS_BILINEAR, NULL, NULL, NULL);
		if (!s->sws)
			errx(1, "'%s': cannot convert %s pictures", s->file,
			    av_get_pix_fmt_name(f->format));
		s->fb_linesize = FFALIGN(f->width * 4, 64);
		ret = av_reallocp(&s->fb, (size_t)s->fb_linesize * f->height);
		if (ret < 0)
			errx(1, "out of memory");
		s->sws_w = f->width;
		s->sws_h = f->height;
		s->sws_fmt = f->format;
	}
	sws_scale(s->sws, (const uint8_t *const *)f->data, f->linesize, 0, f->height,
		  &s->fb, &s->fb_linesize);
}

static int64_t frame_pts(const AVFrame *f)
{
	return f->best_effort_timestamp != AV_NOPTS_VALUE ? f->best_effort_timestamp : f->pts;
}

/* Present the converted frame @f at its time and count how it went. */
static void show(struct stream *s, AVFrame *f, struct pending *pend)
{
	int64_t pts = frame_pts(f), due = pts_time(s, pts), err;

	av_frame_unref(f);
	pending_take(s, pend, pts);
	sleep_until(due);
	err = now_ns() - due;
	if (err < -TOLERANCE)
		s->early++;
	else if (err > TOLERANCE)
		s->late++;
	else
		s->on_time++;
	s->err_sum += err / 1e6;
	s->err_sq += (err / 1e6) * (err / 1e6);
}

/* Convert and present every other frame the decoder has; false at its end. */
static bool show_rest(struct stream *s, AVFrame *f, struct pending *pend)
{
	for (;;) {
		int ret = avcodec_receive_frame(s->dec, f);

		if (ret == AVERROR(EAGAIN))
			return true;
		if (ret == AVERROR_EOF)
			return false;
		if (ret < 0)
			return true;	/* a frame it could not decode: lost */
		convert(s, f);
		show(s, f, pend);
	}
}

static void *video_main(void *arg)
{
	struct stream *s = arg;
	int64_t end = opt.duration ? opt.base + opt.duration : 0, max_pts = INT64_MIN;
	AVPacket *pkt = av_packet_alloc();
	AVFrame *f = av_frame_alloc();
	struct pending pend = { .n = 0 };
	bool wait_key = false, behind = false;
	uint64_t cpu0 = smart_thread_cpu_ns();
	long i = 0;

	if (!pkt || !f)
		errx(1, "out of memory");
	while (!stop) {
		int64_t pts, deadline, t0;
		uint64_t c0, est, used;
		enum ftype type;
		enum begin b;
		bool anyway = false;
		int ret;

		if (!next_packet(s, pkt))
			break;
		pts = pkt->pts != AV_NOPTS_VALUE ? pkt->pts : pkt->dts;
		if (pts == AV_NOPTS_VALUE)	/* no time: say, right after the last */
			pts = max_pts == INT64_MIN ? s->first_pts : max_pts + 1;
		if (end && pts_time(s, pts) >= end) {
			/* the end of play: what follows in decode order is later */
			av_packet_unref(pkt);
			break;
		}
		type = pkt->flags & AV_PKT_FLAG_KEY ? FT_I : pts < max_pts ? FT_B : FT_P;
		if (pts > max_pts)
			max_pts = pts;
		i++;
		s->frames++;
		if (wait_key && type != FT_I) {
			s->skipped_ref++;
			frame_log(s, i, type, "skipped-ref", 0, 0, 0);
			av_packet_unref(pkt);
			continue;
		}
		wait_key = false;
		if (behind && type == FT_B) {
			/* catching up after a late reference: no B frame */
			s->skipped_behind++;
			frame_log(s, i, type, "skipped-behind", 0, 0, 0);
			av_packet_unref(pkt);
			continue;
		}
		deadline = pts_time(s, pending_min(&pend, pts)) + TOLERANCE;
		if (opt.mode == MODE_SMART) {
			est = estimate(s->cpu_est, type, s->period);
			b = tc_begin(deadline, est, s->period, i);
		} else {
			est = estimate(s->wall_est, type, s->period);
			t0 = now_ns();
			b = t0 >= deadline ? LATE : t0 + (int64_t)est > deadline ? SKIP : NOT_BEGUN;
		}
		/*
		 * Skip a B frame that will be late: nothing refers to it.  An I
		 * or P frame is decoded anyway, since the frames up to the next
		 * key frame refer to it (the B frames skipped meanwhile catch
		 * up), unless its time passed more than --max-behind ago: then
		 * the player skips up to the next key frame.
		 */
		if (type != FT_B && (b == SKIP || (b == LATE && now_ns() - deadline < opt.max_behind))) {
			s->decoded_anyway++;
			behind = anyway = true;
			b = NOT_BEGUN;
		}
		if (b == SKIP || b == LATE) {
			if (b == LATE)
				s->skipped_late++;
			else if (opt.mode == MODE_SMART)
				s->skipped_notified++;
			else
				s->skipped_estimate++;
			frame_log(s, i, type, b == LATE ? "skipped-late" : "skipped", est, 0, 0);
			av_packet_unref(pkt);
			if (type != FT_B) {
				/*
				 * Up to the next key frame: show what the decoder
				 * holds back for reordering, then start afresh.
				 */
				if (avcodec_send_packet(s->dec, NULL) == 0)
					show_rest(s, f, &pend);
				avcodec_flush_buffers(s->dec);
				s->lost += pend.n;
				pend.n = 0;
				wait_key = true;
			}
			continue;
		}
		/* decode, and convert what comes out, under the constraint */
		t0 = now_ns();
		c0 = smart_thread_cpu_ns();
		pending_add(s, &pend, pts);
		ret = avcodec_send_packet(s->dec, pkt);
		av_packet_unref(pkt);
		if (ret < 0) {
			s->lost++;	/* it will not come out */
			pend.n--;
		}
		ret = avcodec_receive_frame(s->dec, f);
		if (ret == 0)
			convert(s, f);
		used = smart_thread_cpu_ns() - c0;
		if (b == BEGUN) {
			s->overran += tc_end();
			s->notified += notified_cookie == (uint64_t)i;
		}
		smart_estimator_update(&s->cpu_est[type], used);
		smart_estimator_update(&s->wall_est[type], now_ns() - t0);
		ts_add(&s->ts[type], used, opt.mode == MODE_SMART ? est : 0);
		t0 = now_ns() - (deadline - TOLERANCE);	/* finished, from its time */
		frame_log(s, i, type, anyway ? "decoded-anyway" : "decoded", est, used, t0);
		if (t0 <= 0)
			behind = false;		/* in time again */
		if (ret == 0)
			show(s, f, &pend);
		if (!show_rest(s, f, &pend))
			break;
	}
	/* the frames still in the decoder */
	if (!stop && !s->error && avcodec_send_packet(s->dec, NULL) == 0)
		show_rest(s, f, &pend);
	s->cut = pend.n;	/* interrupted: sent and never shown */
	s->cpu_ns = smart_thread_cpu_ns() - cpu0;
	av_packet_free(&pkt);
	av_frame_free(&f);
	return NULL;
}

/* ---- audio ----------------------------------------------------------------------- */

static void *audio_main(void *arg)
{
	struct stream *s = arg;
	int64_t end = opt.duration ? opt.base + opt.duration : 0;
	int64_t shift = 0;		/* of play-out, by underruns */
	int64_t buf_end = opt.base;	/* the device plays from base to here */
	AVPacket *pkt = av_packet_alloc();
	AVFrame *f = av_frame_alloc();
	uint64_t cpu0 = smart_thread_cpu_ns();
	long i = 0;

	if (!pkt || !f)
		errx(1, "out of memory");
	while (!stop) {
		int64_t t = now_ns(), done;
		uint64_t c0, est, used;
		enum begin b;
		int ret;

		if (end && t >= end)
			break;
		if (buf_end - t > opt.audio_ahead)
			sleep_until(buf_end - opt.audio_ahead);
		if (!next_packet(s, pkt))
			break;
		i++;
		est = estimate(s->cpu_est, FT_AUDIO, MS(10));
		/* due when the buffer runs dry (already dry: as soon as possible) */
		b = tc_begin(buf_end > now_ns() + MS(1) ? buf_end : now_ns() + MS(1), est, 0, i);
		c0 = smart_thread_cpu_ns();
		ret = avcodec_send_packet(s->dec, pkt);
		av_packet_unref(pkt);
		while (ret >= 0) {
			ret = avcodec_receive_frame(s->dec, f);
			if (ret < 0)
				break;
			if (f->sample_rate > 0)
				s->buffered += av_rescale(f->nb_samples, NSEC_PER_SEC, f->sample_rate);
			av_frame_unref(f);
		}
		used = smart_thread_cpu_ns() - c0;
		if (b == BEGUN) {
			s->overran += tc_end();
			s->notified += notified_cookie == (uint64_t)i;
		}
		smart_estimator_update(&s->cpu_est[FT_AUDIO], used);
		ts_add(&s->ts[FT_AUDIO], used, b == BEGUN ? est : 0);
		done = now_ns();
		s->segments++;
		if (done > buf_end) {
			/* the device ran dry: the sound stops until this packet */
			s->underruns++;
			s->underrun_ms += (done - buf_end) / 1e6;
			shift += done - buf_end;
		}
		frame_log(s, i, FT_AUDIO, "decoded", est, used, done - buf_end);
		buf_end = opt.base + shift + s->buffered;
	}
	s->cpu_ns = smart_thread_cpu_ns() - cpu0;
	av_packet_free(&pkt);
	av_frame_free(&f);
	return NULL;
}

/* ---- output ---------------------------------------------------------------------- */

static long skipped(const struct stream *s)
{
	return s->skipped_notified + s->skipped_estimate + s->skipped_late + s->skipped_ref +
	       s->skipped_behind;
}

static void print_text(struct stream *ss, int n, double wall_s)
{
	for (int k = 0; k < n; k++) {
		struct stream *s = &ss[k];
		double cpu = wall_s > 0 ? 100.0 * s->cpu_ns / 1e9 / wall_s : 0;

		if (s->kind == ST_VIDEO) {
			long shown = s->on_time + s->early + s->late;

			printf("%s: video %s %dx%d %.2f fps: %ld frames, %ld on time, %ld early, "
			       "%ld late, %ld skipped",
			       s->file, s->dec->codec->name, s->dec->width, s->dec->height,
			       1e9 / s->period, s->frames, s->on_time, s->early, s->late,
			       skipped(s));
			if (skipped(s))
				printf(" (%ld notified, %ld by estimate, %ld past their time, "
				       "%ld after a skipped reference, %ld catching up)",
				       s->skipped_notified, s->skipped_estimate, s->skipped_late,
				       s->skipped_ref, s->skipped_behind);
			if (s->decoded_anyway)
				printf(", %ld references predicted late decoded anyway",
				       s->decoded_anyway);
			if (s->lost)
				printf(", %ld lost to decode errors", s->lost);
			if (s->cut)
				printf(", %ld cut off", s->cut);
			printf("; error %.1f ms mean, %.1f sd; CPU %.1f%%\n",
			       shown ? s->err_sum / shown : 0,
			       shown ? sqrt(fmax(0, s->err_sq / shown -
						 pow(s->err_sum / shown, 2))) : 0, cpu);
		} else {
			printf("%s: audio %s %d Hz: %ld packets, %ld underruns (%.1f ms); CPU %.1f%%\n",
			       s->file, s->dec->codec->name, s->dec->sample_rate, s->segments,
			       s->underruns, s->underrun_ms, cpu);
		}
		for (int t = 0; t < FT_NR; t++) {
			struct type_stats *ts = &s->ts[t];
			struct summary m;

			if (!ts->n)
				continue;
			m = ts_summary(ts);
			printf("  %-5s %6zu decoded, CPU %.2f ms mean (sd %.2f, p50 %.2f, p99 %.2f, max %.2f)",
			       ftype_name[t], ts->n, m.mean, m.sd, m.p50, m.p99, m.max);
			if (ts->est_n)
				printf(", estimate %+.1f%% (|err| %.1f%%)",
				       100 * ts->est_err_sum / ts->est_n,
				       100 * ts->est_abs_sum / ts->est_n);
			putchar('\n');
		}
	}
}

/*
 * The CPU a stream would need to play every frame: the mean CPU time of a
 * decoded frame over the frame period (video), what it used (audio).
 */
static double demand_pct(const struct stream *s, double cpu_pct)
{
	uint64_t ns = 0;
	size_t n = 0;

	if (s->kind == ST_AUDIO)
		return cpu_pct;
	for (int t = 0; t < FT_NR; t++) {
		for (size_t i = 0; i < s->ts[t].n; i++)
			ns += s->ts[t].ns[i];
		n += s->ts[t].n;
	}
	return n ? 100.0 * ns / n / s->period : 0;
}

static void json_string(const char *str)
{
	putchar('"');
	for (; *str; str++) {
		unsigned char c = *str;

		if (c == '"' || c == '\\')
			printf("\\%c", c);
		else if (c < 0x20)
			printf("\\u%04x", c);
		else
			putchar(c);
	}
	putchar('"');
}

static void print_json(struct stream *ss, int n, double wall_s)
{
	printf("{\"tool\":\"smart-play\",\"mode\":\"%s\",\"smart_kernel\":%s,\"fell_back\":%s,"
	       "\"wall_s\":%.3f,\"tolerance_ms\":%.0f,\"streams\":[",
	       opt.mode == MODE_SMART ? "smart" : "plain", opt.smart_kernel ? "true" : "false",
	       smart_fell_back ? "true" : "false", wall_s, TOLERANCE / 1e6);
	for (int k = 0; k < n; k++) {
		struct stream *s = &ss[k];
		double cpu = wall_s > 0 ? 100.0 * s->cpu_ns / 1e9 / wall_s : 0;

		printf("%s{\"file\":", k ? "," : "");
		json_string(s->file);
		printf(",\"kind\":\"%s\",\"codec\":\"%s\",\"cpu_pct\":%.3f,\"notified\":%ld,"
		       "\"overran\":%ld",
		       s->kind == ST_VIDEO ? "video" : "audio", s->dec->codec->name, cpu,
		       s->notified, s->overran);
		if (s->kind == ST_VIDEO) {
			long shown = s->on_time + s->early + s->late;
			double mean = shown ? s->err_sum / shown : 0;

			printf(",\"width\":%d,\"height\":%d,\"fps\":%.3f,\"frames\":%ld,"
			       "\"on_time\":%ld,\"early\":%ld,\"late\":%ld,\"skipped\":%ld,"
			       "\"skipped_notified\":%ld,\"skipped_estimate\":%ld,\"skipped_late\":%ld,"
			       "\"skipped_ref\":%ld,\"skipped_behind\":%ld,\"decoded_anyway\":%ld,"
			       "\"lost\":%ld,\"cut\":%ld,\"error_ms\":{\"mean\":%.3f,\"sd\":%.3f}",
			       s->dec->width, s->dec->height, 1e9 / s->period, s->frames,
			       s->on_time, s->early, s->late, skipped(s), s->skipped_notified,
			       s->skipped_estimate, s->skipped_late, s->skipped_ref,
			       s->skipped_behind, s->decoded_anyway, s->lost, s->cut, mean,
			       shown ? sqrt(fmax(0, s->err_sq / shown - mean * mean)) : 0);
		} else {
			printf(",\"sample_rate\":%d,\"packets\":%ld,\"underruns\":%ld,"
			       "\"underrun_ms\":%.3f",
			       s->dec->sample_rate, s->segments, s->underruns, s->underrun_ms);
		}
		printf(",\"demand_pct\":%.3f,\"types\":{", demand_pct(s, cpu));
		for (int t = 0, first = 1; t < FT_NR; t++) {
			struct type_stats *ts = &s->ts[t];
			struct summary m;

			if (!ts->n)
				continue;
			m = ts_summary(ts);
			printf("%s\"%s\":{\"decoded\":%zu,\"cpu_ms\":{\"mean\":%.4f,\"sd\":%.4f,"
			       "\"p50\":%.4f,\"p99\":%.4f,\"max\":%.4f}",
			       first ? "" : ",", ftype_name[t], ts->n, m.mean, m.sd, m.p50,
			       m.p99, m.max);
			if (ts->est_n)
				printf(",\"estimate_error_pct\":{\"mean\":%.3f,\"mean_abs\":%.3f}",
				       100 * ts->est_err_sum / ts->est_n,
				       100 * ts->est_abs_sum / ts->est_n);
			putchar('}');
			first = 0;
		}
		printf("}}");
	}
	printf("]}\n");
}

/* ---- main ------------------------------------------------------------------------ */

/*
 * SMART mode: the process enters SCHED_SMART before it opens anything, so
 * that its threads (which inherit the policy) are not left behind SMART
 * tasks as SCHED_NORMAL ones between their constraints.  A priority or
 * share given by "smartctl run" is kept.
 */
static void enter_smart(void)
{
	struct smart_attr a = { .size = sizeof(a), .mask = 0 };

	if (opt.mode != MODE_SMART || sched_getscheduler(0) == SCHED_SMART)
		return;
	if (smart_setattr(0, &a, 0)) {
		int err = errno;

		pthread_mutex_lock(&smart_lock);
		smart_fell_back = true;
		opt.mode = MODE_PLAIN;
		pthread_mutex_unlock(&smart_lock);
		warnx("cannot enter SCHED_SMART: %s; playing best-effort (as --no-smart)",
		      smart_strerror(SMART_CALL_SETATTR, err));
	}
}

static void __attribute__((noreturn)) usage(FILE *out, int status)
{
	fprintf(out,
		"Usage:\n"
		" %s [options] FILE...\n"
		"\n"
		"Play media files in real time without a display: decode each video frame\n"
		"and present it at its time, decode audio ahead into a device buffer, and\n"
		"count frames on time (within 20 ms), late and skipped.  Each frame is\n"
		"decoded under a SMART time constraint, and skipped when the kernel says\n"
		"it cannot be done in time.\n"
		"\n"
		"Options:\n"
		" -n, --no-smart          make no SMART call: skip frames a wall-clock\n"
		"                           estimate predicts late (the paper's SVR4 player)\n"
		" -d, --duration <s>      play at most this many seconds\n"
		" -A, --no-audio          do not play the audio streams\n"
		" -a, --audio-ahead <ms>  audio device buffer (default 500)\n"
		" -l, --lead <ms>         from start to the first frame (default 200)\n"
		" -s, --start-at <s>      show the first frame at this CLOCK_MONOTONIC time\n"
		"                           (seconds; to start several players together)\n"
		" -m, --margin <pct>      estimate margin in SMART mode (default 10)\n"
		" -b, --max-behind <ms>   skip to the next key frame when an I or P frame\n"
		"                           is this late before it starts (default 200)\n"
		" -j, --json              print one JSON object\n"
		" -f, --frames <file>     one CSV line per frame: file,stream,index,type,\n"
		"                           outcome,estimate_ms,cpu_ms,finish_ms\n"
		" -q, --quiet             print nothing but errors\n"
		" -h, --help              display this help\n"
		" -V, --version           display version\n"
		"\n"
		"Exit status: 0 played, 1 an error (file, codec, options).\n",
		PROG);
	exit(status);
}

static double parse_num(const char *arg, const char *what, double lo, double hi)
{
	char *endp;
	double v;

	errno = 0;
	v = strtod(arg, &endp);
	if (errno || endp == arg || *endp || !(v >= lo && v <= hi))
		errx(1, "invalid %s: '%s' (%g..%g)", what, arg, lo, hi);
	return v;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "no-smart", no_argument, NULL, 'n' },
		{ "duration", required_argument, NULL, 'd' },
		{ "no-audio", no_argument, NULL, 'A' },
		{ "audio-ahead", required_argument, NULL, 'a' },
		{ "lead", required_argument, NULL, 'l' },
		{ "start-at", required_argument, NULL, 's' },
		{ "margin", required_argument, NULL, 'm' },
		{ "max-behind", required_argument, NULL, 'b' },
		{ "json", no_argument, NULL, 'j' },
		{ "frames", required_argument, NULL, 'f' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	struct sigaction sa = { .sa_sigaction = on_notify, .sa_flags = SA_SIGINFO | SA_RESTART };
	struct stream *ss;
	int c, n = 0, nfiles;
	int64_t t0;

	while ((c = getopt_long(argc, argv, "nd:Aa:l:s:m:b:jf:qhV", longopts, NULL)) != -1) {
		switch (c) {
		case 'n':
			opt.mode = MODE_PLAIN;
			break;
		case 'd':
			opt.duration = (int64_t)(parse_num(optarg, "duration", 0.001, 86400) * 1e9);
			break;
		case 'A':
			opt.no_audio = true;
			break;
		case 'a':
			opt.audio_ahead = MS(parse_num(optarg, "audio buffer", 1, 60000));
			break;
		case 'l':
			opt.lead = MS(parse_num(optarg, "lead", 0, 60000));
			break;
		case 's':
			opt.start_at = (int64_t)(parse_num(optarg, "start time", 0, 1e9) * 1e9);
			break;
		case 'b':
			opt.max_behind = MS(parse_num(optarg, "max-behind", 0, 60000));
			break;
		case 'm':
			opt.margin = parse_num(optarg, "margin", 0, 1000) / 100;
			break;
		case 'j':
			opt.json = true;
			break;
		case 'f':
			opt.frames = fopen(optarg, "w");
			if (!opt.frames)
				errx(1, "cannot write '%s': %s", optarg, strerror(errno));
			fprintf(opt.frames,
				"file,stream,index,type,outcome,estimate_ms,cpu_ms,finish_ms\n");
			break;
		case 'q':
			opt.quiet = true;
			break;
		case 'h':
			usage(stdout, 0);
		case 'V':
			printf("%s from SMART for Linux (libsmart %s, libavcodec %s)\n", PROG,
			       LIBSMART_VERSION, AV_STRINGIFY(LIBAVCODEC_VERSION));
			return 0;
		default:
			usage(stderr, 1);
		}
	}
	nfiles = argc - optind;
	if (nfiles < 1) {
		warnx("no file to play");
		usage(stderr, 1);
	}
	av_log_set_level(AV_LOG_ERROR);
	opt.smart_kernel = smart_available() == 1;
	if (opt.mode == MODE_SMART && !opt.smart_kernel) {
		warnx("this kernel has no SCHED_SMART; playing best-effort (as --no-smart)");
		opt.mode = MODE_PLAIN;
		smart_fell_back = true;
	}
	enter_smart();
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGXCPU, &sa, NULL))
		errx(1, "sigaction: %s", strerror(errno));
	signal(SIGINT, on_stop);
	signal(SIGTERM, on_stop);

	ss = calloc(2 * nfiles, sizeof(*ss));
	if (!ss)
		errx(1, "out of memory");
	for (int i = 0; i < nfiles; i++) {
		const char *file = argv[optind + i];
		bool video = open_stream(&ss[n], file, AVMEDIA_TYPE_VIDEO) == 0;
		bool audio;

		n += video;
		audio = !opt.no_audio && open_stream(&ss[n], file, AVMEDIA_TYPE_AUDIO) == 0;
		n += audio;
		if (!video && !audio)
			errx(1, "'%s' has no %s stream", file, opt.no_audio ? "video" : "video or audio");
	}
	/* everything is open and probed: play-out starts now */
	t0 = now_ns();
	opt.base = t0 + opt.lead;
	if (opt.start_at) {
		if (opt.start_at <= t0)
			errx(1, "--start-at: %.3f s has passed (now %.3f s)", opt.start_at / 1e9, t0 / 1e9);
		opt.base = opt.start_at;
		t0 = opt.base - opt.lead;
	}
	for (int k = 0; k < n; k++) {
		int ret = pthread_create(&ss[k].thread, NULL,
					 ss[k].kind == ST_VIDEO ? video_main : audio_main, &ss[k]);

		if (ret)
			errx(1, "pthread_create: %s", strerror(ret));
	}
	for (int k = 0; k < n; k++)
		pthread_join(ss[k].thread, NULL);
	for (int k = 0; k < n; k++)
		if (ss[k].error)
			warnx("'%s': %s", ss[k].file, ss[k].errmsg);
	if (opt.frames && fclose(opt.frames))
		errx(1, "--frames: %s", strerror(errno));
	if (opt.json)
		print_json(ss, n, (now_ns() - t0) / 1e9);
	else if (!opt.quiet)
		print_text(ss, n, (now_ns() - t0) / 1e9);
	for (int k = 0; k < n; k++) {
		sws_freeContext(ss[k].sws);
		av_free(ss[k].fb);
		avcodec_free_context(&ss[k].dec);
		avformat_close_input(&ss[k].fmt);
		for (int t = 0; t < FT_NR; t++)
			free(ss[k].ts[t].ns);
	}
	free(ss);
	return 0;
}
