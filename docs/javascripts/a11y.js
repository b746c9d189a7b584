// Accessibility fixes to the theme's markup, applied when a page loads:
// - the search dialog gets a name (the theme leaves its role="dialog" unnamed);
// - every region that scrolls sideways (a wide table on a phone) can be reached and scrolled from the
//   keyboard, and says what it is.
(function () {
  function fix() {
    var search = document.querySelector(".md-search[role=dialog]");
    if (search && !search.hasAttribute("aria-label")) search.setAttribute("aria-label", "Search");
    document.querySelectorAll(".md-typeset__scrollwrap, .variant-table, .md-typeset table").forEach(function (el) {
      if (el.scrollWidth > el.clientWidth && !el.hasAttribute("tabindex")) {
        el.setAttribute("tabindex", "0");
        el.setAttribute("role", "region");
        el.setAttribute("aria-label", "Table, scrolls sideways");
      }
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", fix);
  else fix();
  window.addEventListener("resize", fix);
})();
