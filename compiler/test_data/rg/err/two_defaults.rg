// expect: E0104
type Player = {x};
type Score = {0, 1};
type Cell = {a, b};
var board : Cell -> Score = {:0, a: 1, :1};
begin, end: player = keeper;
