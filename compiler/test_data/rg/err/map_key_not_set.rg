// expect: E0205
type Player = {x};
type Score = {0};
type Row = Player -> Score;
type Table = Row -> Score;
begin, end: player = keeper;
