// A dice game: `random` throws a three-sided die, a throw of 3 scores a point, and after each
// throw the player may go on or stop. Throws of 1 and 2 leave equal states (perft counts them once).
type Player = {p};
type Score = {0, 1, 2, 3};
type Die = {1, 2, 3};
type Count = {0, 1, 2, 3};
const up: Count -> Count = {0: 1, 1: 2, 2: 3, :3};
const limit: Count = 3;
var total: Count = 0;
var roll: Die = 1;
var rounds: Count = 0;
var scratch: Die = 1;

begin, throw: player = random;
throw, t1: roll = Die(*);
t1, t2: $$ roll;
t2, t3: ;
t3, t4: roll == 3;
t3, t5: roll != 3;
t4, t6: total = up[total];
t5, t6: ;
t6, t6b: roll = 1;
t6b, t7: player = keeper;
t7, t8: rounds = up[rounds];
t8, decide: ;
decide, choose: rounds != limit;
decide, fin: rounds == up[up[up[0]]];
choose, c1: player = p;
c1, c2: $ go;
c2, c2b: scratch = roll;
c2b, throw: player = random;
c1, c3: $ stop;
c3, fin: player = keeper;
fin, g: goals[p] = total;
g, end: player = keeper;
