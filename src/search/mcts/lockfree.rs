//! Lock-free tree parallelism: one UCT tree grown by several threads without a lock
//! (Enzenberger and Müller 2009, "A Lock-free Multithreaded Monte-Carlo Tree Search
//! Algorithm", Advances in Computer Games 12), with virtual loss (Chaslot, Winands and van den
//! Herik 2008, "Parallel Monte-Carlo tree search", Computers and Games).
//!
//! The design, piece by piece:
//!
//! - **Storage.** Nodes live in a chunked arena whose chunks never move: chunk `k` holds
//!   `2^(12 + k)` nodes and is allocated the first time an index falls in it (installed with
//!   one compare-and-swap; a thread that loses the race frees its copy). Indices are `u32`
//!   and claimed from an atomic bump counter in blocks of [`BLOCK`] per thread (a child list
//!   longer than half a block is claimed on its own), so a thread owns the slots it claimed
//!   until it publishes them, and the shared counter is touched once per block rather than
//!   once per expansion. The chunks double, so a search allocates O(log nodes) times in all
//!   and nothing once the tree has stopped growing past its largest chunk. A chunk is
//!   allocated only within [`MctsConfig::tree_mb`] and where [`crate::memory::may_grow`]
//!   finds the memory to spare; a claim that cannot have its chunk marks the arena full,
//!   its thread plays out from the node it could not expand, and every thread stops.
//! - **Expansion.** A thread that reaches a node whose children are not published yet
//!   generates them (in its own move buffer, shuffled with its own generator as [`super::uct`]
//!   does), claims that many slots, writes the children there and publishes the range with
//!   one compare-and-swap of the node's packed `(first child, count)` word (Release). Two
//!   threads may expand the same node at once; the loser's children stay unreferenced in the
//!   arena and it carries on with the winner's, as Enzenberger and Müller accept ("the
//!   memory is wasted", a rare race). Readers load the word with Acquire, so they see every
//!   child fully written or no child list at all, never a half-built one.
//! - **Adding children.** As in [`super::uct`], one child is added to the tree per iteration
//!   that reaches a node with children still unadded: a thread claims the next one with a
//!   compare-and-swap on the node's `expanded` counter (so two threads never add the same
//!   child), then follows UCB1 once all are added. At a chance node the outcome is drawn by
//!   its weight, as in the locked tree; a child drawn for the first time (one atomic swap of
//!   its `entered` flag) counts as added.
//! - **Expansion threshold** ([`MctsConfig::expand_visits`]). A node below the root with
//!   fewer completed playouts than the threshold (published ones, plus those this thread
//!   holds back) is played out from rather than expanded. Threads that reach it at once may
//!   all play out from it, so under threads a node expands after at least that many.
//! - **Statistics.** Visits and virtual losses share one `AtomicU64` (visits in the high 44
//!   bits, virtual losses in the low 20): entering a node adds one virtual loss with one
//!   `fetch_add`, and backpropagation turns it into a visit with one `fetch_add` of
//!   `2^20 − 1`, so a reader never sees the playout counted twice or not at all. The reward
//!   sum is an `f64` kept as its bits in an `AtomicU64` and updated with a compare-and-swap
//!   loop; a zero reward (a loss) skips it. The f64 was chosen over fixed point because
//!   playout cutoffs and `Outcome::Points` give rewards that are arbitrary reals in
//!   `[0, 1]`: with f64 one thread adds exactly what [`super::uct`] adds, in the same order,
//!   so one thread of this search reproduces UCT's tree and choice bit for bit; the retries
//!   only happen on nodes several threads update at once (near the root), whose cache line
//!   the visit counter already contends.
//! - **Virtual loss.** Every node on a descent's path below the root gets one (an extra
//!   visit with reward 0, Chaslot et al. 2008), added as the thread enters it and removed
//!   when the playout is backpropagated. In UCB1 a child's count is its visits plus its
//!   virtual losses; the parent's is its visits plus the virtual losses of the *other*
//!   threads (its own, added on entering, is not yet in any child), which with one thread is
//!   exactly UCT's count.
//! - **The root is never written** once its children are published: every iteration passes
//!   through it, so any counter there would be one cache line written by every thread on
//!   every iteration. Its count for UCB1 is the sum of its children's visits and virtual
//!   losses (with one thread, exactly UCT's root visits: the root is never a leaf), and its
//!   reward sum is never read.
//! - **Statistics held back near the root** ([`MctsConfig::hold_depth`], several threads
//!   only). Below the root the hottest nodes are its children and grandchildren: nearly
//!   every iteration writes one of each (a virtual loss, then a reward and a visit), so their
//!   cache lines move between cores on every iteration, which on connect four (playouts of
//!   about 1 µs) cost more than the playouts (3.7x one thread's playouts/s at 16 threads on
//!   the lent 16-core machine). So each thread adds the visits and rewards it backpropagates
//!   into nodes up to `hold_depth` plies below the root to a small table of its own
//!   ([`Pending`], direct-mapped by node) and publishes them every `hold_playouts` playouts
//!   (a node alone when another node takes its slot; everything when the thread stops), and
//!   puts no virtual loss on those nodes. Its own selections count what it holds back, so a
//!   thread sees its own playouts at once and the other threads' a few dozen playouts late:
//!   near the root the threads behave like root parallelism, deeper like one tree (7-9x
//!   with 8-16 plies held back, results/scaling_hold; chess, whose playouts last about 70 µs,
//!   scaled to 13-15x either way). This is
//!   MoGo's "slow tree parallelization" (Gelly, Hoock, Rimmel, Teytaud and Kalemkarian 2008,
//!   "The parallelization of Monte-Carlo planning"; Bourki et al. 2010, "Scalability and
//!   parallelization of Monte-Carlo tree search"), which shares the statistics of the nodes
//!   near the root between machines at intervals, brought inside one shared-memory tree.
//!   With one thread nothing is held back.
//! - **Memory ordering.** Acquire/Release only where data is published: the child ranges
//!   and the arena's chunk pointers. The statistics are Relaxed: a selection may read a
//!   reward sum and a count from slightly different moments, which, as in Enzenberger and
//!   Müller's Fuego, only perturbs one UCB1 value by a fraction of a playout. The search
//!   joins its threads before reading the results, which orders everything.
//!
//! Nothing is allocated per iteration: each thread reuses its move, outcome and path buffers.

use std::cell::UnsafeCell;
use std::mem::MaybeUninit;
use std::ptr;
use std::sync::atomic::Ordering::{AcqRel, Acquire, Relaxed};
use std::sync::atomic::{AtomicBool, AtomicPtr, AtomicU32, AtomicU64};

use super::tree::{playout, reward_for, sample, shuffle};
use super::{
    Choice, Clock, MctsBudget, MctsConfig, MctsResult, Workers, begin, finish, thread_rng,
};
use crate::game::{Evaluator, Game, Player, Status, Weight};
use crate::rng::XorShift;

/// No node (an empty slot of [`Pending`]); no index reaches it.
const NONE: u32 = u32::MAX;

/// A node's child word before its children are published.
const UNGENERATED: u64 = u64::MAX;

/// Bits of the statistics word that count virtual losses (up to 2^20 − 1 descents in flight
/// through one node; every thread has at most one).
const VL_BITS: u32 = 20;

/// One virtual loss in the statistics word.
const ONE_VL: u64 = 1;

/// One visit in the statistics word.
const ONE_VISIT: u64 = 1 << VL_BITS;

/// Log2 of the first chunk's size.
const FIRST_CHUNK_BITS: u32 = 12;

/// Chunks enough for every `u32` index: chunk `k` starts at `2^(12+k) − 2^12`.
const CHUNKS: usize = (33 - FIRST_CHUNK_BITS) as usize;

/// Slots a thread claims from the shared counter at a time.
const BLOCK: u32 = 1024;

/// One node of the shared tree. `mv` and `mover` are written once, before the node is
/// published, and only read afterwards; the rest is atomic. No parent index: a descent keeps
/// its path ([`Worker::path`]) for backpropagation, which keeps a node to 32 bytes (two to
/// a cache line) where the move takes at most two bytes (connect four, tic-tac-toe).
struct Node<M> {
    /// The move from the parent (`None` at the root).
    mv: Option<M>,
    /// The player who played `mv`: rewards are counted from this player's point of view.
    mover: Player,
    /// `(first child << 32) | child count`, or [`UNGENERATED`]; stored once (Release).
    children: AtomicU64,
    /// Children added to the tree so far (non-chance nodes), in arena order.
    expanded: AtomicU32,
    /// Whether a descent has entered this node (used for the outcomes of chance nodes, which
    /// are drawn rather than added in order).
    entered: AtomicBool,
    /// Completed playouts `<< VL_BITS` plus the virtual losses under way.
    stats: AtomicU64,
    /// The sum of rewards (1 win, 0.5 draw, 0 loss) for `mover`, as `f64` bits.
    reward: AtomicU64,
}

impl<M> Node<M> {
    fn new(mv: Option<M>, mover: Player) -> Self {
        Self {
            mv,
            mover,
            children: AtomicU64::new(UNGENERATED),
            expanded: AtomicU32::new(0),
            entered: AtomicBool::new(false),
            stats: AtomicU64::new(0),
            reward: AtomicU64::new(0f64.to_bits()),
        }
    }

    /// `(visits, virtual losses)`.
    fn counts(&self) -> (u64, u64) {
        let s = self.stats.load(Relaxed);
        (s >> VL_BITS, s & (ONE_VISIT - 1))
    }

    fn reward(&self) -> f64 {
        f64::from_bits(self.reward.load(Relaxed))
    }

    /// Adds `x` to the reward sum (a compare-and-swap loop; nothing to do for 0).
    fn add_reward(&self, x: f64) {
        if x == 0.0 {
            return;
        }
        let mut current = self.reward.load(Relaxed);
        loop {
            let sum = (f64::from_bits(current) + x).to_bits();
            match self
                .reward
                .compare_exchange_weak(current, sum, Relaxed, Relaxed)
            {
                Ok(_) => return,
                Err(now) => current = now,
            }
        }
    }
}

/// A slot of the arena: uninitialised until the thread that claimed it writes its node.
type Slot<M> = UnsafeCell<MaybeUninit<Node<M>>>;

/// Nodes in chunks that never move (see the module documentation).
struct Arena<M> {
    chunks: [AtomicPtr<Slot<M>>; CHUNKS],
    /// The next unclaimed index.
    next: AtomicU64,
    /// [`MctsConfig::tree_mb`] in bytes.
    cap: Option<u64>,
    /// Whether a claim found no memory for its chunk ([`crate::memory::may_grow`]).
    full: AtomicBool,
}

// SAFETY: the slots are only written by the thread that claimed them before they are
// published (Release) and only read after that (Acquire); `M` is `Send + Sync`.
unsafe impl<M: Send + Sync> Sync for Arena<M> {}
unsafe impl<M: Send + Sync> Send for Arena<M> {}

/// The chunk of index `i` and the offset in it.
fn locate(i: u32) -> (usize, usize) {
    let j = u64::from(i) + (1 << FIRST_CHUNK_BITS);
    let top = 63 - j.leading_zeros();
    let k = (top - FIRST_CHUNK_BITS) as usize;
    (k, (j - (1 << top)) as usize)
}

/// Nodes in chunk `k`.
fn chunk_len(k: usize) -> usize {
    1 << (FIRST_CHUNK_BITS as usize + k)
}

impl<M> Arena<M> {
    /// An empty arena whose chunks may take at most `cap` bytes.
    fn new(cap: Option<u64>) -> Self {
        Self {
            chunks: std::array::from_fn(|_| AtomicPtr::new(ptr::null_mut())),
            next: AtomicU64::new(0),
            cap,
            full: AtomicBool::new(false),
        }
    }

    /// Whether a claim has found no memory to grow into: the search stops.
    fn is_full(&self) -> bool {
        self.full.load(Relaxed)
    }

    /// Chunk `k`, allocated if no thread has yet; `None` where it may not be
    /// ([`crate::memory::may_grow`]: the chunks before it, together one slot-block short of
    /// its size, are what the arena holds). The first chunk, which holds the root, always
    /// may.
    fn chunk(&self, k: usize) -> Option<*mut Slot<M>> {
        let p = self.chunks[k].load(Acquire);
        if !p.is_null() {
            return Some(p);
        }
        let len = chunk_len(k);
        let bytes = (len * std::mem::size_of::<Slot<M>>()) as u64;
        let held = bytes - (chunk_len(0) * std::mem::size_of::<Slot<M>>()) as u64;
        if k > 0 && !crate::memory::may_grow(held, bytes, self.cap) {
            return None;
        }
        let mut slots: Vec<Slot<M>> = Vec::with_capacity(len);
        // SAFETY: an uninitialised `MaybeUninit` (in an `UnsafeCell`) is a valid value.
        unsafe { slots.set_len(len) };
        let fresh = Box::into_raw(slots.into_boxed_slice()).cast::<Slot<M>>();
        match self.chunks[k].compare_exchange(ptr::null_mut(), fresh, AcqRel, Acquire) {
            Ok(_) => Some(fresh),
            Err(installed) => {
                // SAFETY: `fresh` came from `Box::into_raw` of `len` slots and was never shared.
                drop(unsafe { Box::from_raw(ptr::slice_from_raw_parts_mut(fresh, len)) });
                Some(installed)
            }
        }
    }

    /// Claims `count` (≥ 1) consecutive slots and makes sure their chunks exist; returns the
    /// first index, or `None` (and the arena is full) where a chunk may not be allocated or
    /// the index would reach `u32::MAX`. The slots of a failed claim are never used.
    fn claim(&self, count: u32) -> Option<u32> {
        let first = self.next.fetch_add(u64::from(count), Relaxed);
        let last = first + u64::from(count) - 1;
        let claimed = last < u64::from(NONE)
            && (locate(first as u32).0..=locate(last as u32).0).all(|k| self.chunk(k).is_some());
        if !claimed {
            self.full.store(true, Relaxed);
        }
        claimed.then_some(first as u32)
    }

    /// Writes `node` into slot `i`.
    ///
    /// # Safety
    /// `i` was claimed by this thread and is not published yet.
    unsafe fn write(&self, i: u32, node: Node<M>) {
        let (k, offset) = locate(i);
        let chunk = self.chunks[k].load(Acquire);
        // SAFETY: the claim allocated chunk `k`; nobody else reads or writes slot `i` yet.
        unsafe { (*chunk.add(offset)).get().write(MaybeUninit::new(node)) };
    }

    /// The node at `i`, which must be the root or a child of a published range (so it is
    /// initialised, and its chunk pointer was stored before the publication this thread
    /// acquired).
    fn get(&self, i: u32) -> &Node<M> {
        let (k, offset) = locate(i);
        let chunk = self.chunks[k].load(Acquire);
        debug_assert!(!chunk.is_null());
        // SAFETY: see above; the immutable fields are not written after publication.
        unsafe { (*(*chunk.add(offset)).get()).assume_init_ref() }
    }
}

impl<M> Drop for Arena<M> {
    fn drop(&mut self) {
        // Nodes are freed without being dropped: a move that needs a drop would leak, so
        // it fails to compile (today every `Game::Move` is `Copy`).
        const { assert!(!std::mem::needs_drop::<M>()) };
        for (k, chunk) in self.chunks.iter_mut().enumerate() {
            let p = *chunk.get_mut();
            if !p.is_null() {
                // SAFETY: allocated in `chunk` with this length; nodes need no drop
                // (`MaybeUninit` drops nothing, and `M` needs none, asserted above).
                drop(unsafe { Box::from_raw(ptr::slice_from_raw_parts_mut(p, chunk_len(k))) });
            }
        }
    }
}

/// `(first, count)` of a published child word.
fn unpack(word: u64) -> (u32, u32) {
    ((word >> 32) as u32, word as u32)
}

/// The shared tree of [`tree_parallel`].
pub(super) struct LockFreeTree<G: Game> {
    arena: Arena<G::Move>,
    exploration: f64,
    /// [`MctsConfig::expand_visits`].
    expand_visits: u64,
}

/// One thread's reused buffers and counters.
struct Worker<M> {
    rng: XorShift,
    buf: Vec<M>,
    outcomes: Vec<(M, Weight)>,
    /// Nodes this thread added to the tree.
    added: u64,
    /// The unused part of this thread's block of slots.
    block: std::ops::Range<u32>,
    /// Statistics held back for the nodes near the root.
    pending: Pending,
    /// The nodes of the current descent below the root, from the root's child to the leaf.
    path: Vec<u32>,
}

impl<M> Worker<M> {
    /// A thread's worker, drawing from `rng` and holding statistics back as `pending` says.
    fn new(rng: XorShift, pending: Pending) -> Self {
        Worker {
            rng,
            buf: Vec::new(),
            outcomes: Vec::new(),
            added: 0,
            block: 0..0,
            pending,
            path: Vec::new(),
        }
    }

    /// `count` (≥ 1) consecutive slots for a child list: from this thread's block, from a
    /// fresh block when it has too few left, or on their own when the list is long; `None`
    /// when the arena may not grow.
    fn claim(&mut self, arena: &Arena<M>, count: u32) -> Option<u32> {
        if self.block.len() < count as usize {
            if count > BLOCK / 2 {
                return arena.claim(count);
            }
            let first = arena.claim(BLOCK)?;
            self.block = first..first + BLOCK;
        }
        let first = self.block.start;
        self.block.start += count;
        Some(first)
    }
}

/// One node's held-back statistics.
#[derive(Clone, Copy)]
struct PendingSlot {
    /// The node, [`NONE`] for an empty slot.
    node: u32,
    visits: u64,
    reward: f64,
}

const EMPTY_SLOT: PendingSlot = PendingSlot {
    node: NONE,
    visits: 0,
    reward: 0.0,
};

/// Slots of a thread's [`Pending`] table (a power of two).
const PENDING_SLOTS: usize = 512;

/// The visits and rewards one thread has backpropagated into the nodes near the root but not
/// yet published (see the module documentation): a small direct-mapped table keyed by node,
/// published whole every `every` iterations, and a slot's node alone when another node needs
/// its slot.
struct Pending {
    /// Nodes at depths `1..=depth` below the root are held back; 0: none is.
    depth: u32,
    every: u64,
    slots: Vec<PendingSlot>,
}

impl Pending {
    fn new(depth: u32, every: u32) -> Self {
        let slots = if depth == 0 {
            Vec::new()
        } else {
            vec![EMPTY_SLOT; PENDING_SLOTS]
        };
        Self {
            depth,
            every: u64::from(every.max(1)),
            slots,
        }
    }

    /// Whether a node `depth` plies below the root is held back.
    fn holds(&self, depth: u32) -> bool {
        depth <= self.depth
    }

    fn slot(node: u32) -> usize {
        (node as usize).wrapping_mul(0x9E37_79B9) >> 7 & (PENDING_SLOTS - 1)
    }

    /// `(visits, reward sum)` held back for `node`.
    fn get(&self, node: u32) -> (u64, f64) {
        match self.slots.get(Self::slot(node)) {
            Some(s) if s.node == node => (s.visits, s.reward),
            _ => (0, 0.0),
        }
    }

    /// `(visits, reward sum)` held back for `node`, `depth` plies below the root: nothing
    /// where that depth is not held back.
    fn held(&self, node: u32, depth: u32) -> (u64, f64) {
        if self.holds(depth) {
            self.get(node)
        } else {
            (0, 0.0)
        }
    }

    /// Holds back one visit with `reward` for `node`, publishing the slot's previous node.
    fn add<M>(&mut self, arena: &Arena<M>, node: u32, reward: f64) {
        let slot = &mut self.slots[Self::slot(node)];
        if slot.node != node {
            publish(arena, slot);
            slot.node = node;
        }
        slot.visits += 1;
        slot.reward += reward;
    }

    /// Publishes everything held back.
    fn flush<M>(&mut self, arena: &Arena<M>) {
        for slot in &mut self.slots {
            publish(arena, slot);
        }
    }
}

/// Adds a slot's visits and rewards to its node and empties it.
fn publish<M>(arena: &Arena<M>, slot: &mut PendingSlot) {
    if slot.node != NONE {
        let n = arena.get(slot.node);
        n.add_reward(slot.reward);
        n.stats.fetch_add(slot.visits << VL_BITS, Relaxed);
    }
    *slot = EMPTY_SLOT;
}

impl<G: Game> LockFreeTree<G> {
    /// A tree holding only `root`, selecting with `config`'s UCB1 constant and expanding at
    /// its threshold.
    fn new(root: &G, config: &MctsConfig) -> Self {
        let arena = Arena::new(config.tree_bytes());
        let i = arena.claim(1).expect("the first chunk is always allocated");
        // SAFETY: slot 0 was just claimed; the tree is not shared yet.
        unsafe { arena.write(i, Node::new(None, root.side_to_move().other())) };
        Self {
            arena,
            exploration: config.exploration,
            expand_visits: u64::from(config.expand_visits),
        }
    }

    fn node(&self, i: u32) -> &Node<G::Move> {
        self.arena.get(i)
    }

    /// Selection and expansion with virtual loss (none on the nodes `w` holds back), as
    /// [`super::tree::Tree::descend`]: returns the position to play out from, the nodes
    /// leading to it left in `w.path`.
    fn descend(&self, root: &G, w: &mut Worker<G::Move>) -> G {
        let mut pos = root.clone();
        let mut node = 0u32;
        let mut depth = 0;
        w.path.clear();
        loop {
            if pos.status() != Status::Ongoing || self.below_threshold(node, depth, &w.pending) {
                return pos;
            }
            let mut word = self.node(node).children.load(Acquire);
            if word == UNGENERATED {
                // No memory for the children: played out from as a leaf (the arena is full,
                // and the search stops).
                let Some(published) = self.generate(node, &pos, w) else {
                    return pos;
                };
                word = published;
            }
            let (first, count) = unpack(word);
            let next = if pos.is_chance() {
                self.sample_child(first, count, &pos, w)
            } else {
                self.next_child(node, depth, first, count, &w.pending)
            };
            let Some((child, new)) = next else {
                return pos;
            };
            let c = self.node(child);
            depth += 1;
            if !w.pending.holds(depth) {
                c.stats.fetch_add(ONE_VL, Relaxed);
            }
            pos.play(c.mv.expect("a child has a move"));
            node = child;
            w.path.push(child);
            if new {
                w.added += 1;
                return pos;
            }
        }
    }

    /// Whether `node`, `depth` plies below the root, is a leaf still gathering the playouts
    /// [`MctsConfig::expand_visits`] asks before it expands, counting those this thread
    /// holds back (the root always expands). Other threads may play out from it meanwhile,
    /// so a node expands after at least that many playouts.
    fn below_threshold(&self, node: u32, depth: u32, pending: &Pending) -> bool {
        if depth == 0 {
            return false;
        }
        self.node(node).counts().0 + pending.held(node, depth).0 < self.expand_visits
    }

    /// Generates the children of `node` (position `pos`) in this thread's buffer, writes
    /// them to freshly claimed slots and publishes them; returns the published child word
    /// (another thread's, when it published first), or `None` when no slots can be claimed.
    fn generate(&self, node: u32, pos: &G, w: &mut Worker<G::Move>) -> Option<u64> {
        w.buf.clear();
        if pos.is_chance() {
            w.outcomes.clear();
            pos.chance_outcomes(&mut w.outcomes);
            w.buf.extend(w.outcomes.iter().map(|&(o, _)| o));
        } else {
            pos.generate_moves(&mut w.buf);
            shuffle(&mut w.buf, &mut w.rng);
        }
        let count = u32::try_from(w.buf.len()).expect("more than u32::MAX moves");
        let first = if count == 0 {
            0
        } else {
            w.claim(&self.arena, count)?
        };
        let mover = pos.side_to_move();
        for (i, &mv) in (first..).zip(w.buf.iter()) {
            // SAFETY: `first..first + count` was claimed by this thread just now.
            unsafe { self.arena.write(i, Node::new(Some(mv), mover)) };
        }
        let word = (u64::from(first) << 32) | u64::from(count);
        // Release publishes the children written above; on failure, Acquire makes the
        // winner's children visible (ours stay unreferenced: Enzenberger and Müller 2009).
        match self
            .node(node)
            .children
            .compare_exchange(UNGENERATED, word, AcqRel, Acquire)
        {
            Ok(_) => Some(word),
            Err(published) => Some(published),
        }
    }

    /// The next unadded child of `node` (`true`: added now), or else the UCB1 choice;
    /// `None` when it has no children.
    fn next_child(
        &self,
        node: u32,
        depth: u32,
        first: u32,
        count: u32,
        pending: &Pending,
    ) -> Option<(u32, bool)> {
        if count == 0 {
            return None;
        }
        let n = self.node(node);
        match n
            .expanded
            .fetch_update(Relaxed, Relaxed, |e| (e < count).then_some(e + 1))
        {
            Ok(e) => Some((first + e, true)),
            Err(_) => Some((self.select(node, depth, first, count, pending), false)),
        }
    }

    /// At a chance node, the child of an outcome drawn by its weight (`true`: entered for
    /// the first time, so it is added now), as [`super::tree::Tree`] does.
    fn sample_child(
        &self,
        first: u32,
        count: u32,
        pos: &G,
        w: &mut Worker<G::Move>,
    ) -> Option<(u32, bool)> {
        w.outcomes.clear();
        pos.chance_outcomes(&mut w.outcomes);
        if count == 0 || w.outcomes.len() != count as usize {
            return None;
        }
        let child = first + sample(&w.outcomes, &mut w.rng) as u32;
        let c = self.node(child);
        // The load first: a node entered long ago is read, not written, by every descent.
        let new = !c.entered.load(Relaxed) && !c.entered.swap(true, Relaxed);
        Some((child, new))
    }

    /// UCB1 over the children `first..first + count` of `node`, virtual losses counted as
    /// visits with reward 0, and the visits and rewards this thread holds back (`pending`)
    /// added to those of the nodes it holds back (`node` is `depth` plies below the root).
    /// The parent's count leaves out this thread's own virtual loss, which is not yet in any
    /// child (a held-back parent has none); the root's is the sum over its children. Ties go
    /// to the earlier child.
    fn select(&self, node: u32, depth: u32, first: u32, count: u32, pending: &Pending) -> u32 {
        let count_of = |i: u32| {
            let (v, l) = self.node(i).counts();
            v + l + pending.held(i, depth + 1).0
        };
        let parent = if node == 0 {
            (first..first + count).map(count_of).sum()
        } else if pending.holds(depth) {
            let (visits, vl) = self.node(node).counts();
            visits + vl + pending.held(node, depth).0
        } else {
            let (visits, vl) = self.node(node).counts();
            visits + vl.saturating_sub(1)
        };
        let roots = super::tree::Roots::get();
        let c_log = self.exploration * roots.sqrt_ln(parent);
        let mut best = (first, f64::NEG_INFINITY);
        for i in first..first + count {
            let child = self.node(i);
            let (v, l) = child.counts();
            let (hv, hr) = pending.held(i, depth + 1);
            let visits = v + l + hv;
            let value = if visits == 0 {
                f64::INFINITY
            } else {
                roots.ucb1(child.reward() + hr, visits, c_log)
            };
            if value > best.1 {
                best = (i, value);
            }
        }
        best.0
    }

    /// Adds the playout result to the nodes of a descent's `path` below the root, the leaf
    /// first: each turns its virtual loss into a visit, or, near the root, holds the visit
    /// back in `pending`.
    fn backpropagate(&self, path: &[u32], (player, value): (Player, f64), pending: &mut Pending) {
        for (above, &i) in path.iter().enumerate().rev() {
            let (n, d) = (self.node(i), above as u32 + 1);
            let reward = reward_for(n.mover, player, value);
            if pending.holds(d) {
                pending.add(&self.arena, i, reward);
            } else {
                n.add_reward(reward);
                let before = n.stats.fetch_add(ONE_VISIT - ONE_VL, Relaxed);
                debug_assert!(before & (ONE_VISIT - 1) > 0, "no virtual loss to remove");
            }
        }
    }

    /// `(move, visits, reward sum)` for each legal root move, in move-generation order.
    fn root_totals(&self, root: &G) -> Vec<(G::Move, u64, f64)> {
        let mut moves = Vec::new();
        root.generate_moves(&mut moves);
        let r = self.node(0);
        let word = r.children.load(Acquire);
        let (first, count) = if word == UNGENERATED {
            (0, 0)
        } else {
            unpack(word)
        };
        let added = r.expanded.load(Relaxed).min(count);
        moves
            .into_iter()
            .map(|mv| {
                let child = (first..first + added)
                    .map(|i| self.node(i))
                    .find(|c| c.mv == Some(mv));
                child.map_or((mv, 0, 0.0), |c| (mv, c.counts().0, c.reward()))
            })
            .collect()
    }

    /// One thread's loop; returns `(playouts, nodes added)`.
    fn work<E: Evaluator<G>>(
        &self,
        root: &G,
        eval: &E,
        config: &MctsConfig,
        run: &Run<'_>,
        (index, threads): (usize, usize),
    ) -> (u64, u64) {
        // One thread holds nothing back, so that it grows exactly UCT's tree.
        let hold_depth = if threads > 1 { config.hold_depth } else { 0 };
        let mut w = Worker::new(
            thread_rng(config.seed, index),
            Pending::new(hold_depth, config.hold_playouts),
        );
        let mut scratch = Vec::new();
        let mut done = 0;
        let mut granted = 0;
        while !self.arena.is_full()
            && !run.clock.interrupted(done)
            && run.start_iteration(&mut granted)
        {
            let mut pos = self.descend(root, &mut w);
            let result = playout(
                &mut pos,
                eval,
                config.playout_cutoff,
                &mut w.rng,
                (&mut scratch, &mut w.outcomes),
            );
            self.backpropagate(&w.path, result, &mut w.pending);
            done += 1;
            if done.is_multiple_of(w.pending.every) {
                w.pending.flush(&self.arena);
            }
        }
        w.pending.flush(&self.arena);
        (done, w.added)
    }
}

/// Iterations a thread takes from a shared iteration budget at a time.
const GRANT: u64 = 16;

/// The budget shared by the threads of one search.
struct Run<'a> {
    clock: Clock<'a>,
    /// Iterations handed out, counted only under an iteration limit.
    started: AtomicU64,
    limit: Option<u64>,
}

impl Run<'_> {
    /// Starts one iteration of the shared budget, from the thread's `granted` ones, which it
    /// refills [`GRANT`] at a time (fewer at the end, so that exactly the budget is played;
    /// the shared counter is touched once per grant, not per iteration): false when none is
    /// left.
    fn start_iteration(&self, granted: &mut u64) -> bool {
        let Some(limit) = self.limit else {
            return true;
        };
        if *granted == 0 {
            let before = self.started.fetch_add(GRANT, Relaxed);
            *granted = limit.saturating_sub(before).min(GRANT);
            if *granted == 0 {
                return false;
            }
        }
        *granted -= 1;
        true
    }
}

/// Lock-free tree parallelism (Enzenberger and Müller 2009) with virtual loss (Chaslot et al.
/// 2008): `threads` (at least 1) threads grow one shared UCT tree whose statistics are
/// atomics and whose expansions are published with one atomic store, with no lock anywhere
/// (see the module source for the design and the memory orderings).
///
/// Budget: the iteration budget is shared (handed out from one counter, 16 iterations at a
/// time, so that exactly that many playouts are made); each thread gets the full time budget
/// and watches the stop flag. Thread `i` is seeded `mix(config.seed ^ i)`. With one thread
/// the search is deterministic and equals [`super::uct`] with the same seed (apart from
/// `elapsed`); with more, which statistics a selection reads depends on how the threads
/// interleave.
pub fn tree_parallel<G: Game, E: Evaluator<G>>(
    root: &G,
    eval: &E,
    config: &MctsConfig,
    budget: &MctsBudget<'_>,
    threads: usize,
) -> MctsResult<G::Move> {
    let (start, clock) = match begin(root, budget) {
        Ok(started) => started,
        Err(done) => return done,
    };
    let tree = LockFreeTree::new(root, config);
    let (playouts, added) = grow(&tree, root, eval, config, budget, clock, threads);
    finish(
        tree.root_totals(root),
        Choice::MostVisits,
        (playouts, 1 + added, tree.arena.is_full()),
        start.elapsed(),
    )
}

/// Runs `threads` workers on `tree`; returns `(playouts, nodes added)` over all of them.
fn grow<G: Game, E: Evaluator<G>>(
    tree: &LockFreeTree<G>,
    root: &G,
    eval: &E,
    config: &MctsConfig,
    budget: &MctsBudget<'_>,
    clock: Clock<'_>,
    threads: usize,
) -> (u64, u64) {
    let workers = Workers::default();
    let run = Run {
        clock: workers.clock(clock),
        started: AtomicU64::new(0),
        limit: budget.iterations,
    };
    workers
        .run(threads, |i| {
            tree.work(root, eval, config, &run, (i, threads.max(1)))
        })
        .into_iter()
        .fold((0, 0), |(p, a), (dp, da)| (p + dp, a + da))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Neutral, Notation};
    use crate::games::chance_tree::{ChanceKind, ChanceTree, ChanceTreeParams, ChanceTreeValue};
    use crate::games::connect4::Connect4;

    #[test]
    fn a_capped_arena_claims_whole_chunks_within_its_cap_and_then_none() {
        let slot = std::mem::size_of::<Slot<u8>>() as u64;
        // Room for the first three chunks (4096 + 8192 + 16384 slots), not the fourth.
        let cap = (chunk_len(0) + chunk_len(1) + chunk_len(2)) as u64 * slot;
        let arena = Arena::<u8>::new(Some(cap));
        let mut claimed = 0;
        while let Some(first) = arena.claim(BLOCK) {
            assert_eq!(first, claimed);
            claimed += BLOCK;
        }
        assert_eq!(claimed as usize, chunk_len(0) + chunk_len(1) + chunk_len(2));
        assert!(arena.is_full());
        assert!(arena.chunks[3].load(Relaxed).is_null());
        // Without a cap the same claims go on (the machine has a fourth chunk to spare).
        let free = Arena::<u8>::new(None);
        for _ in 0..=claimed / BLOCK {
            assert!(free.claim(BLOCK).is_some());
        }
        assert!(!free.is_full());
    }

    #[test]
    fn a_connect_four_node_takes_half_a_cache_line() {
        assert_eq!(std::mem::size_of::<Node<<Connect4 as Game>::Move>>(), 32);
    }

    #[test]
    fn indices_map_to_chunks_without_gaps() {
        assert_eq!(locate(0), (0, 0));
        assert_eq!(locate(4095), (0, 4095));
        assert_eq!(locate(4096), (1, 0));
        assert_eq!(locate(4096 + 8191), (1, 8191));
        assert_eq!(locate(4096 + 8192), (2, 0));
        let (k, offset) = locate(u32::MAX - 1);
        assert!(k < CHUNKS && offset < chunk_len(k));
        assert_eq!(locate(u32::MAX - 1).0, CHUNKS - 1);
    }

    /// Walks every published node: no virtual loss is left, every node with children has
    /// had at least `expand_visits` visits as a leaf (exactly that many with one thread; the
    /// root none, and its count is the playouts) and the others through its added children,
    /// and the nodes with visits are exactly the nodes counted as added. Returns the number
    /// of nodes with visits, the root included.
    fn check(tree: &LockFreeTree<impl Game>, playouts: u64, threads: usize) -> u64 {
        let mut stack = vec![0u32];
        let mut visited = 0;
        while let Some(i) = stack.pop() {
            let n = tree.node(i);
            let (stored, vl) = n.counts();
            assert_eq!(vl, 0, "virtual loss left at node {i}");
            let visits = if i == 0 { playouts } else { stored };
            if visits == 0 {
                continue;
            }
            visited += 1;
            let word = n.children.load(Acquire);
            if word == UNGENERATED {
                continue;
            }
            let (first, count) = unpack(word);
            let sum: u64 = (first..first + count)
                .map(|c| tree.node(c).counts().0)
                .sum();
            if count > 0 && i == 0 {
                assert_eq!(sum, visits, "the root");
            } else if count > 0 {
                let as_leaf = visits - sum;
                assert!(
                    as_leaf >= tree.expand_visits,
                    "node {i}: {as_leaf} as a leaf"
                );
                assert!(threads > 1 || as_leaf == tree.expand_visits, "node {i}");
            }
            stack.extend(first..first + count);
        }
        visited
    }

    /// Grows a tree with `threads` threads holding back the statistics of the nodes
    /// `hold_depth` plies or fewer below the root, expanding at `expand_visits`, and checks it.
    fn run<G: Game>(
        root: &G,
        eval: &impl Evaluator<G>,
        n: u64,
        threads: usize,
        (hold_depth, expand_visits): (u32, u32),
    ) {
        let config = MctsConfig {
            seed: 7,
            hold_depth,
            hold_playouts: 50,
            expand_visits,
            ..MctsConfig::default()
        };
        let tree = LockFreeTree::new(root, &config);
        let budget = MctsBudget::iterations(n);
        let clock = Clock::start(&budget, std::time::Instant::now());
        let (playouts, added) = grow(&tree, root, eval, &config, &budget, clock, threads);
        assert_eq!(playouts, n);
        assert_eq!(tree.node(0).counts(), (0, 0), "the root is never written");
        assert_eq!(
            check(&tree, n, threads),
            1 + added,
            "hold depth {hold_depth}"
        );
    }

    #[test]
    fn statistics_are_consistent_after_a_parallel_search() {
        let root = Connect4::parse_position("44").unwrap();
        let chance = ChanceTree::new(ChanceTreeParams {
            b: 3,
            d: 8,
            chance: ChanceKind::Dice,
            lo: -500,
            hi: 500,
            seed: 3,
        })
        .unwrap();
        // Nothing held back (the default), two plies, and every node (so that the threads'
        // tables overflow and publish single nodes as well as whole tables).
        for hold_depth in [0, 2, 100] {
            run(&root, &Neutral, 20_000, 4, (hold_depth, 1));
            run(&chance, &ChanceTreeValue, 20_000, 4, (hold_depth, 1));
        }
        // An expansion threshold, on one thread (exact) and several.
        for (threads, hold_depth) in [(1, 0), (4, 0), (4, 3)] {
            run(&root, &Neutral, 20_000, threads, (hold_depth, 6));
            run(&chance, &ChanceTreeValue, 20_000, threads, (hold_depth, 6));
        }
    }

    #[test]
    fn held_back_statistics_add_up_and_are_published_whole() {
        let root = Connect4::parse_position("44").unwrap();
        let config = MctsConfig {
            exploration: 1.0,
            ..MctsConfig::default()
        };
        let tree = LockFreeTree::new(&root, &config);
        let mut w = Worker::new(XorShift::new(1), Pending::new(1, 64));
        let word = tree.generate(0, &root, &mut w).expect("no cap");
        let (first, count) = unpack(word);
        assert_eq!(count, 7);
        let p = &mut w.pending;
        assert!(p.holds(1) && !p.holds(2));
        p.add(&tree.arena, first, 1.0);
        p.add(&tree.arena, first, 0.5);
        p.add(&tree.arena, first + 1, 0.0);
        assert_eq!(p.get(first), (2, 1.5));
        assert_eq!(p.get(first + 1), (1, 0.0));
        assert_eq!(p.get(first + 2), (0, 0.0));
        assert_eq!(
            tree.node(first).counts(),
            (0, 0),
            "held back, not yet published"
        );
        p.flush(&tree.arena);
        assert_eq!(p.get(first), (0, 0.0));
        assert_eq!(tree.node(first).counts(), (2, 0));
        assert_eq!(tree.node(first).reward(), 1.5);
        assert_eq!(tree.node(first + 1).counts(), (1, 0));
        // A node whose slot another node takes is published at once.
        let more = w
            .claim(&tree.arena, 2 * PENDING_SLOTS as u32)
            .expect("no cap");
        let other = (more..more + 2 * PENDING_SLOTS as u32)
            .find(|&i| Pending::slot(i) == Pending::slot(first))
            .expect("more nodes than slots");
        // SAFETY: `other` was claimed by this worker just now.
        unsafe { tree.arena.write(other, Node::new(None, Player::First)) };
        let p = &mut w.pending;
        p.add(&tree.arena, first, 1.0);
        assert_eq!(p.get(other), (0, 0.0), "the slot holds another node's");
        p.add(&tree.arena, other, 1.0);
        assert_eq!(tree.node(first).counts(), (3, 0));
        assert_eq!(p.get(other), (1, 1.0));
    }

    /// UCB1's parent count below the root is the node's visits plus the virtual losses of
    /// the *other* threads (the descent's own is in no child yet), and a child's count its
    /// visits plus its virtual losses. Here a node has 7 visits and 6 virtual losses (its
    /// own and five other threads'), so N = 12, and with c = 1 its children score: reward 7
    /// over 10 visits, 0.7 + sqrt(ln 12 / 10) = 1.198; reward 0.5 over 2 visits, 0.25 +
    /// sqrt(ln 12 / 2) = 1.365, the one followed; reward 2 over 3 visits and 2 virtual
    /// losses, 0.4 + sqrt(ln 12 / 5) = 1.105; 0 over 10 visits, 0.498. Taking the other
    /// threads' losses off the parent's visits (N = 2) chooses the first (0.963 against
    /// 0.839), and taking the child's off its visits the third (2 + sqrt(ln 12) = 3.576).
    #[test]
    fn a_parent_counts_the_other_threads_virtual_losses() {
        let root = Connect4::parse_position("44").unwrap();
        let config = MctsConfig {
            exploration: 1.0,
            ..MctsConfig::default()
        };
        let tree = LockFreeTree::new(&root, &config);
        let mut w = Worker::new(XorShift::new(1), Pending::new(0, 512));
        let (node, _) = unpack(tree.generate(0, &root, &mut w).expect("no cap"));
        let mut pos = root;
        pos.play(tree.node(node).mv.expect("a move"));
        let (kids, count) = unpack(tree.generate(node, &pos, &mut w).expect("no cap"));
        assert_eq!(count, 7);
        let set = |i: u32, visits: u64, vl: u64, reward: f64| {
            tree.node(i).stats.store(visits << VL_BITS | vl, Relaxed);
            tree.node(i).add_reward(reward);
        };
        set(node, 7, 6, 0.0);
        set(kids, 10, 0, 7.0);
        set(kids + 1, 2, 0, 0.5);
        set(kids + 2, 3, 2, 2.0);
        for i in kids + 3..kids + count {
            set(i, 10, 0, 0.0);
        }
        assert_eq!(tree.select(node, 1, kids, count, &w.pending), kids + 1);
    }

    /// A thread's selection counts what it holds back (`hold_depth`) as if published. Every
    /// root child has 10 published visits of reward 5; the thread holds back 10 losses of
    /// the first child and 10 wins of the fourth. So the root's N is 90 and, with c = 1,
    /// the fourth scores 15/20 + sqrt(ln 90 / 20) = 1.224, the first 5/20 + 0.474 = 0.724
    /// and the others 5/10 + sqrt(ln 90 / 10) = 1.171: the fourth is followed (with what is
    /// held back ignored every child ties, and the first is taken).
    #[test]
    fn a_thread_selects_with_what_it_holds_back() {
        let root = Connect4::parse_position("44").unwrap();
        let config = MctsConfig {
            exploration: 1.0,
            ..MctsConfig::default()
        };
        let tree = LockFreeTree::new(&root, &config);
        let mut w = Worker::new(XorShift::new(1), Pending::new(1, 512));
        let (first, count) = unpack(tree.generate(0, &root, &mut w).expect("no cap"));
        assert_eq!(count, 7);
        for i in first..first + count {
            tree.node(i).stats.store(10 << VL_BITS, Relaxed);
            tree.node(i).add_reward(5.0);
        }
        let (loser, winner) = (first, first + 3);
        assert_ne!(Pending::slot(loser), Pending::slot(winner));
        for _ in 0..10 {
            w.pending.add(&tree.arena, loser, 0.0);
            w.pending.add(&tree.arena, winner, 1.0);
        }
        assert_eq!(tree.select(0, 0, first, count, &w.pending), winner);
    }
}
