// expect: E0225
type Player = {x};
type Score = {0};
type Cell = {a, b};
var board : Cell -> Score = {:0};
begin, move: player = x;
move, tagged: $$ board;
tagged, end: player = keeper;
