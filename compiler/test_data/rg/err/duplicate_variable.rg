// expect: E0203
type Player = {x};
type Score = {0};
type Cell = {a, b};
const home : Cell = a;
var home : Cell = b;
begin, end: player = keeper;
