// Live views: ask the server every second, with If-None-Match, whether the view changed; an
// unchanged view costs a bodiless 304. Students poll a tiny "version" answer and fetch the panel
// only when it changes; the teacher's page polls its panel directly. The seconds left come from
// the server's clock in a header; between polls the countdown only ticks down locally for
// display. Forms in a fetched panel get this page's CSRF token (the fragment leaves it out, so
// identical views keep identical ETags).
(function () {
  const live = document.getElementById("live");
  if (!live) return;
  const token = document.querySelector("meta[name=csrf-token]")?.content || "";
  let etag = null;
  let busy = false;

  function fillTokens() {
    for (const input of live.querySelectorAll("input[name=csrf_token]")) {
      if (!input.value) input.value = token;
    }
  }

  function setCountdown(seconds) {
    for (const element of live.querySelectorAll(".countdown")) {
      element.dataset.seconds = seconds;
      element.textContent = Math.max(0, Math.round(seconds));
    }
  }

  async function swapPanel(response) {
    live.innerHTML = await response.text();
    fillTokens();
  }

  async function poll() {
    if (busy) return;
    busy = true;
    try {
      const url = live.dataset.version || live.dataset.panel;
      const headers = etag ? { "If-None-Match": etag } : {};
      const response = await fetch(url, { headers, cache: "no-cache" });
      const left = response.headers.get("X-Seconds-Left");
      if (response.status === 200) {
        etag = response.headers.get("ETag");
        if (live.dataset.version) {
          await swapPanel(await fetch(live.dataset.panel, { cache: "no-cache" }));
        } else {
          await swapPanel(response);
        }
      }
      if (left !== null) setCountdown(parseFloat(left));
    } catch (error) {
      // Offline for a moment: keep the last view and try again next second.
    } finally {
      busy = false;
    }
  }

  fillTokens();
  setInterval(poll, 1000);
  setInterval(() => {
    for (const element of live.querySelectorAll(".countdown")) {
      const next = Math.max(0, parseFloat(element.dataset.seconds) - 1);
      element.dataset.seconds = next;
      element.textContent = Math.round(next);
    }
  }, 1000);
})();
