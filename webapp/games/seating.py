"""What every engine shares about its seats: the players' names are a list in the state, one per seat."""


def with_player_name(state, seat, name):
    """Return `state` with the player in `seat` named `name` (someone joined that seat from their own device)."""
    players = list(state["players"])
    players[seat] = name
    return {**state, "players": players}
