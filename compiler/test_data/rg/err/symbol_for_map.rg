// expect: E0208
type Player = {x};
type Score = {0};
type Cell = {a, b};
var board : Cell -> Score = 0;
begin, end: player = keeper;
