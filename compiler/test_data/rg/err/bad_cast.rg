// expect: E0223
type Player = {x};
type Score = {0};
type Cell = {a, b};
var here : Cell = a;
begin, move: here = Cell(c);
move, end: player = keeper;
