"""A quiz run live for a class: everyone answers the same question, then it is revealed.

The same shape as the class line (current item, reveal, next, skip, end), so classroom rounds run
either. An answer is the index of the option chosen. Pure Python, JSON state.
"""

from webapp.games.base import IllegalAction, InvalidConfig

NAME = "livequiz"


def new_game(config, seed=None):
    """Start a live quiz over already drawn questions."""
    questions = config.get("questions")
    if not isinstance(questions, list) or not questions:
        raise InvalidConfig("There are no questions for this quiz.")
    # Ordering questions need a form each student fills alone; live rounds ask multiple choice only.
    questions = [q for q in questions if not q.get("order")]
    return {"game": NAME, "questions": questions, "turn": 0, "phase": "answering", "reveals": []}


def is_over(state):
    """Say whether every question has been asked."""
    return state["phase"] == "over"


def current_question(state):
    """Return the question being answered or just revealed, or None."""
    return None if is_over(state) else state["questions"][state["turn"]]


def current_card(state):
    """Return the current question's id (what an answer is about)."""
    question = current_question(state)
    return question["id"] if question else None


def right_gaps(state):
    """Return (first, last) right option indexes: the one right answer, twice."""
    question = current_question(state)
    index = [o["id"] for o in question["options"]].index(question["answer"])
    return index, index


def check_answer(state, gap):
    """Raise IllegalAction unless `gap` is one of the offered options while answers are open."""
    if state["phase"] != "answering":
        raise IllegalAction("Answers are closed for this question.")
    count = len(current_question(state)["options"])
    if not isinstance(gap, int) or isinstance(gap, bool) or not 0 <= gap < count:
        raise IllegalAction("That is not one of the answers offered.")


def reveal(state):
    """Show the right answer; answers close."""
    if state["phase"] != "answering":
        raise IllegalAction("There is no question waiting to be revealed.")
    record = {"turn": state["turn"], "card": current_card(state), "right_gaps": list(right_gaps(state))}
    return {**state, "phase": "revealed", "reveals": state["reveals"] + [record]}


def next_card(state):
    """Move on to the next question after a reveal."""
    if state["phase"] != "revealed":
        raise IllegalAction("Reveal the answer before moving on.")
    return _advance(state)


def skip(state):
    """Skip the current question unscored."""
    if state["phase"] != "answering":
        raise IllegalAction("Only a question still being answered can be skipped.")
    record = {"turn": state["turn"], "card": current_card(state), "skipped": True}
    return _advance({**state, "reveals": state["reveals"] + [record]})


def end(state):
    """Finish the quiz now."""
    return {**state, "phase": "over"}


def _advance(state):
    turn = state["turn"] + 1
    return {**state, "turn": turn, "phase": "over" if turn >= len(state["questions"]) else "answering"}


def observation(state):
    """Return what the class may see: the question, and its answer only once revealed."""
    question = current_question(state)
    shown = None
    if question:
        shown = {k: question[k] for k in ("id", "prompt", "options")}
        if state["phase"] == "revealed":
            shown.update(answer=question["answer"], explanation=question["explanation"])
    return {"game": NAME, "question": shown, "turn": state["turn"], "turns": len(state["questions"]),
            "phase": state["phase"]}
