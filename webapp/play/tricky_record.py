"""What a practice page gives the browser to keep in its tricky cards' history: only what the page already shows.

Pure code. A placement is recorded from the observation after its verdict: the card, right or not, the cards it was
put on the wrong side of, and the cards either side of where it belongs (in the line as it was then).
"""

LINE_MODES = ("line", "endless", "all")


def shown_placements(observation):
    """Return the observation's answered placements as the history records them (without their time).

    >>> shown_placements({"mode": "line", "characteristic": "mass",
    ...     "line": [{"card": "a", "value": 1}, {"card": "b", "value": 2}, {"card": "c", "value": 3}],
    ...     "answers": [{"card": "a", "right": False, "close": False, "passed": ["c"]}]})
    [{'card': 'a', 'by': 'mass', 'right': False, 'close': False, 'passed': ['c'], 'beside': ['c']}]
    """
    if observation["mode"] not in LINE_MODES:
        return []
    order = [entry["card"] for entry in observation["line"]]
    answered = [answer["card"] for answer in observation["answers"]]
    face_up = [card for card in order if card not in set(answered)]  # the card that started the line
    placements = []
    for index, answer in enumerate(observation["answers"]):
        if observation["mode"] == "all":
            placed_then = set(order)  # every card was placed at once
        else:
            placed_then = set(face_up) | set(answered[:index + 1])
        line_then = [card for card in order if card in placed_then]
        at = line_then.index(answer["card"])
        placements.append({"card": answer["card"], "by": observation["characteristic"], "right": answer["right"],
                           "close": answer.get("close", False), "passed": list(answer.get("passed", [])),
                           "beside": line_then[max(at - 1, 0):at] + line_then[at + 1:at + 2]})
    return placements
