// Pig to 10, a dice game written by hand in RG text (rules: spec/games.md, oracle: oracles/src/dice.rs).
// Players `first` and `second` take turns; on a turn the mover repeatedly chooses `roll` or `hold`.
// `roll` hands the die to `random`, whose move is the face thrown (`1`..`6`): a 1 loses the turn
// total and ends the turn, any other face adds to it, and reaching 10 with the banked score wins
// at once. `hold` banks the turn total and ends the turn. After 6 turns in all the higher banked
// score wins. Scores: winner 100, loser 0, equal banked scores 50 each.

type Player = {first, second};
type Score = {0, 50, 100};
type Num = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
type Face = {1, 2, 3, 4, 5, 6};
type FaceOrNone = {none, 1, 2, 3, 4, 5, 6};

// a + b, capped at 10.
const sum: Num -> Num -> Num = {
  0: {0: 0, 1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 6, 7: 7, 8: 8, 9: 9, :10},
  1: {0: 1, 1: 2, 2: 3, 3: 4, 4: 5, 5: 6, 6: 7, 7: 8, 8: 9, :10},
  2: {0: 2, 1: 3, 2: 4, 3: 5, 4: 6, 5: 7, 6: 8, 7: 9, :10},
  3: {0: 3, 1: 4, 2: 5, 3: 6, 4: 7, 5: 8, 6: 9, :10},
  4: {0: 4, 1: 5, 2: 6, 3: 7, 4: 8, 5: 9, :10},
  5: {0: 5, 1: 6, 2: 7, 3: 8, 4: 9, :10},
  6: {0: 6, 1: 7, 2: 8, 3: 9, :10},
  7: {0: 7, 1: 8, 2: 9, :10},
  8: {0: 8, 1: 9, :10},
  9: {0: 9, :10},
  10: {:10},
  :{:10}
};
// beats[a][b] == 1 when a > b.
const beats: Num -> Num -> Bool = {
  1: {0: 1, :0},
  2: {0: 1, 1: 1, :0},
  3: {0: 1, 1: 1, 2: 1, :0},
  4: {0: 1, 1: 1, 2: 1, 3: 1, :0},
  5: {0: 1, 1: 1, 2: 1, 3: 1, 4: 1, :0},
  6: {0: 1, 1: 1, 2: 1, 3: 1, 4: 1, 5: 1, :0},
  7: {0: 1, 1: 1, 2: 1, 3: 1, 4: 1, 5: 1, 6: 1, :0},
  8: {0: 1, 1: 1, 2: 1, 3: 1, 4: 1, 5: 1, 6: 1, 7: 1, :0},
  9: {0: 1, 1: 1, 2: 1, 3: 1, 4: 1, 5: 1, 6: 1, 7: 1, 8: 1, :0},
  10: {0: 1, 1: 1, 2: 1, 3: 1, 4: 1, 5: 1, 6: 1, 7: 1, 8: 1, 9: 1, :0},
  :{:0}
};
const countdown: Num -> Num = {6: 5, 5: 4, 4: 3, 3: 2, 2: 1, 1: 0, :0};
const opponent: Player -> Player = {first: second, second: first, :first};
const draw: Player -> Score = {:50};

var banked: Player -> Num = {:0};
var total: Num = 0;
var me: Player = first;
var turnsLeft: Num = 6;
// The face just thrown; the keeper resets it, so equal outcomes give equal states.
var face: FaceOrNone = none;

// The player `me` chooses.
begin, turn: ;
turn, choose: player = PlayerOrSystem(me);
choose, rollChosen: $ roll;
rollChosen, throwing: player = random;
choose, holdChosen: $ hold;
holdChosen, banking: player = keeper;

// The die is thrown.
throwing, thrown: face = Face(*);
thrown, shown: $$ face;
shown, scoring: player = keeper;

// The keeper scores the throw.
scoring, bust: face == 1;
bust, turnOver: total = 0;
scoring, gain: face != 1;
gain, gained: total = sum[total][face];
gained, winning: sum[banked[me]][total] == 10;
winning, winBanked: banked[me] = 10;
winBanked, winReset: total = 0;
winReset, winFace: face = none;
winFace, over: goals[me] = 100;
gained, again: sum[banked[me]][total] != 10;
again, turn: face = none;

// The keeper banks the turn total.
banking, holdBanked: banked[me] = sum[banked[me]][total];
holdBanked, turnOver: total = 0;

// End of a turn: count it down; the last one ends the game.
turnOver, counted: face = none;
counted, turnsCounted: turnsLeft = countdown[turnsLeft];
turnsCounted, nextTurn: turnsLeft != 0;
nextTurn, turn: me = opponent[me];
turnsCounted, final: turnsLeft == 0;
final, firstWins: beats[banked[first]][banked[second]] == 1;
firstWins, over: goals[first] = 100;
final, notFirst: beats[banked[first]][banked[second]] == 0;
notFirst, secondWins: beats[banked[second]][banked[first]] == 1;
secondWins, over: goals[second] = 100;
notFirst, tie: beats[banked[second]][banked[first]] == 0;
tie, over: goals = draw;
over, end: player = keeper;
