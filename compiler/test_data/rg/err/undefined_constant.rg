// expect: E0208
type Player = {x};
type Score = {0};
type Cell = {a, b};
var here : Cell = origin;
begin, end: player = keeper;
