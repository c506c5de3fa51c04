// expect: W0205
type Player = {x};
type Score = {0};
begin, end: player = keeper;
@disjoint begin end;
