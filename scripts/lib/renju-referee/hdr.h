// Stand-in for Piskvork's hdr.h, written for scripts/renju-referee-diff.sh: the referee's
// renju.cpp is compiled on its own, without Windows, so this header gives it only the min and
// max it calls unqualified.
#pragma once
#include <algorithm>
using std::max;
using std::min;
