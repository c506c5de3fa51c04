// expect: E0210
type Player = {x};
type Score = {0, 1};
type Cell = {a, b};
var board : Cell -> Score = {a: 0, b: 1};
begin, end: player = keeper;
