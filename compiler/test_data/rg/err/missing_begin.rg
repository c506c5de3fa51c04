// expect: E0226
type Player = {x};
type Score = {0};
start, end: player = keeper;
