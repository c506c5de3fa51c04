// expect: E0216
type Player = {x};
type Score = {0};
begin, move: counter = 0;
move, end: player = keeper;
