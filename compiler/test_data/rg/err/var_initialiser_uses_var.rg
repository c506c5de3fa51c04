// expect: E0214
type Player = {x};
type Score = {0};
type Cell = {a, b};
var here : Cell = a;
var there : Cell = here;
begin, end: player = keeper;
