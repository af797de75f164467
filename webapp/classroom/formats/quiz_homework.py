"""Quiz homework: each student answers the same questions (a teacher's own, put-in-order ones too) alone."""

from typing import ClassVar

from flask import url_for

from webapp.classroom import results
from webapp.classroom.formats.homework import GATE, Homework
from webapp.games import quiz
from webapp.games.rounds.formats import QuizHomeworkRules
from webapp.play import store


class QuizHomework(Homework):
    name = "quiz_homework"
    label = "Quiz homework (each student answers the questions alone)"
    choice = ""  # set from the teacher's questions
    rules = QuizHomeworkRules(quiz)
    item = "Question"
    truth = "Right answer"
    result_tables: ClassVar[dict] = {"students": "each student's score", "answers": "every question of every student"}

    def config(self, values, settings):
        return {"questions": values}

    def values_again(self, game, chosen):
        """A copy asks the same questions."""
        return self.rules.questions(game)

    def joined(self, rnd, student):
        questions = self.copy_values(rnd, chosen=list)
        game, tokens = store.create_game("quiz", {"questions": questions, "title": rnd.title},
                                         [{"name": "You", "kind": "human"}], "quiz",
                                         {"title": rnd.title, "count": len(questions), "gate": GATE},
                                         rnd.settings["seed"])
        student.game_id = game.id
        return tokens

    def student_page(self, rnd, student):
        return url_for("play.game", kind="quiz", game_id=student.game_id)

    def students_frame(self, rnd):
        return results.quiz_homework_frame(rnd)

    def answers_table(self, rnd):
        return results.quiz_homework_answers(rnd)

    def item_report(self, answers):
        return results.quiz_homework_report(answers)
