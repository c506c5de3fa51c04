// expect: E0218
type Player = {x};
type Score = {0};
type Cell = {a, b};
type Board = Cell -> Score;
var board : Board = {:0};
begin, move: board = Board(*);
move, end: player = keeper;
