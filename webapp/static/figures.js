// Render the plotly figures whose JSON the server built. Clicking a card's bar opens its page;
// the same cards are listed as links under each chart for keyboard and screen reader users.
(function () {
  for (const element of document.querySelectorAll("[data-figure]")) {
    fetch(element.dataset.figure, { headers: { Accept: "application/json" } })
      .then((response) => {
        if (!response.ok) return response.json().then((body) => { throw new Error(body.error); });
        return response.json();
      })
      .then((figure) => {
        element.textContent = "";
        return Plotly.newPlot(element, figure.data, figure.layout, {
          responsive: true, displaylogo: false, modeBarButtonsToRemove: ["select2d", "lasso2d"],
        });
      })
      .then(() => {
        element.on("plotly_click", (event) => {
          const data = event.points[0].customdata;
          const link = Array.isArray(data) ? data[0] : data;
          if (typeof link === "string" && link.startsWith("/cards/")) window.location.href = link;
        });
      })
      .catch((error) => { element.textContent = "The chart could not be drawn: " + error.message; });
  }
})();
