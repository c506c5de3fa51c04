// Tic-tac-toe. A move is two tags, the column and the row of an empty cell ("1 2").
// After each move the keeper looks for a line of the mover's marks through the new mark,
// then either ends the game or hands the turn over; a full board is a draw.
type Player = {x, o};
type Score = {0, 50, 100};
type Coord = {0, 1, 2};
type Piece = {e, x, o};

const opponent : Player -> Player = {x: o, o: x, :x};

var board : Coord -> Coord -> Piece = {:{:e}};
var me : Player = x;
var col : Coord = 0;
var row : Coord = 0;

begin, turn: ;

// Someone can still move: let `me` pick an empty cell.
turn, move: ? findEmpty -> emptyFound;
turn, draw: ! findEmpty -> emptyFound;
findEmpty, anyCol: col = Coord(*);
anyCol, anyRow: row = Coord(*);
anyRow, emptyFound: board[col][row] == e;

move, pickCol: player = PlayerOrSystem(me);
pickCol, colPicked: col = Coord(*);
colPicked, pickRow: $$ col;
pickRow, rowPicked: row = Coord(*);
rowPicked, isFree: $$ row;
isFree, mark: board[col][row] == e;
mark, marked: board[col][row] = Piece(me);
marked, check: player = keeper;

// Lines through (col, row) filled with `me`.
findLine, c1: board[col][0] == Piece(me);
c1, c2: board[col][1] == Piece(me);
c2, lineFound: board[col][2] == Piece(me);
findLine, r1: board[0][row] == Piece(me);
r1, r2: board[1][row] == Piece(me);
r2, lineFound: board[2][row] == Piece(me);
findLine, d1: board[0][0] == Piece(me);
d1, d2: board[1][1] == Piece(me);
d2, lineFound: board[2][2] == Piece(me);
findLine, a1: board[0][2] == Piece(me);
a1, a2: board[1][1] == Piece(me);
a2, lineFound: board[2][0] == Piece(me);

check, won: ? findLine -> lineFound;
check, next: ! findLine -> lineFound;
next, turn: me = opponent[me];
won, over: goals[me] = 100;
draw, halfX: goals[x] = 50;
halfX, over: goals[o] = 50;
over, end: player = keeper;
