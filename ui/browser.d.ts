// What the page's own code and plotly.js add to the DOM's types, for TypeScript's checker over the
// browser code (tsconfig.json, checkJs). The browser code is plain JavaScript served as ES modules;
// this file is read by the checker only.
//
// The page keeps a little state on `window` (one value per page, shared by the elements a run
// re-creates) and on elements (per plot): each is named and typed here, so a misspelt one is an error.
// The canvas keeps its own in ui/plot/canvas_state.js.

/** plotly.js (loaded once per page by loadPlotly, ui/plot/plotly_shared.js). Untyped here: the
 * project does not install plotly.js's own type package. */
type PlotlyApi = any;

/** One of plotly.js's objects (a trace, a layout, an event, an axis), untyped for the same reason. */
type PlotlyObject = Record<string, any>;

/** A JSON answer of one of the server's routes, read field by field. */
type JsonAnswer = Record<string, any>;

/** A plot's root element: plotly.js's graph div, with what plotly.js and the page keep on it. The
 * canvas keeps its state beside the element (ui/plot/canvas_state.js), not on it. */
interface PlotRoot extends HTMLElement {
  data: PlotlyObject[];
  layout: PlotlyObject;
  _fullLayout: PlotlyObject;
  _fullData: PlotlyObject[];
  on(event: string, handler: (event: PlotlyObject) => void): void;
  // What plotly_shared.js, playback.js and rooms/projector.js keep on a plot, each named here so
  // that a misspelt one is an error.
  __pgConfig?: PlotlyObject;
  __pgConfigKey?: string;
  __pgFileName?: string;
  __pgObserved?: boolean;
  /** The projector's points, drawn on their own canvas (rooms/projector_points.js). */
  __pgPointLayers?: import('./rooms/projector_points.js').PointLayer[];
  __pgPointsFollow?: boolean;
  __pgRound?: import('./rooms/projector_round.js').LecturerRound | null;
  __pgPlaybackBase?: PlotlyObject[];
  __pgPlaybackDrawn?: boolean;
  __pgPlaybackPoints?: import('./plot/playback_frames.js').PlaybackPoint[];
}

/** What Streamlit (components v2) gives an element's function: the element's data from Python, the
 * trigger that sends a value back, and the element it draws in. */
interface ComponentArgs<Data> {
  data: Data;
  setTriggerValue: (name: string, value: unknown) => void;
  parentElement: HTMLElement;
}

interface HTMLElement {
  /** A player's element: its player (ui/plot/playback.js). */
  __pgPlayer?: import('./plot/playback_frames.js').Player;
  /** The room a projector's element follows (ui/rooms/projector.js). */
  __pgRoom?: import('./rooms/projector.js').RoomState;
  /** A share box's sentences, in the session's language (ui/widgets/share.js). */
  __pgTexts?: Record<string, string>;
  /** The presenter bar is watched for its height (the drawer starts under it). */
  __pgFollowed?: boolean;
}

/** One press of the presenter bar, as the page queues and sends it (ui/widgets/presenter.js). */
interface PresenterPress {
  button: string;
  index: number;
  id?: string;
  firstSent?: number;
  lastSent?: number;
}

interface Window {
  Plotly: PlotlyApi;
  /** plotly.js is being loaded (one <script> for the page). */
  __pgPlotlyLoading?: Promise<PlotlyApi>;
  /** Playback: the player on screen, every player by key; the steps shown and when (read by tests). */
  __pgPlayer?: import('./plot/playback_frames.js').Player;
  __pgPlayers?: Record<string, import('./plot/playback_frames.js').Player>;
  __pgPlaybackNonce?: number;
  __pgPlaybackLog?: number[];
  __pgPlaybackTimes?: number[];
  /** The projector's room plots drawn (read by tests). */
  __pgRoomDrawn?: [number, number][];
  __pgRoundKey?: boolean;
  /** The presenter's keys: bound once, and the presses waiting for the server. */
  __pgPresenterKeys?: boolean;
  __pgPresenterQueue?: {
    pending: Array<PresenterPress | (() => unknown)>;
    awaited: PresenterPress | null;
    applied: string[];
    send: ((name: string, value: unknown) => void) | null;
    watch: ReturnType<typeof setTimeout> | null;
    idleSince: number;
    serial: number;
    page: string;
    figures: string[];  // the figures in order (← → count into one of them)
    busySince: number;  // a press has waited this long for the page's run to end
    later: ReturnType<typeof setTimeout> | null;
  };

  /** Once-per-page installs: the address bar's watch, the link's first check, the presentation
   * gate, the tab scroll keeper. */
  __pgHistoryWrapped?: boolean;
  __pgOpenedChecked?: boolean;
  __pgGateAnswered?: boolean;
  __pgTabScrollKept?: boolean;
}
