//! The transposition table shared by threads without locks (Hyatt and Mann's XOR check):
//! hammered by several threads storing and probing random keys at once, it never returns an
//! entry stored under another key. Every stored entry encodes its own key, so a torn or
//! foreign entry would be seen.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use plylab::rng::XorShift;
use plylab::search::Table;
use plylab::search::tt::{Bound, Entry};

/// The entry a key stores: its score, move and depth are all derived from the key.
fn entry_for(key: u64) -> Entry {
    Entry {
        score: (key % 1_000_000) as i32 - 500_000,
        move_code: Some((key >> 20) as u16 & 0x7FFF),
        // Whole plies, which every layout keeps exactly.
        depth: i32::from((key >> 40) as u8 % 128) * plylab::search::config::ONE_PLY,
        bound: match key % 3 {
            0 => Bound::Exact,
            1 => Bound::Lower,
            _ => Bound::Upper,
        },
    }
}

#[test]
fn hammered_by_threads_a_probe_never_returns_another_keys_entry() {
    // A tiny table (one MiB, 16,384 buckets) so that threads collide constantly.
    let table = Table::new(1);
    let hits = AtomicU64::new(0);
    std::thread::scope(|scope| {
        for thread in 0..4u64 {
            let (table, hits) = (&table, &hits);
            scope.spawn(move || {
                let mut rng = XorShift::new(thread);
                for _ in 0..400_000 {
                    // Keys from a small pool, so that many probes find entries.
                    let key = plylab::rng::mix(rng.below(50_000));
                    if rng.below(2) == 0 {
                        table.store(key, 0, entry_for(key));
                    } else if let Some(found) = table.probe(key, 0) {
                        assert_eq!(found, entry_for(key), "key {key:#x}");
                        hits.fetch_add(1, Relaxed);
                    }
                }
            });
        }
    });
    assert!(
        hits.load(Relaxed) > 10_000,
        "the test must exercise hits: {}",
        hits.load(Relaxed)
    );
}
