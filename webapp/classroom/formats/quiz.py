"""Live quiz: a lesson's quiz run for the class, everyone answering the same question; the reveal explains it."""

from typing import ClassVar

from webapp.classroom import results
from webapp.classroom.formats.base import PARTIALS, WholeClass
from webapp.games import livequiz
from webapp.games.rounds.formats import SharedItemRules


class LiveQuiz(WholeClass):
    name = "quiz"
    label = "Live quiz (everyone answers the same question)"
    rules = SharedItemRules(livequiz)
    item = "Question"
    item_key = "question_id"
    answer_column = "answer"
    hardest_partial = "classroom/stage/hardest/question.html"
    control_words: ClassVar[dict] = {"next": "Next question"}

    def config(self, questions, settings):
        return {"questions": questions}

    def values_again(self, game, chosen):
        """A copy asks the same questions (a quiz's questions are drawn once, when it is made)."""
        return self.engine.questions(game)

    def partial(self, viewer):
        return f"{PARTIALS['results']}/questions.html" if viewer == "results" else super().partial(viewer)

    def answers_frame(self, rnd):
        """Return every answer: the question's words and the option chosen in words."""
        frame = results.answer_rows(rnd)
        frame["team"] = frame["team"].map(self.team_names(rnd))
        prompts = {qid: question["prompt"] for qid, question in self.asked(rnd).items()}
        frame["animal"] = frame["card"].map(prompts)
        frame["gap"] = self.places(rnd, frame)
        return frame.rename(columns={"card": "question_id", "animal": "question", "gap": "answer"})

    def described(self, rnd, keys):
        asked = self.asked(rnd)
        return {"question": {q: asked[q]["prompt"] for q in keys},
                "right_answer": {q: right_answer(asked[q]) for q in keys}}

    def places(self, rnd, frame):
        """Return, for each answer, the option it chose in words."""
        asked = self.asked(rnd)
        return [asked[q]["options"][g]["text"] for q, g in zip(frame["card"], frame["gap"], strict=True)]

    def asked(self, rnd):
        """Return {question id: the question as the class saw it} of every question asked so far."""
        return {q["id"]: q for q in self.observe(rnd)["asked"]}

    def report(self, rnd):
        """Return per question asked: answered, right, the wrong answer chosen most."""
        return results.question_report(self.answers_frame(rnd), self.observe(rnd)["asked"])

    def hardest(self, rnd, obs):
        """Return the question the class found hardest (the lowest share right among those revealed), or None."""
        asked = [row for row in self.report(rnd) if row["right"] is not None and row["judged"]]
        return min(asked, key=lambda row: row["right"] / row["judged"], default=None)


def right_answer(question):
    """Return a revealed question's right answer in words (the options in order for a put-in-order one), else None."""
    if "answer" not in question:
        return None
    text = {option["id"]: option["text"] for option in question["options"]}
    answer = question["answer"]
    return ", ".join(text[a] for a in answer) if isinstance(answer, list) else text[answer]
