// Feedback that feels like a game: a short sound and a motion when the page shows a verdict on the player's own
// move, and a streak that celebrates 3, 5 and 10 right in a row. Pages mark that verdict with data-verdict="right"
// or "wrong" (data-streak when the server keeps the streak); the verdict is the server's, shown after the move,
// so nothing here knows a hidden value. The words already say right or wrong; this only adds to them. Sounds are
// made here with the Web Audio API (no file is fetched) and one switch, remembered by this browser, mutes them.
// Nothing moves under prefers-reduced-motion. Each verdict plays once: a reload shows it without a sound.
(function () {
  const MUTE_KEY = "deep-time-cards-muted";
  const SEEN_KEY = "deep-time-cards-verdicts";  // per page: the last verdict played and the streak counted here
  const CHEERS = { 3: "3 in a row!", 5: "5 in a row: brilliant!", 10: "10 in a row: unstoppable!" };
  const stillness = window.matchMedia("(prefers-reduced-motion: reduce)");
  let audio = null;

  const load = (store, key, fallback) => {
    try { return JSON.parse(store.getItem(key)) ?? fallback; } catch (error) { return fallback; }
  };
  const save = (store, key, value) => {
    try { store.setItem(key, JSON.stringify(value)); } catch (error) { /* private mode: this page only */ }
  };
  const muted = () => load(localStorage, MUTE_KEY, false) === true;

  // A cheer at each milestone, and every ten after ten.
  const cheerFor = (streak) => CHEERS[streak] || (streak > 10 && streak % 10 === 0 ? `${streak} in a row: amazing!` : "");

  function tone(context, frequency, start, length, type = "sine") {
    const oscillator = context.createOscillator();
    const gain = context.createGain();
    oscillator.type = type;
    oscillator.frequency.setValueAtTime(frequency, start);
    gain.gain.setValueAtTime(0.0001, start);
    gain.gain.exponentialRampToValueAtTime(0.18, start + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, start + length);
    oscillator.connect(gain).connect(context.destination);
    oscillator.start(start);
    oscillator.stop(start + length + 0.05);
  }

  const TUNES = {
    right: [[523.25, 0, 0.14], [783.99, 0.1, 0.22]],                         // up a fifth: C5, G5
    wrong: [[196, 0, 0.18, "triangle"], [155.56, 0.14, 0.3, "triangle"]],      // down: G3, E♭3
    cheer: [[523.25, 0, 0.12], [659.25, 0.09, 0.12], [783.99, 0.18, 0.12], [1046.5, 0.27, 0.35]],
  };

  // Play a tune if the browser lets sound start now; a sound that could only start at the next tap would come
  // late and mean nothing, so it is dropped. Returns what the page heard, for the tests and for no one else.
  async function play(tune) {
    if (muted()) return "muted";
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return "no sound";
    audio = audio || new Context();
    if (audio.state !== "running") {
      await Promise.race([audio.resume(), new Promise((done) => setTimeout(done, 300))]);
      if (audio.state !== "running") return "not allowed yet";
    }
    const now = audio.currentTime + 0.02;
    for (const [frequency, at, length, type] of TUNES[tune]) tone(audio, frequency, now + at, length, type);
    return tune;
  }

  // A browser that refused sound until a tap lets it start at the next one, ready for the next verdict.
  const wake = () => { if (audio && audio.state === "suspended") audio.resume(); };
  document.addEventListener("pointerdown", wake, true);
  document.addEventListener("keydown", wake, true);

  function move(element, motion) {
    if (stillness.matches) return;
    element.classList.remove("fb-right", "fb-wrong", "fb-cheer");
    void element.offsetWidth;  // restart the animation when the same element gets it again
    element.classList.add(motion);
  }

  function meter(verdict) {
    let place = document.querySelector(".streak-meter");
    if (!place) {
      place = document.createElement("p");
      place.className = "streak-meter";
      place.setAttribute("role", "status");
    }
    const block = verdict.closest("section, .last-move") || verdict;
    if (place.previousElementSibling !== block) block.after(place);
    return place;
  }

  function showStreak(verdict, streak, before, fresh) {
    const place = meter(verdict);
    const cheer = verdict.dataset.verdict === "right" ? cheerFor(streak) : "";
    place.classList.toggle("is-cheer", Boolean(cheer));
    if (verdict.dataset.verdict === "right") {
      place.textContent = cheer ? `★ ${cheer} ★` : `Streak: ${streak} right in a row`;
    } else {
      place.textContent = before >= 2 ? `Streak ended at ${before}. Start a new one!` : "Streak: 0. The next one!";
    }
    if (fresh && cheer) move(place, "fb-cheer");
    return Boolean(cheer);
  }

  // A verdict is known again by its first sentence, which names its card (its page is the other half of the key);
  // not by the whole block, whose later parts other scripts may fill in after a reload.
  function keyOf(verdict) {
    const block = verdict.closest("section, .last-move") || verdict;
    const words = verdict.dataset.verdictKey || (block.querySelector("p") || block).textContent;
    return words.replace(/\s+/g, " ").trim().slice(0, 300);
  }

  async function react() {
    const verdict = document.querySelector("[data-verdict]");
    if (!verdict || verdict.dataset.feedback) return;
    verdict.dataset.feedback = "pending";
    const seen = load(sessionStorage, SEEN_KEY, {});
    // Each player's streak is their own, when several take turns at one screen (data-player: their seat).
    const here = location.pathname + (verdict.dataset.player ? `#${verdict.dataset.player}` : "");
    const last = seen[here] || { key: null, streak: 0 };
    const key = keyOf(verdict);
    const fresh = key !== last.key;
    const right = verdict.dataset.verdict === "right";
    const given = Number.parseInt(verdict.dataset.streak, 10);
    const streak = !fresh ? last.streak : Number.isInteger(given) ? given : right ? last.streak + 1 : 0;
    const before = fresh ? last.streak : last.before || 0;
    seen[here] = { key, streak, before };
    save(sessionStorage, SEEN_KEY, seen);
    const cheer = showStreak(verdict, streak, before, fresh);
    if (!fresh) {
      verdict.dataset.feedback = "again";
      return;
    }
    move(verdict, right ? "fb-right" : "fb-wrong");
    verdict.dataset.feedback = await play(cheer ? "cheer" : right ? "right" : "wrong");
  }

  // One switch for every page's sounds, where a game can give a verdict.
  function addSwitch() {
    if (document.querySelector(".sound-switch")) return;
    const live = document.getElementById("live");
    const playing = document.querySelector("form[data-confirm-touch], [data-verdict]") || live?.dataset.version;
    const heading = document.querySelector("main h1");
    if (!playing || !heading) return;
    const button = document.createElement("button");
    button.type = "button";
    button.className = "button secondary sound-switch";
    const note = document.createElement("span");
    note.setAttribute("aria-hidden", "true");
    note.textContent = "♪ ";
    const words = document.createElement("span");
    button.append(note, words);
    const show = () => { words.textContent = muted() ? "Sound: off" : "Sound: on"; };
    button.addEventListener("click", () => {
      save(localStorage, MUTE_KEY, !muted());
      show();
    });
    show();
    heading.before(button);
  }

  addSwitch();
  react();
  document.addEventListener("live-panel-swapped", () => { addSwitch(); react(); });
})();
