// The share box: a copy-link button and the link, read from (and following) the address bar.
function watchAddressBar() {
  // Streamlit rewrites the query string with history.pushState / replaceState, which fire no
  // event; wrap them once so every link box on the page can follow the address bar. The address
  // bar follows the scene in place: a push that only changes the query string (the page's own
  // path) replaces the entry instead, so the browser's Back button leaves the page rather than
  // stepping through addresses whose scene is not on screen (undo does that).
  if (window.__pgHistoryWrapped) return;
  window.__pgHistoryWrapped = true;
  const replace = window.history.replaceState.bind(window.history);
  const push = window.history.pushState.bind(window.history);
  const samePath = (/** @type {string | URL | null | undefined} */ url) => {
    try { return new URL(String(url), window.location.href).pathname === window.location.pathname; } catch (err) { return false; }
  };
  window.history.replaceState = (...args) => {
    const result = replace(...args);
    window.dispatchEvent(new Event('pg-address-changed'));
    return result;
  };
  window.history.pushState = (...args) => {
    const result = (args.length > 2 && samePath(args[2]) ? replace : push)(...args);
    window.dispatchEvent(new Event('pg-address-changed'));
    return result;
  };
  window.addEventListener('popstate', () => window.dispatchEvent(new Event('pg-address-changed')));
}

/**
 * The link in ``box`` (its parts are made with it: never missing).
 * @param {HTMLElement} box
 */
function showLink(box) {
  const url = window.location.href, texts = box.__pgTexts || {};
  /** @type {HTMLElement} */ (box.querySelector('.pg-link')).textContent = url;
  const length = (texts.length || '').replace('{n}', url.length.toLocaleString('en'));
  /** @type {HTMLElement} */ (box.querySelector('.pg-link-length')).textContent = length + (/[。．]$/.test(length) ? '' : ' ');
}

function openedWith() {
  // The address the page was loaded from (history.replaceState does not change it).
  const navigation = performance.getEntriesByType('navigation')[0];
  return new URL(navigation ? navigation.name : window.location.href);
}

/**
 * @param {ComponentArgs<{max_parameters: number, texts: Record<string, string>, label: string, help: string}>} component
 */
export default function (component) {
  const { data, parentElement, setTriggerValue } = component;
  if (!window.__pgOpenedChecked) {
    window.__pgOpenedChecked = true;
    const query = openedWith().search.replace(/^\?/, '');
    const count = query ? query.split('&').length : 0;
    if (count > data.max_parameters) setTriggerValue('oversized', count);
  }
  let box = /** @type {HTMLElement | null} */ (parentElement.querySelector('.pg-share'));
  if (!box) {
    const made = document.createElement('div');
    box = made;
    box.className = 'pg-share';
    box.innerHTML = '<button type="button" class="pg-copy"></button><span class="pg-copy-note"></span>' +
      // Focusable: a long link scrolls in its box, and the keys must reach what is scrolled away.
      '<pre class="pg-link" tabindex="0"></pre><p class="pg-link-caption"><span class="pg-link-length"></span>' +
      '<span class="pg-link-help"></span></p>';
    parentElement.appendChild(box);
    watchAddressBar();
    window.addEventListener('pg-address-changed', () => showLink(made));
  }
  const shown = box;
  const button = /** @type {HTMLButtonElement} */ (box.querySelector('.pg-copy'));
  const note = /** @type {HTMLElement} */ (box.querySelector('.pg-copy-note'));
  box.__pgTexts = data.texts;  // the session's language (the module itself holds no sentence)
  button.textContent = data.label;
  /** @type {HTMLElement} */ (box.querySelector('.pg-link-help')).textContent = data.help;
  showLink(box);
  button.onclick = async () => {
    showLink(shown);
    try {
      await navigator.clipboard.writeText(window.location.href);
      note.textContent = data.texts.copied;
    } catch (err) {
      // No clipboard outside https / localhost: select the link shown below instead.
      note.textContent = data.texts.blocked;
      const range = document.createRange();
      range.selectNodeContents(/** @type {HTMLElement} */ (shown.querySelector('.pg-link')));
      const selection = window.getSelection();
      if (selection) { selection.removeAllRanges(); selection.addRange(range); }
    }
    setTimeout(() => { note.textContent = ''; }, 4000);
  };
}
