// expect: E0202
type Player = {x};
type Score = {0};
type Cell = {a, b};
type Cell = {c};
begin, end: player = keeper;
