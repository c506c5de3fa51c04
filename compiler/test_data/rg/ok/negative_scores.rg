// Negative numerals (a Regula extension, spec/rg-format.md §7): x picks who wins; the game is zero-sum.
type Player = {x, o};
type Score = {-2, -1, 0, 1, 2};
var goals: Player -> Score = {:0};
begin, pick: player = x;
pick, xwins: $ win;
xwins, done: goals[x] = 2;
done, settled: goals[o] = -2;
pick, owins: $ lose;
owins, lost: goals[x] = -1;
lost, settled: goals[o] = 1;
settled, end: player = keeper;
