// The referee side of scripts/renju-referee-diff.sh. Built together with Piskvork's
// source/renju.cpp (extracted by the script into a temporary folder, never kept here), it reads
// 15 x 15 boards from standard input, one a line: 225 characters, row by row from the top, 'X'
// black, 'O' white, '.' empty, black to move. For every empty cell it places a black stone there
// as the last move, asks the referee's checkforbid() whether the move is forbidden and
// line4v::foulr(x, y, 0) why, and prints the board (rows joined by '/') followed by the
// forbidden cells as coordinate:reason ("h8:double_three"), or "-" when there are none.
// Coordinates: column letter from 'a' on the left, row number from 1 at the bottom.
#include "renju.cpp"

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

int width = 15, height = 15, moves = 0;
Psquare lastMove = nullptr;

static std::vector<Tsquare> squares;

Psquare Square(int x, int y) { return &squares[y * width + x]; }

static const char *reason(int code) {
    switch (code) {
    case 1: return "double_three";
    case 2: return "double_four";
    case 3: return "overline";
    default:
        std::fprintf(stderr, "unexpected foulr answer %d\n", code);
        std::exit(2);
    }
}

int main() {
    const int cells = width * height;
    squares.resize(cells);
    std::string line;
    int number = 0;
    while (std::getline(std::cin, line)) {
        number++;
        if ((int)line.size() != cells) {
            std::fprintf(stderr, "line %d: expected %d cells, got %zu\n", number, cells, line.size());
            return 2;
        }
        int stones = 0;
        for (int i = 0; i < cells; i++) {
            Tsquare &square = squares[i];
            square.x = i % width + 1;
            square.y = i / width + 1;
            square.z = line[i] == 'X' ? 1 : line[i] == 'O' ? 2 : 0;
            stones += square.z != 0;
        }
        std::string out;
        for (int row = 0; row < height; row++) {
            if (row) out += '/';
            out += line.substr(row * width, width);
        }
        bool any = false;
        for (int i = 0; i < cells; i++) {
            if (squares[i].z != 0) continue;
            squares[i].z = 1;
            lastMove = &squares[i];
            moves = stones + 1;  // odd: black has just moved
            bool forbidden = checkforbid();
            int code = line4v().foulr(lastMove->x - 1, lastMove->y - 1, 0);
            squares[i].z = 0;
            if (forbidden != (code != 0)) {
                std::fprintf(stderr, "line %d: checkforbid and foulr disagree\n", number);
                return 2;
            }
            if (!forbidden) continue;
            out += ' ';
            out += char('a' + i % width);
            out += std::to_string(height - i / width);
            out += ':';
            out += reason(code);
            any = true;
        }
        if (!any) out += " -";
        std::cout << out << '\n';
    }
    return 0;
}
