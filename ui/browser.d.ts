// What the page's own code and plotly.js add to the DOM's types, for TypeScript's checker over the
// browser code (tsconfig.json, checkJs). The browser code is plain JavaScript served as ES modules;
// this file is read by the checker only.
//
// The page keeps a little state on `window` (one value per page, shared by the elements a run
// re-creates) and on elements (per plot): each is named and typed here, so a misspelt one is an error.

/** plotly.js (loaded once per page by loadPlotly, ui/plot/plotly_shared.js). Untyped here: the
 * project does not install plotly.js's own type package. */
type PlotlyApi = any;

/** A plot's root element: plotly.js's graph div, with what plotly.js and the page keep on it. */
interface PlotRoot extends HTMLElement {
  data: any[];
  layout: Record<string, any>;
  _fullLayout: any;
  _fullData: any[];
  on(event: string, handler: (event: any) => void): void;
  // The page's state of one plot (ui/plot/canvas*.js, playback.js, rooms/projector.js), each
  // named here so that a misspelt one is an error; typed as the code's JSDoc types them.
  __pgAdded?: any;
  __pgAddedTimer?: any;
  __pgBound?: any;
  __pgCaptionFit?: any;
  __pgCommitTimer?: any;
  __pgConfig?: any;
  __pgConfigKey?: any;
  __pgData?: any;
  __pgDataRevision?: any;
  __pgDrag?: any;
  __pgDrawing?: any;
  __pgDrawn?: any;
  __pgFigure?: any;
  __pgFileName?: any;
  __pgFitted?: any;
  __pgFollow?: any;
  __pgFollowedBar?: any;
  /** The projector's points, drawn on their own canvas (rooms/projector_points.js). */
  __pgPointLayers?: import('./rooms/projector_points.js').PointLayer[];
  __pgPointsFollow?: boolean;
  __pgHoverFrame?: any;
  __pgKbActive?: any;
  __pgKbAt?: any;
  __pgKbBound?: any;
  __pgKbChosen?: any;
  __pgKbMark?: any;
  __pgKbPending?: any;
  __pgKbPlotBound?: any;
  __pgKbPointer?: any;
  __pgKbRegion?: any;
  __pgKbReleased?: any;
  __pgLegendKey?: any;
  __pgLegendLevel?: any;
  __pgLiveAgain?: any;
  __pgLiveBusy?: any;
  __pgLiveFigure?: any;
  __pgLiveKey?: any;
  __pgLiveLine?: any;
  __pgLiveOff?: any;
  __pgNextDraw?: any;
  __pgObserved?: any;
  __pgPatched?: any;
  __pgPinch?: any;
  __pgPlaybackBase?: any;
  __pgPlaybackDrawn?: any;
  __pgPlaybackPoints?: any;
  __pgPlayer?: any;
  __pgPress?: any;
  __pgRoom?: any;
  __pgSelection?: any;
  __pgSend?: (name: string, value: any) => void;
  __pgSettleTimer?: any;
  __pgShiftGesture?: any;
  __pgToolDrawn?: any;
  __pgToolbar?: any;
  __pgTop?: any;
  __pgTopWatch?: any;
  __pgWheelHintAt?: any;
  __pgWheelHintTimer?: any;
  __pgZooming?: any;
}

interface HTMLElement {
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
  /** The canvas: the highest edit number the server has applied, and the edits it has not. */
  __pgAck?: number;
  __pgQueue?: any[];
  __pgNonce?: number;
  /** The canvas's gestures: the tool, the plot a press or pinch began on, the plot keys go to. */
  __pgTool?: string;
  __pgPressRoot?: PlotRoot | null;
  __pgPinchRoot?: PlotRoot | null;
  __pgKeyRoot?: PlotRoot | null;
  __pgPressBound?: boolean;
  __pgKeysBound?: boolean;
  /** How many drags have begun (read by tests). */
  __pgDragCount?: number;
  /** The panels that follow the canvas (ui/plot/follow_canvas.js). */
  __pgPanels?: any;
  /** Playback: the player on screen, every player by key, what runs after the canvas draws; the
   * steps shown and when (read by tests). */
  __pgPlayer?: any;
  __pgPlayers?: Record<string, any>;
  __pgAfterCanvasDraw?: (root: PlotRoot) => void;
  __pgPlaybackNonce?: number;
  __pgPlaybackLog?: number[];
  __pgPlaybackTimes?: number[];
  /** The projector's room plots drawn (read by tests). */
  __pgRoomDrawn?: any[];
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
