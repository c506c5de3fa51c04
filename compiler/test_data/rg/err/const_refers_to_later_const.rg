// expect: E0213
type Player = {x};
type Score = {0};
type Cell = {a, b};
const first : Cell = second;
const second : Cell = a;
begin, end: player = keeper;
