// Tic-tac-toe: a move is the cell played; wins are found with a reachability check over lines.
type Player = {x, o};
type Score = {0, 50, 100};
type Cell = {c0, c1, c2, c3, c4, c5, c6, c7, c8};
type Piece = {x, o, e};
type Board = Cell -> Piece;
type Line = {l0, l1, l2, l3, l4, l5, l6, l7};
type Slot = {s0, s1, s2};
const lineCell: Line -> Slot -> Cell = {
  l0: {s0: c0, s1: c1, :c2}, l1: {s0: c3, s1: c4, :c5}, l2: {s0: c6, s1: c7, :c8},
  l3: {s0: c0, s1: c3, :c6}, l4: {s0: c1, s1: c4, :c7}, l5: {s0: c2, s1: c5, :c8},
  l6: {s0: c0, s1: c4, :c8}, :{s0: c2, s1: c4, :c6}
};
const other: Player -> Player = {x: o, :x};
const unusedTable: Cell -> Cell = {:c0};
var board: Board = {:e};
var me: Player = x;
var line: Line = l0;
var pos: Cell = c0;
var moves: Cell = c0;

begin, turn: ;
turn, chosen: player = PlayerOrSystem(me);
chosen, pick: pos = Cell(*);
pick, free: board[pos] == Piece(e);
free, tagged: $$ pos;
tagged, placed: board[pos] = Piece(me);
placed, counted: moves = pos;
counted, done: me == me;
done, check: player = keeper;
check, win: ? winCheck -> winFound;
check, noWin: ! winCheck -> winFound;
win, win2: goals[me] = 100;
win2, over: goals[other[me]] = 0;
over, end: player = keeper;
noWin, full: ! emptyCheck -> emptyFound;
noWin, next: ? emptyCheck -> emptyFound;
full, draw1: goals[x] = 50;
draw1, draw2: goals[o] = 50;
draw2, over: ;
next, next2: me = other[me];
next2, next3: line = line;
next3, turn: ;
winCheck, w1: line = Line(*);
w1, w2: board[lineCell[line][s0]] == Piece(me);
w2, w3: board[lineCell[line][s1]] == Piece(me);
w3, winFound: board[lineCell[line][s2]] == Piece(me);
emptyCheck, e1: pos = Cell(*);
e1, emptyFound: board[pos] == e;
orphan, turn: ;
