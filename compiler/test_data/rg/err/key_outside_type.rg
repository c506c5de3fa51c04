// expect: E0212
type Player = {x};
type Score = {0, 1};
type Cell = {a, b};
const worth : Cell -> Score = {a: 0, c: 1, :0};
begin, end: player = keeper;
