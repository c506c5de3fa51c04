// expect: E0228
type Player = {x};
type Score = {0};
begin, play: player = x;
play, begin: player = keeper;
over, end: player = keeper;
