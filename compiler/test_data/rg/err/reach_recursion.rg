// expect: W0202
type Player = {x};
type Score = {0};
begin, loop: ;
loop, found: ? begin -> found;
found, end: player = keeper;
