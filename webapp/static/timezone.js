// A time zone select left on its default takes the browser's own zone (the teacher can still change it).
(function () {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  for (const select of document.querySelectorAll("select[name=timezone][data-guess]")) {
    if ([...select.options].some((option) => option.value === zone)) select.value = zone;
  }
})();
