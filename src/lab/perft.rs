//! perft: the number of move sequences of a given length, the standard check of a move
//! generator against published tables. As in chess, perft(d) counts the positions exactly
//! d plies away: a game that ends sooner is not counted at depth d.

use crate::game::{Game, Status};

/// Move sequences of exactly `depth` plies from `pos` (finished games end a sequence early
/// and are not counted).
pub fn perft<G: Game>(pos: &G, depth: u32) -> u64 {
    let mut buffers = vec![Vec::new(); depth as usize + 1];
    count(pos, depth, &mut buffers)
}

fn count<G: Game>(pos: &G, depth: u32, buffers: &mut [Vec<G::Move>]) -> u64 {
    if depth == 0 {
        return 1;
    }
    if pos.status() != Status::Ongoing {
        return 0;
    }
    let (moves, rest) = buffers.split_first_mut().expect("one buffer per ply");
    moves.clear();
    pos.generate_moves(moves);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|&mv| {
            let mut child = pos.clone();
            child.play(mv);
            count(&child, depth - 1, rest)
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Notation;
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
}
