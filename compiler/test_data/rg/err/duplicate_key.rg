// expect: E0211
type Player = {x};
type Score = {0, 1};
type Cell = {a, b};
const worth : Cell -> Score = {a: 0, b: 1, a: 1, :0};
begin, end: player = keeper;
