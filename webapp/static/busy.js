// A form whose answer may take a while (a searching computer player's turn) says so while the
// browser waits, so the page does not look frozen. Without JavaScript the form simply posts.
document.querySelectorAll("form[data-busy]").forEach((form) => {
  const status = form.querySelector(".busy[role=status]");
  form.addEventListener("submit", () => {
    if (status) status.textContent = form.dataset.busy;
    form.classList.add("is-busy");
  });
});
