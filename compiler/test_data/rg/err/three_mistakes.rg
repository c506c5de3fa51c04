// expect: E0201 E0210 E0216
// Three unrelated mistakes: an undeclared type, a map without a default, an undeclared variable.
type Player = {x};
type Score = {0, 1};
type Cell = {a, b};
var where : Place = a;
var board : Cell -> Score = {a: 1};
begin, move: steps = 0;
move, end: player = keeper;
