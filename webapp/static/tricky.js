// My tricky cards: every placement a practice, daily challenge or endless line page shows after its verdict is kept
// in this browser (no account), and posted with the forms that start a tricky practice or show its progress.
// The page gives only what it already shows (the card placed, right or not, the cards it passed, its neighbours).
(function () {
  const key = "deep-time-cards-tricky";
  const keep = 1000; // placements, the newest: the server refuses more
  const maxChars = 190000; // under the form's limit of 200,000 characters
  const keepGames = 50;

  function read() {
    try {
      const kept = JSON.parse(localStorage.getItem(key)) || {};
      return { history: Array.isArray(kept.history) ? kept.history : [], games: kept.games || {} };
    } catch (error) { return { history: [], games: {} }; }
  }

  function write(kept) {
    let history = kept.history.slice(-keep);
    while (history.length && JSON.stringify(history).length > maxChars) history = history.slice(Math.ceil(history.length / 10));
    const games = Object.fromEntries(Object.entries(kept.games).slice(-keepGames));
    try { localStorage.setItem(key, JSON.stringify({ history, games })); } catch (error) { /* private mode: nothing kept */ }
    return { history, games };
  }

  // A page shows every placement of its game so far: only those not yet kept are added (a reload adds nothing).
  const record = document.getElementById("tricky-record");
  if (record) {
    let shown = [];
    try { shown = JSON.parse(record.dataset.placements); } catch (error) { shown = []; }
    const kept = read(), game = record.dataset.game, already = Number(kept.games[game]) || 0;
    if (shown.length > already) {
      const now = Date.now();
      shown.slice(already).forEach((placement) => kept.history.push({ ...placement, game, at: now }));
      delete kept.games[game];
      kept.games[game] = shown.length;
      write(kept);
    }
  }

  function fill(form) {
    const field = form.querySelector("input[name=history]");
    if (field) field.value = JSON.stringify(read().history);
  }
  document.querySelectorAll("form[data-tricky-history]").forEach((form) => {
    fill(form);
    form.addEventListener("submit", () => fill(form));
  });

  const summary = document.querySelector(".tricky-summary");
  if (summary) {
    const history = read().history;
    const confused = new Set(history.filter((p) => !p.right).map((p) => p.card));
    summary.textContent = history.length
      ? `${history.length} placement${history.length === 1 ? "" : "s"} kept in this browser; ${confused.size} card${confused.size === 1 ? "" : "s"} you have mixed up at least once.`
      : "No placements kept in this browser yet: this first practice deals cards at random, and learns from it.";
    summary.hidden = false;
  }

  const forget = document.querySelector("button[data-tricky-forget]");
  if (forget) {
    forget.addEventListener("click", () => {
      try { localStorage.removeItem(key); } catch (error) { /* nothing was kept */ }
      document.querySelectorAll("form[data-tricky-history]").forEach(fill);
      const note = document.querySelector(".tricky-forgotten");
      if (note) note.textContent = "Forgotten: this browser keeps nothing of your cards now.";
      if (summary) summary.textContent = "No placements kept in this browser.";
    });
  }

  document.querySelectorAll("[data-tricky-figure]").forEach((element) => {
    if (typeof Plotly === "undefined") return;
    const figure = JSON.parse(element.dataset.trickyFigure);
    Plotly.react(element, figure.data, figure.layout, {
      responsive: true, displaylogo: false, staticPlot: false, modeBarButtonsToRemove: ["select2d", "lasso2d"],
      showLink: false, showSendToCloud: false, showEditInChartStudio: false, plotlyServerURL: "",
      topojsonURL: "/vendor/no-maps/",
    });
  });
})();
