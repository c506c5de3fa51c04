// expect: E0207
type Player = {x};
type Score = {0};
type Bool = {no, yes};
begin, end: player = keeper;
