// expect: E0227
type Player = {x};
type Score = {0};
begin, finish: player = keeper;
