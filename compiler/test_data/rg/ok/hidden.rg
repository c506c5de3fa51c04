// Hide and guess. Alice hides a coin in one of three cups while Bob cannot see her move,
// then Bob (who sees only that Alice moved) guesses a cup; he wins if he finds the coin.
type Player = {alice, bob};
type Score = {0, 100};
type Cup = {left, middle, right};

var coin : Cup = left;
var guess : Cup = left;

begin, hideSecretly: visible[bob] = 0;
hideSecretly, hide: player = PlayerOrSystem(alice);
hide, hidden: coin = Cup(*);
hidden, hiddenTagged: $$ coin;
hiddenTagged, reveal: player = keeper;
reveal, guessOpenly: visible[bob] = 1;
guessOpenly, pick: player = PlayerOrSystem(bob);
pick, picked: guess = Cup(*);
picked, pickedTagged: $$ guess;
pickedTagged, judge: player = keeper;
judge, found: guess == coin;
judge, missed: guess != coin;
found, over: goals[bob] = 100;
missed, over: goals[alice] = 100;
over, end: player = keeper;
