// expect: E0103
type Player = {x};
type Score = {0};
begin, end: player = keeper
