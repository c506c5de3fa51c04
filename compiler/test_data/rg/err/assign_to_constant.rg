// expect: E0215
type Player = {x};
type Score = {0};
type Cell = {a, b};
const home : Cell = a;
begin, move: home = b;
move, end: player = keeper;
