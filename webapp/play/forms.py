"""The forms of the games: set-ups of Cardline, Stack-O-Saurus, Dinoblivion, practice and quizzes, and their moves."""

from flask_wtf import FlaskForm
from wtforms import (
    BooleanField,
    FieldList,
    Form,
    FormField,
    HiddenField,
    IntegerField,
    RadioField,
    SelectField,
    SelectMultipleField,
    StringField,
    SubmitField,
)
from wtforms.validators import DataRequired, InputRequired, Length, NumberRange, Optional, ValidationError
from wtforms.widgets import CheckboxInput, ListWidget

from webapp.common.forms import DeckForm, SeatForm, SeatsForm, characteristic_options, options
from webapp.games import trivia


class NewCardlineForm(DeckForm, SeatsForm):
    """Set up a Cardline game at one screen."""

    hand_size = IntegerField("Cards per player", default=4, validators=[
        InputRequired(), NumberRange(min=1, max=12, message="Deal between 1 and 12 cards.")])
    players = IntegerField("Number of players", default=2, validators=[
        InputRequired(), NumberRange(min=2, max=8, message="Cardline is for 2 to 8 players.")])
    seats = FieldList(FormField(SeatForm), min_entries=8, max_entries=8)
    submit = SubmitField("Start the game")


class PlaceForm(FlaskForm):
    """Place a card from the hand into a gap of the line."""

    seat = IntegerField(validators=[InputRequired()])
    card = StringField("Card", validators=[InputRequired(message="Choose a card from your hand.")])
    gap = IntegerField("Place", validators=[InputRequired(message="Choose a place in the line.")])


class PracticeForm(DeckForm):
    """Set up a solo sorting challenge."""

    characteristic = SelectField("Sort by", default="mass", choices=characteristic_options(
        [("diet", "Diet: carnivore, herbivore or omnivore bins")]))
    count = IntegerField("Number of cards", default=8, validators=[
        InputRequired(), NumberRange(min=3, max=20, message="Choose between 3 and 20 cards.")])
    mode = SelectField("How", choices=options([
        ("line", "One card at a time"), ("all", "All cards at once")]))
    submit = SubmitField("Start")


class AnswerForm(FlaskForm):
    """One answer in a solo challenge: a gap in the line, or a diet bin."""

    gap = IntegerField("Place", validators=[Optional()])
    diet = StringField("Bin", validators=[Optional(), Length(max=20)])
    card = StringField("Card", validators=[Optional(), Length(max=80)])  # the card the page showed


COLOUR_CHOICES = [("blue", "Blue ●"), ("orange", "Orange ▲"), ("purple", "Purple ◆"), ("green", "Green ■")]


class NewStackForm(SeatsForm):
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
    # The rulebook by default; each departure from it is a house rule a teacher may choose.
    discard_any_time = BooleanField("House rule: you may discard instead of playing (the rulebook lets you "
                                    "discard only when you cannot play)")
    sturdy_base = BooleanField("House rule: the Apatosaurus cannot be scared (by the rulebook a Tyrannosaurus "
                               "scares it off a tower that is only its Apatosaurus)")
    submit = SubmitField("Start the game")

    def validate_fourth(self, field):
        if self.order_mode.data == "chosen" and len(set(self.tower_order())) != 4:
            raise ValidationError("Use each colour once in the tower order.")

    def tower_order(self):
        """Return the chosen order of the four colours, or None for a random one."""
        if self.order_mode.data != "chosen":
            return None
        return [self.first.data, self.second.data, self.third.data, self.fourth.data]

    def house_rules(self):
        """Return the chosen house rules as engine config: each true or false."""
        return {"discard_any_time": self.discard_any_time.data, "sturdy_base": self.sturdy_base.data}


class DinoblivionSeatForm(Form):
    """One Dinoblivion seat: a name, and a person or a computer player."""

    name = StringField("Name", validators=[Optional(), Length(max=40, message="Use at most 40 characters.")])
    kind = SelectField("Played by", default="human", choices=options([
        ("human", "A person at this screen"), ("remote", "A person on their own device (join code)"),
        ("easy", "Computer: random"), ("medium", "Computer: greedy"), ("hard", "Computer: searching (strongest)")]))


class NewDinoblivionForm(SeatsForm):
    """Set up a Dinoblivion Duel (2 seats) or Solo game (the first seat)."""

    mode = RadioField("Game", default="duel", choices=options([
        ("duel", "Duel: 2 players"), ("solo", "Solo: you against the Jungle")]))
    difficulty = SelectField("Solo difficulty", default="gatherer", choices=options([
        ("gatherer", "Gatherer (Jungle of 40 cards, easiest)"), ("hunter", "Hunter (36 cards)"),
        ("warrior", "Warrior (32 cards)"), ("chief", "Chief (28 cards, hardest)")]))
    # The rulebook by default; the fan notes' longer reading is a house rule a teacher may choose (the rulebook's
    # words let a player end a Duel within a few turns by buying out a Hunting Ground).
    end_trigger = SelectField("When a Duel ends", default="hunting_grounds", choices=options([
        ("hunting_grounds", "The rulebook: when a Hunting Ground or the Jungle runs empty (can end in a few turns)"),
        ("dinosaur_decks", "House rule, a longer game: when a dinosaur stack or the Jungle runs empty (fan notes)")]))
    open_grounds = BooleanField("House rule: open Hunting Grounds (anyone may look through the piles; the "
                                "rulebook shows only the top card)")
    workar_later = BooleanField("House rule: Workar's second Action card later in the turn (the rulebook plays "
                                "both at once)")
    seats = FieldList(FormField(DinoblivionSeatForm), min_entries=2, max_entries=2)
    submit = SubmitField("Start the game")

    def validate_seats(self, field):
        kinds = [entry.form.kind.data for entry in field.entries]
        if self.mode.data == "solo" and kinds[0] not in ("human", "remote"):
            raise ValidationError("Solo is played by a person: choose a person for the first seat.")
        if self.mode.data == "duel" and not {"human", "remote"} & set(kinds):
            raise ValidationError("At least one of the two seats must be a person.")

    def seats_in_play(self):
        """Return the seats in play: 1 for Solo, 2 for a Duel."""
        return self.seats.entries[: 1 if self.mode.data == "solo" else 2]


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

    def validate_kinds(self, field):
        if self.deck.data != "animals":
            return
        labels = [label for value, label in trivia.KINDS.items() if value in (field.data or ()) and value in trivia.PREHISTORIC_KINDS]
        if labels:
            raise ValidationError(f"{' and '.join(repr(label) for label in labels)} can only be asked about prehistoric "
                                  "animals: choose prehistoric animals or both decks, or untick "
                                  f"{'it' if len(labels) == 1 else 'them'}.")


class QuizAnswerForm(FlaskForm):
    """Answer the current quiz question; the question id guards against a stale or forged page."""

    question = HiddenField(validators=[InputRequired(message="This answer has no question.")])
    choice = RadioField("Your answer", validate_choice=True,
                        validators=[InputRequired(message="Choose an answer.")])
    submit = SubmitField("Answer")
