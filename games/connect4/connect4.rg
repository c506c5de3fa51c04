// Connect Four (7 columns a-g, 6 rows 1-6 counted from the bottom), written by hand in RG text.
// `red` moves first; a move is the letter of the column a disc is dropped into (e.g. `d`).
// Four discs in a line (across, up, or either diagonal) win (100 to the winner, 0 to the loser);
// a full board is a draw (50 each).

type Player = {red, yellow};
type Score = {0, 50, 100};
type Column = {a, b, c, d, e, f, g};
type Cell = {
  a1, b1, c1, d1, e1, f1, g1,
  a2, b2, c2, d2, e2, f2, g2,
  a3, b3, c3, d3, e3, f3, g3,
  a4, b4, c4, d4, e4, f4, g4,
  a5, b5, c5, d5, e5, f5, g5,
  a6, b6, c6, d6, e6, f6, g6
};
type CellOrNull = {
  a1, b1, c1, d1, e1, f1, g1,
  a2, b2, c2, d2, e2, f2, g2,
  a3, b3, c3, d3, e3, f3, g3,
  a4, b4, c4, d4, e4, f4, g4,
  a5, b5, c5, d5, e5, f5, g5,
  a6, b6, c6, d6, e6, f6, g6,
  null
};
type Disc = {empty, red, yellow};
// Four line directions; `ahead` steps along one, `behind` steps back.
type Dir = {east, north, northEast, southEast};

const ahead: Dir -> Cell -> CellOrNull = {
  east: {
    a1: b1, b1: c1, c1: d1, d1: e1, e1: f1, f1: g1, a2: b2, b2: c2,
    c2: d2, d2: e2, e2: f2, f2: g2, a3: b3, b3: c3, c3: d3, d3: e3,
    e3: f3, f3: g3, a4: b4, b4: c4, c4: d4, d4: e4, e4: f4, f4: g4,
    a5: b5, b5: c5, c5: d5, d5: e5, e5: f5, f5: g5, a6: b6, b6: c6,
    c6: d6, d6: e6, e6: f6, f6: g6,
    :null
  },
  north: {
    a1: a2, b1: b2, c1: c2, d1: d2, e1: e2, f1: f2, g1: g2, a2: a3,
    b2: b3, c2: c3, d2: d3, e2: e3, f2: f3, g2: g3, a3: a4, b3: b4,
    c3: c4, d3: d4, e3: e4, f3: f4, g3: g4, a4: a5, b4: b5, c4: c5,
    d4: d5, e4: e5, f4: f5, g4: g5, a5: a6, b5: b6, c5: c6, d5: d6,
    e5: e6, f5: f6, g5: g6,
    :null
  },
  northEast: {
    a1: b2, b1: c2, c1: d2, d1: e2, e1: f2, f1: g2, a2: b3, b2: c3,
    c2: d3, d2: e3, e2: f3, f2: g3, a3: b4, b3: c4, c3: d4, d3: e4,
    e3: f4, f3: g4, a4: b5, b4: c5, c4: d5, d4: e5, e4: f5, f4: g5,
    a5: b6, b5: c6, c5: d6, d5: e6, e5: f6, f5: g6,
    :null
  },
  southEast: {
    a2: b1, b2: c1, c2: d1, d2: e1, e2: f1, f2: g1, a3: b2, b3: c2,
    c3: d2, d3: e2, e3: f2, f3: g2, a4: b3, b4: c3, c4: d3, d4: e3,
    e4: f3, f4: g3, a5: b4, b5: c4, c5: d4, d5: e4, e5: f4, f5: g4,
    a6: b5, b6: c5, c6: d5, d6: e5, e6: f5, f6: g5,
    :null
  },
  :{:null}
};
const behind: Dir -> Cell -> CellOrNull = {
  east: {
    b1: a1, c1: b1, d1: c1, e1: d1, f1: e1, g1: f1, b2: a2, c2: b2,
    d2: c2, e2: d2, f2: e2, g2: f2, b3: a3, c3: b3, d3: c3, e3: d3,
    f3: e3, g3: f3, b4: a4, c4: b4, d4: c4, e4: d4, f4: e4, g4: f4,
    b5: a5, c5: b5, d5: c5, e5: d5, f5: e5, g5: f5, b6: a6, c6: b6,
    d6: c6, e6: d6, f6: e6, g6: f6,
    :null
  },
  north: {
    a2: a1, b2: b1, c2: c1, d2: d1, e2: e1, f2: f1, g2: g1, a3: a2,
    b3: b2, c3: c2, d3: d2, e3: e2, f3: f2, g3: g2, a4: a3, b4: b3,
    c4: c3, d4: d3, e4: e3, f4: f3, g4: g3, a5: a4, b5: b4, c5: c4,
    d5: d4, e5: e4, f5: f4, g5: g4, a6: a5, b6: b5, c6: c5, d6: d5,
    e6: e5, f6: f5, g6: g5,
    :null
  },
  northEast: {
    b2: a1, c2: b1, d2: c1, e2: d1, f2: e1, g2: f1, b3: a2, c3: b2,
    d3: c2, e3: d2, f3: e2, g3: f2, b4: a3, c4: b3, d4: c3, e4: d3,
    f4: e3, g4: f3, b5: a4, c5: b4, d5: c4, e5: d4, f5: e4, g5: f4,
    b6: a5, c6: b5, d6: c5, e6: d5, f6: e5, g6: f5,
    :null
  },
  southEast: {
    b1: a2, c1: b2, d1: c2, e1: d2, f1: e2, g1: f2, b2: a3, c2: b3,
    d2: c3, e2: d3, f2: e3, g2: f3, b3: a4, c3: b4, d3: c4, e3: d4,
    f3: e4, g3: f4, b4: a5, c4: b5, d4: c5, e4: d5, f4: e5, g4: f5,
    b5: a6, c5: b6, d5: c6, e5: d6, f5: e6, g5: f6,
    :null
  },
  :{:null}
};
const opponent: Player -> Player = {red: yellow, yellow: red, :red};
const draw: Player -> Score = {:50};

var board: Cell -> Disc = {:empty};
// The lowest empty cell of every column (`null` when the column is full).
var top: Column -> CellOrNull = {a: a1, b: b1, c: c1, d: d1, e: e1, f: f1, g: g1, :null};
var me: Player = red;
var column: Column = a;
var cell: Cell = a1;
var dir: Dir = east;
var pos: CellOrNull = a1;

// The player `me` drops a disc into a column that is not full.
begin, turn: ;
turn, choose: player = PlayerOrSystem(me);
choose, chosen: column = Column(*);
chosen, notFull: top[column] != null;
notFull, tagged: $$ column;
tagged, placed: cell = Cell(top[column]);
placed, dropped: board[cell] = Disc(me);
dropped, raised: top[column] = ahead[north][cell];
raised, judge: player = keeper;

// The keeper ends the game on four in a line or a full board, otherwise passes the turn.
judge, won: ? fourSearch -> fourFound;
judge, noFour: ! fourSearch -> fourFound;
won, over: goals[me] = 100;
noFour, full: ! freeSearch -> freeFound;
full, over: goals = draw;
noFour, next: ? freeSearch -> freeFound;
next, turn: me = opponent[me];
over, end: player = keeper;

// Sub-automaton: the disc just dropped at `cell` is in a line of four of `me`. Walk back along a
// direction over `me`'s discs, then look for four in a row ahead of that point.
fourSearch, axis: dir = Dir(*);
axis, walk: pos = CellOrNull(cell);
walk, stepped: board[behind[dir][pos]] == Disc(me);
stepped, walk: pos = behind[dir][pos];
walk, one: ;
one, two: board[ahead[dir][pos]] == Disc(me);
two, three: board[ahead[dir][ahead[dir][pos]]] == Disc(me);
three, fourFound: board[ahead[dir][ahead[dir][ahead[dir][pos]]]] == Disc(me);

// Sub-automaton: some column is not full.
freeSearch, freeChosen: column = Column(*);
freeChosen, freeFound: top[column] != null;
