// expect: E0101
type Player = {x};
type Score = {0};
var count : Score = 0;
begin, end: player = keeper%;
