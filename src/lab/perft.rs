//! perft: the number of move sequences of a given length, the standard check of a move
//! generator against published tables. As in chess, perft(d) counts the positions exactly
//! d plies away: a game that ends sooner is not counted at depth d.
//!
//! In games of chance a roll is not a ply: a chance node branches over its distinct outcomes
//! (each once, whatever its probability) at the same depth, so that perft(1) of a
//! backgammon position before the roll is the number of plays summed over the 21 rolls.

use crate::game::{Game, Status, Weight};

/// Move sequences of exactly `depth` plies from `pos` (finished games end a sequence early
/// and are not counted), each chance node branching over its outcomes without using a ply.
pub fn perft<G: Game>(pos: &G, depth: u32) -> u64 {
    let mut buffers = Buffers {
        moves: vec![Vec::new(); depth as usize + 1],
        outcomes: vec![Vec::new(); depth as usize + 1],
    };
    count(pos, depth, &mut buffers, 0)
}

/// Per-ply lists, reused so that counting allocates nothing once they have grown.
struct Buffers<G: Game> {
    moves: Vec<Vec<G::Move>>,
    outcomes: Vec<Vec<(G::Move, Weight)>>,
}

fn count<G: Game>(pos: &G, depth: u32, buffers: &mut Buffers<G>, ply: usize) -> u64 {
    if depth == 0 {
        return 1;
    }
    if pos.status() != Status::Ongoing {
        return 0;
    }
    if pos.is_chance() {
        return count_outcomes(pos, depth, buffers, ply);
    }
    let mut moves = std::mem::take(&mut buffers.moves[ply]);
    moves.clear();
    pos.generate_moves(&mut moves);
    let total = if depth == 1 {
        moves.len() as u64
    } else {
        moves
            .iter()
            .map(|&mv| {
                let mut child = pos.clone();
                child.play(mv);
                count(&child, depth - 1, buffers, ply + 1)
            })
            .sum()
    };
    buffers.moves[ply] = moves;
    total
}

/// The sequences through each outcome of the chance node `pos`, at the same depth.
fn count_outcomes<G: Game>(pos: &G, depth: u32, buffers: &mut Buffers<G>, ply: usize) -> u64 {
    let mut outcomes = std::mem::take(&mut buffers.outcomes[ply]);
    outcomes.clear();
    pos.chance_outcomes(&mut outcomes);
    let total = outcomes
        .iter()
        .map(|&(roll, _)| {
            let mut child = pos.clone();
            child.play(roll);
            count(&child, depth, buffers, ply)
        })
        .sum();
    buffers.outcomes[ply] = outcomes;
    total
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Notation;
    use crate::games::backgammon::Backgammon;
    use crate::games::chance_tree::ChanceTree;
    use crate::games::connect4::Connect4;
    use crate::games::tictactoe::TicTacToe;

    #[test]
    fn tictactoe_and_connect4_counts() {
        let t = TicTacToe::parse_position("start").unwrap();
        // 9·8·7·6·5 sequences to ply 5; X wins 1440 of them at ply 5, and the other
        // 13680 continue with four moves each.
        assert_eq!(
            [1, 2, 3, 4, 5].map(|d| perft(&t, d)),
            [9, 72, 504, 3024, 15120]
        );
        assert_eq!(perft(&t, 6), (15120 - 1440) * 4);
        let c = Connect4::parse_position("start").unwrap();
        assert_eq!([1, 2, 3, 4].map(|d| perft(&c, d)), [7, 49, 343, 2401]);
        // 5,686,266 sequences of up to 8 plies, of which 13,032 end with a win at ply 7
        // (connect4.rs counts those as leaves too, the convention of Bik's othello table).
        assert_eq!(perft(&c, 8), 5_686_266 - 13_032);
    }

    #[test]
    fn chance_nodes_branch_without_using_a_ply() {
        // Player levels of 3 moves with a chance level between each two: d moves cross d - 1
        // chance levels, so 3^d · k^(d-1) sequences; the tree ends after three moves.
        for (chance, k) in [("2", 2u64), ("dice", 21)] {
            let t = ChanceTree::parse_position(&format!("b=3,d=5,chance={chance}")).unwrap();
            assert_eq!(
                [1, 2, 3, 4].map(|d| perft(&t, d)),
                [3, 9 * k, 27 * k * k, 0],
                "chance={chance}"
            );
        }
        // Before the roll: the plays of each of the 21 rolls, each read on its own.
        let before_roll = Backgammon::parse_position("start").unwrap();
        let per_roll: u64 = (1..=6)
            .flat_map(|a| (a..=6).map(move |b| format!("start {b}{a}")))
            .map(|p| perft(&Backgammon::parse_position(&p).unwrap(), 1))
            .sum();
        assert_eq!(perft(&before_roll, 1), per_roll);
        assert_eq!(
            perft(&Backgammon::parse_position("start 31").unwrap(), 1),
            16
        );
    }
}
