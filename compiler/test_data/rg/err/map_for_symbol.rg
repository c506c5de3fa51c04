// expect: E0209
type Player = {x};
type Score = {0};
type Cell = {a, b};
var here : Cell = {:a};
begin, end: player = keeper;
