// Accessibility fixes to the theme's markup, applied when a page loads:
// - the search dialog gets a name (the theme leaves its role="dialog" unnamed);
// - every region that scrolls sideways (a wide table on a phone) can be reached and scrolled from the
//   keyboard, and says what it is, each with a name of its own;
// - the buttons the theme puts on each code block sit in a navigation landmark: each gets a name of its own;
// - a navigation section inside another is named with it ("Rules: Albastini"), so that the same game under
//   two sections is not two landmarks of one name.
(function () {
  function label(nav) {
    var by = document.getElementById(nav.getAttribute("aria-labelledby") || "");
    return by ? by.textContent.trim() : nav.getAttribute("aria-label") || "";
  }
  function fix() {
    document.querySelectorAll("nav[aria-labelledby]").forEach(function (nav) {
      var outer = nav.parentElement && nav.parentElement.closest("nav[aria-labelledby], nav[data-trickspec-named]");
      if (!outer || nav.hasAttribute("data-trickspec-named")) return;
      nav.setAttribute("aria-label", label(outer) + ": " + label(nav));
      nav.setAttribute("data-trickspec-named", "");
      nav.removeAttribute("aria-labelledby");
    });
    document.querySelectorAll(".md-code__nav").forEach(function (nav, i) {
      nav.setAttribute("aria-label", "Code block " + (i + 1));
    });
    var search = document.querySelector(".md-search[role=dialog]");
    if (search && !search.hasAttribute("aria-label")) search.setAttribute("aria-label", "Search");
    var n = 0;
    document.querySelectorAll(".md-typeset__scrollwrap, .variant-table, .md-typeset table").forEach(function (el) {
      if (el.scrollWidth > el.clientWidth && !el.hasAttribute("tabindex")) {
        n += 1;
        el.setAttribute("tabindex", "0");
        el.setAttribute("role", "region");
        el.setAttribute("aria-label", "Table " + n + ", scrolls sideways");
      }
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", fix);
  else fix();
  // The theme draws the code blocks' buttons once it has loaded each page: name them then too.
  if (typeof document$ !== "undefined") document$.subscribe(function () { setTimeout(fix, 0); });
  window.addEventListener("resize", fix);
})();
