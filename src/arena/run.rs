//! Runs a [`MatchPlan`]: games on a rayon pool of `concurrency` threads, taken in schedule
//! order; each finished game appended to games.csv and flushed; an SPRT (if any) checked
//! after each game of a pairing, stopping the pairing's games not yet started once it
//! decides; at the end games.csv sorted by game, standings.csv, summary.md, games.pgn for
//! chess and run.json. `--resume` keeps the games of games.csv that match the schedule.

use std::collections::HashMap;
use std::fs::{self, File};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::time::{Duration, Instant};

use super::external::ExternalEngine;
// A chess engine of either protocol (UCI or xboard) has `UciEngine`'s methods.
use super::play::{GameSetup, play_game};
use super::record::{GameRow, Layout, header};
use super::spec::{GameSlot, MatchPlan, Player, PlayerKind};
use super::standings::{Standing, pairing_standing, standings, write_csv};
use super::xboard::ChessEngine as UciEngine;
use crate::interrupt;
use crate::lab::error::{RunError, csv_err, io};
use crate::lab::guard::{
    changed_inputs, check_same_shard, ends_with_line_end, readable_records, reads_any,
    resumable_csv,
};
use crate::lab::machine::{
    Described, RunInfo, child_cpu_seconds, commits_continuing, cpu_seconds, recorded_run, run_info,
    write_info,
};
use crate::lab::runner::{RunOptions, record_time_so_far, tables_fit};
use crate::lab::shards::ShardRecord;
use crate::lab::spec::GameKind;
use crate::progress::Progress;

/// Errors while running a match.
#[derive(Debug, thiserror::Error)]
pub enum ArenaError {
    /// Files, resume, thread pool.
    #[error(transparent)]
    Run(#[from] RunError),
    /// An external engine could not be started before the match.
    #[error("player `{player}`: {message}")]
    Engine {
        /// The player.
        player: String,
        /// What went wrong.
        message: String,
        /// Whether the file asked for what the engine cannot do (an option it does not
        /// declare): bad input rather than a failure.
        refused: bool,
    },
}

/// What a match produced.
#[derive(Debug)]
pub struct ArenaReport {
    /// The output directory.
    pub out: PathBuf,
    /// Games played now.
    pub played: usize,
    /// Games kept from an earlier run.
    pub kept: usize,
    /// Games not played because an SPRT had decided their pairing.
    pub skipped: usize,
    /// Games played past their pairing's SPRT verdict (under way when it came), dropped so
    /// that the verdict falls at the same game on any concurrency.
    pub dropped: usize,
    /// Standings over every game.
    pub standings: Vec<Standing>,
    /// Wall-clock seconds.
    pub elapsed_s: f64,
}

/// The output directory of `plan` under `options` (whose `jobs` are the games at once,
/// overriding the file's `concurrency`).
#[must_use]
pub fn output_dir(plan: &MatchPlan, options: &RunOptions) -> PathBuf {
    options
        .out
        .clone()
        .unwrap_or_else(|| crate::lab::runner::default_dir(&plan.name))
}

/// What run.json records of the match.
fn described(plan: &MatchPlan, games: usize) -> Described<'_> {
    Described {
        name: &plan.name,
        file: &plan.file,
        text: &plan.text,
        description: &plan.description,
        notes: &plan.notes,
        references: &[],
        seed: plan.seed,
        job_count: games,
        shard: None,
        quick: false,
        inputs: Some(&plan.inputs),
    }
}

/// Plays every game of `plan` not already in games.csv (with `resume`) and writes the
/// results.
pub fn run(plan: &MatchPlan, options: &RunOptions) -> Result<ArenaReport, ArenaError> {
    run_games(plan, options, None)
}

/// Plays the games of `plan` that `shard` holds (all of them without one). A shard plays
/// all its games: an SPRT stops nothing here, `plylab merge` applies it to the union of
/// the shards' games in schedule order.
pub fn run_games(
    plan: &MatchPlan,
    options: &RunOptions,
    shard: Option<&ShardRecord>,
) -> Result<ArenaReport, ArenaError> {
    let started = Instant::now();
    let _catching = interrupt::Catching::new(options.progress);
    let out = output_dir(plan, options);
    crate::lab::guard::check_out(&out, options.resume, options.force)?;
    let mut dir_lock = crate::lab::guard::DirLock::take(&out)?;
    let schedule: Vec<GameSlot> = plan
        .schedule()
        .into_iter()
        .filter(|s| shard.is_none_or(|sh| sh.holds(s.index)))
        .collect();
    let concurrency = options.jobs.unwrap_or(plan.concurrency).max(1);
    check_tables_fit(plan, &schedule, concurrency)?;
    // Before anything is written: a match refused here (a misspelt engine option, an engine
    // that cannot start) leaves `out` as it was, so that the same command runs once the
    // file is corrected, and a --force run leaves the earlier results whole.
    let engines = EnginePool::start(plan)?;
    crate::lab::guard::create(&out)?;
    dir_lock.hold(&out)?;
    let csv_path = out.join("games.csv");
    let kept = if options.resume {
        check_same_shard(&out, shard)?;
        crate::lab::guard::check_same_name(&out, &plan.name)?;
        crate::lab::guard::restore_rows(&csv_path)?;
        resume_rows(plan, &schedule, &out, &csv_path)?
    } else {
        Vec::new()
    };
    // As an experiment's run: --force leaves nothing of the earlier results (another
    // experiment's searches.csv would be drawn as this match's summary).
    crate::lab::guard::clear_outputs(&out, options.force && !options.resume)?;
    let what = Described {
        shard,
        quick: options.quick,
        ..described(plan, plan.schedule().len())
    };
    let earlier = Earlier::recorded(&out, options.resume);
    write_info(&earlier.so_far(&what, concurrency, 0.0, 0.0), &out)?;
    let pending: Vec<GameSlot> = schedule
        .iter()
        .filter(|s| !kept.iter().any(|r| r.game == s.index))
        .copied()
        .collect();
    let playing = Playing {
        plan,
        out: &out,
        engines: &engines,
        state: Mutex::new(MatchState::new(
            plan,
            &csv_path,
            kept,
            &schedule,
            shard.is_none(),
        )?),
        progress: Progress::new(options.progress, pending.len(), "games"),
        pending,
        next: AtomicUsize::new(0),
        recorded: Mutex::new(None),
        started,
        earlier: &earlier,
        what: &what,
        concurrency,
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(concurrency)
        .build()
        .map_err(|_| RunError::Pool(concurrency))?;
    let results: Vec<Result<(), RunError>> = pool.broadcast(|_| playing.work());
    let interrupted = options.progress && interrupt::requested();
    let Playing {
        state,
        progress,
        pending,
        next,
        ..
    } = playing;
    progress.finish();
    // The engines quit and are reaped here, so that their CPU time counts in summary.md's
    // (getrusage's children).
    drop(engines);
    results.into_iter().collect::<Result<(), RunError>>()?;
    let state = state
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let kept_count = state.kept;
    let played = state.rows.len() - kept_count;
    let unplayed = pending.len() - played;
    if interrupted && next.load(Relaxed) < pending.len() {
        // Nothing is summed up: the finished games are in games.csv for --resume.
        let so_far = started.elapsed().as_secs_f64();
        let finished = state.rows.len();
        write_info(&earlier.so_far(&what, concurrency, so_far, 0.0), &out)?;
        finish_files(plan, &out, state)?;
        return Err(RunError::Interrupted {
            out,
            finished,
            total: finished + unplayed,
            unit: "games",
            file: "games.csv",
        }
        .into());
    }
    let skipped = unplayed;
    let finished = state.rows.len();
    let rows = finish_files(plan, &out, state)?;
    let elapsed_s = started.elapsed().as_secs_f64();
    // After `drop(engines)`: their CPU time is in.
    let info = earlier.finished(&what, concurrency, elapsed_s);
    write_info(&info, &out)?;
    let standings = standings(plan, &rows);
    super::summary::write(plan, &out, &rows, &standings, &info)
        .map_err(io(&out.join("summary.md")))?;
    Ok(ArenaReport {
        out,
        played: rows.len() - kept_count,
        kept: kept_count,
        skipped,
        dropped: finished - rows.len(),
        standings,
        elapsed_s,
    })
}

/// What the workers of a match share while its games are played.
struct Playing<'a> {
    plan: &'a MatchPlan,
    out: &'a Path,
    engines: &'a EnginePool,
    /// The games played and kept, games.csv, the SPRTs.
    state: Mutex<MatchState>,
    progress: Progress,
    /// The games to play, taken in order through `next`.
    pending: Vec<GameSlot>,
    next: AtomicUsize,
    /// When run.json last recorded the time so far (none yet).
    recorded: Mutex<Option<Instant>>,
    started: Instant,
    earlier: &'a Earlier,
    what: &'a Described<'a>,
    concurrency: usize,
}

impl Playing<'_> {
    /// One worker's loop: the next pending game until none is left; after Ctrl-C no game
    /// starts, and those being played finish and are written.
    fn work(&self) -> Result<(), RunError> {
        while !interrupt::requested() {
            let Some(slot) = self.pending.get(self.next.fetch_add(1, Relaxed)) else {
                return Ok(());
            };
            let stopped = {
                let state = lock(&self.state);
                state.early_stop && state.stopped[slot.pairing]
            };
            if stopped {
                self.progress
                    .finished("a game of a pairing the SPRT has decided, not played");
            } else {
                self.play_and_record(slot)?;
            }
        }
        Ok(())
    }

    /// Plays the game of `slot`, appends its row and records the time so far; a game whose
    /// engine died because Ctrl-C reached it is told, not recorded.
    fn play_and_record(&self, slot: &GameSlot) -> Result<(), RunError> {
        let (row, detail, engine_died) = play(self.plan, slot, self.engines, self.out);
        if engine_died && interrupt::requested() {
            let told = unrecorded(&row, detail.as_deref());
            self.progress.suspend(|| crate::tell!("{told}"));
            return Ok(());
        }
        if let Some(detail) = detail {
            let loser = if row.winner == super::play::Winner::First {
                &row.second
            } else {
                &row.first
            };
            self.progress.suspend(|| {
                crate::tell!(
                    "game {}: {loser} forfeits ({}): {detail}",
                    row.game,
                    row.reason
                );
            });
        }
        let played = format!("{} vs {}: {}", row.first, row.second, row.winner.result());
        lock(&self.state).add(self.plan, row)?;
        record_time_so_far(&self.recorded, || {
            let so_far = self.started.elapsed().as_secs_f64();
            let running = self.engines.running_cpu_seconds();
            let info = self
                .earlier
                .so_far(self.what, self.concurrency, so_far, running);
            write_info(&info, self.out)
        })?;
        self.progress.finished(&played);
        Ok(())
    }
}

/// What the runs a resumed match continues have spent, as their run.json records it: a
/// resumed match's run.json counts their wall-clock and CPU seconds with its own, so that
/// summary.md's time is the whole match's and its CPU share still a share.
struct Earlier {
    /// Wall-clock seconds (finished, interrupted, or up to the last game recorded).
    seconds: f64,
    /// CPU seconds of plylab and of the external engines; `None` where a run with time
    /// recorded none (made before run.json had `cpu_s`): then neither does this one.
    cpu: Option<(f64, f64)>,
    /// The `git_commit` to record ([`commits_continuing`]).
    commits: String,
}

impl Earlier {
    /// Those of `out`'s run.json when `resume`, nothing otherwise.
    fn recorded(out: &Path, resume: bool) -> Self {
        let run = resume.then(|| recorded_run(out)).flatten();
        let seconds = run.as_ref().and_then(RunInfo::seconds_spent).unwrap_or(0.0);
        let commits = commits_continuing(run.as_ref());
        let cpu = if seconds > 0.0 {
            run.and_then(|r| r.cpu_s)
        } else {
            Some((0.0, 0.0))
        };
        Self {
            seconds,
            cpu,
            commits,
        }
    }

    /// The CPU seconds so far, theirs and this process's, its external engines' with them:
    /// those that have quit and been reaped (getrusage's children) and `running`, those of
    /// the engines still running.
    fn cpu_s(&self, running: f64) -> Option<(f64, f64)> {
        let ((a, b), (c, d)) = self.cpu.zip(cpu_seconds())?;
        Some((a + c, b + d + running))
    }

    /// run.json while the match goes on, `seconds` into this run, its running engines
    /// having used `running` CPU seconds: the time so far as `interrupted_after_s`, what a
    /// match killed now has spent up to its last finished game.
    fn so_far(&self, what: &Described<'_>, jobs: usize, seconds: f64, running: f64) -> RunInfo {
        let mut info = run_info(what, jobs, None);
        info.git_commit.clone_from(&self.commits);
        info.interrupted_after_s = (self.seconds + seconds > 0.0).then_some(self.seconds + seconds);
        info.cpu_s = self.cpu_s(running);
        info
    }

    /// run.json of the finished match (its engines have quit), this run having taken
    /// `seconds`.
    fn finished(&self, what: &Described<'_>, jobs: usize, seconds: f64) -> RunInfo {
        let mut info = run_info(what, jobs, Some(self.seconds + seconds));
        info.git_commit.clone_from(&self.commits);
        info.cpu_s = self.cpu_s(0.0);
        info
    }
}

/// A lock that survives a panicked holder (the data are rows, whole or not yet added).
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The note for a game not recorded: an engine died in it after the run was interrupted.
/// Slurm (at a job's time limit) and `kill` of a whole process group send SIGTERM to the
/// engines too, so such a death says nothing of the engine; the game is played again on
/// `--resume`.
fn unrecorded(row: &GameRow, detail: Option<&str>) -> String {
    format!(
        "game {}: not recorded, played again on --resume: an engine died after the run was \
         interrupted ({})",
        row.game,
        detail.unwrap_or(&row.reason)
    )
}

/// Plays the game of `slot`, with engines from the pool; writes the engines' traffic to
/// `out`/logs/ when the match asks for it or an engine died ([`write_engine_log`]). Returns
/// the game's row, a forfeit's detail, and whether an engine died in it.
fn play(
    plan: &MatchPlan,
    slot: &GameSlot,
    engines: &EnginePool,
    out: &Path,
) -> (GameRow, Option<String>, bool) {
    let players = [&plan.players[slot.first], &plan.players[slot.second]];
    let mut taken = [slot.first, slot.second].map(|p| engines.take(plan, p));
    let mut external = [slot.first, slot.second].map(|p| engines.take_external(plan, p));
    let [a, b] = &mut taken;
    let [x, y] = &mut external;
    let record = play_game(GameSetup {
        opening: &plan.openings[slot.opening],
        players,
        engines: [a.as_mut(), b.as_mut()],
        external: [x.as_mut(), y.as_mut()],
        rules: &plan.rules,
        seed: slot.seed,
        dice: super::chance::dice_seed(plan.seed, slot.round),
    });
    let logs = [0, 1].map(|i| {
        let chess = taken[i].as_ref().map(UciEngine::take_log);
        chess.or_else(|| external[i].as_ref().map(ExternalEngine::take_log))
    });
    if plan.rules.engine_log || record.dead_engine.is_some() {
        let row = GameRow::new(plan, slot, &record);
        if let Err(e) = write_engine_log(out, &row, &logs) {
            crate::tell!(
                "game {}: the engine log could not be written: {e}",
                slot.index
            );
        }
    }
    for (side, (engine, player)) in external
        .into_iter()
        .zip([slot.first, slot.second])
        .enumerate()
    {
        if record.dead_engine != Some(side) {
            engines.give_back_external(player, engine);
        }
    }
    for (side, (engine, player)) in taken.into_iter().zip([slot.first, slot.second]).enumerate() {
        if record.dead_engine != Some(side) {
            engines.give_back(player, engine);
        }
    }
    let engine_died = record.dead_engine.is_some();
    (
        GameRow::new(plan, slot, &record),
        record.detail,
        engine_died,
    )
}

/// Writes `out`/logs/game-N.log: the game, then each engine player's traffic in the game
/// (lines sent `>`, read `<`, standard error `!`, with the seconds since the engine
/// started; a restarted engine's handshake included).
fn write_engine_log(
    out: &Path,
    row: &GameRow,
    logs: &[Option<Vec<String>>; 2],
) -> std::io::Result<()> {
    let dir = out.join("logs");
    fs::create_dir_all(&dir)?;
    let mut text = format!(
        "# game {}: {} (first) vs {} (second), {} ({})\n# opening {}\n# moves {}\n",
        row.game,
        row.first,
        row.second,
        row.winner.result(),
        row.reason,
        row.opening,
        row.line
    );
    for (log, (name, side)) in logs
        .iter()
        .zip([(&row.first, "first"), (&row.second, "second")])
    {
        if let Some(lines) = log {
            text.push_str(&format!("\n## {name} ({side})\n"));
            for line in lines {
                text.push_str(line);
                text.push('\n');
            }
        }
    }
    fs::write(dir.join(format!("game-{}.log", row.game)), text)
}

/// Rows so far, games.csv open for appending, and which pairings an SPRT has stopped.
///
/// The SPRT reads each pairing's games in schedule order, as one game at a time would play
/// them, whatever order they finish in: a game finished ahead of an earlier one waits for
/// it. So a verdict comes at the same game on any `concurrency`, and the games past it that
/// were already under way are dropped at the end ([`sprt_in_order`]).
struct MatchState {
    rows: Vec<GameRow>,
    kept: usize,
    stopped: Vec<bool>,
    /// Whether an SPRT verdict stops its pairing (not in a shard).
    early_stop: bool,
    /// Per pairing, its games in schedule order, and how many of them the SPRT has read.
    order: Vec<Vec<usize>>,
    read: Vec<usize>,
    /// The games finished (each with its index in `rows`), and the rows the SPRT has read
    /// (in schedule order per pairing).
    finished: HashMap<usize, usize>,
    in_order: Vec<GameRow>,
    writer: csv::Writer<File>,
    path: PathBuf,
}

impl MatchState {
    /// Starts games.csv afresh with the `kept` rows (written whole or not at all, so that a
    /// match stopped while it writes them leaves the earlier file), open to append. An SPRT
    /// stops pairings only with `early_stop`; `schedule` holds the match's games.
    fn new(
        plan: &MatchPlan,
        path: &Path,
        kept: Vec<GameRow>,
        schedule: &[GameSlot],
        early_stop: bool,
    ) -> Result<Self, RunError> {
        crate::output::replace(path, |file| write_games(file, plan, &kept)).map_err(io(path))?;
        let file = fs::OpenOptions::new()
            .append(true)
            .open(path)
            .map_err(io(path))?;
        let mut order = vec![Vec::new(); plan.pairings.len()];
        for slot in schedule {
            order[slot.pairing].push(slot.index);
        }
        let mut state = Self {
            kept: kept.len(),
            finished: kept.iter().enumerate().map(|(i, r)| (r.game, i)).collect(),
            rows: kept,
            stopped: vec![false; plan.pairings.len()],
            early_stop,
            read: vec![0; plan.pairings.len()],
            order,
            in_order: Vec::new(),
            writer: csv::Writer::from_writer(file),
            path: path.to_path_buf(),
        };
        for pairing in 0..plan.pairings.len() {
            state.read_in_order(plan, pairing);
        }
        Ok(state)
    }

    /// Appends a finished game to games.csv and lets its pairing's SPRT read what is now in
    /// order.
    fn add(&mut self, plan: &MatchPlan, row: GameRow) -> Result<(), RunError> {
        self.writer
            .write_record(row.fields())
            .map_err(csv_err(&self.path))?;
        self.writer.flush().map_err(io(&self.path))?;
        let pairing = row.pairing;
        self.finished.insert(row.game, self.rows.len());
        self.rows.push(row);
        self.read_in_order(plan, pairing);
        Ok(())
    }

    /// Feeds the SPRT of `pairing` its next games in schedule order while they are
    /// finished, until one is not or a verdict stops the pairing.
    fn read_in_order(&mut self, plan: &MatchPlan, pairing: usize) {
        if !self.early_stop || plan.sprt.is_none() {
            return;
        }
        while !self.stopped[pairing] {
            let Some(&game) = self.order[pairing].get(self.read[pairing]) else {
                return;
            };
            let Some(&at) = self.finished.get(&game) else {
                return;
            };
            self.in_order.push(self.rows[at].clone());
            self.read[pairing] += 1;
            self.stopped[pairing] = decided(&pairing_standing(plan, pairing, &self.in_order));
        }
    }
}

/// Whether an SPRT has reached a verdict on this pairing.
fn decided(s: &Standing) -> bool {
    s.sprt.is_some_and(|(_, verdict)| verdict.is_some())
}

/// The games (sorted by game) that one machine playing one game at a time would have played:
/// after a pairing's SPRT reaches a verdict, its later games are dropped. A match with more
/// than one game at a time may have played some of them; `plylab merge` applies it to the
/// union of the shards' games.
pub(crate) fn sprt_in_order(plan: &MatchPlan, mut rows: Vec<GameRow>) -> Vec<GameRow> {
    if plan.sprt.is_none() {
        return rows;
    }
    rows.sort_by_key(|r| r.game);
    let mut stopped = vec![false; plan.pairings.len()];
    let mut kept = Vec::new();
    for row in rows {
        let pairing = row.pairing;
        if stopped[pairing] {
            continue;
        }
        kept.push(row);
        stopped[pairing] = decided(&pairing_standing(plan, pairing, &kept));
    }
    kept
}

/// Rewrites games.csv sorted by game (through a temporary file) and writes games.pgn for
/// chess; returns the sorted rows.
fn finish_files(plan: &MatchPlan, out: &Path, state: MatchState) -> Result<Vec<GameRow>, RunError> {
    let MatchState {
        rows,
        writer,
        early_stop,
        ..
    } = state;
    drop(writer);
    let rows = if early_stop {
        sprt_in_order(plan, rows)
    } else {
        rows
    };
    write_match_files(plan, out, rows)
}

/// games.csv's header and `rows` into `out`.
fn write_games(
    out: impl std::io::Write,
    plan: &MatchPlan,
    rows: &[GameRow],
) -> std::io::Result<()> {
    let mut writer = csv::Writer::from_writer(out);
    writer.write_record(header(plan.game))?;
    for row in rows {
        writer.write_record(row.fields())?;
    }
    writer.flush()
}

/// Writes games.csv (`rows` sorted by game, whole or not at all), games.pgn for chess
/// and standings.csv into `out`; returns the sorted rows.
pub(crate) fn write_match_files(
    plan: &MatchPlan,
    out: &Path,
    mut rows: Vec<GameRow>,
) -> Result<Vec<GameRow>, RunError> {
    let path = out.join("games.csv");
    rows.sort_by_key(|r| r.game);
    crate::output::replace(&path, |file| write_games(file, plan, &rows)).map_err(io(&path))?;
    if plan.game == GameKind::Chess {
        let pgn = out.join("games.pgn");
        super::export::write_pgn(plan, &rows, &pgn).map_err(io(&pgn))?;
    }
    write_csv(&out.join("standings.csv"), &standings(plan, &rows))
        .map_err(csv_err(&out.join("standings.csv")))?;
    Ok(rows)
}

/// A record of games.csv left out: its line, and why.
pub(crate) type LeftOut = (u64, &'static str);

/// The games of `plan` in the games.csv at `path` (or beside it, gzip-compressed): the
/// whole rows that match the plan's schedule, the first row of each game, in file order;
/// and the lines of the records left out, each with why: `unreadable`, `no game of the
/// match` (another schedule's), a line that cannot be the game ([`GameRow::line_fault`]) or
/// `a game read twice`.
///
/// # Errors
/// [`RunError::Io`] when the file cannot be opened; [`RunError::Refused`] when its header
/// is not games.csv's.
pub(crate) fn read_games(
    plan: &MatchPlan,
    path: &Path,
) -> Result<(Vec<GameRow>, Vec<LeftOut>), RunError> {
    let file = crate::compressed::open(path).map_err(io(path))?;
    let mut reader = csv::ReaderBuilder::new().flexible(true).from_reader(file);
    let schedule = plan.schedule();
    let mut seen = std::collections::HashSet::new();
    let header = reader.headers().map_err(csv_err(path))?;
    let layout = Layout::of(header);
    if header.len() != layout.columns() {
        // Every row would be left out as unreadable: name the cause once instead.
        return Err(RunError::Refused(format!(
            "{}: its header has {} columns; games.csv has {} ({} in files written before \
             `annotations`)",
            path.display(),
            header.len(),
            Layout::CURRENT.columns(),
            Layout::CURRENT.columns() - 1
        )));
    }
    let records = readable_records(&mut reader, path)?;
    let mut rows = Vec::new();
    let mut left_out = Vec::new();
    for record in &records {
        let line = record.position().map_or(0, csv::Position::line);
        let Some(row) = GameRow::parse(record, layout) else {
            left_out.push((line, "unreadable"));
            continue;
        };
        let fault = schedule
            .get(row.game)
            .map_or(Some("no game of the match"), |slot| {
                row.fault_as(plan, slot)
            });
        if let Some(fault) = fault {
            left_out.push((line, fault));
        } else if !seen.insert(row.game) {
            left_out.push((line, "a game read twice"));
        } else {
            rows.push(row);
        }
    }
    Ok((rows, left_out))
}

/// The rows of an earlier run of the same experiment text that are whole and match the
/// schedule (a torn last line, or rows of another schedule, are dropped and replayed).
fn resume_rows(
    plan: &MatchPlan,
    schedule: &[GameSlot],
    out: &Path,
    csv_path: &Path,
) -> Result<Vec<GameRow>, RunError> {
    let Some(mut reader) = resumable_csv(out, csv_path, &plan.text)? else {
        return Ok(Vec::new());
    };
    let mut rows: Vec<GameRow> = Vec::new();
    // A game of a player that reads a file changed since (its weights, say) is played again.
    let recorded = crate::lab::machine::recorded_run(out).map(|r| r.inputs);
    let changed = changed_inputs(&recorded.unwrap_or_default(), &plan.inputs);
    let stale = |name: &str| {
        plan.players.iter().any(|p| {
            p.name == name && matches!(&p.kind, PlayerKind::Search(v) if reads_any(v, &changed))
        })
    };
    // An older file's rows are kept too: the file is written again in today's layout.
    let layout = reader.headers().map_or(Layout::CURRENT, Layout::of);
    // A last line without its line end was torn by a run stopped while writing it, however
    // many of its columns are there; each row not kept is named, as a resumed experiment
    // names its damaged rows.
    let torn = !ends_with_line_end(csv_path);
    let records = readable_records(&mut reader, csv_path)?;
    let mut dropped: Vec<String> = Vec::new();
    for (index, record) in records.iter().enumerate() {
        let line = record.position().map_or(0, csv::Position::line);
        if torn && index + 1 == records.len() {
            dropped.push(format!(
                "line {line} has no line end: torn while being written"
            ));
            continue;
        }
        let Some(row) = GameRow::parse(record, layout) else {
            dropped.push(format!("line {line} does not read as a game"));
            continue;
        };
        // The schedule is in game order (a shard's: some games of it). A row whose line
        // cannot be its game is played again.
        let fits = schedule
            .binary_search_by_key(&row.game, |s| s.index)
            .is_ok_and(|i| row.fault_as(plan, &schedule[i]).is_none());
        if !fits {
            dropped.push(format!("line {line}: not a game of this match as recorded"));
            continue;
        }
        let fresh = !stale(&row.first) && !stale(&row.second);
        if fresh && !rows.iter().any(|r| r.game == row.game) {
            rows.push(row);
        }
    }
    if !dropped.is_empty() {
        crate::tell!(
            "note: {}: rows not kept, their games played again: {}",
            csv_path.display(),
            crate::lab::diagnose::first_few(&dropped, 3, "; ")
        );
    }
    Ok(rows)
}

/// External engines, kept running between games: each player's idle processes.
struct EnginePool {
    idle: Mutex<Vec<Vec<UciEngine>>>,
    /// The same for GTP and gnubg players.
    external: Mutex<Vec<Vec<ExternalEngine>>>,
    /// The process ids of the engines started and not yet known to have ended.
    pids: Mutex<Vec<u32>>,
    /// How long a start (handshake) may take ([`startup_timeout`]).
    timeout: Duration,
}

/// The least time an engine's start (its handshake: `uci` to `uciok`, GTP's or gnubg's
/// first answers) is given, however short `engine_timeout_ms`: a start reads files (an
/// NNUE network, an interpreter's modules) and is slow on a loaded machine, where a fake
/// engine in Python took 1.5 s to answer `uci` (tests/arena.rs); a deadline meant for a
/// move's answer would count such an engine as hung.
const STARTUP_AT_LEAST: Duration = Duration::from_secs(10);

/// How long an engine's start may take: `engine_timeout_ms`, at least
/// [`STARTUP_AT_LEAST`].
fn startup_timeout(plan: &MatchPlan) -> Duration {
    plan.rules.engine_timeout.max(STARTUP_AT_LEAST)
}

impl EnginePool {
    /// Starts one process of every engine player, so that a bad command fails the match
    /// before any game.
    fn start(plan: &MatchPlan) -> Result<Self, ArenaError> {
        let timeout = startup_timeout(plan);
        let mut idle = Vec::new();
        let mut external = Vec::new();
        let mut pids = Vec::new();
        for p in &plan.players {
            let mut theirs = Vec::new();
            if let PlayerKind::External(spec) = &p.kind {
                let mut engine =
                    ExternalEngine::start(spec, timeout).map_err(|e| engine_error(p, &e))?;
                engine
                    .check_openings(&plan.openings, plan.rules.engine_timeout)
                    .map_err(|e| engine_error(p, &e))?;
                pids.push(engine.pid());
                theirs.push(engine);
            }
            external.push(theirs);
            let mut mine = Vec::new();
            if let PlayerKind::Engine(spec) = &p.kind {
                let engine = UciEngine::start(spec, timeout).map_err(|e| engine_error(p, &e))?;
                pids.push(engine.pid());
                mine.push(engine);
            }
            idle.push(mine);
        }
        Ok(Self {
            idle: Mutex::new(idle),
            external: Mutex::new(external),
            pids: Mutex::new(pids),
            timeout,
        })
    }

    /// A process started during the match, counted by [`Self::running_cpu_seconds`].
    fn started<T>(&self, engine: Option<T>, pid: impl Fn(&T) -> u32) -> Option<T> {
        if let Some(e) = &engine {
            let mut pids = lock(&self.pids);
            if !pids.contains(&pid(e)) {
                pids.push(pid(e));
            }
        }
        engine
    }

    /// The CPU seconds the engine processes still running have used (those that have quit
    /// and been reaped count in this process's children: [`cpu_seconds`]).
    fn running_cpu_seconds(&self) -> f64 {
        let mut total = 0.0;
        lock(&self.pids).retain(|&pid| child_cpu_seconds(pid).inspect(|s| total += s).is_some());
        total
    }

    /// An idle process of `player`'s engine, or a new one (`None` for plylab's players, and
    /// when the engine cannot start: the game is then forfeited).
    fn take(&self, plan: &MatchPlan, player: usize) -> Option<UciEngine> {
        let PlayerKind::Engine(spec) = &plan.players[player].kind else {
            return None;
        };
        let idle = lock(&self.idle)[player].pop();
        idle.or_else(|| self.started(UciEngine::start(spec, self.timeout).ok(), UciEngine::pid))
    }

    /// An idle process of `player`'s GTP or gnubg program, or a new one (`None` for other
    /// players, and when it cannot start: the game is then forfeited).
    fn take_external(&self, plan: &MatchPlan, player: usize) -> Option<ExternalEngine> {
        let PlayerKind::External(spec) = &plan.players[player].kind else {
            return None;
        };
        let idle = lock(&self.external)[player].pop();
        idle.or_else(|| {
            self.started(
                ExternalEngine::start(spec, self.timeout).ok(),
                ExternalEngine::pid,
            )
        })
    }

    /// Returns a live GTP or gnubg process for later games.
    fn give_back_external(&self, player: usize, engine: Option<ExternalEngine>) {
        if let Some(engine) = engine {
            lock(&self.external)[player].push(engine);
        }
    }

    /// Returns a live process for later games.
    fn give_back(&self, player: usize, engine: Option<UciEngine>) {
        if let Some(engine) = engine {
            lock(&self.idle)[player].push(engine);
        }
    }
}

/// Prints the match without playing it (`--dry-run`): players, pairings, openings, games.
pub fn describe(plan: &MatchPlan, out: &mut impl std::io::Write) -> std::io::Result<()> {
    let schedule = plan.schedule();
    writeln!(
        out,
        "match `{}`: {} ({}), {} games ({} per pairing{}), {} at once",
        plan.name,
        plan.game,
        plan.format,
        schedule.len(),
        plan.games_per_pairing,
        if plan.pairs { ", in pairs" } else { "" },
        plan.concurrency
    )?;
    for (i, p) in plan.players.iter().enumerate() {
        writeln!(out, "player {i}: {:<28} {}", p.name, p.describe())?;
    }
    for (i, &(a, b)) in plan.pairings.iter().enumerate() {
        let (a, b) = (&plan.players[a].name, &plan.players[b].name);
        writeln!(out, "pairing {i}: {a} vs {b}")?;
    }
    writeln!(out, "openings: {}", plan.opening_source)?;
    for slot in &schedule {
        writeln!(
            out,
            "{:>5}  pairing {} round {} leg {}  {} vs {}  from {}",
            slot.index,
            slot.pairing,
            slot.round,
            slot.leg,
            plan.players[slot.first].name,
            plan.players[slot.second].name,
            plan.openings[slot.opening].label
        )?;
    }
    Ok(())
}

/// Refuses a match whose games played at once would hold more table memory than is
/// available, as an experiment's jobs are refused ([`crate::lab::runner::check_tables_fit`]):
/// each game holds a table for each of its two players, and `concurrency` games run at once.
/// Checked before anything is written, over every game of `schedule` (those a resume keeps
/// included), rather than aborting when an allocation fails.
///
/// # Errors
/// [`RunError::Refused`] naming the total and the memory available.
pub fn check_tables_fit(
    plan: &MatchPlan,
    schedule: &[GameSlot],
    concurrency: usize,
) -> Result<(), RunError> {
    let table_mb = |player: &Player| match &player.kind {
        PlayerKind::Search(v) if v.mcts.is_none() => v.config.tt_mb as u64,
        _ => 0,
    };
    let mut need: Vec<u64> = schedule
        .iter()
        .map(|s| table_mb(&plan.players[s.first]) + table_mb(&plan.players[s.second]))
        .collect();
    need.sort_unstable_by(|a, b| b.cmp(a));
    let games = concurrency.min(need.len());
    tables_fit(need.iter().take(games).sum(), 2 * games).map_err(RunError::Refused)
}

/// `player`'s engine failing to start, as an [`ArenaError::Engine`]: refused (exit code 2)
/// when the file asked for what the engine does not have (an option it does not declare), a
/// failure when the engine itself failed (it could not start, crashed or hung; a program
/// that is not there or cannot run was refused before, by [`MatchPlan::check_programs`]).
fn engine_error(player: &Player, e: &super::engine::EngineError) -> ArenaError {
    use super::engine::EngineError;
    ArenaError::Engine {
        player: player.name.clone(),
        message: e.to_string(),
        refused: matches!(e, EngineError::BadRequest { .. }),
    }
}
