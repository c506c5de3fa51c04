// expect: W0201
type Player = {x};
type Score = {0};
begin, check: ;
check, end: ? probe -> found;
probe, elsewhere: ;
