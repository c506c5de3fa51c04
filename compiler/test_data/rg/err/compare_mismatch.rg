// expect: E0220
type Player = {x};
type Score = {0};
type Cell = {a, b};
type Piece = {empty, full};
var here : Cell = a;
var piece : Piece = empty;
begin, move: here == piece;
move, end: player = keeper;
