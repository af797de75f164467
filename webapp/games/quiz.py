"""A trivia quiz: one question after another, each answered once, explained, and scored.

The state holds the questions with their answers; an observation shows a question's answer and
explanation only once it has been answered. Pure Python, JSON state.
"""

from webapp.games.base import IllegalAction, InvalidConfig
from webapp.games.protocol import EngineType

NAME = "quiz"
TYPE = EngineType(hidden_information=True)


def new_game(config, seed=None):
    """Start a quiz over the given questions (already drawn with their own seed)."""
    questions = config.get("questions")
    if not isinstance(questions, list) or not questions:
        raise InvalidConfig("There are no questions to ask: try other kinds of questions or fewer of them.")
    return {"game": NAME, "title": config.get("title", "Quiz"), "questions": questions, "answers": []}


def current_player(state):
    """Return 0 while a question waits for an answer, else None."""
    return None if is_over(state) else 0


def is_over(state):
    """Say whether every question has been answered."""
    return len(state["answers"]) >= len(state["questions"])


def current_question(state):
    """Return the question to answer now, or None."""
    return None if is_over(state) else state["questions"][len(state["answers"])]


def legal_actions(state):
    """Return the possible answers to the current question."""
    question = current_question(state)
    if question is None:
        return []
    ids = [o["id"] for o in question["options"]]
    if question.get("order"):
        return [{"question": question["id"], "order": ids}]
    return [{"question": question["id"], "choice": option} for option in ids]


def check(state, player, action):
    """Raise IllegalAction unless the action answers the current question with offered options."""
    question = current_question(state)
    if question is None:
        raise IllegalAction("This quiz is finished.")
    if player != 0 or not isinstance(action, dict):
        raise IllegalAction("Send an answer to the current question.")
    if action.get("question") != question["id"]:
        raise IllegalAction("That answer is for another question: reload the quiz to see the current one.")
    ids = [o["id"] for o in question["options"]]
    if question.get("order"):
        order = action.get("order")
        if not isinstance(order, list) or sorted(map(str, order)) != sorted(ids) or len(order) != len(ids):
            raise IllegalAction("Put each of the offered animals in the order exactly once.")
    elif action.get("choice") not in ids:
        raise IllegalAction("That is not one of the answers offered.")


def is_right(question, action):
    """Say whether an answer is right."""
    if question.get("order"):
        return list(action["order"]) == list(question["answer"])
    return action["choice"] == question["answer"]


def apply(state, player, action):
    """Return the state after answering the current question; the given state is not changed."""
    check(state, player, action)
    question = current_question(state)
    given = action["order"] if question.get("order") else action["choice"]
    answer = {"question": question["id"], "given": given, "right": is_right(question, action)}
    return {**state, "answers": state["answers"] + [answer]}


def result(state):
    """Return the score when finished, else None."""
    if not is_over(state):
        return None
    return {"score": sum(a["right"] for a in state["answers"]), "out_of": len(state["questions"])}


def _public(question, answered):
    shown = {k: question[k] for k in ("id", "kind", "prompt", "options", "order")}
    if answered:
        shown.update(answer=question["answer"], explanation=question["explanation"])
    return shown


def observation(state, viewer=0):
    """Return the quiz as the player may see it: answers and explanations only for answered questions."""
    done = len(state["answers"])
    return {
        "game": NAME,
        "title": state["title"],
        "current": _public(state["questions"][done], False) if done < len(state["questions"]) else None,
        "answered": [{**a, **_public(state["questions"][i], True)} for i, a in enumerate(state["answers"])],
        "total": len(state["questions"]),
        "score": sum(a["right"] for a in state["answers"]),
        "over": is_over(state),
        "result": result(state),
    }


def hidden(state, viewer=0):
    """Return what the player must not learn yet: each unanswered question's answer and explanation."""
    secrets = set()
    for question in state["questions"][len(state["answers"]):]:
        answer = question["answer"]
        secrets.add((question["id"], tuple(answer) if isinstance(answer, list) else answer))
        if question.get("explanation"):
            secrets.add((question["id"], question["explanation"]))
    return secrets


def example_configs():
    """Return a small made-up quiz for tests: a choice, an ordering and a yes-or-no question."""
    animals = [{"id": "rex", "text": "T. rex"}, {"id": "raptor", "text": "Velociraptor"},
               {"id": "diplo", "text": "Diplodocus"}]
    return [{"title": "Made-up quiz", "questions": [
        {"id": "q1", "kind": "heavier", "prompt": "Which was heavier: T. rex or Velociraptor?", "order": False,
         "options": animals[:2], "answer": "rex", "explanation": "T. rex: about 8 t; Velociraptor: about 15 kg."},
        {"id": "q2", "kind": "order", "prompt": "Put them in order, lightest first.", "order": True,
         "options": [animals[2], animals[0], animals[1]], "answer": ["raptor", "rex", "diplo"],
         "explanation": "Velociraptor 15 kg, T. rex 8 t, Diplodocus 15 t."},
        {"id": "q3", "kind": "met", "prompt": "Did T. rex and Diplodocus ever meet?", "order": False,
         "options": [{"id": "yes", "text": "Yes"}, {"id": "no", "text": "No"}], "answer": "no",
         "explanation": "Diplodocus was gone some 80 million years before T. rex."},
    ]}]
