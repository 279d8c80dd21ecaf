//! Progress of a run, and what Ctrl-C ([`crate::interrupt`]) does to it.
//!
//! On a terminal a run draws a bar; without one (nohup, Slurm, `tee`, a pipe) it prints a
//! plain line to stderr for the first finished job, then at most every
//! [`PLAIN_INTERVAL_S`] seconds, and for the last one: done/total, elapsed time and an
//! estimate of the time left (issue 19, point 11).
//!
//! The first Ctrl-C (SIGINT) or SIGTERM asks the run to stop: no new job starts, the
//! running ones finish and their rows are written, and the run ends with
//! [`crate::interrupt::requested`] true so that the caller can say how many jobs finished
//! and how to resume. A second ends the process at once, as Ctrl-C does without plylab's
//! handler (issue 19, point 9).

use std::sync::Mutex;
use std::time::Instant;

use indicatif::{ProgressBar, ProgressStyle};

/// Seconds between two plain progress lines.
pub const PLAIN_INTERVAL_S: f64 = 5.0;

/// The progress of a run: a bar on a terminal, plain lines elsewhere, or nothing.
pub struct Progress {
    bar: ProgressBar,
    plain: Option<Mutex<Plain>>,
    total: usize,
    unit: &'static str,
}

/// The state of plain progress lines.
struct Plain {
    started: Instant,
    done: usize,
    /// Items finished before this run (a resumed one): not counted in the rate.
    earlier: usize,
    last_line: Option<Instant>,
}

/// Whether a progress bar on stderr would be drawn: stderr is a terminal that is not
/// `TERM=dumb` (or without `TERM`), where indicatif hides its bar. Where it is not, progress
/// is told in plain lines instead (a dumb terminal once showed none at all).
#[must_use]
pub fn bar_drawn() -> bool {
    !indicatif::ProgressDrawTarget::stderr().is_hidden()
}

impl Progress {
    /// Progress over `total` items called `unit` (`jobs`): shown when `show`, as a bar when
    /// one is drawn ([`bar_drawn`]) and as plain lines when it is not.
    #[must_use]
    pub fn new(show: bool, total: usize, unit: &'static str) -> Self {
        let terminal = bar_drawn();
        Self {
            bar: progress_bar(show && terminal, total, unit),
            plain: (show && !terminal).then(|| {
                Mutex::new(Plain {
                    started: Instant::now(),
                    done: 0,
                    earlier: 0,
                    last_line: None,
                })
            }),
            total,
            unit,
        }
    }

    /// One more item finished; `what` names it.
    pub fn finished(&self, what: &str) {
        self.bar.set_message(what.to_owned());
        self.bar.inc(1);
        self.plain_line_if_due(|done| done + 1, what);
    }

    /// `done` items were finished before this run (a resumed one), and are not counted in
    /// the rate that gives the time left.
    pub fn resume_at(&self, done: usize) {
        self.bar.set_position(done as u64);
        if let Some(plain) = &self.plain {
            let mut p = plain
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            (p.done, p.earlier) = (done, done);
        }
    }

    /// `done` items finished in all (work that advances in batches: self-play games, a
    /// learning run's epochs); `what` names the last.
    pub fn set_done(&self, done: usize, what: &str) {
        self.bar.set_message(what.to_owned());
        self.bar.set_position(done as u64);
        self.plain_line_if_due(|_| done, what);
    }

    /// Runs `f` (which writes to stderr) with the bar out of the way.
    pub fn suspend<R>(&self, f: impl FnOnce() -> R) -> R {
        self.bar.suspend(f)
    }

    /// Without a terminal: the count of finished items moved by `advance`, and a plain line
    /// for the first, the last, and at most one every [`PLAIN_INTERVAL_S`] seconds.
    fn plain_line_if_due(&self, advance: impl FnOnce(usize) -> usize, what: &str) {
        let Some(plain) = &self.plain else {
            return;
        };
        let mut p = plain
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        p.done = advance(p.done);
        let now = Instant::now();
        let due = p
            .last_line
            .is_none_or(|t| now.duration_since(t).as_secs_f64() >= PLAIN_INTERVAL_S);
        if due || p.done == self.total {
            p.last_line = Some(now);
            crate::tell!(
                "{}",
                plain_line(p.done, p.earlier, self.total, self.unit, p.started, what)
            );
        }
    }

    /// Clears the bar.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

/// `progress: 12/40 jobs, 4.2 s elapsed, ETA 9.8 s (last: WHAT)`, the time left at the rate
/// of the items finished since `earlier`.
fn plain_line(
    done: usize,
    earlier: usize,
    total: usize,
    unit: &str,
    started: Instant,
    what: &str,
) -> String {
    let elapsed = started.elapsed().as_secs_f64();
    let eta = if done <= earlier {
        "unknown".to_owned()
    } else {
        duration(elapsed / (done - earlier) as f64 * total.saturating_sub(done) as f64)
    };
    format!(
        "progress: {done}/{total} {unit}, {} elapsed, ETA {eta} (last: {what})",
        duration(elapsed)
    )
}

/// Seconds as `4.2 s`, `3 min 05 s` or `2 h 07 min`.
#[must_use]
pub fn duration(seconds: f64) -> String {
    let s = seconds.max(0.0);
    if s < 60.0 {
        format!("{s:.1} s")
    } else if s < 3600.0 {
        format!("{} min {:02} s", (s / 60.0) as u64, (s % 60.0) as u64)
    } else {
        format!(
            "{} h {:02} min",
            (s / 3600.0) as u64,
            (s % 3600.0 / 60.0) as u64
        )
    }
}

/// A progress bar over `len` items called `unit` (hidden unless `show`).
fn progress_bar(show: bool, len: usize, unit: &str) -> ProgressBar {
    if !show {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(len as u64);
    let style = ProgressStyle::with_template(&format!(
        "{{elapsed_precise}} [{{bar:30}}] {{pos}}/{{len}} {unit}, eta {{eta}} {{wide_msg}}"
    ))
    .map(|s| s.progress_chars("=> "));
    if let Ok(style) = style {
        bar.set_style(style);
    }
    bar
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_naturally() {
        assert_eq!(duration(4.25), "4.2 s");
        assert_eq!(duration(185.0), "3 min 05 s");
        assert_eq!(duration(7620.0), "2 h 07 min");
    }

    #[test]
    fn a_plain_line_has_done_total_and_an_eta() {
        let started = Instant::now();
        let line = plain_line(1, 0, 4, "jobs", started, "ab on start");
        assert!(line.starts_with("progress: 1/4 jobs, "), "{line}");
        assert!(line.contains("ETA "), "{line}");
        assert!(line.ends_with("(last: ab on start)"), "{line}");
        // A resumed run's earlier items give no rate.
        let line = plain_line(3, 3, 4, "games", started, "x");
        assert!(line.contains("ETA unknown"), "{line}");
    }
}
