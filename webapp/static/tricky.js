// My tricky cards: every placement a practice, daily challenge or endless line page shows after its verdict is kept
// in this browser (no account), and posted with the forms that start a tricky practice or show its progress; a
// browser a pupil linked with their personal code also keeps it on the school's server.
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
  function summarise(where) {
    if (!summary) return;
    const history = read().history;
    const confused = new Set(history.filter((p) => !p.right).map((p) => p.card));
    summary.textContent = history.length
      ? `${history.length} placement${history.length === 1 ? "" : "s"} kept ${where}; ${confused.size} card${confused.size === 1 ? "" : "s"} you have mixed up at least once.`
      : `No placements kept ${where} yet: this first practice deals cards at random, and learns from it.`;
    summary.hidden = false;
  }
  summarise("in this browser");

  // A browser linked to a pupil on a class list sends its history to the school's server and catches up with the
  // pupil's other devices: the server answers the merged history, which is kept here too.
  const placementKey = (p) => `${p.at}|${p.card}`;
  const sync = document.querySelector("form[data-tricky-sync]");
  if (sync && window.fetch) {
    fill(sync);
    fetch(sync.action, { method: "POST", body: new FormData(sync), credentials: "same-origin",
                         headers: { Accept: "application/json" } })
      .then((response) => (response.ok ? response.json() : Promise.reject(response.status)))
      .then((answer) => {
        const kept = read(), known = new Set(answer.history.map(placementKey));
        const history = answer.history.concat(kept.history.filter((p) => !known.has(placementKey(p))));
        history.sort((a, b) => a.at - b.at);
        write({ history, games: kept.games });
        document.querySelectorAll("form[data-tricky-history]").forEach(fill);
        summarise(`for ${answer.pupil} (this browser and the school's server)`);
      })
      .catch(() => { /* offline or unlinked: this browser's own history still deals */ });
  }

  // Unlinking: this browser forgets its copy (on a shared computer, the next child does not start with it).
  document.querySelectorAll("form[data-tricky-unlink]").forEach((form) => {
    form.addEventListener("submit", () => {
      try { localStorage.removeItem(key); } catch (error) { /* nothing was kept */ }
    });
  });

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
