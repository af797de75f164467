"""Trivia quizzes in the browser: questions drawn from the card database, answered one at a time."""

from flask import request

from webapp.common.forms import whole_number
from webapp.common.seats import held_seats
from webapp.errors import AppError
from webapp.games import trivia
from webapp.play import quizzes, store
from webapp.play.adapters.base import SoloAdapter
from webapp.play.forms import NewQuizForm, QuizAnswerForm


def start_quiz(settings):
    """Create a quiz for one browser from its settings; return (game, {seat: token})."""
    questions = quizzes.draw(settings)
    return store.create_game("quiz", {"questions": questions, "title": settings["title"]},
                             [{"name": "You", "kind": "human"}], "quiz",
                             {key: settings[key] for key in ("title", "kinds", "deck", "difficulty", "count") if key in settings})


def answer_form(observation, formdata=None):
    """Return the answer form for the current question, its options as the only choices."""
    form = QuizAnswerForm(formdata=formdata)
    current = observation["current"]
    if current and not current["order"]:
        form.choice.choices = [(o["id"], o["text"]) for o in current["options"]]
        form.question.data = form.question.data or current["id"]
    return form


class QuizAdapter(SoloAdapter):
    """A trivia quiz: multiple choice and ordering questions with an explanation after each answer."""

    kind, title, path = "quiz", "quiz", "/quiz"
    setup_form = NewQuizForm

    def new_form(self):
        # Every kind is ticked at first, so a student starts a quiz in one tap.
        return NewQuizForm(kinds=trivia.KINDS.items(), data=self.again() or {"kinds": list(trivia.KINDS)})

    def again_data(self, game):
        return {key: game.settings[key] for key in ("kinds", "deck", "difficulty", "count") if key in game.settings}

    def start(self, form):
        return start_quiz({"title": "Trivia quiz", "kinds": form.kinds.data, "count": form.count.data,
                           "difficulty": form.difficulty.data, "deck": form.deck.data})

    def move_form(self, game, viewer):
        return answer_form(store.observe(game, 0), request.form if request.method == "POST" else None)

    def action(self, game, seat, form):
        current = store.observe(game, seat)["current"]
        if current is None:
            raise AppError(409, "This quiz is finished.")
        if request.form.get("question") != current["id"]:
            raise AppError(409, "That answer is for another question: here is the current one.")
        if current["order"]:
            positions = {o["id"]: whole_number(request.form.get(f"position-{o['id']}", "")) for o in current["options"]}
            if None in positions.values() or sorted(positions.values()) != list(range(1, len(positions) + 1)):
                raise AppError(400, "Give every animal a different position.")
            return {"question": current["id"], "order": sorted(positions, key=positions.get)}
        if not form.validate():
            raise AppError(400, " ".join(form.choice.errors) or "Choose one of the answers offered.")
        return {"question": current["id"], "choice": form.choice.data}

    def context(self, game, viewer, form=None, error=None):
        observation = store.observe(game, 0)
        closed = store.closed(game)  # a quiz set as homework waits for it to open, and stops when it closes
        return {"game": game, "obs": observation, "form": form or answer_form(observation), "error": error,
                "owner": 0 in held_seats(game), "closed": closed, "view_version": store.view_version(game, closed)}


ADAPTER = QuizAdapter()
