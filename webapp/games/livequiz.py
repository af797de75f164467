"""A quiz run live for a class: everyone answers the same question, then it is revealed.

The turn flow is webapp.games.classturns' (current item, reveal, next, skip, end): the question ids stand
where a class line's cards do. An answer is the index of the option chosen. Pure Python, JSON state.
"""

from webapp.games import classturns
from webapp.games.base import IllegalAction, InvalidConfig
from webapp.games.classturns import TYPE, current_card, end, is_over, legal_actions, result

__all__ = ["NAME", "TYPE", "answers", "apply", "check_answer", "current_card", "end", "example_configs", "hidden",
           "is_over", "legal_actions", "new_game", "observation", "result", "right_gaps"]

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
    """Return (first, last) right option indexes of the current question: the one right answer, twice."""
    question = current_question(state)
    index = [o["id"] for o in question["options"]].index(question["answer"])
    return index, index


def answers(state):
    """Return the options a student may choose now (their indexes)."""
    return list(range(len(current_question(state)["options"]))) if state["phase"] == "answering" else []


def check_answer(state, gap):
    """Raise IllegalAction unless `gap` is one of the offered options while answers are open."""
    classturns.check_phase(state, "question")
    if not classturns.whole_number_below(gap, len(current_question(state)["options"])):
        raise IllegalAction("That is not one of the answers offered.")


def reveal(state):
    """Show the right answer; answers close."""
    record = classturns.reveal_record(state, "question")
    record["right_gaps"] = list(right_gaps(state))
    return {**state, "phase": "revealed", "reveals": state["reveals"] + [record]}


def apply(state, action):
    """Apply the teacher's move (reveal, next, skip); raise IllegalAction with a reason if it does not apply now."""
    return classturns.apply(state, action, reveal)


def questions(state):
    """Return every question of the quiz, answers included, as it was made (to ask them again in a copy)."""
    return [dict(question) for question in state["questions"]]


def shown(question, revealed):
    """Return a question as the class sees it: its words, and its answer only once revealed."""
    public = {k: question[k] for k in ("id", "prompt", "options")}
    if revealed:
        public.update(answer=question["answer"], explanation=question["explanation"])
    return public


def observation(state, viewer=None):
    """Return what the class may see: the question, its answer only once revealed, and the questions asked so far."""
    question = current_question(state)
    revealed = {record["card"] for record in state["reveals"] if not record.get("skipped")}
    asked = state["questions"][:state["turn"] + 1]
    return {"game": NAME, "question": question and shown(question, state["phase"] == "revealed"),
            "current": question["id"] if question and state["phase"] == "answering" else None,
            "turn": state["turn"], "turns": len(state["questions"]), "phase": state["phase"],
            "last_reveal": state["reveals"][-1] if state["reveals"] else None, "reveals": list(state["reveals"]),
            "asked": [shown(q, q["id"] in revealed) for q in asked]}


def hidden(state, viewer=None):
    """Return what the class must not learn now: the questions to come, and the answer to the current one."""
    secrets = set(classturns.upcoming(state))
    question = current_question(state)
    if question and state["phase"] == "answering":
        secrets.add((question["id"], question["answer"]))
    return secrets


def example_configs():
    """Return small live quizzes for the tests (an ordering question, which live quizzes leave out, included)."""
    def question(number, answer):
        return {"id": f"q{number}", "prompt": f"Question {number}?", "answer": answer, "explanation": "Because.",
                "options": [{"id": f"o{number}-{i}", "text": f"Option {i}"} for i in range(3)]}
    ordering = {"id": "q9", "prompt": "Put them in order.", "order": True, "answer": ["a", "b"], "explanation": "",
                "options": [{"id": "a", "text": "A"}, {"id": "b", "text": "B"}]}
    return [{"questions": [question(1, "o1-0"), question(2, "o2-2"), ordering, question(3, "o3-1")]}]
