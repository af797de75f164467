// A set-up form offers only what the chosen deck can be sorted by: periods for the prehistoric deck,
// lifespans for the living animals (each option says its decks in data-decks). Without JavaScript every
// option stays, and a deck that lacks the one chosen is refused beside the field.
(function () {
  for (const deck of document.querySelectorAll("select[name=deck]")) {
    const sortBy = deck.form && deck.form.querySelector("select[name=characteristic]");
    if (!sortBy) continue;
    const offer = () => {
      for (const option of sortBy.options) {
        option.disabled = Boolean(option.dataset.decks) && !option.dataset.decks.split(" ").includes(deck.value);
      }
      if (sortBy.selectedOptions[0] && sortBy.selectedOptions[0].disabled) {
        const first = [...sortBy.options].find((option) => !option.disabled);
        if (first) sortBy.value = first.value;
      }
    };
    deck.addEventListener("change", offer);
    offer();
  }
})();
