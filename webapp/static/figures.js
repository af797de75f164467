// Render the plotly figures whose JSON the server built. Clicking a card's bar opens its page;
// the same cards are listed as links under each chart for keyboard and screen reader users.
// The server plans labels for the chart's width (so they never collide or get clipped): the page
// sends it, and asks again when the chart becomes much wider or narrower (a phone turned sideways).
(function () {
  const drawn = new Map();

  function draw(element) {
    const width = Math.round(element.clientWidth / 10) * 10 || 800;
    drawn.set(element, width);
    const url = element.dataset.figure + (element.dataset.figure.includes("?") ? "&" : "?") + "width=" + width;
    fetch(url, { headers: { Accept: "application/json" } })
      .then((response) => {
        if (!response.ok) return response.json().then((body) => { throw new Error(body.error); });
        return response.json();
      })
      .then((figure) => {
        if (!element.classList.contains("js-plotly-plot")) element.textContent = "";
        return Plotly.react(element, figure.data, figure.layout, {
          responsive: true, displaylogo: false, modeBarButtonsToRemove: ["select2d", "lasso2d"],
          // Nothing leaves the app: plotly's own defaults name its cloud and a map server; neither is used here.
          showLink: false, showSendToCloud: false, showEditInChartStudio: false, plotlyServerURL: "",
          topojsonURL: "/vendor/no-maps/",
        });
      })
      .then(() => {
        if (element.dataset.clicks) return;
        element.dataset.clicks = "on";
        element.on("plotly_click", (event) => {
          const data = event.points[0].customdata;
          const link = Array.isArray(data) ? data[0] : data;
          if (typeof link === "string" && link.startsWith("/cards/")) window.location.href = link;
        });
      })
      .catch((error) => { element.textContent = "The chart could not be drawn: " + error.message; });
  }

  const figures = document.querySelectorAll("[data-figure]");
  figures.forEach(draw);
  let pending = null;
  window.addEventListener("resize", () => {
    clearTimeout(pending);
    pending = setTimeout(() => {
      figures.forEach((element) => {
        const was = drawn.get(element);
        if (Math.abs(element.clientWidth - was) > was * 0.2) draw(element);
      });
    }, 300);
  });
})();

// The timeline's "Save this selection": a link copied is also remembered in this browser (the last
// five), so a visitor finds their selections again without anything stored on the server.
(function () {
  const box = document.querySelector(".remembered-selections");
  if (!box) return;
  const key = "deep-time-cards-selections";
  const read = () => {
    try { return (JSON.parse(localStorage.getItem(key)) || []).filter(isTimelineLink); } catch (error) { return []; }
  };
  function isTimelineLink(entry) {
    try {
      const url = new URL(entry.link, window.location.origin);
      return url.origin === window.location.origin && url.pathname === "/timeline" && typeof entry.label === "string";
    } catch (error) { return false; }
  }
  function show(entries) {
    const list = box.querySelector("ul");
    list.replaceChildren(...entries.map((entry) => {
      const item = document.createElement("li");
      const link = document.createElement("a");
      link.href = entry.link;
      link.textContent = entry.label;
      item.append(link);
      return item;
    }));
    box.hidden = entries.length === 0;
  }
  show(read());
  document.addEventListener("click", (event) => {
    const button = event.target.closest("button[data-remember]");
    if (!button) return;
    const entry = { link: document.getElementById(button.dataset.remember).value, label: button.dataset.label };
    const entries = [entry, ...read().filter((old) => old.link !== entry.link)].slice(0, 5);
    try { localStorage.setItem(key, JSON.stringify(entries)); } catch (error) { /* private mode: nothing kept */ }
    show(entries);
  });
})();
