// A prediction round on the student's phone (issue 47; ui/rooms/rounds.py has its rules): while
// the round takes lines the page asks "Draw the boundary you expect", the student draws it
// (student_line.js) and sends it (again replaces it); at the show it waits; at the reveal it shows
// their line over the fit, with their score. Rules that must hold:
// - A line is sent only when the student presses Send; a send the connection lost is sent again
//   (the room keeps one line a student, so a resend is harmless), a refusal is said and not retried.
// - Every sentence comes from the server in the student's language (data.texts); numbers are
//   filled into them here, from the server's score.
import { fill } from '../plot/plotly_shared.js';
import { call } from './student_api.js';
import { lineTraces, readLine, sendable } from './student_line.js';

const RETRY_MS = 1000;

/** @typedef {import('./student_line.js').End} End */
/** @typedef {{id: number, phase: string, stage: number}} RoundPhase */
/** @typedef {{phase: string, stage: number, mine: number[] | null, question?: string,
 *   score?: {accuracy: number | null, angle: number | null}}} MyRound */

/**
 * @param {{plot: PlotRoot, texts: Record<string, string>, api: string, lang: string,
 *   seat: () => ({code: string, sid: string, key: string} | null), redraw: () => void,
 *   $: (id: string) => HTMLElement}} page
 */
export function createRound(page) {
  const T = page.texts, $ = page.$;
  /** @type {RoundPhase | null} */
  let phase = null;
  /** @type {End[]} */
  let ends = [];
  /** @type {number[] | null} */
  let sent = null;  // the line the room holds for this student in this round
  /** @type {MyRound | null} */
  let mine = null;
  let sending = false;
  let xRange = [0, 1];

  const drawing = () => !!phase && phase.phase === 'predict';
  const onTap = readLine(page.plot, drawing, () => ends, (next) => { ends = next; paint(); page.redraw(); });

  /** @param {string} text @param {boolean} [calm] */
  function say(text, calm) {
    $('round-status').textContent = text || '';
    $('round-status').className = calm ? 'calm' : '';
  }

  function paint() {
    const on = !!phase;
    $('round').hidden = !on;
    page.plot.style.touchAction = drawing() ? 'none' : '';  // a handle's drag never scrolls the page
    page.plot.dataset.round = phase ? phase.phase : '';
    page.plot.dataset.sent = sent ? sent.join(',') : '';
    if (!phase) return;
    const prompt = phase.phase === 'predict' ? (phase.stage === 2 ? T.predict_again : T.predict)
      : phase.phase === 'show' ? T.round_show : T.round_reveal;
    $('round-question').textContent = (mine && mine.question) || '';  // the figure's question, as text
    $('round-question').hidden = !(mine && mine.question);
    $('round-prompt').textContent = prompt;
    const editing = drawing();
    $('round-buttons').hidden = !editing;
    const send = /** @type {HTMLButtonElement} */ ($('send-line'));
    send.textContent = sent ? T.send_again : T.send;
    send.disabled = sending || !sendable(ends, xRange);
    $('score').hidden = phase.phase !== 'reveal';
    if (phase.phase === 'reveal') $('score').textContent = scoreText();
  }

  function scoreText() {
    const score = mine && mine.score;
    if (!score) return T.no_line;
    const accuracy = score.accuracy === null ? '—' : Math.round(score.accuracy * 100) + ' %';
    return score.angle === null ? fill(T.score_no_angle, {accuracy})
      : fill(T.score, {accuracy, angle: Math.round(score.angle) + '°'});
  }

  async function send() {
    const seat = page.seat();
    if (!seat || !sendable(ends, xRange) || sending) return;
    sending = true;
    paint();
    const line = [ends[0].x, ends[0].y, ends[1].x, ends[1].y];
    for (;;) {
      try {
        const {ok, status, answer} = await call(page.api, 'predict', {code: seat.code, sid: seat.sid, key: seat.key, line}, page.lang);
        if (ok) { sent = answer.line; say(T.line_sent, true); break; }
        if (![429, 502, 503, 504].includes(status)) { say(answer.error || T.offline); break; }  // refused: say why
        say(answer.error || T.offline);
      } catch (e) {
        say(T.offline);  // the connection blinked: the same line again (the room keeps one)
      }
      await new Promise((r) => setTimeout(r, RETRY_MS));
      if (!drawing()) break;
    }
    sending = false;
    paint();
    page.redraw();
  }

  // A finger's tap sends on its lift: Chromium drops the click of a tap that follows a drag too
  // closely (the end a student just moved); the click that may follow it is the same send.
  let touchSent = 0;
  $('send-line').addEventListener('pointerup', (event) => {
    if (event.pointerType === 'mouse') return;
    touchSent = event.timeStamp;
    send();
  });
  $('send-line').addEventListener('click', (event) => { if (event.timeStamp - touchSent > 800) send(); });
  $('clear-line').addEventListener('click', () => { ends = []; paint(); page.redraw(); });

  return {
    /** Whether a tap belongs to the line (a round is on), not to a new point. */
    active: () => !!phase,
    onTap: (/** @type {number} */ x, /** @type {number} */ y) => { if (drawing()) onTap(x, y); },
    /**
     * A new state answer: the round's phase (settings.round) and the student's part (answer.round).
     * @param {RoundPhase | null} next @param {MyRound | undefined} part @param {{layout: PlotlyObject}} figure
     */
    update(next, part, figure) {
      xRange = figure.layout.xaxis.range || xRange;
      const fresh = !phase || !next || next.id !== phase.id;
      if (fresh) {
        sent = null;
        if (!next || next.stage === 1) ends = [];  // a second round starts from the first one's line
        say('');
      }
      if (!fresh && next && phase && next.phase !== phase.phase) say('');  // "Sent" belongs to the predictions
      phase = next;
      mine = part || null;
      if (mine && mine.mine) {
        sent = mine.mine;
        if (fresh || ends.length < 2) ends = [{x: sent[0], y: sent[1]}, {x: sent[2], y: sent[3]}];
      }
      if (next && next.phase !== 'predict') {  // past the predictions: the line the room holds, or none
        ends = sent ? [{x: sent[0], y: sent[1]}, {x: sent[2], y: sent[3]}] : [];
      }
      paint();
    },
    /** The traces to draw over the room's figure. @param {{data: PlotlyObject[], layout: PlotlyObject}} figure */
    traces(figure) {
      if (!phase) return [];
      const handles = drawing();
      const kept = phase.phase !== 'predict' || (!!sent && sameLine(sent, ends));  // solid: the line the room holds
      return lineTraces(ends, figure, {sent: kept, name: T.my_line, handles});
    },
  };
}

/** @param {number[]} line @param {End[]} ends */
function sameLine(line, ends) {
  return ends.length === 2 && [ends[0].x, ends[0].y, ends[1].x, ends[1].y].every((v, i) => Math.abs(v - line[i]) < 1e-3);
}
