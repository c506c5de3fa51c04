// expect: E0206
type Score = {0};
begin, end: player = keeper;
