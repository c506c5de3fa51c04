// Every kind of label, cast, value and pragma the format has, in a small working game:
// `one` walks a token along a line of cells and may stop; stepping onto the last cell wins.
type Player = {one};
type Score = {0, 100};
type Cell = {c0, c1, c2, off};
type Step = {stay, go};
type Bool = {0, 1};
type PlayerOrSystem = {one, keeper, random};

const next : Cell -> Cell = {c0: c1, c1: c2, c2: off, :off};
const start : Cell = c0;
const empty : Cell -> Bool = {:0};
const marks : Cell -> Bool = {c0: 1, :0};
const grid : Step -> Cell -> Bool = {go: marks, :empty};

var at : Cell = start;
var seen : Cell -> Bool = marks;
var choice : Step = stay;
var player : PlayerOrSystem = keeper;

begin, turn: ;
turn, ask: ? canStep -> stepOk;
turn, finish: ! canStep -> stepOk;
canStep, stepOk: next[at] != off;

ask, choose: player = PlayerOrSystem(one);
choose, chosen: choice = Step(*);
chosen, moveIt: $$ choice;
moveIt, stop: choice == stay;
moveIt, walk: choice == go;
walk, stepped: at = Cell(next[Cell(at)]);
stepped, marked: seen[at] = Bool(1);
marked, announced: $ moved;
announced, endTurn: ;
endTurn, turn: player = keeper;
stop, finish: $ stopped;
finish, score: player = keeper;
score, won: at == c2;
score, lost: at != c2;
won, over: goals[one] = 100;
lost, over: grid[go][c0] == 1;
over, end: player = keeper;

@disjoint moveIt : stop walk;
@disjointExhaustive score : won lost;
@unique canStep stepOk;
@artificialTag moved;
@repeat turn : at seen;
@simpleApply walk stepped [moved, x: Cell] at = next[at];
@tagIndex chosen : 0;
@someFutureHint with [any, tokens] (it = likes) -> * ;
@translatedFromRbg;
