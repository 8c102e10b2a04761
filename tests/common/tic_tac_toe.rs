//! Tic-tac-toe's rules written once for both test binaries, independently of the crate: its
//! eight lines and whether a side owns one.

/// The rows, the columns and the two diagonals of a 3 × 3 board, cells row-major.
const LINES: [[usize; 3]; 8] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [2, 4, 6],
];

/// Whether `mark` owns a line of a 3 × 3 board given as one byte a cell, whatever bytes stand
/// for the marks and the empty cell.
pub fn has_line(board: &[u8], mark: u8) -> bool {
    LINES
        .iter()
        .any(|line| line.iter().all(|&i| board[i] == mark))
}
