// expect: E0201
type Player = {x};
type Score = {0};
var where : Position = a;
begin, end: player = keeper;
