// The smallest game: the keeper ends it at once; x scores 0.
type Player = {x};
type Score = {0};
begin, end: player = keeper;
