// expect: E0221
type Player = {x};
type Score = {0};
type Cell = {a, b};
var here : Cell = a;
begin, move: here[a] == b;
move, end: player = keeper;
