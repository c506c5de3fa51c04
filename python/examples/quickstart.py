import random
import regula

game = regula.load_game("games/connect4/connect4.hrg")
state = game.new_initial_state()
while not state.is_terminal():
    action = random.choice(state.legal_actions())
    print(state.current_player(), state.action_to_string(action))
    state.apply_action(action)
print("returns:", state.returns(), "history:", state.serialize())
print(game.playouts(10000, threads=2, seed=1)["mean_scores"])
