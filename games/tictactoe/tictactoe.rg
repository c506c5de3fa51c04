// Tic-tac-toe, written by hand in RG text.
// x moves first; a move is the name of the cell marked (columns a-c, rows 1-3, e.g. `b2`).
// Three in a line wins (100 to the winner, 0 to the loser); a full board is a draw (50 each).

type Player = {x, o};
type Score = {0, 50, 100};
type Cell = {a1, b1, c1, a2, b2, c2, a3, b3, c3};
type Mark = {empty, x, o};
type Line = {row1, row2, row3, colA, colB, colC, diagUp, diagDown};

// The three cells of every line.
const lineFirst: Line -> Cell = {
  row1: a1, row2: a2, row3: a3, colA: a1, colB: b1, colC: c1, diagUp: a1, diagDown: a3, :a1
};
const lineSecond: Line -> Cell = {
  row1: b1, row2: b2, row3: b3, colA: a2, colB: b2, colC: c2, diagUp: b2, diagDown: b2, :b2
};
const lineThird: Line -> Cell = {
  row1: c1, row2: c2, row3: c3, colA: a3, colB: b3, colC: c3, diagUp: c3, diagDown: c1, :c3
};
const opponent: Player -> Player = {x: o, o: x, :x};
const draw: Player -> Score = {:50};

var board: Cell -> Mark = {:empty};
var me: Player = x;
var cell: Cell = a1;
var line: Line = row1;

// The player `me` marks an empty cell.
begin, turn: ;
turn, choose: player = PlayerOrSystem(me);
choose, chosen: cell = Cell(*);
chosen, free: board[cell] == empty;
free, tagged: $$ cell;
tagged, marked: board[cell] = Mark(me);
marked, judge: player = keeper;

// The keeper ends the game on a line or a full board, otherwise passes the turn.
judge, won: ? lineSearch -> lineFound;
judge, open: ! lineSearch -> lineFound;
won, over: goals[me] = 100;
open, full: ! emptySearch -> emptyFound;
full, over: goals = draw;
open, next: ? emptySearch -> emptyFound;
next, turn: me = opponent[me];
over, end: player = keeper;

// Sub-automaton: some line holds three marks of `me`.
lineSearch, lineChosen: line = Line(*);
lineChosen, firstOk: board[lineFirst[line]] == Mark(me);
firstOk, secondOk: board[lineSecond[line]] == Mark(me);
secondOk, lineFound: board[lineThird[line]] == Mark(me);

// Sub-automaton: some cell is empty.
emptySearch, emptyChosen: cell = Cell(*);
emptyChosen, emptyFound: board[cell] == empty;
