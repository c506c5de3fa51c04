// expect: E0204
type Player = {x};
type Score = {0};
type Tree = Player -> Tree;
begin, end: player = keeper;
