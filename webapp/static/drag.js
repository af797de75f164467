// Dragging a hand card into the line (or a diet bin), as in Wikitrivia: the card lifts under the finger at once,
// a place opens in the line where it would go, and letting go there sends the same form with that gap chosen, as
// tapping the gap and pressing the button does. Only a hand card takes the finger (CSS gives it touch-action: none),
// so a swipe that starts anywhere else still scrolls. A mouse lifts a card once it moves, so a click still only
// chooses it. Pointer events, because HTML drag and drop never fires on touch screens. Listeners sit on the document,
// so the forms a live panel brings later work too; taps, the keyboard and the form without JavaScript are untouched.
(function () {
  const MOUSE_START_PX = 6;
  const NEAR_LINE_PX = 48;   // a card held this far above or below the line still opens a place in it
  const EDGE_PX = 40;        // a finger this near an edge of the screen or of the line scrolls it
  const SCROLL_STEP_PX = 9;
  const HINT_KEY = "deep-time-cards-drag-hint";
  let drag = null;

  const handCardAt = (target) => target.closest?.("form[data-confirm-touch] label.hand-card");

  function choose(input) {
    input.checked = true;
    input.dispatchEvent(new Event("change", { bubbles: true }));
  }

  function gapsOf(line) {
    return [...line.querySelectorAll("label.gap")];
  }

  // Over the line, the place that opens is the nearest gap; while the finger stays inside the place already open,
  // it stays open, so the line shifting as it opens does not make the place jump back and forth.
  function placeInLine(x, y) {
    const line = drag.form.querySelector(".line");
    if (!line) return null;
    const box = line.getBoundingClientRect();
    if (x < box.left || x > box.right || y < box.top - NEAR_LINE_PX || y > box.bottom + NEAR_LINE_PX) return null;
    const open = drag.over?.closest(".gap-slot")?.getBoundingClientRect();
    if (open && line.contains(drag.over) && x >= open.left && x <= open.right) return drag.over;
    let nearest = null, distance = Infinity;
    for (const gap of gapsOf(line)) {
      const slot = gap.closest(".gap-slot").getBoundingClientRect();
      const away = Math.abs(x - (slot.left + slot.right) / 2);
      if (away < distance) [nearest, distance] = [gap, away];
    }
    return nearest;
  }

  function placeAt(x, y) {
    const inLine = placeInLine(x, y);
    if (inLine) return inLine;
    const hit = document.elementFromPoint(x, y)?.closest("label.gap");  // a diet bin, say
    return hit && drag.form.contains(hit) ? hit : null;
  }

  function open(place) {
    if (drag.over === place) return;
    drag.over?.classList.remove("drop-target");
    drag.over?.closest(".gap-slot")?.classList.remove("drop-open");
    place?.classList.add("drop-target");
    place?.closest(".gap-slot")?.classList.add("drop-open");
    drag.over = place;
  }

  function lift() {
    choose(drag.card.querySelector("input[name=card]"));
    const ghost = drag.card.cloneNode(true);
    ghost.querySelectorAll("input").forEach((node) => node.remove());
    ghost.classList.add("drag-ghost");
    ghost.setAttribute("aria-hidden", "true");
    ghost.style.width = `${drag.card.offsetWidth}px`;
    document.body.append(ghost);
    drag.ghost = ghost;
    drag.card.classList.add("dragging");
    follow(drag.x, drag.y);
    drag.frame = requestAnimationFrame(scrollNearEdges);
  }

  function follow(x, y) {
    drag.x = x;
    drag.y = y;
    drag.ghost.style.left = `${x}px`;
    drag.ghost.style.top = `${y}px`;
    open(placeAt(x, y));
  }

  // While a finger drags a card the page cannot scroll under it, so the edges of the screen, and of a line longer
  // than its box, scroll for it.
  function scrollNearEdges() {
    if (!drag?.ghost) return;
    const { x, y } = drag;
    const step = (near, far) => (near ? -SCROLL_STEP_PX : far ? SCROLL_STEP_PX : 0);
    const down = step(y < EDGE_PX, y > window.innerHeight - EDGE_PX);
    if (down) window.scrollBy(0, down);
    const line = drag.form.querySelector(".line");
    const box = line?.getBoundingClientRect();
    if (box && y >= box.top - NEAR_LINE_PX && y <= box.bottom + NEAR_LINE_PX) {
      const across = step(x < box.left + EDGE_PX, x > box.right - EDGE_PX);
      if (across) line.scrollLeft += across;
    }
    if (down || box) follow(x, y);
    drag.frame = requestAnimationFrame(scrollNearEdges);
  }

  function finish(drop) {
    if (!drag) return;
    const { ghost, over, form, card } = drag;
    cancelAnimationFrame(drag.frame);
    ghost?.remove();
    over?.classList.remove("drop-target");
    over?.closest(".gap-slot")?.classList.remove("drop-open");
    card.classList.remove("dragging");
    drag = null;
    // A live panel redrawn under the finger took this form away: the card stays chosen in the new one.
    if (!drop || !ghost || !over || !form.isConnected) return;
    choose(over.querySelector("input"));
    form.requestSubmit();
  }

  document.addEventListener("pointerdown", (event) => {
    const card = handCardAt(event.target);
    if (!card || !event.isPrimary || event.button > 0 || drag) return;
    drag = { card, form: card.closest("form"), x: event.clientX, y: event.clientY, startX: event.clientX,
             startY: event.clientY };
    if (event.pointerType !== "mouse") lift();
  });

  document.addEventListener("pointermove", (event) => {
    if (!drag || !event.isPrimary) return;
    if (!drag.ghost) {
      if (Math.hypot(event.clientX - drag.startX, event.clientY - drag.startY) < MOUSE_START_PX) return;
      lift();
    }
    follow(event.clientX, event.clientY);
  });

  // A lifted card's moves must not scroll the page (touch-action does this where it is supported).
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

  // Once per browser, a line to place a card into says how: the child who never found dragging now sees it.
  function showHint() {
    const form = [...document.querySelectorAll("form[data-confirm-touch]")]
      .find((candidate) => candidate.querySelector("label.hand-card input") && candidate.querySelector(".line label.gap"));
    if (!form || form.querySelector(".drag-hint")) return;
    try {
      if (localStorage.getItem(HINT_KEY)) return;
      localStorage.setItem(HINT_KEY, "shown");
    } catch (error) {
      return;  // storage refused (private mode): better no hint than one on every page
    }
    const several = form.querySelectorAll("label.hand-card").length > 1;
    const hint = document.createElement("p");
    hint.className = "drag-hint";
    hint.setAttribute("role", "note");
    const words = document.createElement("span");
    words.textContent = `Drag ${several ? "a" : "the"} card into the line, or tap a gap.`;
    const close = document.createElement("button");
    close.type = "button";
    close.className = "button secondary drag-hint-close";
    close.textContent = "Got it";
    close.addEventListener("click", () => hint.remove());
    hint.append(words, " ", close);
    const hand = form.querySelector(".hand");
    hand.parentNode.insertBefore(hint, hand);
  }

  showHint();
  document.addEventListener("live-panel-swapped", showHint);
})();
