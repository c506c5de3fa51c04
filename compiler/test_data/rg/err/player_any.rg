// expect: E0217
type Player = {x, o};
type Score = {0};
begin, move: player = PlayerOrSystem(*);
move, end: player = keeper;
