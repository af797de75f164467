// Push: follow a live screen's event stream (server-sent events) and say whether it is working, so that
// the page polls only when it is not. The server sends the view at once and after every change, and
// "alive" at least every 15 s: a stream silent for longer (a proxy holding it back, Wi-Fi gone) counts as
// lost until it speaks again. The browser reconnects a dropped stream by itself; one the server refused
// (a 204 from a server that polls only, a 403) is tried again a minute later.
window.livePush = function (url, onView) {
  const SILENT_MS = 35000;
  const RETRY_MS = 60000;
  let heardAt = 0;
  let source = null;

  function open() {
    if (!url || !window.EventSource) return;
    const stream = new EventSource(url);
    source = stream;
    stream.addEventListener("view", (event) => {
      heardAt = Date.now();
      onView(JSON.parse(event.data));
    });
    stream.addEventListener("alive", () => { heardAt = Date.now(); });
    stream.addEventListener("gone", () => {
      stream.close();
      location.reload();  // taken out of the round, or the round deleted: the page says so
    });
    stream.onerror = () => {
      heardAt = 0;
      if (stream.readyState === EventSource.CLOSED && source === stream) setTimeout(open, RETRY_MS);
    };
  }

  open();
  return {
    live: () => heardAt > 0 && Date.now() - heardAt < SILENT_MS,
    reopen(newUrl) {
      url = newUrl;
      if (source) source.close();
      heardAt = 0;
      open();
    },
  };
};
