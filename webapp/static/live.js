// Live views. The server pushes each change down an event stream (push.js): the panel, and beside it
// what is the student's own (their points and rank, their clock). While the stream is not working
// (a server that only polls, a dropped connection, a proxy holding it back) the page asks every
// second, with If-None-Match, whether the view changed; an unchanged view costs a bodiless 304.
// Students poll a tiny "version" answer and fetch the panel only when it changes; the teacher's page
// polls its panel directly. The seconds left come from the server's clock (in the event, or a header);
// between them the countdown only ticks down locally for display. Forms in a panel get this page's
// CSRF token (the fragment leaves it out, so identical views keep identical ETags).
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

  // Counts panel swaps, so a poll that started before an answer's reply does not put back the
  // older panel it fetched.
  let swaps = 0;

  // A choice not yet sent (a card, a gap, an option) survives the panel being refreshed.
  function choices() {
    return [...live.querySelectorAll("input:checked")].map((input) => [input.name, input.value]);
  }

  function restore(chosen) {
    for (const [name, value] of chosen) {
      const input = [...live.querySelectorAll("input")].find((i) => i.name === name && i.value === value);
      if (input && !input.disabled) input.checked = true;
    }
  }

  // The page was drawn for one state of the round (lobby, playing, finished...). It shows the others it names
  // (data-page-statuses: a teacher's lobby page holds the running round's parts, hidden) by showing and hiding
  // its parts; for any other (the end, whose results the page draws) it is drawn again.
  let drawnFor = live.querySelector("[data-round-status]")?.dataset.roundStatus;
  const pageStatuses = (live.dataset.pageStatuses || "").split(" ");

  // Show the page for `status`; say whether it could without loading again.
  function showStatus(status) {
    if (!drawnFor || !status || status === drawnFor) return true;
    if (!pageStatuses.includes(status)) return false;
    for (const part of document.querySelectorAll("[data-when-status]")) {
      part.hidden = !part.dataset.whenStatus.split(" ").includes(status);
    }
    drawnFor = status;
    return true;
  }

  async function swapPanel(response) {
    swapHtml(await response.text());
  }

  // The panel's news, which takes the focus after an answer so a screen reader reads the verdict.
  const NEWS = "[role=alert], .big-status, h2";
  const CONTROLS = "form[data-live-control] button";

  function focusNews(options) {
    const news = live.querySelector(NEWS);
    if (news) {
      news.tabIndex = -1;
      news.focus(options);
    }
  }

  // Where the focus was in the panel (the news, or a control by its name and value), to put it back
  // after a refresh: a pushed change must not throw a keyboard user back to the top of the page.
  function focusedPlace() {
    const element = document.activeElement;
    if (!element || element === live || !live.contains(element)) return null;
    if (element.matches(NEWS)) return NEWS;
    if (element.id) return `#${CSS.escape(element.id)}`;
    if (element.name) return `[name="${CSS.escape(element.name)}"][value="${CSS.escape(element.value)}"]`;
    return null;
  }

  // Where the focus was when a control was sent: its buttons are disabled meanwhile, which drops the focus.
  let sentFrom = null;

  function swapHtml(html) {
    const chosen = choices();
    const place = focusedPlace() || (document.activeElement === document.body ? sentFrom : null);
    sentFrom = null;
    live.innerHTML = html;
    pushedHtml = null;
    swaps += 1;
    fillTokens();
    restore(chosen);
    if (place === NEWS) focusNews({ preventScroll: true });
    // A control gone with the change (Start, once started) hands the focus to the first control now there.
    else if (place) (live.querySelector(place) || live.querySelector(CONTROLS))?.focus({ preventScroll: true });
    if (!showStatus(live.querySelector("[data-round-status]")?.dataset.roundStatus)) location.reload();
    else document.dispatchEvent(new Event("live-panel-swapped"));  // drag.js and feedback.js look at the new panel
  }

  // A pushed view: its panel when that changed, then the student's own standing and clock.
  let pushedHtml = null;
  function showPushed(view) {
    if (view.html !== pushedHtml) {
      swapHtml(view.html);
      pushedHtml = view.html;
    }
    if (typeof view.standing === "string") showStanding(view.standing);
    if (typeof view.seconds === "number") setCountdown(view.seconds);
  }

  function showStanding(text) {
    for (const element of live.querySelectorAll("[data-standing]")) {
      element.textContent = text;
      element.hidden = !text;
    }
  }

  const push = window.livePush ? window.livePush(live.dataset.events, showPushed) : null;

  async function poll() {
    if (busy || (push && push.live())) return;
    busy = true;
    const swapsBefore = swaps;
    try {
      const url = live.dataset.version || live.dataset.panel;
      const headers = etag ? { "If-None-Match": etag } : {};
      const response = await fetch(url, { headers, cache: "no-cache" });
      if (response.status === 403) {
        location.reload();  // taken out of the round: the page says so at once
        return;
      }
      const left = response.headers.get("X-Seconds-Left");
      if (response.status === 200) {
        etag = response.headers.get("ETag");
        const panel = live.dataset.version ? await fetch(live.dataset.panel, { cache: "no-cache" }) : response;
        if (swaps === swapsBefore) await swapPanel(panel);
        else etag = null;  // an answer's reply came in between: look again at the next poll
      }
      if (left !== null) setCountdown(parseFloat(left));
    } catch (error) {
      // Offline for a moment: keep the last view and try again next second.
    } finally {
      busy = false;
    }
  }

  // An answer goes by fetch and the server sends back the new panel: one request instead of a
  // post, a page load and a panel fetch. Without JavaScript the same form posts and reloads.
  live.addEventListener("submit", async (event) => {
    const form = event.target;
    if (!form.matches("form[data-live-submit]")) return;
    event.preventDefault();
    const button = form.querySelector("button[type=submit], button:not([type])");
    if (button) button.disabled = true;
    try {
      const response = await fetch(form.action, {
        method: "POST", body: new FormData(form), headers: { "X-Live-Panel": "1" },
      });
      if (response.status === 503) throw new Error("busy");  // the server queued it too long: nothing was counted
      if (response.headers.get("X-Panel") !== "1") {
        location.reload();  // not a panel (taken out of the round, say): the page shows why
        return;
      }
      // A pushing server sends the panel everyone who answered alike sees, and the student's own beside it.
      const standing = response.headers.get("X-Standing");
      const left = response.headers.get("X-Seconds-Left");
      const html = await response.text();
      swapHtml(html);
      if (standing !== null) {
        showStanding(decodeURIComponent(standing));
        pushedHtml = html;  // the stream's next view, if the same panel, need not draw it again
      }
      if (left !== null) setCountdown(parseFloat(left));
      focusNews();
    } catch (error) {
      if (button) button.disabled = false;
      let failed = form.querySelector(".send-failed");
      if (!failed) {
        failed = document.createElement("p");
        failed.className = "notice send-failed";
        failed.setAttribute("role", "alert");
        form.append(failed);
      }
      failed.textContent = error.message === "busy"
        ? "The app is very busy: your answer was not sent. Press the button again in a moment."
        : "No connection: your answer was not sent. Press the button again.";
    }
  });

  // A teacher's control goes by fetch too, and the page stays where it is: the round's stream (or, without
  // one, a poll at once) shows what it did, as it does on every student's screen. Only a change to a state of
  // the round the page cannot show (the end) draws the page again. Without JavaScript the form posts and reloads.
  const controlNews = document.querySelector("[data-control-news]");
  live.addEventListener("submit", async (event) => {
    const form = event.target;
    if (!form.matches("form[data-live-control]") || !event.submitter) return;
    event.preventDefault();
    const body = new FormData(form);
    body.append(event.submitter.name, event.submitter.value);
    const buttons = [...form.querySelectorAll("button")];
    sentFrom = focusedPlace();
    for (const button of buttons) button.disabled = true;
    let news = "";
    try {
      // getAttribute: the buttons are named "action", which form.action would give.
      const response = await fetch(form.getAttribute("action"), {
        method: "POST", body, headers: { "X-Live-Panel": "1", Accept: "application/json" },
      });
      if (response.ok) {
        if (!showStatus(response.headers.get("X-Round-Status"))) {
          location.reload();
          return;
        }
        if (!(push && push.live())) {
          etag = null;
          poll();
        }
      } else if (response.status === 503) {
        news = "The app is very busy: that was not done. Press the button again in a moment.";
      } else {
        const refused = await response.json().catch(() => ({}));
        news = refused.error || "That could not be done. The panel below shows what you can do now.";
        etag = null;
        poll();
      }
    } catch (error) {
      news = "No connection: that was not done. Press the button again.";
    } finally {
      for (const button of buttons) button.disabled = false;
      if (sentFrom && event.submitter.isConnected && document.activeElement === document.body) {
        event.submitter.focus();  // the panel has not changed yet: the focus goes back where it was
        sentFrom = null;
      }
    }
    if (controlNews) {
      controlNews.textContent = news;
      controlNews.hidden = !news;
    }
  });

  // A control that cannot be undone asks first.
  live.addEventListener("click", (event) => {
    const button = event.target.closest("[data-confirm]");
    if (button && !window.confirm(button.dataset.confirm)) event.preventDefault();
  });

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
