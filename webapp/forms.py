"""WTForms forms: every form of the app, validated on the server with messages beside the fields."""

import math

from flask_wtf import FlaskForm
from sqlalchemy import select
from wtforms import (
    FieldList,
    FloatField,
    Form,
    FormField,
    HiddenField,
    IntegerField,
    PasswordField,
    RadioField,
    SelectField,
    SelectMultipleField,
    StringField,
    SubmitField,
    TextAreaField,
)
from wtforms.fields.choices import SelectChoice
from wtforms.validators import (
    DataRequired,
    EqualTo,
    InputRequired,
    Length,
    NumberRange,
    Optional,
    Regexp,
    ValidationError,
)
from wtforms.widgets import CheckboxInput, ListWidget

from cards_db import schema
from webapp.extensions import db
from webapp.models import Period, Teacher

SORTS = {
    "name": "Name",
    "scientific_name": "Scientific name",
    "length": "Size",
    "mass": "Weight",
    "lifespan": "Lifespan",
    "age": "When it lived",
}
MAX_PAGE = 10_000
# A choice left blank means "any"; whitespace is not blank, or Optional() would wave "\r" past the choice check.
blank_or_choice = Optional(strip_whitespace=False)


def whole_number(text, digits=9):
    """Return `text` as an int if it is 1 to `digits` plain digits 0-9, else None ("²" and "1e3" are not)."""
    return int(text) if 0 < len(text) <= digits and text.isascii() and text.isdigit() else None


def finite(form, field):
    """Refuse 'nan' and 'inf', which FloatField would otherwise accept."""
    if field.data is not None and not math.isfinite(field.data):
        raise ValidationError("Please enter an ordinary number.")


def options(pairs, anything=None):
    """Return SelectField choices from (value, label) pairs, led by an 'any' option if given."""
    lead = [SelectChoice("", anything)] if anything else []
    return lead + [SelectChoice(value, label) for value, label in pairs]


class CardFilterForm(FlaskForm):
    """Search, filter, sort and page through the cards (read from the query string)."""

    class Meta:
        csrf = False

    q = StringField("Name", validators=[Optional(), Length(max=100)])
    deck = SelectField("Deck", validators=[blank_or_choice])
    period = SelectField("Period", validators=[blank_or_choice])
    diet = SelectField("Diet", validators=[blank_or_choice])
    group = SelectField("Group", validators=[blank_or_choice])
    min_length = FloatField("Size from (m)", validators=[Optional(), finite, NumberRange(min=0, max=1000)])
    max_length = FloatField("Size to (m)", validators=[Optional(), finite, NumberRange(min=0, max=1000)])
    min_mass = FloatField("Weight from (kg)", validators=[Optional(), finite, NumberRange(min=0, max=1e6)])
    max_mass = FloatField("Weight to (kg)", validators=[Optional(), finite, NumberRange(min=0, max=1e6)])
    sort = SelectField("Sort by", choices=options(SORTS.items()), default="name", validators=[blank_or_choice])
    order = SelectField("Order", choices=options([("asc", "Ascending"), ("desc", "Descending")]),
                        default="asc", validators=[blank_or_choice])
    page = IntegerField("Page", default=1, validators=[Optional(), NumberRange(min=1, max=MAX_PAGE)])
    per_page = IntegerField("Cards per page", default=24,
                            validators=[Optional(), NumberRange(min=1, max=100)])

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.deck.choices = options(schema.DECKS.items(), "Both decks")
        periods = db.session.scalars(select(Period.name).order_by(Period.position)).all()
        self.period.choices = options(((p, p) for p in periods), "Any period")
        self.diet.choices = options(((d, d.capitalize()) for d in schema.DIETS), "Any diet")
        groups = sorted({g for deck in schema.GROUPS.values() for g in deck})
        self.group.choices = options(((g, g.capitalize()) for g in groups), "Any group")

    def validate_max_length(self, field):
        if field.data is not None and self.min_length.data is not None and field.data < self.min_length.data:
            raise ValidationError("The largest size must not be below the smallest.")

    def validate_max_mass(self, field):
        if field.data is not None and self.min_mass.data is not None and field.data < self.min_mass.data:
            raise ValidationError("The largest weight must not be below the smallest.")

    def error_messages(self):
        """Return every error as one sentence per field, for the API."""
        return {name: " ".join(errors) for name, errors in self.errors.items()}


class MistakeReportForm(FlaskForm):
    """Tell us that something on a card is wrong."""

    field = SelectField("What is wrong?", choices=options([
        ("name", "A name"), ("diet", "The diet"), ("period", "When it lived"), ("size", "The size"),
        ("weight", "The weight"), ("lifespan", "The lifespan"), ("status", "The extinction risk"),
        ("fact", "The fact"), ("picture", "The picture"), ("sources", "The sources"),
        ("other", "Something else"),
    ]), validators=[DataRequired()])
    message = TextAreaField("Describe the mistake", validators=[
        DataRequired(message="Please say what is wrong."),
        Length(min=10, max=2000, message="Please write between 10 and 2000 characters."),
    ])
    suggested_source = StringField("A source for the correct value (optional)",
                                   validators=[Optional(), Length(max=500)])
    submit = SubmitField("Send report")


class SeatForm(Form):
    """One seat at the table: a name, and a person or a computer player."""

    name = StringField("Name", validators=[Optional(), Length(max=40)])
    kind = SelectField("Played by", default="human", validate_choice=False, choices=options([
        ("human", "A person at this screen"), ("remote", "A person on their own device (join code)"),
        ("easy", "Computer (easy)"), ("medium", "Computer (medium)"), ("hard", "Computer (hard)")]))

    def validate_kind(self, field):
        # Unused seats arrive empty; a filled kind must be one of the choices.
        if field.data not in (None, "", *[choice.value for choice in field.choices]):
            raise ValidationError("Choose a person or a computer level.")


class NewCardlineForm(FlaskForm):
    """Set up a Cardline game at one screen."""

    deck = SelectField("Deck", choices=options(schema.DECKS.items()))
    characteristic = SelectField("Sort the line by", choices=options([
        ("length", "Size"), ("mass", "Weight"), ("period", "Period (prehistoric deck)"),
        ("lifespan", "Lifespan (living animals deck)")]))
    hand_size = IntegerField("Cards per player", default=4, validators=[
        InputRequired(), NumberRange(min=1, max=12, message="Deal between 1 and 12 cards.")])
    players = IntegerField("Number of players", default=2, validators=[
        InputRequired(), NumberRange(min=2, max=8, message="Cardline is for 2 to 8 players.")])
    seats = FieldList(FormField(SeatForm), min_entries=8, max_entries=8)
    submit = SubmitField("Start the game")

    def validate_characteristic(self, field):
        if field.data == "period" and self.deck.data != "dinosaurs":
            raise ValidationError("Only prehistoric animals have a period: choose the prehistoric deck.")
        if field.data == "lifespan" and self.deck.data != "animals":
            raise ValidationError("Lifespans are on the living animals deck: choose that deck.")

    def chosen_seats(self):
        """Return the first `players` seats as dicts, naming unnamed ones 'Player N'."""
        return [{"name": (entry.form.name.data or "").strip() or f"Player {index + 1}",
                 "kind": entry.form.kind.data or "human"}
                for index, entry in enumerate(self.seats.entries[: self.players.data])]


class PlaceForm(FlaskForm):
    """Place a card from the hand into a gap of the line."""

    seat = IntegerField(validators=[InputRequired()])
    card = StringField("Card", validators=[InputRequired(message="Choose a card from your hand.")])
    gap = IntegerField("Place", validators=[InputRequired(message="Choose a place in the line.")])


class PracticeForm(FlaskForm):
    """Set up a solo sorting challenge."""

    deck = SelectField("Deck", choices=options(schema.DECKS.items()))
    characteristic = SelectField("Sort by", choices=options([
        ("mass", "Weight"), ("length", "Size"), ("period", "Period (prehistoric deck)"),
        ("lifespan", "Lifespan (living animals deck)"), ("diet", "Diet: carnivore, herbivore or omnivore bins")]))
    count = IntegerField("Number of cards", default=8, validators=[
        InputRequired(), NumberRange(min=3, max=20, message="Choose between 3 and 20 cards.")])
    mode = SelectField("How", choices=options([
        ("line", "One card at a time"), ("all", "All cards at once")]))
    submit = SubmitField("Start")

    validate_characteristic = NewCardlineForm.validate_characteristic


class AnswerForm(FlaskForm):
    """One answer in a solo challenge: a gap in the line, or a diet bin."""

    gap = IntegerField("Place", validators=[Optional()])
    diet = StringField("Bin", validators=[Optional(), Length(max=20)])


COLOUR_CHOICES = [("blue", "Blue ●"), ("orange", "Orange ▲"), ("purple", "Purple ◆"), ("green", "Green ■")]


class NewStackForm(FlaskForm):
    """Set up a Stack-O-Saurus game."""

    players = IntegerField("Number of players", default=2, validators=[
        InputRequired(), NumberRange(min=2, max=6, message="Stack-O-Saurus is for 2 to 6 players.")])
    seats = FieldList(FormField(SeatForm), min_entries=6, max_entries=6)
    order_mode = SelectField("Dino Tower order", choices=options([
        ("random", "Drawn at random"), ("chosen", "Chosen below by the first player")]))
    first = SelectField("1st after the Apatosaurus", choices=options(COLOUR_CHOICES), default="blue")
    second = SelectField("2nd", choices=options(COLOUR_CHOICES), default="orange")
    third = SelectField("3rd", choices=options(COLOUR_CHOICES), default="purple")
    fourth = SelectField("4th", choices=options(COLOUR_CHOICES), default="green")
    submit = SubmitField("Start the game")

    chosen_seats = NewCardlineForm.chosen_seats

    def validate_fourth(self, field):
        if self.order_mode.data == "chosen" and len(set(self.tower_order())) != 4:
            raise ValidationError("Use each colour once in the tower order.")

    def tower_order(self):
        """Return the chosen order of the four colours, or None for a random one."""
        if self.order_mode.data != "chosen":
            return None
        return [self.first.data, self.second.data, self.third.data, self.fourth.data]


class DinoblivionSeatForm(Form):
    """One Dinoblivion seat: a name, and a person or a computer player."""

    name = StringField("Name", validators=[Optional(), Length(max=40, message="Use at most 40 characters.")])
    kind = SelectField("Played by", default="human", choices=options([
        ("human", "A person at this screen"), ("remote", "A person on their own device (join code)"),
        ("easy", "Computer: random"), ("medium", "Computer: greedy"), ("hard", "Computer: searching (strongest)")]))


class NewDinoblivionForm(FlaskForm):
    """Set up a Dinoblivion Duel (2 seats) or Solo game (the first seat)."""

    mode = RadioField("Game", default="duel", choices=options([
        ("duel", "Duel: 2 players"), ("solo", "Solo: you against the Jungle")]))
    difficulty = SelectField("Solo difficulty", default="gatherer", choices=options([
        ("gatherer", "Gatherer (Jungle of 40 cards, easiest)"), ("hunter", "Hunter (36 cards)"),
        ("warrior", "Warrior (32 cards)"), ("chief", "Chief (28 cards, hardest)")]))
    # The rulebook's words let a player end a Duel within a few turns by buying out a Hunting Ground;
    # a first game in class should last, so the longer reading is offered first.
    end_trigger = SelectField("When a Duel ends", default="dinosaur_decks", choices=options([
        ("dinosaur_decks", "Longer game: when a dinosaur stack or the Jungle runs empty (fan notes)"),
        ("hunting_grounds", "Rulebook's words: when a Hunting Ground or the Jungle runs empty (can end in a few turns)")]))
    seats = FieldList(FormField(DinoblivionSeatForm), min_entries=2, max_entries=2)
    submit = SubmitField("Start the game")

    def validate_seats(self, field):
        kinds = [entry.form.kind.data for entry in field.entries]
        if self.mode.data == "solo" and kinds[0] not in ("human", "remote"):
            raise ValidationError("Solo is played by a person: choose a person for the first seat.")
        if self.mode.data == "duel" and not {"human", "remote"} & set(kinds):
            raise ValidationError("At least one of the two seats must be a person.")

    def chosen_seats(self):
        """Return the seats in play (1 for Solo, 2 for a Duel), naming unnamed ones."""
        used = self.seats.entries[: 1 if self.mode.data == "solo" else 2]
        return [{"name": (entry.form.name.data or "").strip() or f"Player {index + 1}", "kind": entry.form.kind.data}
                for index, entry in enumerate(used)]


class JoinForm(FlaskForm):
    """Join a game from your own device with the code on the board."""

    code = StringField("Join code", validators=[InputRequired(message="Type the code on the board."),
                                                Length(max=8, message="A join code has 5 characters.")])
    name = StringField("Your name", validators=[InputRequired(message="Type your name."),
                                                Length(max=40, message="Use at most 40 characters.")])
    submit = SubmitField("Join")


class CardSetForm(FlaskForm):
    """Save the cards on the timeline as a named set."""

    name = StringField("Name of the set", validators=[InputRequired(message="Give the set a name."),
                                                      Length(max=80, message="Use at most 80 characters.")])
    slugs = StringField(validators=[InputRequired(message="There are no cards to save."), Length(max=5000)])
    submit = SubmitField("Save these cards")


EMAIL = Regexp(r"^[^@\s]+@[^@\s]+\.[^@\s]+$", message="Enter an email address like name@school.org.")


class RegisterForm(FlaskForm):
    """Create a teacher account."""

    name = StringField("Your name", validators=[InputRequired(message="Enter your name."), Length(max=80)])
    email = StringField("Email", validators=[InputRequired(message="Enter your email."), Length(max=254), EMAIL])
    password = PasswordField("Password", validators=[
        InputRequired(message="Choose a password."),
        Length(min=10, max=200, message="Use at least 10 characters.")])
    confirm = PasswordField("Password again", validators=[EqualTo("password", message="The passwords differ.")])
    submit = SubmitField("Create account")

    def validate_email(self, field):
        if db.session.scalar(select(Teacher.id).where(Teacher.email == field.data.strip().lower())):
            raise ValidationError("An account with this email exists already: log in instead.")


class LoginForm(FlaskForm):
    """Log a teacher in."""

    email = StringField("Email", validators=[InputRequired(message="Enter your email."), Length(max=254)])
    password = PasswordField("Password", validators=[InputRequired(message="Enter your password."), Length(max=200)])
    submit = SubmitField("Log in")


class NewRoundForm(FlaskForm):
    """Set up a classroom round."""

    title = StringField("Title", default="Cardline round",
                        validators=[InputRequired(message="Give the round a title."), Length(max=120)])
    format = SelectField("Format", choices=options([
        ("class_line", "Class line: everyone places the same card"),
        ("team", "Team Cardline: teams play the rulebook game"),
        ("self_paced", "Self-paced challenge: homework, each student alone")]))
    deck = SelectField("Deck", choices=options(schema.DECKS.items()))
    characteristic = NewCardlineForm.characteristic
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
    teams = IntegerField("Teams (team Cardline)", default=4, validators=[
        InputRequired(), NumberRange(min=2, max=8, message="Split the class into 2 to 8 teams.")])
    team_mode = SelectField("Team decisions", choices=options([
        ("captain", "The captain places the card"), ("majority", "Majority vote of the team")]))
    submit = SubmitField("Create the round")

    validate_characteristic = NewCardlineForm.validate_characteristic

    def __init__(self, *args, teacher_sets=(), **kwargs):
        super().__init__(*args, **kwargs)
        periods = db.session.scalars(select(Period.name).order_by(Period.position)).all()
        self.period.choices = options(((p, p) for p in periods), "Any period")
        groups = sorted({g for deck in schema.GROUPS.values() for g in deck})
        self.group.choices = options(((g, g.capitalize()) for g in groups), "Any group")
        self.diet.choices = options(((d, d.capitalize()) for d in schema.DIETS), "Any diet")
        self.card_set.choices = options(((str(s.id), s.name) for s in teacher_sets), "Choose a set")
        self.teacher_set_ids = {str(s.id) for s in teacher_sets}

    def validate_card_set(self, field):
        if self.choice.data == "set" and field.data not in self.teacher_set_ids:
            raise ValidationError("Choose one of your card sets (make one on the Teach page).")

    def settings(self):
        """Return the round's settings from the form."""
        return {"deck": self.deck.data, "characteristic": self.characteristic.data, "choice": self.choice.data,
                "period": self.period.data or None, "group": self.group.data or None, "diet": self.diet.data or None,
                "set_id": int(self.card_set.data) if self.choice.data == "set" else None,
                "count": self.count.data, "hand_size": self.hand_size.data, "turn_seconds": self.turn_seconds.data,
                "leaderboard": self.leaderboard.data, "teams": self.teams.data, "team_mode": self.team_mode.data}


class TeacherCardSetForm(FlaskForm):
    """Save a card set from a list of card names."""

    name = StringField("Name of the set", validators=[InputRequired(message="Give the set a name."), Length(max=80)])
    cards = TextAreaField("Cards (names or slugs, one per line or separated by commas)",
                          validators=[InputRequired(message="List some cards."), Length(max=5000)])
    submit = SubmitField("Save the set")


class NewQuizForm(FlaskForm):
    """Choose a trivia quiz: kinds of questions, difficulty, how many."""

    kinds = SelectMultipleField("Kinds of questions", widget=ListWidget(prefix_label=False),
                                option_widget=CheckboxInput(), validators=[
                                    DataRequired(message="Tick at least one kind of question.")])
    deck = SelectField("Cards from", choices=options([("dinosaurs", "Prehistoric animals"),
                                                      ("animals", "Living animals"), ("both", "Both decks")]))
    difficulty = SelectField("Difficulty", choices=options([
        ("easy", "Easy: far-apart values"), ("medium", "Medium"), ("hard", "Hard: close values")]), default="medium")
    count = IntegerField("Number of questions", default=8, validators=[
        InputRequired(), NumberRange(min=3, max=20, message="Choose 3 to 20 questions.")])
    submit = SubmitField("Start the quiz")

    def __init__(self, *args, kinds=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.kinds.choices = options(kinds)


class QuizAnswerForm(FlaskForm):
    """Answer the current quiz question; the question id guards against a stale or forged page."""

    question = HiddenField(validators=[InputRequired(message="This answer has no question.")])
    choice = RadioField("Your answer", validate_choice=True,
                        validators=[InputRequired(message="Choose an answer.")])
    submit = SubmitField("Answer")
