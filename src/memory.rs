//! How much memory this process can still allocate, read from the operating system: the
//! check before a transposition table is allocated (`tt_mb`, UCI `Hash`), and the bound on
//! a Monte Carlo tree that grows while it searches ([`may_grow`]).
//!
//! An allocation the machine cannot back does not fail cleanly on Linux: past `ulimit -v`
//! it aborts the process, and past the physical memory the kernel's out-of-memory killer
//! ends it. So memory is asked for only where these figures say it is there.

/// Where [`available_mb`] comes from, for messages.
pub const AVAILABLE_FROM: &str =
    "MemAvailable in /proc/meminfo, or the address space left under ulimit -v";

/// The memory this process can allocate, in MiB: what the kernel says can be allocated
/// without swapping (`MemAvailable` in /proc/meminfo), or less where the process's
/// address space is limited (`ulimit -v`: past it an allocation fails, which aborts the
/// process); `None` where /proc/meminfo is absent (not Linux).
#[must_use]
pub fn available_mb() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    let available = kib / 1024;
    Some(address_space_left_mb().map_or(available, |left| left.min(available)))
}

/// The address space left under the process's soft limit (`Max address space` in
/// /proc/self/limits, less `VmSize` in /proc/self/status), in MiB; `None` when unlimited
/// or unknown.
fn address_space_left_mb() -> Option<u64> {
    let limits = std::fs::read_to_string("/proc/self/limits").ok()?;
    let line = limits
        .lines()
        .find(|l| l.starts_with("Max address space"))?;
    let soft: u64 = line.split_whitespace().nth(3)?.parse().ok()?;
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let size = status.lines().find(|l| l.starts_with("VmSize:"))?;
    let used_kib: u64 = size.split_whitespace().nth(1)?.parse().ok()?;
    Some((soft / 1024).saturating_sub(used_kib) / 1024)
}

/// Growth below this many bytes is not checked against the machine: reading /proc takes
/// three files' worth of system calls, and the many small trees of a match (a search a
/// move) grow through these sizes on every move.
const UNCHECKED_GROWTH: u64 = 16 << 20;

/// The share of the available memory one growth may take: a tree grows by doubling, so a
/// tree refused at this share has taken at most about 2 / (DIVISOR + 1) of the memory
/// that was available when it started, and the searches that `--jobs` runs at once, each
/// growing by this rule, leave memory to spare for one another.
const AVAILABLE_DIVISOR: u64 = 4;

/// Whether a growing structure (a Monte Carlo tree) that holds `held` bytes may take
/// `more`: not past `cap` bytes when one is set, and, for growth of 16 MiB or more, not
/// past a quarter of the memory [`available_mb`] reports (no limit where that is unknown).
/// A search refused here stops, as at the end of its budget, instead of being killed.
#[must_use]
pub fn may_grow(held: u64, more: u64, cap: Option<u64>) -> bool {
    if cap.is_some_and(|cap| held.saturating_add(more) > cap) {
        return false;
    }
    more < UNCHECKED_GROWTH
        || available_mb().is_none_or(|mb| more <= (mb << 20) / AVAILABLE_DIVISOR)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cap_bounds_the_bytes_held_after_growing() {
        assert!(may_grow(0, 1 << 20, Some(1 << 20)));
        assert!(!may_grow(1, 1 << 20, Some(1 << 20)));
        assert!(!may_grow(u64::MAX, 1, Some(1 << 40)), "no overflow");
        assert!(may_grow(1 << 30, 1 << 10, None));
    }

    #[test]
    fn growth_beyond_the_machine_is_refused() {
        // No machine has an exbibyte to spare; where /proc is absent nothing is checked.
        assert_eq!(may_grow(0, 1 << 60, None), available_mb().is_none());
    }
}
