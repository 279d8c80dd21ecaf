//! The games. Each knows only [`crate::game`]; none knows how it is searched.

pub mod backgammon;
pub mod chance_tree;
pub mod checkers;
pub mod chess;
pub mod connect4;
pub mod linear;
pub mod othello;
pub mod random_tree;
pub mod tictactoe;

use crate::game::Game;

/// Every game's [`Game::NAME`], as results files write it in their `game` column.
pub const NAMES: [&str; 8] = [
    tictactoe::TicTacToe::NAME,
    connect4::Connect4::NAME,
    random_tree::RandomTree::NAME,
    chess::Chess::NAME,
    checkers::Checkers::NAME,
    othello::Othello::NAME,
    chance_tree::ChanceTree::NAME,
    backgammon::Backgammon::NAME,
];
