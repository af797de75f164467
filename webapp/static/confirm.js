// A button that cannot be undone asks first (pages without a live panel; live.js does this for its own).
document.addEventListener("click", (event) => {
  const button = event.target.closest("[data-confirm]");
  if (button && !window.confirm(button.dataset.confirm)) event.preventDefault();
});
