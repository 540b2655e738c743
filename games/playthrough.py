"""A game played move by move, every frame recorded: the golden files of the conformance
suite. Regenerate one, after a deliberate rule change, with
``python -m games.playthrough NAME [SEED] > games/NAME/playthrough.json``."""

from __future__ import annotations

import json
import random
import sys
from typing import Any

from games import registry
from games.base import Illegal


def playthrough(name: str, params: dict[str, int], seed: int, moves: list[str] | None = None) -> dict[str, Any]:
    """Play ``moves`` (or, when None, random legal moves drawn from ``seed``) and record it all."""
    game = registry.get(name)
    params = game.resolve_params(params)
    state = game.initial_state(params, seed)
    rng = random.Random(seed)
    played, frames = [], [game.frame(state)]
    while game.to_move(state) is not None and (moves is None or len(played) < len(moves)):
        if moves is None:
            move = rng.choice(game.legal_moves(state))
        else:
            move = game.parse_move(state, moves[len(played)])
            if isinstance(move, Illegal):
                raise ValueError(f"move {len(played) + 1}: {move.reason}")
        played.append(game.move_text(state, move))
        state = game.apply(state, move)
        frames.append(game.frame(state))
    outcome = game.outcome(state)
    return {
        "game": name,
        "version": game.info.version,
        "params": params,
        "seed": seed,
        "moves": played,
        "frames": frames,
        "outcome": outcome.to_json() if outcome else None,
    }


if __name__ == "__main__":
    name = sys.argv[1]
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 2026
    print(json.dumps(playthrough(name, {}, seed), indent=1))
