//! Criterion benchmarks for the alpha-beta search: proving small m,n,k games from the empty
//! board.
//!
//! ```text
//! cargo bench --bench search
//! ```

use criterion::{Criterion, criterion_main};
use minimax_move::engine::{Geometry, Position, Scoring, SearchLimits, analyze};

fn empty(rows: u64, cols: u64, k: u64) -> Position {
    let geometry = Geometry::new(rows, cols, k).expect("valid geometry");
    Position::new(geometry, vec![None; geometry.cells()], None).expect("legal position")
}

fn prove(c: &mut Criterion) {
    let mut group = c.benchmark_group("prove_from_empty");
    group.sample_size(10);
    for (rows, cols, k) in [(4, 4, 4), (5, 4, 4), (5, 5, 4)] {
        let position = empty(rows, cols, k);
        group.bench_function(format!("{rows}x{cols}_k{k}"), |b| {
            b.iter(|| analyze(&position, Scoring::Depth, &SearchLimits::default()));
        });
    }
    group.finish();
}

/// The generated group function is private here so that it needs no rustdoc.
mod group {
    use super::prove;
    criterion::criterion_group!(benches, prove);
}
criterion_main!(group::benches);
