//! The picture: the game's lines around the board, in a window that may be too small.
//!
//! A line wider than the window would wrap and push the rest down, and rows below the
//! window are never seen: a board or status line that does not fit is lost without a word.
//! So the size is checked at every drawing (each resize draws again): the board is drawn
//! boxed when that fits, compact (no lines between tiles) when only that fits, and
//! otherwise the screen says how large the window must be.

use std::io::{self, Write};

use crossterm::{cursor, queue, style, terminal};

use crate::Board;

/// The width the game's text needs: the status line with a four-digit move count and a
/// three-digit bound ("moves 1234   optimal remaining at least 123"), the help lines, and
/// the last column, which is never written (some terminals wrap after writing it).
pub const TEXT_WIDTH: u16 = 44;

/// The window's size, columns by rows; a terminal that does not say (0x0, as some serial
/// consoles do) is taken to be 80x24.
pub fn window() -> (u16, u16) {
    match terminal::size() {
        Ok((w, h)) if w > 0 && h > 0 => (w, h),
        _ => (80, 24),
    }
}

/// The board's lines in the largest drawing that fits a window of `window` with `rows`
/// other rows and the text beside it; `None` if even the compact one does not fit.
pub fn board_lines(board: &Board, window: (u16, u16), rows: usize) -> Option<Vec<String>> {
    [boxed(board), compact(board)]
        .into_iter()
        .find(|lines| fits(lines, window, rows))
}

/// The smallest window (columns, rows) in which the game can be drawn.
pub fn needed(board: &Board, rows: usize) -> (usize, usize) {
    let lines = compact(board);
    let (w, h) = size_of(&lines, rows);
    (w.max(TEXT_WIDTH as usize), h)
}

/// Columns and rows for `lines` indented by two, below and above `rows` other rows, with
/// the last column left free.
fn size_of(lines: &[String], rows: usize) -> (usize, usize) {
    let width = lines.iter().map(|l| l.chars().count()).max().unwrap_or(0);
    (width + 3, lines.len() + rows)
}

fn fits(lines: &[String], (w, h): (u16, u16), rows: usize) -> bool {
    let (need_w, need_h) = size_of(lines, rows);
    need_w.max(TEXT_WIDTH as usize) <= w as usize && need_h <= h as usize
}

/// Boxed, a line between rows: as `fifteen solve --steps` prints boards.
fn boxed(board: &Board) -> Vec<String> {
    board.render_with('░').lines().map(str::to_owned).collect()
}

/// Only the frame: two rows for the frame plus one a board row, for tall boards (7x5 needs
/// 25 rows boxed, 19 like this).
fn compact(board: &Board) -> Vec<String> {
    let shape = board.shape();
    let (cols, w) = (shape.cols as usize, if shape.cells() > 10 { 2 } else { 1 });
    let inner = cols * (w + 1) + 1;
    let mut out = vec![format!("┌{}┐", "─".repeat(inner))];
    for row in board.tiles().chunks(cols) {
        let mut line = String::from("│");
        for &t in row {
            if t == 0 {
                line.push(' ');
                line.extend(std::iter::repeat_n('░', w));
            } else {
                line.push_str(&format!(" {t:>w$}"));
            }
        }
        line.push_str(" │");
        out.push(line);
    }
    out.push(format!("└{}┘", "─".repeat(inner)));
    out
}

/// What the screen says instead of the game when the window is too small, word-wrapped
/// to the window so that the sizes are seen whatever the width.
pub fn too_small(needed: (usize, usize), window: (u16, u16)) -> Vec<String> {
    let text = format!(
        "The window is too small for this board: make the window at least {}x{} \
         (it is {}x{}). q quits.",
        needed.0, needed.1, window.0, window.1
    );
    wrap(&text, (window.0 as usize).saturating_sub(1).max(8))
}

/// Greedy word wrap at `width` columns.
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = vec![String::new()];
    for word in text.split_whitespace() {
        let last = lines.last_mut().expect("never empty");
        if last.is_empty() {
            last.push_str(word);
        } else if last.chars().count() + 1 + word.chars().count() <= width {
            last.push(' ');
            last.push_str(word);
        } else {
            lines.push(word.to_owned());
        }
    }
    lines
}

/// Clears the screen and writes `lines` from the top, each cut to the window's width (less
/// the last column), no more lines than the window has rows.
pub fn paint(lines: &[String], (w, h): (u16, u16)) -> io::Result<()> {
    let mut out = io::stdout().lock();
    queue!(out, terminal::Clear(terminal::ClearType::All))?;
    for (row, line) in lines.iter().take(h as usize).enumerate() {
        let line: String = line.chars().take((w as usize).saturating_sub(1)).collect();
        queue!(out, cursor::MoveTo(0, row as u16), style::Print(line))?;
    }
    out.flush()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Goal, Shape};

    /// The rows around the board in the game: three above, seven below.
    const ROWS: usize = 10;

    fn solved(rows: usize, cols: usize) -> Board {
        *Goal::standard(Shape::new(rows, cols).unwrap()).board()
    }

    #[test]
    fn every_square_board_is_boxed_in_80x24() {
        for n in 2..=6 {
            let b = solved(n, n);
            let lines = board_lines(&b, (80, 24), ROWS).unwrap();
            assert_eq!(lines.len(), 2 * n + 1, "{n}x{n}");
        }
        // 6x6 boxed: 13 board rows and 10 others, 23 of 24. Any 4x4 drawing needs 44x16.
        assert!(board_lines(&solved(6, 6), (80, 23), ROWS).is_some());
        assert_eq!(needed(&solved(4, 4), ROWS), (44, 16));
    }

    #[test]
    fn tall_boards_go_compact_and_the_tallest_ask_for_more_rows() {
        let b = solved(7, 5);
        let lines = board_lines(&b, (80, 24), ROWS).unwrap();
        assert_eq!(lines.len(), 9);
        assert_eq!(lines[1], "│  1  2  3  4  5 │");
        assert_eq!(lines[7], "│ 31 32 33 34 ░░ │");
        let tall = solved(18, 2);
        assert!(board_lines(&tall, (80, 24), ROWS).is_none());
        assert_eq!(needed(&tall, ROWS), (44, 30));
        // Wide: 18 columns boxed need 94 columns, compact 60.
        let wide = solved(2, 18);
        assert_eq!(board_lines(&wide, (80, 24), ROWS).unwrap().len(), 4);
        assert_eq!(needed(&wide, ROWS), (60, 14));
    }

    #[test]
    fn the_size_message_wraps_to_the_window() {
        let lines = too_small((44, 16), (20, 6));
        assert!(lines.iter().all(|l| l.chars().count() <= 19), "{lines:?}");
        assert!(lines.iter().any(|l| l.contains("44x16")), "{lines:?}");
        assert!(lines.iter().any(|l| l.contains("20x6)")), "{lines:?}");
    }
}
