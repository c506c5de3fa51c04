// expect: E0219
type Player = {x};
type Score = {0};
type Cell = {a, b};
type Piece = {empty, full};
var here : Cell = a;
begin, move: here = Piece(full);
move, end: player = keeper;
