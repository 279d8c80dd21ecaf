//! Node counters. The definitions are the project's (its design notes' "What the numbers
//! mean", written out in EXPERIMENTS.md's searches.csv columns), and every CSV column with
//! the same name means exactly this.

use std::ops::AddAssign;

/// What a search did, counted per completed iteration and in total.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Stats {
    /// Every position the search visits, root included; a position reached twice counts twice.
    pub nodes: u64,
    /// Positions scored without expanding children: at the depth horizon or because the game
    /// is over. A position answered by a table cutoff is not a leaf.
    pub leaf_nodes: u64,
    /// Positions visited inside quiescence search (0 until quiescence is switched on).
    pub qnodes: u64,
    /// Transposition-table look-ups.
    pub tt_probes: u64,
    /// Look-ups that found an entry stored under this position's key.
    pub tt_hits: u64,
    /// Nodes where a move's score reached beta, ending the node early.
    pub beta_cutoffs: u64,
    /// Beta cutoffs produced by the first move searched (the measure of ordering quality).
    pub first_move_cutoffs: u64,
    /// Nodes whose moves were generated and searched (neither leaves nor table cutoffs).
    pub expanded_nodes: u64,
    /// Legal moves generated at expanded nodes: `generated_moves / expanded_nodes` is the
    /// mean branching factor of the tree the search actually walked.
    pub generated_moves: u64,
    /// The deepest ply below the root that the search reached.
    pub max_ply: u32,
    /// Endgame-database look-ups (0 without a database).
    pub tb_probes: u64,
    /// Look-ups that found the position: each such node is scored exactly and not expanded.
    pub tb_hits: u64,
    /// Nodes spent by secondary search verifying the root move (included in `nodes`).
    pub secondary_nodes: u64,
    /// Times secondary search played another move than the depth-d best.
    pub secondary_switches: u64,
}

impl Stats {
    /// `first_move_cutoffs / beta_cutoffs`, or `None` when nothing was cut.
    #[must_use]
    pub fn first_move_cutoff_rate(&self) -> Option<f64> {
        (self.beta_cutoffs > 0).then(|| self.first_move_cutoffs as f64 / self.beta_cutoffs as f64)
    }
}

impl AddAssign for Stats {
    fn add_assign(&mut self, o: Self) {
        self.nodes += o.nodes;
        self.leaf_nodes += o.leaf_nodes;
        self.qnodes += o.qnodes;
        self.tt_probes += o.tt_probes;
        self.tt_hits += o.tt_hits;
        self.beta_cutoffs += o.beta_cutoffs;
        self.first_move_cutoffs += o.first_move_cutoffs;
        self.expanded_nodes += o.expanded_nodes;
        self.generated_moves += o.generated_moves;
        self.max_ply = self.max_ply.max(o.max_ply);
        self.tb_probes += o.tb_probes;
        self.tb_hits += o.tb_hits;
        self.secondary_nodes += o.secondary_nodes;
        self.secondary_switches += o.secondary_switches;
    }
}
