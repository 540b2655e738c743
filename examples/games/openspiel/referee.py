"""An adapter: any OpenSpiel game (github.com/google-deepmind/open_spiel), refereed by its own
library, played over Arbiter's referee protocol (docs/referee-protocol.md).

The parameter ``game`` names the game (``pyspiel.load_game``'s name: breakthrough, hex,
goofspiel, hearts...), ``options`` its own parameters (``name=value`` pairs separated by
commas, as OpenSpiel writes them). A game that takes a number of players is loaded with the
platform's ``seats``. Chance (a deal, a shuffle) is drawn from the platform's ``seed``.

What a player reads and writes (one line each, docs in README.md):

    game NAME SEAT SEATS            once, at the start
    state TEXT                      the game as this seat may see it, its newlines as " / "
    legal ID:NAME ID:NAME ...       the actions it may take (OpenSpiel's ids and names)

after which it answers one action id. In a game of simultaneous moves (goofspiel) every seat
is asked in turn for the same position; no seat is told another's answer before it answers.
"""

import json
import random
import sys

import pyspiel


def say(line):
    print(line, flush=True)


def one_line(text):
    return " / ".join(part.rstrip() for part in str(text).strip().splitlines())


header = {}
for line in sys.stdin:
    word, _, rest = line.strip().partition(" ")
    if word == "begin":
        break
    if word == "param":
        name, _, value = rest.partition(" ")
        header[name] = value
    elif word in ("seats", "seed"):
        header[word] = int(rest)
seats, rng = header["seats"], random.Random(header.get("seed", 0))
options = {}
for pair in filter(None, header.get("options", "").split(",")):
    name, _, value = pair.partition("=")
    options[name.strip()] = int(value) if value.strip().lstrip("-").isdigit() else value.strip()
name = header.get("game", "breakthrough")
if "players" in pyspiel.load_game(name).get_parameters():
    options["players"] = seats
game = pyspiel.load_game(name, options)
if game.num_players() != seats:
    sys.exit(
        f"{name} is a game of {game.num_players()} players, not {seats}: set the stage's seats"
        f" (at home, give {game.num_players()} programs)"
    )

state = game.new_initial_state()
for seat in range(seats):
    say(f"send {seat} game {name} {seat} {seats}")


def frame(played=""):
    """The position in OpenSpiel's words (all of it: Hearts' is some 50 lines, and its first
    ones are the deal), then the move that led to it by name, where the move list has its id."""
    lines = str(state).splitlines()[-200:] or [""]
    say("frame " + json.dumps({"text": lines + ([played] if played else [])}))


def choose(seat):
    """The seat's action in the current position: an id of its legal ones; else the fault."""
    legal = state.legal_actions(seat)
    names = " ".join(f"{a}:{state.action_to_string(seat, a).replace(' ', '_')}" for a in legal)
    observed = state.observation_string(seat) if game.get_type().provides_observation_string else str(state)
    say(f"send {seat} state {one_line(observed)}")
    say(f"send {seat} legal {names}")
    say(f"ask {seat}")
    word, _, rest = sys.stdin.readline().strip().partition(" ")
    if word != "reply":
        return None, word
    answer = rest.partition(" ")[2].strip()
    if not answer.lstrip("-").isdigit() or int(answer) not in legal:
        return None, f"illegal:{answer[:20]!r}"
    return int(answer), ""


def end(faulty, word):
    """A seat that faulted loses the game: it scores the least any seat can, the others the most."""
    points = [game.max_utility()] * seats
    points[faulty] = game.min_utility()
    words = ["win"] * seats
    words[faulty] = word.split(":")[0] if word.startswith("illegal") else word
    say(f"reason seat {faulty}: {word}")
    say(f"result {' '.join(f'{p:g}' for p in points)} | {' '.join(words)}")
    sys.exit(0)


frame()
while not state.is_terminal():
    if state.is_chance_node():
        outcomes, chances = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(rng.choices(outcomes, weights=chances)[0])
        continue
    if state.is_simultaneous_node():
        actions = []
        for seat in range(seats):
            action, fault = choose(seat)
            if action is None:
                end(seat, fault)
            actions.append(action)
        played = ", ".join(f"seat {seat} played {state.action_to_string(seat, a)}" for seat, a in enumerate(actions))
        state.apply_actions(actions)
    else:
        seat = state.current_player()
        action, fault = choose(seat)
        if action is None:
            end(seat, fault)
        played = f"seat {seat} played {state.action_to_string(seat, action)}"
        state.apply_action(action)
    frame(played)

returns = state.returns()
say("reason " + ", ".join(f"seat {seat} {r:g}" for seat, r in enumerate(returns)))
say(f"result {' '.join(f'{r:g}' for r in returns)}")
