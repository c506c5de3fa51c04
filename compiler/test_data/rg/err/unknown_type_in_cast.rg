// expect: E0201
type Player = {x};
type Score = {0};
begin, end: player = Actor(keeper);
