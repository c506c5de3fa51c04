// A 2x2 placement game with a guard-only reachability check used once (inlined by
// inline_reachability) and a check with an assignment (left alone). A move is a free cell and
// `calm`, or `bold` when the opponent does not hold c1 or c2 is free (and not the cell taken).
type Player = {x, o};
type Score = {0, 100};
type Cell = {c1, c2, c3, c4};
type Mark = {x, o, e};
const other: Player -> Player = {x: o, :x};
var board: Cell -> Mark = {:e};
var me: Player = x;
var pos: Cell = c1;

begin, turn: ;
turn, pick: player = PlayerOrSystem(me);
pick, picked: pos = Cell(*);
picked, free: board[pos] == e;
free, tagged: $$ pos;
tagged, bold: ? safe -> safeFound;
bold, boldTag: $ bold;
boldTag, set: ;
tagged, set: $ calm;
set, placed: board[pos] = Mark(me);
placed, judge: player = keeper;
judge, next: ? emptyCheck -> emptyFound;
judge, over: ! emptyCheck -> emptyFound;
next, turn: me = other[me];
over, scored: goals[me] = 100;
scored, end: player = keeper;
safe, s1: board[c1] != Mark(other[me]);
s1, safeFound: $ bold;
safe, s2: board[c2] == e;
s2, s3: pos != c2;
s3, safeFound: ;
emptyCheck, e1: pos = Cell(*);
e1, emptyFound: board[pos] == e;
