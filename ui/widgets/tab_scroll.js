// Streamlit's tabs scroll their selected tab into view ({block: 'nearest'}) whenever a run
// changes which tab is selected: a new figure with other panels, a method switched from the bar.
// With the tab row below the window's bottom, that scrolled the whole page by a screen's worth,
// taking a projector's presenter bar and plot off screen under the lecturer's → key. A tab is
// scrolled into view along its own row only; the page stays where the person left it (a tab the
// keyboard focuses is still shown by the browser's focus).
/** @param {Element} tab @returns {Element | null} */
function rowScroller(tab) {
  const list = tab.closest('[role="tablist"]');
  for (let box = tab.parentElement, depth = 0; box && depth < 4; box = box.parentElement, depth += 1) {
    if (box.scrollWidth > box.clientWidth + 1) return box;
    if (box === list?.parentElement) break;
  }
  return null;
}

/** @param {Element} tab */
function showAlongRow(tab) {
  const row = rowScroller(tab);
  if (!row) return;
  const rowBox = row.getBoundingClientRect();
  const tabBox = tab.getBoundingClientRect();
  if (tabBox.left < rowBox.left) row.scrollLeft -= rowBox.left - tabBox.left;
  else if (tabBox.right > rowBox.right) row.scrollLeft += tabBox.right - rowBox.right;
}

export default function () {
  if (window.__pgTabScrollKept) return;
  window.__pgTabScrollKept = true;
  const scrollIntoView = Element.prototype.scrollIntoView;
  /** @this {Element} @param {[(boolean | ScrollIntoViewOptions)?]} args */
  Element.prototype.scrollIntoView = function (...args) {
    if (this.getAttribute('role') === 'tab' && this.closest('[role="tablist"]')) {
      showAlongRow(this);
      return;
    }
    scrollIntoView.apply(this, args);
  };
}
