// expect: W0203
type Player = {x};
type Score = {0, 0};
begin, end: player = keeper;
