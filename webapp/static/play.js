// Cardline placement: with a mouse, clicking a gap places the chosen card at once; on a touch
// screen a tapped gap is only selected and the "Place card" button confirms it, so a slipped
// finger costs nothing. Keyboard users move between radios with the arrow keys and press the
// button. Without JavaScript the form works the same way as on touch screens.
(function () {
  const form = document.querySelector("form[data-confirm-touch]");
  if (!form) return;
  const note = form.querySelector(".confirm-note");
  let pointer = "";
  form.addEventListener("pointerdown", (event) => { pointer = event.pointerType; });
  form.addEventListener("change", (event) => {
    if (!event.target.matches("input[name=gap], input[name=diet]")) return;
    const card = form.querySelector("input[name=card]:checked");
    const where = event.target.closest("label").querySelector(".visually-hidden").textContent;
    if (!card) {
      note.textContent = "Now choose a card from your hand.";
      return;
    }
    const name = card.closest("label").querySelector(".mini-name").textContent;
    note.textContent = `${name}: ${where}? Press the button to confirm.`;
  });
  form.addEventListener("click", (event) => {
    const gap = event.target.closest("label.gap");
    const card = form.querySelector("input[name=card]:checked");
    // event.detail is 0 for clicks made with the keyboard.
    if (gap && card && pointer === "mouse" && event.detail > 0) {
      gap.querySelector("input").checked = true;
      form.requestSubmit();
    }
  });
})();
