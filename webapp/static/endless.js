// The endless line's best score for each deck and characteristic, kept in this browser (no account).
// Without JavaScript the game and its score still show; only the best score is missing.
(function () {
  const key = "deep-time-cards-endless";
  let best = {};
  try { best = JSON.parse(localStorage.getItem(key)) || {}; } catch (error) { best = {}; }

  const record = document.querySelector(".endless-record");
  if (record && record.dataset.over === "yes") {
    const line = record.dataset.endlessKey, score = Number(record.dataset.score);
    const note = document.querySelector(".new-best");
    if (!(line in best) || score > best[line]) {
      if (note && line in best) note.textContent = `A new best score! Your best was ${best[line]}.`;
      else if (note) note.textContent = "Your first score on this line: now beat it.";
      best[line] = score;
      try { localStorage.setItem(key, JSON.stringify(best)); } catch (error) { /* private mode: show this game only */ }
    }
  }
  document.querySelectorAll(".endless-best[data-endless-key]").forEach((place) => {
    const score = best[place.dataset.endlessKey];
    if (score) place.textContent = `· best ${score}`;
  });
})();
