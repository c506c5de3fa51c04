// expect: W0204
type Player = {x};
type Score = {0};
begin, end: player = keeper;
@unique begin middle;
