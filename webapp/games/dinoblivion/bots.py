"""Computer players for Dinoblivion: each sees only its observation and the legal actions."""

END_BIAS = 0.15


def random_bot(observation, actions, rng):
    """Choose uniformly, but end the turn with a modest probability so random games stay short."""
    if actions[0]["type"] == "end" and len(actions) > 1 and rng.random() < END_BIAS:
        return actions[0]
    return rng.choice(actions)


BOTS = {"random": random_bot}
BOT_LEVELS = {"easy": "random", "medium": "greedy", "hard": "greedy"}


def bot_choose(observation, actions, rng, level):
    """Choose one of `actions` for the observing seat with the bot of `level` (a bot name or easy/medium/hard)."""
    name = BOT_LEVELS.get(level, level)
    return BOTS.get(name, random_bot)(observation, actions, rng)
