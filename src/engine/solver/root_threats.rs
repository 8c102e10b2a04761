//! Threat search at the root of a big board: a win by continuous fours answers at once, and
//! moves that leave the opponent one are set aside before the main search.

use super::params::{VCF_DEFENCE_BUDGET, VCF_MAX_FOURS};
use super::threats::Vcf;
use super::{Analysis, HEURISTIC_MAX, MoveScore, Position, RootMove, RootResult, Scoring, Solver};

impl Solver<'_> {
    /// The analysis when the side to move wins by continuous fours along `line`: its first move
    /// a proven win ([`Analysis::forced_win`]), every other move a one-ply static estimate.
    pub(super) fn forced_win(
        &mut self,
        position: &Position,
        scoring: Scoring,
        root: &[RootMove],
        line: Vec<usize>,
    ) -> Analysis {
        let side = self.root_side;
        let geometry = position.geometry();
        let moves = root
            .iter()
            .filter(|m| m.cell != line[0])
            .map(|m| {
                self.board.play(m.cell, side);
                let value = -self.evaluate(side.opponent());
                self.board.undo(m.cell, side);
                let estimate = RootResult::exact(value.min(HEURISTIC_MAX), false);
                MoveScore::new(
                    m.cell,
                    estimate.evaluation(geometry.max_score()),
                    scoring,
                    geometry,
                    position.empty_count(),
                )
            })
            .collect();
        Analysis::forced_win(moves, line, self.nodes, position, scoring)
    }

    /// Marks the root moves after which the opponent has a VCF (found within
    /// [`VCF_DEFENCE_BUDGET`] nodes each), unless that is every move. Looked at only when the
    /// opponent has a VCF if the side to move passes: a stone never helps the opponent's fours.
    pub(super) fn mark_refuted(&mut self, root: &mut [RootMove], vcf: &mut Vcf) {
        let side = self.root_side;
        let other = side.opponent();
        // Against a four the main search already plays only the block; the filter is for
        // quieter attacks.
        if self.board.threats(other) > 0 {
            return;
        }
        if vcf.find(&mut self.board, other, VCF_MAX_FOURS).is_none() {
            return;
        }
        vcf.set_budget(VCF_DEFENCE_BUDGET);
        let mut refuted = vec![false; root.len()];
        for (i, m) in root.iter().enumerate() {
            if m.representative != i {
                refuted[i] = refuted[m.representative];
                continue;
            }
            if self.board.wins_at(m.cell, side) {
                continue;
            }
            self.board.play(m.cell, side);
            refuted[i] = vcf.find(&mut self.board, other, VCF_MAX_FOURS).is_some();
            self.board.undo(m.cell, side);
        }
        if refuted.iter().all(|&r| r) {
            return;
        }
        for (m, r) in root.iter_mut().zip(refuted) {
            m.refuted = r;
        }
    }
}
