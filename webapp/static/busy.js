// A form whose answer may take a while (a searching computer player's turn) says so when the
// browser has waited a moment, so the page does not look frozen; quick answers show nothing.
// Without JavaScript the form simply posts.
document.querySelectorAll("form[data-busy]").forEach((form) => {
  const status = form.querySelector(".busy[role=status]");
  form.addEventListener("submit", () => {
    form.classList.add("is-busy");
    setTimeout(() => { if (status) status.textContent = form.dataset.busy; }, 300);
  });
});
