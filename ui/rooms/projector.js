// The projector: the room's plot on the lecturer's page, following the room without a Streamlit
// rerun. It polls the room's state route (an answer of the version alone while nothing changed)
// and redraws with Plotly.react when the version moves (loadPlotly, plotRoot, observeWidth, fill
// and themed are ui/plot/plotly_shared.js's). One poll loop per element: the function runs again on
// every data change, and the loop stops once its element has left the page. The points are drawn on
// a canvas layer of their own (projector_points.js): plotly draws the rest.
import { fill, loadPlotly, observeWidth, offline, plotRoot, themed } from '../plot/plotly_shared.js';
import { drawPoints, takePoints } from './projector_points.js';
import { drawLines, linesLegend, listenRoundKey, roundSentence, showResults } from './projector_round.js';

const POLL_MS = 250;  // from one answer to the next poll: the server builds a room's answer at most this often
const MIN_GAP_MS = 30;  // after a long drawing, a breath before the next poll

/** @typedef {{version: number, running: boolean, code?: string, lang?: string, scale?: number, api?: string,
 *   texts?: Record<string, string>, dark?: Record<string, string> | null, token?: string,
 *   round?: import('./projector_round.js').LecturerRound | null, base?: string, students?: number}} RoomState
 *  the room this element follows, the version it shows, its status line's parts and the round's lines */

/**
 * @param {ComponentArgs<{code: string, lang: string, scale: number, api: string, texts: Record<string, string>,
 *   dark_swaps: Record<string, string> | null, token: string, height: number, plotly_url: string}>} component
 */
export default function (component) {
  const {data, parentElement} = component;
  const root = plotRoot(parentElement, 'pg-projector');
  root.style.height = data.height + 'px';
  let status = /** @type {HTMLElement | null} */ (parentElement.querySelector('.pg-projector-status'));
  if (!status) {
    status = document.createElement('p');
    status.className = 'pg-projector-status';
    status.setAttribute('role', 'status');
    parentElement.appendChild(status);
    const results = document.createElement('div');
    results.className = 'pg-projector-results';
    results.hidden = true;
    parentElement.appendChild(results);
  }
  /** @type {RoomState} */
  const state = parentElement.__pgRoom || (parentElement.__pgRoom = {version: 0, running: false});
  const changed = state.code !== data.code || state.lang !== data.lang || state.scale !== data.scale;
  Object.assign(state, {code: data.code, lang: data.lang, scale: data.scale, api: data.api, texts: data.texts,
    dark: data.dark_swaps, token: data.token});
  if (changed) state.version = 0;
  listenRoundKey();
  if (state.running) return;
  state.running = true;
  const shown = status;
  loadPlotly(data.plotly_url).then((Plotly) => {
    observeWidth(root, Plotly);
    poll(Plotly, root, shown, /** @type {Required<RoomState>} */ (state));
  }).catch((err) => { shown.textContent = fill(data.texts.not_drawn, {error: err.message}); });
}

/** The status line: the room's counts and settings, then the round's sentence (its count live).
 * @param {HTMLElement} status @param {Required<RoomState>} state */
function showStatus(status, state) {
  const round = state.round ? roundSentence(state.round, state.students || 0, state.texts) : '';
  status.textContent = [state.base, round].filter(Boolean).join(' · ');
  status.dataset.predictions = state.round ? String(state.round.predictions) : '';
  status.dataset.phase = state.round ? state.round.phase : '';
}

/**
 * @param {PlotlyApi} Plotly
 * @param {PlotRoot} root
 * @param {HTMLElement} status
 * @param {Required<RoomState>} state
 */
async function poll(Plotly, root, status, state) {
  if (!root.isConnected) { state.running = false; return; }
  // The next poll is timed from this answer, not from the end of its drawing: the server builds a
  // room's answer at most every POLL_MS (ui/rooms/views.py's MIN_INTERVAL), so asking again
  // POLL_MS after an answer meets the next one as soon as it can be built; the drawing's time is
  // not added to every point's wait.
  let answered = Date.now();
  try {
    const query = new URLSearchParams({c: state.code, since: String(state.version), lang: state.lang,
      scale: String(state.scale === 1 ? '1.0' : state.scale)});
    // The token proves the lecturer's page a member of the room when its address is out of guesses
    // (a header: never in an address, a log or the students' link).
    const response = await fetch(state.api + '/state?' + query, {cache: 'no-store', headers: {'X-Room-Token': state.token}});
    const answer = await response.json();
    answered = Date.now();
    if (!response.ok) {
      status.textContent = answer.error || state.texts.offline;
    } else if (!answer.figure && answer.round && state.round) {  // the version's figure is drawn: the count moved
      state.round = {...state.round, predictions: answer.round.predictions};  // the rest is the version's
      showStatus(status, state);
    } else if (answer.figure) {
      state.version = answer.version;
      const figure = JSON.parse(themed(JSON.stringify(answer.figure), state.dark));
      root.__pgPointLayers = takePoints(figure);
      figure.data.push(...linesLegend(answer.round || null, state.texts));
      await Plotly.react(root, figure.data, {...figure.layout, autosize: true},
        offline({displaylogo: false, responsive: true, modeBarButtonsToRemove: ['select2d', 'lasso2d']}));
      state.round = answer.round || null;
      root.__pgRound = state.round;
      drawLines(root, state.round);
      drawPoints(root, root.__pgPointLayers);
      if (!root.__pgPointsFollow) {  // a resize or a zoom redraws the plot: the lines and points follow its axes
        root.__pgPointsFollow = true;
        root.on('plotly_afterplot', () => { drawLines(root, root.__pgRound || null); drawPoints(root, root.__pgPointLayers || []); });
      }
      root.dataset.version = String(answer.version);
      // When each version was drawn (bench/room.py reads it: tap-to-projector), the last 20,000.
      const drawn = window.__pgRoomDrawn || (window.__pgRoomDrawn = []);
      drawn.push([answer.version, Date.now()]);
      if (drawn.length > 20000) drawn.splice(0, drawn.length - 20000);
      root.dataset.points = String(answer.points);
      const parts = [fill(state.texts.students, {n: answer.students, points: answer.points})];
      if (answer.settings.locked && !answer.settings.round) parts.push(state.texts.locked);
      if (answer.settings.hidden) parts.push(state.texts.hidden);
      state.base = parts.join(' · ');
      state.students = answer.students;
      showStatus(status, state);
      const box = /** @type {HTMLElement | null} */ (status.parentElement && status.parentElement.querySelector('.pg-projector-results'));
      if (box) showResults(box, state.round, state.texts);
    }
  } catch (err) {
    status.textContent = state.texts.offline;
  }
  setTimeout(() => poll(Plotly, root, status, state), Math.max(MIN_GAP_MS, POLL_MS - (Date.now() - answered)));
}
