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
