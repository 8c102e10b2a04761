//! The brain answering the manager's commands, one command or game at a time.

use super::*;

/// A brain with a game of `size` started and 100 ms a move.
fn started(size: usize) -> Brain {
    let mut brain = Brain::new(BrainOptions::default());
    assert_eq!(brain.handle(&format!("START {size}")), vec!["OK"]);
    assert!(brain.handle("INFO timeout_turn 100").is_empty());
    brain
}

/// Sends `BOARD`, the stones and `DONE`, and returns the answer to `DONE`.
fn board(brain: &mut Brain, stones: &[(usize, usize, u8)]) -> Vec<String> {
    assert!(
        brain.handle("BOARD").is_empty(),
        "BOARD itself gets no answer"
    );
    for (x, y, field) in stones {
        assert!(brain.handle(&format!("{x},{y},{field}")).is_empty());
    }
    brain.handle("DONE")
}

/// The move of an answer (a `MESSAGE` line, then `x,y`).
fn played(answer: &[String]) -> (usize, usize) {
    assert_eq!(answer.len(), 2, "a message and a move: {answer:?}");
    assert!(answer[0].starts_with("MESSAGE depth "), "{answer:?}");
    assert!(answer[0].contains(" score "), "{answer:?}");
    let (x, y) = answer[1].split_once(',').expect("the move is x,y");
    (
        x.parse().expect("the move is x,y"),
        y.parse().expect("the move is x,y"),
    )
}

fn is_error(answer: &[String]) -> bool {
    answer.len() == 1 && answer[0].starts_with("ERROR ")
}

fn game(brain: &Brain) -> &BrainBoard {
    brain.game.as_ref().expect("a game is on")
}

fn stone_at(brain: &Brain, x: usize, y: usize) -> Option<Stone> {
    game(brain).stone(x, y).expect("on the board")
}

#[test]
fn start_accepts_boards_the_engine_plays_and_refuses_the_others() {
    let mut brain = Brain::new(BrainOptions::default());
    for (command, ok) in [
        ("START 15", true),
        ("start 5", true),
        ("START 20", true),
        ("RECTSTART 10,7", true),
        ("RECTSTART 5,1", true),
        ("RECTSTART 16,15", true),
        ("RECTSTART 20,20", true),
        ("START 21", false),
        ("RECTSTART 21,20", false),
        ("RECTSTART 20,21", false),
        ("START 4", false),
        ("START 0", false),
        ("RECTSTART 4,3", false),
        ("START fifteen", false),
        ("RECTSTART 10", false),
        ("START", false),
        ("START 99999999999999999999999", false),
    ] {
        let answer = brain.handle(command);
        if ok {
            assert_eq!(answer, vec!["OK"], "{command}");
        } else {
            assert!(is_error(&answer), "{command} answered {answer:?}");
        }
    }
}

#[test]
fn boards_of_twenty_are_played_through_start_rectstart_and_board() {
    for start in ["START 20", "RECTSTART 20,20"] {
        let mut brain = Brain::new(BrainOptions::default());
        assert_eq!(brain.handle(start), vec!["OK"], "{start}");
        brain.handle("INFO timeout_turn 100");
        let (x, y) = played(&brain.handle("TURN 19,19"));
        assert!(x < 20 && y < 20 && (x, y) != (19, 19), "{start}: {x},{y}");
    }
    let mut brain = started(20);
    let mut stones: Vec<(usize, usize, u8)> = (16..20).map(|x| (x, 19, 1)).collect();
    stones.extend((15..19).map(|y| (0, y, 2)));
    let answer = board(&mut brain, &stones);
    assert_eq!(
        played(&answer),
        (15, 19),
        "completes the five in the bottom row"
    );
}

#[test]
fn moves_before_start_are_errors() {
    let mut brain = Brain::new(BrainOptions::default());
    for command in ["BEGIN", "TURN 7,7", "BOARD", "TAKEBACK 7,7", "RESTART"] {
        let answer = brain.handle(command);
        assert!(is_error(&answer), "{command} answered {answer:?}");
        assert!(answer[0].contains("START"), "{command}: {answer:?}");
    }
    let mut brain = Brain::new(BrainOptions::default());
    assert!(is_error(&brain.handle("START 30")));
    assert!(
        is_error(&brain.handle("BEGIN")),
        "a refused START leaves no game"
    );
}

#[test]
fn begin_plays_a_move_and_keeps_it_on_the_board() {
    let mut brain = started(15);
    let (x, y) = played(&brain.handle("BEGIN"));
    assert!(x < 15 && y < 15);
    assert_eq!(stone_at(&brain, x, y), Some(Stone::Own));
    assert_eq!(game(&brain).stones(), 1);
}

#[test]
fn turn_records_the_opponent_stone_and_answers_on_an_empty_cell() {
    let mut brain = started(15);
    let (x, y) = played(&brain.handle("TURN 7,7"));
    assert_ne!((x, y), (7, 7));
    assert_eq!(stone_at(&brain, 7, 7), Some(Stone::Opponent));
    assert_eq!(stone_at(&brain, x, y), Some(Stone::Own));
    let answer = brain.handle(&format!("TURN {x},{y}"));
    assert!(
        is_error(&answer),
        "a stone on the brain's own cell: {answer:?}"
    );
    assert!(answer[0].contains("already taken"), "{answer:?}");
}

#[test]
fn coordinates_are_column_then_row_on_rectangular_boards() {
    let mut brain = Brain::new(BrainOptions::default());
    assert_eq!(brain.handle("RECTSTART 10,6"), vec!["OK"]);
    brain.handle("INFO timeout_turn 100");
    let (x, y) = played(&brain.handle("TURN 9,5"));
    assert!(x < 10 && y < 6, "{x},{y} is on the 10 x 6 board");
    assert_eq!(game(&brain).index(9, 5).unwrap(), 5 * 10 + 9);
    assert_eq!(
        stone_at(&brain, 9, 5),
        Some(Stone::Opponent),
        "9,5 is the last cell"
    );
    assert!(
        is_error(&brain.handle("TURN 5,9")),
        "row 9 is off a 6-row board"
    );
}

#[test]
fn board_with_four_of_its_own_completes_the_five() {
    let mut brain = started(15);
    let mut stones: Vec<(usize, usize, u8)> = (3..7).map(|x| (x, 7, 1)).collect();
    stones.extend((3..7).map(|x| (x, 9, 2)));
    let answer = board(&mut brain, &stones);
    let (x, y) = played(&answer);
    assert!(
        [(2, 7), (7, 7)].contains(&(x, y)),
        "plays the five, not {x},{y}"
    );
    assert!(answer[0].contains("score win in 1"), "{answer:?}");
}

#[test]
fn board_against_a_four_blocks_it() {
    let mut brain = started(15);
    let stones = [
        (0, 0, 2),
        (1, 0, 2),
        (2, 0, 2),
        (3, 0, 2),
        (9, 9, 1),
        (12, 4, 1),
        (4, 12, 1),
    ];
    let answer = board(&mut brain, &stones);
    assert_eq!(played(&answer), (4, 0), "{answer:?}");
}

#[test]
fn six_in_a_row_wins_like_five() {
    let mut brain = started(15);
    let mut stones: Vec<(usize, usize, u8)> = (2..8).map(|x| (x, 4, 2)).collect();
    stones.extend([(0, 10, 1), (3, 12, 1), (6, 14, 1), (10, 10, 1), (14, 0, 1)]);
    let answer = board(&mut brain, &stones);
    assert!(is_error(&answer), "{answer:?}");
    assert!(answer[0].contains("opponent has five"), "{answer:?}");
}

#[test]
fn turn_completing_the_opponent_five_is_game_over() {
    let mut brain = started(15);
    // An open four: the brain can block one end only.
    let mut stones: Vec<(usize, usize, u8)> = (5..9).map(|x| (x, 7, 2)).collect();
    stones.extend([(0, 14, 1), (14, 14, 1), (14, 0, 1)]);
    let (x, y) = played(&board(&mut brain, &stones));
    let other_end = if (x, y) == (4, 7) { (9, 7) } else { (4, 7) };
    let answer = brain.handle(&format!("TURN {},{}", other_end.0, other_end.1));
    assert!(is_error(&answer), "{answer:?}");
    assert!(answer[0].contains("opponent has five"), "{answer:?}");
    assert_eq!(
        stone_at(&brain, other_end.0, other_end.1),
        None,
        "a move answered with ERROR is not kept"
    );
}

#[test]
fn takeback_removes_stones_and_refuses_empty_cells() {
    let mut brain = started(15);
    let (x, y) = played(&brain.handle("TURN 7,7"));
    assert_eq!(brain.handle(&format!("TAKEBACK {x},{y}")), vec!["OK"]);
    assert_eq!(brain.handle("TAKEBACK 7,7"), vec!["OK"]);
    assert_eq!(game(&brain).stones(), 0);
    for command in ["TAKEBACK 7,7", "TAKEBACK 15,15", "TAKEBACK x"] {
        assert!(is_error(&brain.handle(command)), "{command}");
    }
    let (x, y) = played(&brain.handle("BEGIN"));
    assert_eq!(stone_at(&brain, x, y), Some(Stone::Own));
}

#[test]
fn restart_clears_the_board_and_keeps_its_size() {
    let mut brain = Brain::new(BrainOptions::default());
    brain.handle("RECTSTART 9,7");
    brain.handle("INFO timeout_turn 50");
    played(&brain.handle("TURN 4,3"));
    assert_eq!(brain.handle("RESTART"), vec!["OK"]);
    assert_eq!(game(&brain), &BrainBoard::new(9, 7).unwrap());
}

#[test]
fn info_sets_the_clock_and_ignores_unknown_keys() {
    let mut brain = Brain::new(BrainOptions::default());
    for command in [
        "INFO timeout_turn 5000",
        "INFO timeout_match 180000",
        "INFO time_left 90000",
        "INFO max_memory 367001600",
        "INFO game_type 1",
        "INFO folder /tmp/brain",
        "INFO evaluate 7,7",
        "INFO thread_num 2",
    ] {
        assert!(brain.handle(command).is_empty(), "{command} gets no answer");
    }
    assert_eq!(
        brain.timing(),
        Timing {
            turn_ms: 5000,
            match_ms: 180_000,
            left_ms: Some(90_000)
        }
    );
    assert_eq!(brain.max_memory(), 367_001_600);
    for command in ["INFO timeout_turn soon", "INFO time_left -5", "INFO rule"] {
        assert!(is_error(&brain.handle(command)), "{command}");
    }
    assert_eq!(brain.timing().turn_ms, 5000, "a bad value changes nothing");
    assert!(brain.handle("INFO thread_num 0").is_empty());
    assert!(
        brain
            .handle("INFO timeout_turn 99999999999999999999")
            .is_empty()
    );
    assert_eq!(
        brain.timing().turn_ms,
        u64::MAX,
        "too big for u64: unlimited"
    );
}

#[test]
fn info_rule_reads_the_bitmask_and_a_refused_one_keeps_the_rule_before() {
    let mut brain = started(15);
    assert_eq!(brain.rule(), Rule::Freestyle, "freestyle until told");
    for (bitmask, rule) in [
        (4, Rule::Renju),
        (0, Rule::Freestyle),
        (1, Rule::Standard),
        (2, Rule::Freestyle),
        (3, Rule::Standard),
        (6, Rule::Renju),
        (8, Rule::Caro),
        (10, Rule::Caro),
    ] {
        let answer = brain.handle(&format!("INFO rule {bitmask}"));
        assert!(answer.is_empty(), "rule {bitmask}: {answer:?}");
        assert_eq!(brain.rule(), rule, "rule {bitmask}");
    }
    for bitmask in [5, 9, 12, 13, 16, 18, 32, u64::MAX] {
        let answer = brain.handle(&format!("INFO rule {bitmask}"));
        assert!(is_error(&answer), "rule {bitmask}: {answer:?}");
        assert!(
            answer[0].starts_with(&format!("ERROR rule {bitmask} is not supported")),
            "{answer:?}"
        );
        assert_eq!(brain.rule(), Rule::Caro, "rule {bitmask} keeps caro");
    }
}

#[test]
fn every_accepted_rule_plays_its_moves() {
    for bitmask in [0, 1, 2, 3, 4, 6, 8, 10] {
        let mut brain = started(15);
        assert!(brain.handle(&format!("INFO rule {bitmask}")).is_empty());
        let (x, y) = played(&brain.handle("TURN 7,7"));
        assert_ne!((x, y), (7, 7), "rule {bitmask}");
        let (x, y) = played(&brain.handle("TURN 0,14"));
        assert_eq!(stone_at(&brain, x, y), Some(Stone::Own), "rule {bitmask}");
        assert_eq!(game(&brain).stones(), 4, "rule {bitmask}");
    }
}

/// Cells as column and row.
type Cells = Vec<(usize, usize)>;

/// Black's shapes on 15 × 15, one forbidden point each under renju: (3,3) a double-three,
/// (11,3) a double-four, (5,11) an overline; with white's stones on the two bottom rows,
/// fifteen each, so that black is to move.
fn black_with_a_foul_of_each_kind() -> (Cells, Cells) {
    let black = vec![
        (1, 3),
        (2, 3),
        (3, 1),
        (3, 2),
        (8, 3),
        (9, 3),
        (10, 3),
        (11, 0),
        (11, 1),
        (11, 2),
        (2, 11),
        (3, 11),
        (4, 11),
        (6, 11),
        (7, 11),
    ];
    let white = (0..15).map(|x| (x, 13 + (x + 1) % 2)).collect();
    (black, white)
}

/// Rapfi's answer for [`black_with_a_foul_of_each_kind`]: the three points in board order.
const THREE_FOULS: &str = "FORBID 030311030511.";

#[test]
fn yxshowforbid_lists_the_forbidden_points_of_black_to_move_as_rapfi_does() {
    let (black, white) = black_with_a_foul_of_each_kind();
    let mut stones: Vec<(usize, usize, u8)> = black.iter().map(|&(x, y)| (x, y, 1)).collect();
    stones.extend(white.iter().map(|&(x, y)| (x, y, 2)));
    for (bitmask, expected) in [
        (4, THREE_FOULS),
        (6, THREE_FOULS),
        (0, "FORBID ."),
        (1, "FORBID ."),
    ] {
        let mut brain = started(15);
        brain.handle(&format!("INFO rule {bitmask}"));
        assert_eq!(
            brain.handle("YXSHOWFORBID"),
            vec!["FORBID ."],
            "an empty board"
        );
        // The brain is black: it moves, and taking its move back makes it black's move again.
        let (x, y) = played(&board(&mut brain, &stones));
        assert_eq!(
            brain.handle("yxshowforbid"),
            vec!["FORBID ."],
            "white to move"
        );
        assert_eq!(brain.handle(&format!("TAKEBACK {x},{y}")), vec!["OK"]);
        assert_eq!(
            brain.handle("YXSHOWFORBID"),
            vec![expected],
            "rule {bitmask}"
        );
    }
    // The opponent is black and to move, the brain having answered its move.
    let mut brain = started(15);
    brain.handle("INFO rule 4");
    let mut game = BrainBoard::new(15, 15).unwrap();
    for (&(bx, by), &(wx, wy)) in black.iter().zip(&white) {
        game.place(bx, by, Stone::Opponent).unwrap();
        game.place(wx, wy, Stone::Own).unwrap();
    }
    brain.game = Some(game);
    assert_eq!(brain.handle("YXSHOWFORBID"), vec![THREE_FOULS]);
    let answer = Brain::new(BrainOptions::default()).handle("YXSHOWFORBID");
    assert!(
        is_error(&answer) && answer[0].contains("START"),
        "{answer:?}"
    );
}

#[test]
fn under_renju_black_never_plays_its_best_looking_move_when_it_is_forbidden() {
    // Black (the brain, to move) has two twos crossing at 7,7: there it would make two open
    // threes, the strongest move in freestyle and a double-three under renju.
    let mut stones = vec![(7, 5, 1), (7, 6, 1), (5, 7, 1), (6, 7, 1)];
    stones.extend([(0, 0, 2), (14, 0, 2), (0, 14, 2), (14, 14, 2)]);
    let mut brain = started(15);
    assert_eq!(played(&board(&mut brain, &stones)), (7, 7), "freestyle");
    brain.handle("INFO rule 4");
    let answer = board(&mut brain, &stones);
    let (x, y) = played(&answer);
    assert_ne!((x, y), (7, 7), "{answer:?}");
    brain.handle(&format!("TAKEBACK {x},{y}"));
    let position = game(&brain).position(Rule::Renju).unwrap();
    assert_eq!(
        position.foul(game(&brain).index(7, 7).unwrap()),
        Some(Foul::DoubleThree)
    );
    assert_eq!(
        position.foul(game(&brain).index(x, y).unwrap()),
        None,
        "{x},{y}"
    );
}

#[test]
fn under_standard_a_six_is_no_win() {
    let far = [(10, 0), (12, 2), (14, 4), (10, 10), (12, 12), (14, 14)];
    let mut six: Vec<(usize, usize, u8)> = (0..6).map(|x| (x, 7, 1)).collect();
    six.extend(far.iter().map(|&(x, y)| (x, y, 2)));
    let mut brain = started(15);
    let answer = board(&mut brain, &six);
    assert!(answer[0].contains("I have five"), "freestyle: {answer:?}");
    brain.handle("INFO rule 1");
    played(&board(&mut brain, &six));

    // Four and one with a gap: filling it makes six, which wins only in freestyle.
    let mut gap: Vec<(usize, usize, u8)> = [0, 1, 2, 3, 5].map(|x| (x, 7, 1)).to_vec();
    gap.extend(far[..5].iter().map(|&(x, y)| (x, y, 2)));
    let mut brain = started(15);
    let answer = board(&mut brain, &gap);
    assert_eq!(played(&answer), (4, 7));
    assert!(answer[0].contains("win in 1"), "freestyle: {answer:?}");
    brain.handle("INFO rule 1");
    let answer = board(&mut brain, &gap);
    assert!(!answer[0].contains("win in 1"), "standard: {answer:?}");
}

#[test]
fn bad_board_blocks_are_errors_and_leave_the_board_unchanged() {
    let mut brain = started(15);
    let (x, y) = played(&brain.handle("TURN 7,7"));
    for (stones, why) in [
        (vec!["1,2"], "not x,y,field"),
        (vec!["1,2,5"], "field must be 1 or 2"),
        (vec!["1,2,3"], "continuous"),
        (vec!["a,2,1"], "whole number"),
        (vec!["15,2,1"], "off the"),
        (vec!["1,2,1", "1,2,2"], "already taken"),
        (vec!["1,2,1", "3,4,1", "5,6,2"], "cannot be my move"),
        (vec!["1,2,2", "3,4,2", "5,6,2"], "cannot be my move"),
        (vec!["TURN 1,2", "1,2,5"], "not x,y,field"),
    ] {
        assert!(brain.handle("BOARD").is_empty());
        for stone in &stones {
            assert!(brain.handle(stone).is_empty(), "{stone}");
        }
        let answer = brain.handle("DONE");
        assert!(is_error(&answer), "{stones:?}: {answer:?}");
        assert!(answer[0].contains(why), "{stones:?}: {answer:?}");
        assert_eq!(stone_at(&brain, 7, 7), Some(Stone::Opponent), "{stones:?}");
        assert_eq!(stone_at(&brain, x, y), Some(Stone::Own), "{stones:?}");
    }
}

#[test]
fn end_inside_a_board_block_ends_the_brain_and_nothing_is_answered_after() {
    let mut brain = started(15);
    assert!(brain.handle("BOARD").is_empty());
    assert!(brain.handle("7,7,2").is_empty());
    assert!(brain.handle("END").is_empty());
    assert!(brain.is_finished());
    for line in ["DONE", "ABOUT", "START 15", "BEGIN"] {
        assert!(brain.handle(line).is_empty(), "{line} after END");
    }
}

#[test]
fn a_line_refused_unread_is_an_error_outside_board_and_spoils_a_board_block() {
    let mut brain = started(15);
    let too_long = || CommandError::LineTooLong { limit: 10 };
    let answer = brain.refuse_line(too_long());
    assert!(
        is_error(&answer) && answer[0].contains("10 bytes"),
        "{answer:?}"
    );
    assert!(brain.handle("BOARD").is_empty());
    assert!(brain.handle("7,7,2").is_empty());
    assert!(
        brain.refuse_line(too_long()).is_empty(),
        "BOARD answers at DONE"
    );
    let answer = brain.handle("DONE");
    assert!(
        is_error(&answer) && answer[0].contains("10 bytes"),
        "{answer:?}"
    );
    assert_eq!(game(&brain).stones(), 0, "the board is as it was");
    played(&brain.handle("TURN 7,7"));
}

#[test]
fn malformed_and_unknown_commands_get_error_or_unknown() {
    let mut brain = started(15);
    for command in ["TURN 7", "TURN a,b", "TURN 7,15", "TURN -1,3", "TURN"] {
        assert!(is_error(&brain.handle(command)), "{command}");
    }
    assert_eq!(game(&brain).stones(), 0);
    assert_eq!(
        brain.handle("SWAP2BOARD"),
        vec!["UNKNOWN command SWAP2BOARD"]
    );
    assert!(brain.handle("").is_empty());
    assert!(brain.handle("   ").is_empty());
}

#[test]
fn about_names_the_brain() {
    let answer = Brain::new(BrainOptions::default()).handle("ABOUT");
    assert_eq!(answer.len(), 1);
    assert!(
        answer[0].starts_with("name=\"minimax-move\", version=\""),
        "{answer:?}"
    );
    assert!(answer[0].contains("author=") && answer[0].contains("country="));
}

#[test]
fn a_board_block_keeps_no_more_stones_than_the_board_has_cells() {
    let mut brain = started(20);
    assert!(brain.handle("BOARD").is_empty());
    for i in 0..100_000 {
        assert!(
            brain
                .handle(&format!("{},{},1", i % 20, (i / 20) % 20))
                .is_empty()
        );
        if let Some(Ok(stones)) = &brain.board_block {
            assert!(stones.len() <= 400, "{} stones kept", stones.len());
        }
    }
    assert!(
        matches!(
            brain.board_block,
            Some(Err(CommandError::TooManyStones { limit: 400 }))
        ),
        "the block is spoilt and keeps nothing: {:?}",
        brain.board_block.as_ref().map(Result::is_ok)
    );
    let answer = brain.handle("DONE");
    assert!(is_error(&answer), "{answer:?}");
    assert!(answer[0].contains("more than 400 stones"), "{answer:?}");
    assert!(brain.board_block.is_none(), "DONE ends the block");
    assert_eq!(
        game(&brain).stone(0, 0).unwrap(),
        None,
        "the game is unchanged"
    );
    let next = board(&mut brain, &[(10, 10, 2)]);
    assert_eq!(
        next.len(),
        2,
        "a block after that is read as usual: {next:?}"
    );
}
