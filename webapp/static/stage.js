// The stage: a round full-screen on the projector.
//
// Its live part is pushed down an event stream (push.js) and, while that is not working, polled every
// second with If-None-Match (an unchanged stage is a bodiless 304). The seconds left come from the
// server's clock beside the fragment (in the event, or the X-Seconds-Left header), so the fragment never
// changes with time; between them the clock only counts down here, for display.
//
// Keys (nothing on the stage is typed into): Space does the round's next step (start, reveal, next card)
// when the round allows it now, as the fragment's data-main says (a presenter's "next" button, which
// sends → or Page Down, does the same); P pauses or resumes; F switches full screen; ↑ and ↓ move the window
// on a long line (the panel is asked for "?from=N", the first card shown). A key sends the
// control by fetch with the page's CSRF token, as the round page's button would, then the stage refreshes.
//
// Sound is off until the teacher switches it on (remembered in this browser): ticks in the last five
// seconds and a chime at each reveal, made here with Web Audio oscillators, nothing fetched.
(function () {
  const stage = document.getElementById("stage");
  if (!stage) return;
  let token = document.querySelector("meta[name=csrf-token]")?.content || "";
  const notice = document.getElementById("stage-notice");
  const soundButton = document.getElementById("stage-sound");
  const SOUND_KEY = "deep-time-cards:stage-sound";
  const MAIN_KEYS = [" ", "Spacebar", "ArrowRight", "PageDown"];

  let etag = null;
  let windowStart = 0;
  let polling = false;
  let sending = false;
  let timer = null;

  const current = () => stage.querySelector(".s-screen");
  let revealKey = current()?.dataset.reveal || "";

  // The clock, from the server: the seconds left when the header came, and when that was.
  let serverLeft = null;
  let serverAt = 0;
  let lastShown = null;
  let lastTick = null;

  function setSecondsLeft(seconds) {
    serverLeft = Number.isFinite(seconds) ? seconds : null;
    serverAt = performance.now();
    drawClock();
  }

  function drawClock() {
    const clock = stage.querySelector("[data-countdown]");
    const screen = current();
    if (!clock || serverLeft === null || !screen) {
      lastShown = null;
      return;
    }
    const paused = screen.dataset.roundStatus !== "playing";
    const left = Math.max(0, serverLeft - (paused ? 0 : (performance.now() - serverAt) / 1000));
    const shown = Math.ceil(left - 0.05);
    const total = parseFloat(clock.dataset.total) || 0;
    clock.querySelector("[data-countdown-number]").textContent = shown;
    clock.style.setProperty("--left", total > 0 ? Math.min(1, left / total).toFixed(3) : "1");
    clock.classList.toggle("is-low", shown <= 5);
    // One tick for each of the last five seconds, however the server's clock and this one differ.
    if (shown > 5) lastTick = null;
    else if (lastShown !== null && !paused && (lastTick === null || shown < lastTick)) {
      tick(shown === 0);
      lastTick = shown;
    }
    lastShown = shown;
  }

  // ---- Sound: Web Audio oscillators only. ----
  let soundOn = false;
  try {
    soundOn = localStorage.getItem(SOUND_KEY) === "on";
  } catch (error) {
    soundOn = false;
  }
  let audio = null;

  function audioContext() {
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return null;
    if (!audio) audio = new Context();
    if (audio.state === "suspended") audio.resume().catch(() => {});
    return audio;
  }

  function tone(frequency, start, length, volume, type) {
    const context = audioContext();
    if (!context) return;
    const oscillator = context.createOscillator();
    const gain = context.createGain();
    const at = context.currentTime + start;
    oscillator.type = type;
    oscillator.frequency.setValueAtTime(frequency, at);
    gain.gain.setValueAtTime(0.0001, at);
    gain.gain.exponentialRampToValueAtTime(volume, at + 0.01);
    gain.gain.exponentialRampToValueAtTime(0.0001, at + length);
    oscillator.connect(gain).connect(context.destination);
    oscillator.start(at);
    oscillator.stop(at + length + 0.05);
  }

  function tick(last) {
    if (soundOn) tone(last ? 440 : 880, 0, last ? 0.35 : 0.08, 0.2, "square");
  }

  function chime() {
    if (!soundOn) return;
    [523.25, 659.25, 783.99, 1046.5].forEach((frequency, index) => tone(frequency, index * 0.11, 0.7, 0.16, "triangle"));
  }

  function drawSound() {
    soundButton.textContent = soundOn ? "Sound: on" : "Sound: off";
    soundButton.dataset.on = soundOn ? "yes" : "";
  }

  if (soundButton) {
    drawSound();
    soundButton.addEventListener("click", () => {
      soundOn = !soundOn;
      try {
        localStorage.setItem(SOUND_KEY, soundOn ? "on" : "off");
      } catch (error) {
        // Not remembered (private window): it still works until the page closes.
      }
      drawSound();
      if (soundOn) tone(660, 0, 0.15, 0.2, "sine");
    });
  }

  // ---- The live part. ----
  function say(message) {
    if (!notice) return;
    notice.textContent = message;
    clearTimeout(say.timer);
    say.timer = setTimeout(() => { notice.textContent = ""; }, 6000);
  }

  function swap(html) {
    stage.innerHTML = html;
    const key = current()?.dataset.reveal || "";
    if (key && key !== revealKey) chime();
    revealKey = key;
    drawClock();
    if (current()?.dataset.roundStatus === "finished") clearInterval(timer);  // nothing changes after the end
  }

  function streamUrl() {
    if (!stage.dataset.events) return null;
    const url = new URL(stage.dataset.events, location.href);
    url.searchParams.set("from", windowStart);
    return url.href;
  }
  const push = window.livePush ? window.livePush(streamUrl(), (view) => {
    swap(view.html);
    setSecondsLeft(typeof view.seconds === "number" ? view.seconds : null);
  }) : null;

  async function poll(force) {
    if (polling || (!force && push && push.live())) return;
    polling = true;
    try {
      const headers = etag ? { "If-None-Match": etag } : {};
      const response = await fetch(`${stage.dataset.panel}?from=${windowStart}`, { headers, cache: "no-cache" });
      if (response.redirected || response.status === 401 || response.status === 403 || response.status === 404) {
        location.reload();  // logged out, or not this teacher's round any more: the page says so
        return;
      }
      if (response.status === 200) {
        etag = response.headers.get("ETag");
        swap(await response.text());
      }
      const left = response.headers.get("X-Seconds-Left");
      setSecondsLeft(left === null ? null : parseFloat(left));
    } catch (error) {
      // Offline for a moment: keep the last view and try again next second.
    } finally {
      polling = false;
    }
  }

  // A control goes as the round page's button sends it, by fetch: an empty answer when done, or why not
  // (a control that no longer applies: the round moved on by itself), said here.
  // A stage may stay open longer than its CSRF token lives (an hour): a refused token is fetched anew, once.
  async function freshToken() {
    const response = await fetch(location.pathname, { cache: "no-cache" });
    const page = new DOMParser().parseFromString(await response.text(), "text/html");
    return page.querySelector("meta[name=csrf-token]")?.content || token;
  }

  async function post(action) {
    const body = new FormData();
    body.append("csrf_token", token);
    body.append("action", action);
    return fetch(stage.dataset.control, {
      method: "POST", body, headers: { "X-Live-Panel": "1", Accept: "application/json" },
    });
  }

  async function send(action) {
    if (sending) return;
    sending = true;
    try {
      let response = await post(action);
      if (response.status === 400) {
        token = await freshToken();
        response = await post(action);
      }
      if (response.status === 503) say("The app is very busy: nothing was done. Press the key again in a moment.");
      else if (!response.ok) {
        const refused = await response.json().catch(() => ({}));
        say(refused.error || `That did not work (${response.status}).`);
      }
    } catch (error) {
      say("No connection: nothing was sent. Press the key again.");
    } finally {
      sending = false;
      etag = null;
      await poll(true);
    }
  }

  // The window on a long line: a window's worth earlier or later, within the line.
  function moveWindow(direction) {
    const line = stage.querySelector("[data-window-count]");
    if (!line) return;
    const size = Number(line.dataset.windowSize);
    const last = Math.max(0, Number(line.dataset.windowCount) - size);
    windowStart = Math.min(last, Math.max(0, Number(line.dataset.windowStart) + direction * size));
    etag = null;
    if (push) push.reopen(streamUrl());
    poll(true);
  }

  function fullScreen() {
    if (document.fullscreenElement) document.exitFullscreen().catch(() => {});
    else if (document.documentElement.requestFullscreen) document.documentElement.requestFullscreen().catch(() => {});
  }

  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (soundOn) audioContext();  // a key press lets the browser play sound
    const screen = current();
    if (MAIN_KEYS.includes(event.key)) {
      event.preventDefault();  // never scrolls, never presses a focused button
      if (!event.repeat && screen?.dataset.main) send(screen.dataset.main);
    } else if (event.key === "p" || event.key === "P") {
      if (!event.repeat && screen?.dataset.pause) send(screen.dataset.pause);
    } else if (event.key === "f" || event.key === "F") {
      if (!event.repeat) fullScreen();
    } else if (event.key === "ArrowUp" || event.key === "ArrowDown") {
      event.preventDefault();
      moveWindow(event.key === "ArrowUp" ? -1 : 1);
    }
  });
  // A focused button is pressed on Space's release: Space already did the round's next step.
  document.addEventListener("keyup", (event) => {
    if (MAIN_KEYS.includes(event.key)) event.preventDefault();
  });

  const initial = stage.dataset.secondsLeft;
  setSecondsLeft(initial ? parseFloat(initial) : null);
  if (current()?.dataset.roundStatus !== "finished") timer = setInterval(poll, 1000);
  setInterval(drawClock, 250);
})();
