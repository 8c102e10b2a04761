// Stand-in for Piskvork's piskvork.h, written for scripts/renju-referee-diff.sh: the few
// declarations the referee's renju.cpp reads, backed by the board of harness.cpp.
#pragma once

// One intersection: z is 0 empty, 1 black (the side that moved first), 2 white; x and y count
// from 1, as the referee's lastMove does.
struct Tsquare {
    int z;
    int x, y;
    // The referee treats winning-line and foul marks as walls; the harness never sets them.
    bool blocked() const { return false; }
};
typedef Tsquare *Psquare;

extern int width, height, moves;
extern Psquare lastMove;

// The intersection in column x, row y, both from 0.
Psquare Square(int x, int y);

bool checkforbid();
