// Goofspiel with four cards, a game of hidden moves written by hand in RG text
// (rules: spec/games.md, oracle: oracles/src/hidden.rs).
// Each round `random` turns up a prize card from the deck 1..4 (its move is the card, seen by
// both players); `first` bids a card from their hand 1..4, hidden from `second` (`visible`);
// then `second` bids, seen by `first`. The higher bid wins the prize's value in points; equal
// bids win nothing. After four rounds the higher total wins: 100 to the winner, 0 to the loser,
// 50 each on equal totals.

type Player = {first, second};
type Score = {0, 50, 100};
type Card = {1, 2, 3, 4};
type CardOrNone = {none, 1, 2, 3, 4};
type Num = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10};

// points + prize (never above 10 = 1 + 2 + 3 + 4).
const plus: Num -> Card -> Num = {
  0: {1: 1, 2: 2, 3: 3, 4: 4, :10},
  1: {1: 2, 2: 3, 3: 4, 4: 5, :10},
  2: {1: 3, 2: 4, 3: 5, 4: 6, :10},
  3: {1: 4, 2: 5, 3: 6, 4: 7, :10},
  4: {1: 5, 2: 6, 3: 7, 4: 8, :10},
  5: {1: 6, 2: 7, 3: 8, 4: 9, :10},
  6: {1: 7, 2: 8, 3: 9, 4: 10, :10},
  7: {1: 8, 2: 9, 3: 10, :10},
  8: {1: 9, 2: 10, :10},
  9: {1: 10, :10},
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
const draw: Player -> Score = {:50};

var deck: Card -> Bool = {:1};
var hand: Player -> Card -> Bool = {:{:1}};
var prize: CardOrNone = none;
// The first player's bid in the current round.
var bid: CardOrNone = none;
var card: Card = 1;
var points: Player -> Num = {:0};

// A round starts: a prize card is turned up for everyone to see.
begin, round: ;
round, drawing: player = random;
drawing, drawn: card = Card(*);
drawn, inDeck: deck[card] == 1;
inDeck, shown: $$ card;
shown, taken: deck[card] = 0;
taken, prizeSet: prize = card;
// The second player will not see the first player's bid.
prizeSet, hideBid: visible[second] = 0;
hideBid, firstBids: player = first;

firstBids, firstChosen: card = Card(*);
firstChosen, firstHas: hand[first][card] == 1;
firstHas, firstTagged: $$ card;
firstTagged, firstPlayed: hand[first][card] = 0;
firstPlayed, firstRecorded: bid = card;
firstRecorded, showBid: visible[second] = 1;
showBid, secondBids: player = second;

secondBids, secondChosen: card = Card(*);
secondChosen, secondHas: hand[second][card] == 1;
secondHas, secondTagged: $$ card;
secondTagged, secondPlayed: hand[second][card] = 0;
secondPlayed, judge: player = keeper;

// The keeper awards the prize and starts the next round or ends the game.
judge, firstTakes: beats[bid][card] == 1;
firstTakes, awarded: points[first] = plus[points[first]][prize];
judge, notFirst: beats[bid][card] == 0;
notFirst, secondTakes: beats[card][bid] == 1;
secondTakes, awarded: points[second] = plus[points[second]][prize];
notFirst, awarded: beats[card][bid] == 0;
awarded, bidCleared: bid = none;
bidCleared, cleared: card = 1;
cleared, round: ? deckSearch -> deckLeft;
cleared, final: ! deckSearch -> deckLeft;
final, firstWins: beats[points[first]][points[second]] == 1;
firstWins, over: goals[first] = 100;
final, notFirstWin: beats[points[first]][points[second]] == 0;
notFirstWin, secondWins: beats[points[second]][points[first]] == 1;
secondWins, over: goals[second] = 100;
notFirstWin, tie: beats[points[second]][points[first]] == 0;
tie, over: goals = draw;
over, end: player = keeper;

// Sub-automaton: a card is left in the deck.
deckSearch, deckChosen: card = Card(*);
deckChosen, deckLeft: deck[card] == 1;
