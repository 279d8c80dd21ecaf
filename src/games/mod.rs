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
