// A page waiting for another player's move reloads itself once the game has changed, so a player
// on their own device never has to press Refresh (the button stays, for browsers without
// JavaScript). It asks every two seconds with the version it shows; the answer is 304 until a move.
(function () {
  const waiting = document.querySelector("[data-watch]");
  if (!waiting) return;
  const etag = `"${waiting.dataset.version}"`;
  const check = () => {
    if (document.hidden) {
      setTimeout(check, 2000);
      return;
    }
    fetch(waiting.dataset.watch, { headers: { "If-None-Match": etag }, cache: "no-store" })
      .then((response) => {
        if (response.status === 200) window.location.reload();
        else setTimeout(check, response.status === 304 ? 2000 : 10000);
      })
      .catch(() => setTimeout(check, 5000));
  };
  setTimeout(check, 2000);
})();
