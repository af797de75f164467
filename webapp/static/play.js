// Placing a card: with a mouse, clicking a gap places the chosen card at once; on a touch
// screen a tapped gap is only selected and the button confirms it, so a slipped finger costs
// nothing. Keyboard users move between radios with the arrow keys and press the button.
// Without JavaScript the form works the same way as on touch screens. Listeners sit on the
// document, so forms that arrive later in a live panel work too.
(function () {
  let pointer = "";
  document.addEventListener("pointerdown", (event) => { pointer = event.pointerType; }, true);

  document.addEventListener("change", (event) => {
    const form = event.target.closest("form[data-confirm-touch]");
    if (!form || !event.target.matches("input[name=gap], input[name=diet]")) return;
    const note = form.querySelector(".confirm-note");
    const card = form.querySelector("input[name=card]:checked");
    const where = event.target.closest("label").querySelector(".visually-hidden").textContent;
    if (!note) return;
    if (!card) {
      note.textContent = "Now choose a card.";
      return;
    }
    const name = card.closest("label").querySelector(".mini-name").textContent;
    note.textContent = `${name}: ${where}? Press the button to confirm.`;
  });

  document.addEventListener("click", (event) => {
    // A click on a gap's label reaches its radio as a second click: only that one places the card, so a
    // click sends one answer, not two (the second told "You have already answered this card").
    const gap = event.target.closest("label.gap input");
    const form = gap && gap.closest("form[data-confirm-touch]");
    if (!form) return;
    const card = form.querySelector("input[name=card]:checked");
    // event.detail is 0 for clicks made with the keyboard.
    if (card && pointer === "mouse" && event.detail > 0) {
      gap.checked = true;
      form.requestSubmit();
    }
  });
})();

// Dragging a card into the line is drag.js, shared with every page that places cards.

// A line longer than its box scrolls by itself (not the page) to the card just placed, or just turned over.
(function () {
  for (const line of document.querySelectorAll(".line")) {
    const card = line.querySelector(".just-placed, .turned");
    if (card && line.scrollWidth > line.clientWidth) {
      line.scrollLeft = card.offsetLeft - (line.clientWidth - card.offsetWidth) / 2;
    }
  }
})();
