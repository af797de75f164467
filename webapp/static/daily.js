// The daily challenge's streak of days and best result, kept in this browser (no account), and the
// Copy button of the share text. Without JavaScript the result and the share text still show.
(function () {
  const record = document.querySelector(".daily-record");
  if (record) {
    const key = "deep-time-cards-daily";
    let days = {};
    try { days = JSON.parse(localStorage.getItem(key)) || {}; } catch (error) { days = {}; }
    const day = record.dataset.dailyDay;
    const score = Number(record.dataset.score), outOf = Number(record.dataset.outOf);
    // The first finished game of a day counts, as for everyone else in the class.
    if (!(day in days)) days[day] = { score, outOf };
    try { localStorage.setItem(key, JSON.stringify(days)); } catch (error) { /* private mode: show today only */ }
    let streak = 0;
    for (let date = new Date(day + "T12:00:00Z"); date.toISOString().slice(0, 10) in days; date.setUTCDate(date.getUTCDate() - 1)) {
      streak += 1;
    }
    const best = Object.values(days).reduce((top, d) => (d.score / d.outOf > top.score / top.outOf ? d : top));
    record.textContent = `Daily challenges in a row: ${streak} · your best result: ${best.score}/${best.outOf}`;
    record.hidden = false;
  }

  document.addEventListener("click", (event) => {
    const button = event.target.closest("button[data-copy]");
    if (!button) return;
    const text = document.getElementById(button.dataset.copy);
    const note = button.parentElement.querySelector(".copy-note");
    const say = (words) => { if (note) note.textContent = words; };
    text.select();
    let copied = false;
    try { copied = document.execCommand("copy"); } catch (error) { copied = false; }
    say(copied ? "Copied: paste it to share." : "The text is selected: copy it (Ctrl+C, or press and hold).");
    if (!copied && navigator.clipboard) {
      navigator.clipboard.writeText(text.value).then(() => say("Copied: paste it to share."), () => {});
    }
  });
})();
