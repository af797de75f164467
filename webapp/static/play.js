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
    const form = event.target.closest("form[data-confirm-touch]");
    const gap = event.target.closest("label.gap");
    if (!form || !gap) return;
    const card = form.querySelector("input[name=card]:checked");
    // event.detail is 0 for clicks made with the keyboard.
    if (card && pointer === "mouse" && event.detail > 0) {
      gap.querySelector("input").checked = true;
      form.requestSubmit();
    }
  });
})();

// Dragging a card onto a gap (or a diet bin) does what choosing both does, so a whiteboard or a
// mouse can move cards as on a table. Pointer events, because HTML drag and drop never fires on
// touch screens. A finger must rest on the card for a moment first, so swiping over the hand
// still scrolls the page; a mouse drags at once. As with clicks, a mouse drop places the card and
// a touch drop only selects, for the button to confirm.
(function () {
  const HOLD_MS = 250;
  const START_PX = 6;
  let drag = null;

  const gapAt = (x, y, form) => {
    const gap = document.elementFromPoint(x, y)?.closest("label.gap");
    return gap && form.contains(gap) ? gap : null;
  };

  const highlight = (gap) => {
    if (drag.over === gap) return;
    drag.over?.classList.remove("drop-target");
    gap?.classList.add("drop-target");
    drag.over = gap;
  };

  const begin = () => {
    const input = drag.card.querySelector("input[name=card]");
    input.checked = true;
    input.dispatchEvent(new Event("change", { bubbles: true }));
    const ghost = drag.card.cloneNode(true);
    ghost.querySelectorAll("input").forEach((node) => node.remove());
    ghost.classList.add("drag-ghost");
    ghost.setAttribute("aria-hidden", "true");
    document.body.append(ghost);
    drag.ghost = ghost;
    drag.card.classList.add("dragging");
  };

  const follow = (x, y) => {
    drag.ghost.style.left = `${x}px`;
    drag.ghost.style.top = `${y}px`;
    highlight(gapAt(x, y, drag.form));
  };

  const finish = (drop) => {
    if (!drag) return;
    clearTimeout(drag.timer);
    const { ghost, over, form, card, type } = drag;
    ghost?.remove();
    over?.classList.remove("drop-target");
    card.classList.remove("dragging");
    drag = null;
    if (!drop || !ghost || !over) return;
    const input = over.querySelector("input");
    input.checked = true;
    input.dispatchEvent(new Event("change", { bubbles: true }));
    if (type === "mouse") form.requestSubmit();
    else input.focus();
  };

  document.addEventListener("pointerdown", (event) => {
    const card = event.target.closest("form[data-confirm-touch] label.hand-card");
    if (!card || !event.isPrimary || event.button > 0) return;
    drag = { card, form: card.closest("form"), type: event.pointerType, x: event.clientX, y: event.clientY };
    if (event.pointerType === "touch") {
      drag.timer = setTimeout(() => { begin(); follow(drag.x, drag.y); }, HOLD_MS);
    }
  });

  document.addEventListener("pointermove", (event) => {
    if (!drag || !event.isPrimary) return;
    if (!drag.ghost) {
      const moved = Math.hypot(event.clientX - drag.x, event.clientY - drag.y) >= START_PX;
      if (moved && drag.type === "touch") finish(false); // a swipe: let the page scroll
      if (!moved || !drag) return;
      begin();
    }
    follow(event.clientX, event.clientY);
  });

  // Once a held finger is dragging a card, its moves must not scroll the page.
  document.addEventListener("touchmove", (event) => {
    if (drag?.ghost) event.preventDefault();
  }, { passive: false });
  document.addEventListener("contextmenu", (event) => {
    if (drag) event.preventDefault();
  });
  // The browser's own dragging of a card's picture would cancel ours.
  document.addEventListener("dragstart", (event) => {
    if (event.target.closest?.("label.hand-card")) event.preventDefault();
  });
  document.addEventListener("pointerup", (event) => finish(event.isPrimary));
  document.addEventListener("pointercancel", () => finish(false));
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape") finish(false);
  });
})();

// A line longer than its box scrolls by itself (not the page) to the card just placed, or just turned over.
(function () {
  for (const line of document.querySelectorAll(".line")) {
    const card = line.querySelector(".just-placed, .turned");
    if (card && line.scrollWidth > line.clientWidth) {
      line.scrollLeft = card.offsetLeft - (line.clientWidth - card.offsetWidth) / 2;
    }
  }
})();
