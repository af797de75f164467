"""Classroom forms: a teacher's new round and card sets, a student's join code and nickname."""

from datetime import UTC, datetime
from zoneinfo import ZoneInfo, available_timezones

from flask_wtf import FlaskForm
from wtforms import (
    BooleanField,
    DateTimeLocalField,
    IntegerField,
    RadioField,
    SelectField,
    StringField,
    SubmitField,
    TextAreaField,
)
from wtforms.validators import InputRequired, Length, NumberRange, Optional, ValidationError

from webapp.classroom.formats import FORMATS
from webapp.common import dino_names
from webapp.common.forms import DeckForm, blank_or_choice, diet_options, group_options, options, period_options
from webapp.games.rounds import points as scoring

HOMEWORK = "self_paced"


def time_zones():
    """Return the time zones a teacher may give times in (IANA names), UTC first."""
    return [("UTC", "UTC"), *((zone, zone.replace("_", " ")) for zone in sorted(available_timezones())
                              if "/" in zone and not zone.startswith(("Etc/", "SystemV/", "US/")))]


class JoinForm(FlaskForm):
    """Join a game from your own device with the code on the board, under the name you type or a dino name."""

    code = StringField("Join code", validators=[InputRequired(message="Type the code on the board."),
                                                Length(max=8, message="A join code has 5 characters.")])
    name = StringField("Your name", validators=[Optional(), Length(max=40, message="Use at most 40 characters.")])
    dino_name = RadioField("Or pick a dino name for me", default="", validate_choice=False, validators=[Optional()])
    one_time_code = StringField("One-time code (only if your teacher gave you one to get back in)",
                                validators=[Optional(), Length(max=8, message="A one-time code has 6 characters.")])
    submit = SubmitField("Join")
    only_dino_names = False  # set for a round whose teacher wants no real names

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        offered = dino_names.suggestions()
        picked = dino_names.as_made(self.dino_name.data or "")
        if picked:
            self.dino_name.data = picked
            if picked not in offered:
                offered = [picked, *offered[1:]]  # the name picked before a refusal stays on offer
        self.dino_name.choices = options([("", "No, the name I typed"), *((name, name) for name in offered)])

    def validate_dino_name(self, field):
        if dino_names.as_made(field.data) is None:
            raise ValidationError("Pick one of the dino names offered.")

    def for_round(self, rnd):
        """Offer only dino names when the round (None for a game) takes nothing else."""
        self.only_dino_names = rnd is not None and dino_names.required(rnd.settings)

    def chosen_name(self):
        """Return the dino name picked, else the name typed."""
        return self.dino_name.data or (self.name.data or "").strip()

    def missing_name(self):
        """Return what to say when no name was given."""
        return "Pick one of the dino names." if self.only_dino_names else "Type your name, or pick a dino name."


class PupilJoinForm(FlaskForm):
    """Join a round for your class: pick your name and type the personal code on your slip."""

    pupil = RadioField("Who are you?", validate_choice=False,
                       validators=[InputRequired(message="Pick your name.")])
    personal_code = StringField("Your personal code (on your slip)", validators=[
        InputRequired(message="Type the personal code on your slip."),
        Length(max=8, message="A personal code has 6 characters.")])
    submit = SubmitField("Join")

    def __init__(self, *args, pupils=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.pupil.choices = options((str(p.id), p.display_name) for p in pupils)


POINTS_HINT = (f"Speed points: a right answer scores more the faster it comes, {scoring.SPEED_MOST:,} at once and "
               f"{scoring.SPEED_MOST // 2} at the end of the turn (with no timer, measured against "
               f"{scoring.SPEED_REFERENCE_SECONDS} seconds); a wrong or missing answer scores 0. The stage and each "
               "student's phone also show answer streaks (right answers in a row) where the leaderboard shows.")


def points_field(label="Points"):
    """Return the field choosing how a live round's answers score: a point each (the default), or by speed."""
    return SelectField(label, default=scoring.DEFAULT, validate_choice=False, description=POINTS_HINT,
                       choices=options((rule.name, rule.label) for rule in scoring.RULES.values()),
                       render_kw={"aria-describedby": "points-hint"})


def check_points(name, fmt):
    """Refuse a points rule that is not one, or speed points for a format whose class does not answer at once."""
    rule = scoring.RULES.get(name)
    if rule is None:
        raise ValidationError(f"Choose how answers score: {scoring.RIGHT_ANSWERS.label.lower()} or speed points.")
    if rule.by_speed and not (fmt and fmt.speed_points):
        formats = " and ".join(f.short_label.lower() for f in FORMATS.values() if f.speed_points and f.choice)
        raise ValidationError(f"Speed points are for rounds where the whole class answers the same card at once "
                              f"({formats}): choose 1 point per right answer.")


class Timetable:
    """A homework's opening and closing times, typed in the teacher's time zone (a mixin for set-up forms)."""

    opens_at = DateTimeLocalField("Homework opens (optional)", format="%Y-%m-%dT%H:%M", validators=[Optional()])
    closes_at = DateTimeLocalField("Homework closes (optional)", format="%Y-%m-%dT%H:%M", validators=[Optional()])
    timezone = SelectField("Time zone of these times", default="UTC", choices=options(time_zones()))

    def takes_times(self):
        """Say whether the round set up takes opening and closing times (homework does)."""
        return True

    def validate_opens_at(self, field):
        if field.data and not self.takes_times():
            raise ValidationError("Opening and closing times are for a self-paced challenge (homework).")

    def validate_closes_at(self, field):
        if not field.data:
            return
        if not self.takes_times():
            raise ValidationError("Opening and closing times are for a self-paced challenge (homework).")
        if self.timezone.data not in {choice.value for choice in self.timezone.choices}:
            return
        if self.moment(field.data) <= datetime.now(UTC).timestamp():
            raise ValidationError("Choose a closing time that is still to come.")
        if self.opens_at.data and field.data <= self.opens_at.data:
            raise ValidationError("The homework must close after it opens.")

    def moment(self, local):
        """Return a time typed in the form's time zone as seconds since the epoch."""
        return local.replace(tzinfo=ZoneInfo(self.timezone.data)).timestamp()

    def timetable(self):
        """Return the round's settings for its times: the zone, the opening and the closing (None when not set)."""
        return {"timezone": self.timezone.data,
                "opens_at": self.moment(self.opens_at.data) if self.opens_at.data else None,
                "closes_at": self.moment(self.closes_at.data) if self.closes_at.data else None}


class NewRoundForm(Timetable, DeckForm):
    """Set up a classroom round."""

    title = StringField("Title", default="Cardline round",
                        validators=[InputRequired(message="Give the round a title."), Length(max=120)])
    for_class = SelectField("Who plays", validate_choice=False)
    format = SelectField("Format", choices=options((name, fmt.choice) for name, fmt in FORMATS.items() if fmt.choice))
    choice = SelectField("Which cards", choices=options([
        ("all", "All cards of the deck"), ("filter", "Only the cards matching the filter below"),
        ("set", "One of my card sets")]))
    period = SelectField("Period", validators=[blank_or_choice])
    group = SelectField("Group", validators=[blank_or_choice])
    diet = SelectField("Diet", validators=[blank_or_choice])
    card_set = SelectField("Card set", validate_choice=False)
    count = IntegerField("Cards to place (class line, self-paced)", default=10, validators=[
        InputRequired(), NumberRange(min=3, max=40, message="Choose 3 to 40 cards.")])
    hand_size = IntegerField("Cards per team (team Cardline)", default=4, validators=[
        InputRequired(), NumberRange(min=1, max=12, message="Deal 1 to 12 cards per team.")])
    turn_seconds = IntegerField("Seconds per turn (0 = no timer)", default=30, validators=[
        InputRequired(), NumberRange(min=0, max=600, message="Use 0 (no timer) to 600 seconds.")])
    leaderboard = SelectField("Show the leaderboard", choices=options([
        ("every", "After every card"), ("end", "Only at the end"), ("never", "Never")]))
    stage_names = SelectField("On the stage during homework", default="scores", choices=options([
        ("scores", "Each student's name and score"), ("names", "Names only: who has finished"),
        ("count", "Only how many have finished (no names)")]))
    teams = IntegerField("Teams (team Cardline)", default=4, validators=[
        InputRequired(), NumberRange(min=2, max=8, message="Split the class into 2 to 8 teams.")])
    team_mode = SelectField("Team decisions", choices=options([
        ("captain", "The captain places the card"), ("majority", "Majority vote of the team")]))
    points = points_field("Points (class line, diet sort)")
    dino_names = BooleanField(dino_names.SETTING_LABEL)
    submit = SubmitField("Create the round")

    def __init__(self, *args, teacher_sets=(), teacher_classes=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.for_class.choices = options([("", "Anyone with the code"), *((str(c.id), f"Class {c.name}")
                                                                          for c in teacher_classes)])
        self.teacher_class_ids = {str(c.id) for c in teacher_classes}
        self.period.choices = period_options()
        self.group.choices = group_options()
        self.diet.choices = diet_options()
        self.card_set.choices = options(((str(s.id), s.name) for s in teacher_sets), "Choose a set")
        self.teacher_set_ids = {str(s.id) for s in teacher_sets}

    def validate_for_class(self, field):
        if field.data and field.data not in self.teacher_class_ids:
            raise ValidationError("Choose one of your classes, or anyone with the code.")

    def validate_points(self, field):
        check_points(field.data, FORMATS.get(self.format.data))

    def class_id(self):
        """Return the id of the class the round is for, or None (open to anyone with the code)."""
        return int(self.for_class.data) if self.for_class.data else None

    def takes_times(self):
        return self.format.data == HOMEWORK

    @staticmethod
    def data_of(rnd):
        """Return the form's values for a round's set-up (to edit it)."""
        settings = rnd.settings
        zone = settings.get("timezone") or "UTC"

        def local(key):
            at = settings.get(key)
            return datetime.fromtimestamp(at, ZoneInfo(zone)).replace(tzinfo=None) if at is not None else None

        data = {key: settings.get(key) for key in ("deck", "characteristic", "choice", "period", "group", "diet",
                                                   "count", "hand_size", "turn_seconds", "leaderboard", "teams",
                                                   "team_mode", "stage_names", "dino_names", "points")
                if settings.get(key) is not None}
        return {**data, "title": rnd.title, "format": rnd.format, "timezone": zone,
                "for_class": str(rnd.class_id) if rnd.class_id else "",
                "card_set": str(settings["set_id"]) if settings.get("set_id") else "",
                "opens_at": local("opens_at"), "closes_at": local("closes_at")}

    def validate_card_set(self, field):
        if self.choice.data == "set" and field.data not in self.teacher_set_ids:
            raise ValidationError("Choose one of your card sets (make one on the Teach page).")

    def settings(self):
        """Return the round's settings from the form."""
        return {"deck": self.deck.data, "characteristic": self.characteristic.data, "choice": self.choice.data,
                "period": self.period.data or None, "group": self.group.data or None, "diet": self.diet.data or None,
                "set_id": int(self.card_set.data) if self.choice.data == "set" else None,
                "count": self.count.data, "hand_size": self.hand_size.data, "turn_seconds": self.turn_seconds.data,
                "leaderboard": self.leaderboard.data, "teams": self.teams.data, "team_mode": self.team_mode.data,
                "stage_names": self.stage_names.data, "points": self.points.data, **self.timetable(),
                # A class's pupils play under the names on its list, so a class round never takes dino names.
                "dino_names": bool(self.dino_names.data) and self.class_id() is None}


class TeacherCardSetForm(FlaskForm):
    """Save a card set from a list of card names."""

    name = StringField("Name of the set", validators=[InputRequired(message="Give the set a name."), Length(max=80)])
    cards = TextAreaField("Cards (names or slugs, one per line or separated by commas)",
                          validators=[InputRequired(message="List some cards."), Length(max=5000)])
    submit = SubmitField("Save the set")


def option_field(label):
    """Return an optional text field for one of a question's options or items."""
    return StringField(label, validators=[Optional(), Length(max=120, message="Use at most 120 characters.")])


class QuestionForm(FlaskForm):
    """What every question a teacher writes has: its words and an explanation shown after the answer."""

    prompt = TextAreaField("Question", validators=[InputRequired(message="Write the question."),
                                                   Length(max=300, message="Use at most 300 characters.")])
    explanation = TextAreaField("Explanation (shown after the answer)",
                                validators=[Optional(), Length(max=500, message="Use at most 500 characters.")])
    submit = SubmitField("Save the question")

    items = ""  # what its options are called in the form's field names: "option", "item"
    hint = ""  # a line the form shows above them

    def item_fields(self):
        """Return the fields of its options or items, in order."""
        return [field for name, field in self._fields.items() if name.startswith(self.items + "_")]

    def filled(self):
        """Return the options or items typed, in order, blanks left out."""
        return [field.data.strip() for field in self.item_fields() if (field.data or "").strip()]

    def data_of(self, question):
        """Return the form's values for a stored question (to change it)."""
        return {"prompt": question.prompt, "explanation": question.explanation,
                **{f"{self.items}_{i + 1}": text for i, text in enumerate(question.options)}}


class ChoiceQuestionForm(QuestionForm):
    """A multiple-choice question: two to four options, one of them right."""

    kind, items = "choice", "option"
    option_1, option_2, option_3, option_4 = (option_field(f"Option {i}") for i in range(1, 5))
    right = SelectField("The right option", choices=options((str(i), f"Option {i}") for i in range(1, 5)))

    def data_of(self, question):
        return {**super().data_of(question), "right": str(question.answer + 1)}

    def validate_right(self, field):
        options = self.filled()
        if len(options) < 2:
            raise ValidationError("Write at least two options.")
        if len({o.casefold() for o in options}) < len(options):
            raise ValidationError("Two options are the same: make each different.")
        chosen = self[f"option_{field.data}"].data if field.data in {"1", "2", "3", "4"} else None
        if not (chosen or "").strip():
            raise ValidationError("The right option is empty: choose one you wrote.")

    def answer(self):
        """Return the right option's place among the options written."""
        written = [name for name in ("option_1", "option_2", "option_3", "option_4") if (self[name].data or "").strip()]
        return written.index(f"option_{self.right.data}")


class OrderQuestionForm(QuestionForm):
    """A put-in-order question: two to five items, written in the right order (students see them shuffled)."""

    kind, items = "order", "item"
    hint = "Write the items in the right order (first to last); students see them shuffled."
    item_1, item_2, item_3, item_4, item_5 = (option_field(f"Item {i}") for i in range(1, 6))

    def validate(self, extra_validators=None):
        """Check each field, then the items together (beside the first item): at least two, all different."""
        valid = super().validate(extra_validators)
        items = self.filled()
        problem = "Write at least two items, in the right order." if len(items) < 2 else \
            "Two items are the same: make each different." if len({i.casefold() for i in items}) < len(items) else None
        if problem:
            self.item_1.errors = [*self.item_1.errors, problem]
        return valid and not problem

    def answer(self):
        return None


QUESTION_FORMS = {"choice": ChoiceQuestionForm, "order": OrderQuestionForm}


class QuestionQuizForm(Timetable, FlaskForm):
    """Run a live quiz of the teacher's multiple-choice questions, with generated ones mixed in if wanted."""

    generated = IntegerField("Questions from the cards to mix in (0 to 15)", default=0, validators=[
        Optional(), NumberRange(min=0, max=15, message="Mix in 0 to 15 questions.")])
    turn_seconds = IntegerField("Seconds per question (0 = no timer)", default=30, validators=[
        Optional(), NumberRange(min=0, max=600, message="Use 0 to 600 seconds.")])
    leaderboard = SelectField("Leaderboard", default="every", choices=options([
        ("every", "After every question"), ("end", "Only at the end"), ("never", "Never")]))
    title = StringField("Title", default="My questions", validators=[InputRequired(message="Give the quiz a title."),
                                                                     Length(max=120)])
    points = points_field("Points (live quiz)")
    for_class = SelectField("Who plays", validate_choice=False)
    dino_names = BooleanField(dino_names.SETTING_LABEL)

    def __init__(self, *args, teacher_classes=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.for_class.choices = options([("", "Anyone with the code"), *((str(c.id), f"Class {c.name}")
                                                                          for c in teacher_classes)])
        self.teacher_class_ids = {str(c.id) for c in teacher_classes}

    def validate_for_class(self, field):
        if field.data and field.data not in self.teacher_class_ids:
            raise ValidationError("Choose one of your classes, or anyone with the code.")

    def validate_points(self, field):
        check_points(field.data, FORMATS["quiz"])

    def class_id(self):
        """Return the id of the class the quiz is for, or None (open to anyone with the code)."""
        return int(self.for_class.data) if self.for_class.data else None

    def only_dino_names(self):
        """Say whether students must play under dino names (never in a class's quiz: its list names them)."""
        return bool(self.dino_names.data) and self.class_id() is None
