// Live views: ask the server for the panel every second with If-None-Match, so an unchanged
// view costs a bodiless 304. The seconds left come from the server's clock in a header; between
// polls the countdown only ticks down locally for display. Forms in a fetched panel get this
// page's CSRF token (the fragment leaves it out, so identical views keep identical ETags).
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

  async function poll() {
    if (busy) return;
    busy = true;
    try {
      const headers = etag ? { "If-None-Match": etag } : {};
      const response = await fetch(live.dataset.panel, { headers, cache: "no-cache" });
      const left = response.headers.get("X-Seconds-Left");
      if (response.status === 200) {
        const focused = live.contains(document.activeElement) && document.activeElement.form;
        etag = response.headers.get("ETag");
        if (!focused || !etag) {
          live.innerHTML = await response.text();
          fillTokens();
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
