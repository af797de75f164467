"""A quiz run live for a class: everyone answers the same question, then it is revealed.

The same shape as the class line (current item, reveal, next, skip, end), so classroom rounds run
either. An answer is the index of the option chosen. Pure Python, JSON state.
"""

from webapp.games.base import IllegalAction, InvalidConfig

# The turn flow is the class line's: the question ids stand where its cards do.
from webapp.games.classline import current_card, end, is_over, next_card, skip

__all__ = ["check_answer", "current_card", "current_question", "end", "is_over", "new_game", "next_card",
           "observation", "reveal", "right_gaps", "skip"]

NAME = "livequiz"


def new_game(config, seed=None):
    """Start a live quiz over already drawn questions."""
    questions = config.get("questions")
    if not isinstance(questions, list) or not questions:
        raise InvalidConfig("There are no questions for this quiz.")
    # Ordering questions need a form each student fills alone; live rounds ask multiple choice only.
    questions = [q for q in questions if not q.get("order")]
    if not questions:
        raise InvalidConfig("A live quiz asks multiple-choice questions: choose other kinds of questions.")
    return {"game": NAME, "questions": questions, "cards": [q["id"] for q in questions], "turn": 0,
            "phase": "answering", "reveals": []}


def current_question(state):
    """Return the question being answered or just revealed, or None."""
    return None if is_over(state) else state["questions"][state["turn"]]


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


def question_texts(state):
    """Return {question id: its prompt and options}: the words every student saw, for the results."""
    return {q["id"]: {"prompt": q["prompt"], "options": q["options"]} for q in state["questions"]}
