// A bet on two dice. Alice says `bold` or `safe`, then nature throws her die and Bob's.
// Bold: the higher throw wins outright (a tie is a draw). Safe: Alice draws unless she
// throws lower, in which case she loses.
type Player = {alice, bob};
type Score = {0, 50, 100};
type Die = {1, 2, 3};
type Stake = {bold, safe};
type Order = {lower, tie, higher};

// compare[a][b]: how a throw a compares with a throw b.
const compare : Die -> Die -> Order = {
    1: {1: tie, :lower},
    2: {1: higher, 2: tie, :lower},
    3: {3: tie, :higher},
    :{:tie}
};

var stake : Stake = safe;
var aliceThrow : Die = 1;
var bobThrow : Die = 1;

begin, choose: player = PlayerOrSystem(alice);
choose, chosen: stake = Stake(*);
chosen, thrown: $$ stake;
thrown, throwAlice: player = random;
throwAlice, tagAlice: aliceThrow = Die(*);
tagAlice, thrownAlice: $$ aliceThrow;
thrownAlice, throwBob: player = random;
throwBob, tagBob: bobThrow = Die(*);
tagBob, thrownBob: $$ bobThrow;
thrownBob, score: player = keeper;

score, aliceWins: compare[aliceThrow][bobThrow] == higher;
score, bobWins: compare[aliceThrow][bobThrow] == lower;
score, even: compare[aliceThrow][bobThrow] == tie;
aliceWins, boldWin: stake == bold;
aliceWins, even: stake == safe;
boldWin, over: goals[alice] = 100;
bobWins, over: goals[bob] = 100;
even, evenAlice: goals[alice] = 50;
evenAlice, over: goals[bob] = 50;
over, end: player = keeper;
@disjointExhaustive score : aliceWins bobWins even;
