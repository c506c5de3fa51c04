// expect: E0222
type Player = {x};
type Score = {0, 1};
type Cell = {a, b};
var board : Cell -> Score = {:0};
begin, move: board[x] = 1;
move, end: player = keeper;
