// A link asking for presentation: the browser says whether its window is wide enough for it.
// It answers once, and only when wide: a phone or a narrow window sends nothing and keeps the
// normal page (no rerun, no flash of the presenter bar).
export default function (component) {
  const { data, setTriggerValue } = component;
  if (window.__pgGateAnswered) return;
  window.__pgGateAnswered = true;
  const wide = window.innerWidth >= data.min_width;
  document.documentElement.dataset.pgPresentationGate = wide ? 'wide' : 'narrow';  // what tests wait for
  if (wide) setTriggerValue('wide', window.innerWidth);
}
