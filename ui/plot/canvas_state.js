// The canvas's state (a leaf: it imports nothing): one typed record per plot, kept beside its
// element rather than on it, and the page's one edit queue, which every canvas of the page shares.
//
// Rules that hold:
// - Everything the canvas's modules keep between events is a field of ``CanvasState`` (per plot)
//   or of ``canvasPage`` (per page); a misspelt field is an error of the checker.
// - A plot's record lives as long as its element (a WeakMap): a rerun that re-creates the element
//   starts a fresh record, as the element's own properties did.
// - The edit queue, the nonce, the acknowledgement and the tool are the page's, not a plot's: the
//   canvases of a comparison, and a canvas a rerun re-created, send the edits still on their way
//   in the order they were made (canvas_edits.js).

/** @typedef {[number, number, number, number]} Window  x0, x1, y0, y1 */

/**
 * The canvas's data from Python (ui/plot/canvas.py): what one drawing of the plot needs.
 * @typedef {{
 *   figure: string, dark_swaps: Record<string, string> | null, ack: number, revision: string,
 *   n_points: number, load: number, fit: number | string | null, window: Window,
 *   texts: Record<string, string>, file_name: string, plotly_url: string, config: Record<string, unknown>,
 *   height: number, min_height: number, within_window: number | null, fill_screen: number | null,
 *   live: LiveRoute | null, new_point: PlotlyObject | null, click_switches: boolean,
 *   panels_follow: string | null, spoken: Spoken | null,
 * }} CanvasData
 */

/** @typedef {{url: string, scene: unknown, add_as: number, add_test: boolean, scale: unknown,
 *   language: string, painted: unknown}} LiveRoute  the live route's address and the scene it redraws */

/** @typedef {{classes?: string[], symbols?: string[], add_as?: number, boundary?: string}} Spoken
 *  what the keyboard's live region says: the classes' names and symbols, the boundary's sentence */

/** @typedef {{data: PlotlyObject[], layout: PlotlyObject, compact?: Compact}} Figure */

/** @typedef {{names?: (string | null)[], optional?: number[][], legend_title?: string,
 *   overlays?: [number, number]}} Compact  a figure's shorter legend, and where its overlays are */

/**
 * One edit as the session receives it (ui/widgets/canvas_events.py reads them).
 * @typedef {{
 *   type: string, nonce?: number, revision?: string, area?: [number, number], load?: number,
 *   x?: number, y?: number, ids?: number[], dx?: number, dy?: number, drag?: string, final?: boolean,
 *   x0?: number, x1?: number, y0?: number, y1?: number, x2?: number, y2?: number,
 *   w0?: number, w1?: number, w2?: number,
 * }} Edit
 */

/** @typedef {[number, number, number]} ShownPoint  x, y and the marker's size in px */

/** @typedef {{ids: number[], at: Map<number, ShownPoint | undefined>, awaiting?: number}} Selection
 *  the selected points and where they were (a point moved by anything else drops the selection) */

/**
 * A press of the mouse or a finger in the plot area.
 * @typedef {{
 *   id: number | null, x: number, y: number, clientX: number, clientY: number, touch: boolean,
 *   altKey: boolean, shiftKey: boolean, start: [number, number], revision: string | undefined,
 *   ids: number[], drags: boolean, travelled?: boolean, line?: boolean,
 *   handle?: import('./canvas_line_drag.js').LineDrag | null,
 * }} Press
 */

/**
 * A drag of points, drawn in the browser until the session's figure shows its final move.
 * @typedef {{
 *   id: string, ids: number[], revision: string | undefined, from: Map<number, ShownPoint | undefined>,
 *   offset: [number, number], pixels: [number, number], frame?: number, released?: boolean,
 *   finalNonce?: number, layer?: SVGSVGElement, hiddenFor?: number,
 * }} Drag
 */

/** @typedef {{x: number[], y: number[], mid: [number, number], distance: number}} Pinch
 *  two fingers: the view's ranges, their midpoint and distance when they came down */

/** @typedef {{nonce: number, x: number, y: number}} AddedPoint  a point clicked in, not yet in a figure */

/** @typedef {{nonce: number, action: string}} PendingSaying  said once the session applied its edit */

/** @typedef {{handle: number, ends: [number, number][], guess: [number, number, number]}} KeyboardLine
 *  the person's line's handle the keyboard chose (0 or 1), both handles and the line as it moves them */

/**
 * The plot by keyboard (canvas_keyboard.js).
 * @typedef {{
 *   bound: boolean, plotBound: boolean, active: boolean, pointer: boolean, released: boolean,
 *   at: [number, number] | null, chosen: number | null, mark: HTMLElement | null,
 *   region: HTMLElement | null, pending: PendingSaying[], line: KeyboardLine | null,
 * }} KeyboardState
 */

/**
 * One plot's state.
 * @typedef {{
 *   data: CanvasData | null, send: ((name: string, value: unknown) => void) | null,
 *   figure: Figure | null, liveFigure: Figure | null, liveKey: string | null, liveOff: boolean,
 *   liveBusy: boolean, liveAgain: boolean, liveLine: string | null,
 *   drawing: Promise<void> | null, nextDraw: Promise<void> | null, drawn: number, patched: boolean,
 *   dataRevision: number, room: number, fitted: CanvasData['fit'], legendKey: string | null,
 *   legendLevel: number, captionFit: {key: string, size: number} | null,
 *   bound: boolean, follow: ResizeObserver | null, followedBar: Element | null, top: number,
 *   topWatch: ReturnType<typeof setInterval> | null, toolbar: HTMLElement | null, toolDrawn: string | null,
 *   selection: Selection | null, press: Press | null, drag: Drag | null, pinch: Pinch | null,
 *   hoverFrame: number, shiftGesture: boolean, zooming: boolean,
 *   settleTimer: ReturnType<typeof setTimeout> | undefined, wheelHintAt: number,
 *   wheelHintTimer: ReturnType<typeof setTimeout> | undefined, added: AddedPoint[],
 *   addedTimer: ReturnType<typeof setTimeout> | undefined, commitTimer: ReturnType<typeof setTimeout> | undefined,
 *   keyboard: KeyboardState, lineStart: [number, number] | null,
 *   lineDrag: import('./canvas_line_drag.js').LineDrag | null, lineHidden: boolean, lineAsking: boolean,
 *   lineAskAgain: boolean, lineNumbersNonce: number,
 * }} CanvasState
 */

/** @typedef {{drawnFor: string | null, refresh: (key: string) => void}} FollowingPanels
 *  the panels below the canvas: the scene they were drawn for, and how to have them drawn again */

/** @type {WeakMap<PlotRoot, CanvasState>} */
const states = new WeakMap();

/** @returns {CanvasState} */
function freshState() {
  return {
    data: null, send: null, figure: null, liveFigure: null, liveKey: null, liveOff: false,
    liveBusy: false, liveAgain: false, liveLine: null, drawing: null, nextDraw: null, drawn: 0,
    patched: false, dataRevision: 0, room: 0, fitted: null, legendKey: null, legendLevel: 0,
    captionFit: null, bound: false, follow: null, followedBar: null, top: 0, topWatch: null,
    toolbar: null, toolDrawn: null, selection: null, press: null, drag: null, pinch: null,
    hoverFrame: 0, shiftGesture: false, zooming: false, settleTimer: undefined, wheelHintAt: 0,
    wheelHintTimer: undefined, added: [], addedTimer: undefined, commitTimer: undefined,
    keyboard: {
      bound: false, plotBound: false, active: false, pointer: false, released: false, at: null,
      chosen: null, mark: null, region: null, pending: [], line: null,
    },
    lineStart: null,  // the line tool's first click, until the second (canvas_line.js)
    lineDrag: null,  // the person's line being moved (canvas_line_drag.js)
    lineHidden: false,
    lineAsking: false,
    lineAskAgain: false,
    lineNumbersNonce: 0,  // the released line's edit, while the tool bar's line shows its numbers
  };
}

/**
 * The state of the plot ``root`` (made on first use).
 * @param {PlotRoot} root
 * @returns {CanvasState}
 */
export function canvasState(root) {
  let state = states.get(root);
  if (!state) {
    state = freshState();
    states.set(root, state);
  }
  return state;
}

/**
 * The data of a canvas that has been given its data (every canvas past its first render).
 * @param {PlotRoot} root
 * @returns {CanvasData}
 */
export function canvasData(root) {
  const data = canvasState(root).data;
  if (!data) throw new Error('the canvas has no data yet');
  return data;
}

/**
 * The page's side of the canvases: the edit queue and the tool, and where a gesture is.
 * @type {{
 *   queue: Edit[], ack: number, nonce: number, tool: string | null, pressRoot: PlotRoot | null,
 *   pinchRoot: PlotRoot | null, keyRoot: PlotRoot | null, pressBound: boolean, keysBound: boolean,
 *   dragCount: number, afterDraw: ((root: PlotRoot) => void) | null, panels: FollowingPanels | null,
 *   landscapeBound: boolean,
 * }}
 */
export const canvasPage = {
  queue: [],  // the edits the session has not acknowledged, in the order they were made
  ack: 0,  // the highest edit number the session has applied
  nonce: 0,  // the last edit's number
  tool: null,  // the tool (add, move, erase, select, line), the same for every canvas of the page
  pressRoot: null,  // the plot a press began on
  pinchRoot: null,  // the plot two fingers came down on
  keyRoot: null,  // the plot the page's shortcuts go to (the last one drawn)
  pressBound: false,
  keysBound: false,
  dragCount: 0,  // drags begun (a drag's id)
  afterDraw: null,  // what runs after a canvas has drawn (browser-side playback, ui/plot/playback.js)
  panels: null,  // the panels that follow the canvas (ui/plot/follow_canvas.js)
  landscapeBound: false,  // the landscape's events heard (canvas_line_drag.js)
};

// The page's events between the canvas and the criterion's landscape (issue 46), detail {w, final}:
// w = [w0, w1, w2] in the book's convention.
export const YOUR_LINE_MOVED = 'pg-your-line-moved';  // the canvas moved the line: the landscape's point follows
export const YOUR_LINE_SET = 'pg-your-line-set';  // the landscape's point moved: the canvas's line follows
export const YOUR_LINE_NUMBERS = 'pg-your-line-numbers';  // detail {text}: the moving line's numbers ('' at the release)

/**
 * The edit queue changed: its length on the page's element, where the browser tests wait for it.
 */
export function queueChanged() {
  document.documentElement.dataset.pgQueued = String(canvasPage.queue.length);
}
