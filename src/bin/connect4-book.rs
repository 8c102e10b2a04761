//! Builds the 7 × 6 Connect Four opening book that the engine ships (`connect4.book` beside the
//! gravity solver): every position a game reaches with at most `--depth` stones, mirror images
//! once, with its exact score, solved by the engine's own solver.
//!
//! ```text
//! cargo run --release --no-default-features --bin connect4-book -- [--depth N] [--threads T] [--out PATH]
//! ```
//!
//! Defaults: the depth of the shipped book, both cores, and the shipped file
//! (`src/engine/gravity/connect4.book`). The output is the same byte for byte on every run and
//! any number of threads (every score is exact and the entries are sorted); rebuild the
//! engine afterwards to ship it.

use std::time::Instant;

use minimax_move::engine::Geometry;
use minimax_move::engine::gravity::build_book;

/// The depth of the book the engine ships.
const SHIPPED_DEPTH: usize = 4;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let value = |name: &str| {
        args.iter().position(|a| a == name).map(|i| {
            args.get(i + 1)
                .unwrap_or_else(|| panic!("{name} takes a value"))
        })
    };
    let depth = value("--depth").map_or(SHIPPED_DEPTH, |d| {
        d.parse().expect("--depth takes a number")
    });
    let threads = value("--threads").map_or_else(
        || std::thread::available_parallelism().map_or(2, usize::from),
        |t| t.parse().expect("--threads takes a number"),
    );
    let out = value("--out").map_or_else(
        || {
            concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/src/engine/gravity/connect4.book"
            )
            .to_owned()
        },
        Clone::clone,
    );
    let started = Instant::now();
    // Called every 64 positions and at the end.
    let progress = |done: usize, total: usize| {
        eprint!(
            "\r{done}/{total} positions with {depth} stones solved, {:.0} s",
            started.elapsed().as_secs_f64()
        );
    };

    let book =
        build_book(Geometry::CONNECT_FOUR, depth, threads, &progress).expect("7 x 6 takes a book");
    eprintln!();
    let bytes = book.to_bytes();
    std::fs::write(&out, &bytes).unwrap_or_else(|e| panic!("cannot write {out}: {e}"));
    println!(
        "{} positions up to {depth} stones, {} bytes, {:.1} s on {threads} threads -> {out}",
        book.len(),
        bytes.len(),
        started.elapsed().as_secs_f64()
    );
}
