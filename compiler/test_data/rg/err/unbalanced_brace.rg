// expect: E0102
type Player = {x};
type Score = {0};
type Cell = {a, b};
var board : Cell -> Score = {a: 0, :0;
begin, end: player = keeper;
