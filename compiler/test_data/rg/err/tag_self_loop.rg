// expect: E0224
type Player = {x};
type Score = {0};
begin, spin: player = x;
spin, spin: $ again;
spin, stop: player = keeper;
stop, end: ;
