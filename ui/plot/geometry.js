// Data coordinates <-> pixels on a plotly plot (a leaf: it imports nothing), for every module that
// draws over a plot or reads a pointer on one: the canvas, the projector's points
// (ui/rooms/projector_points.js) and the student's taps (ui/rooms/student_taps.js).
//
// Rules that hold: the frame is plotly's as it last laid the plot out (its _fullLayout's axes); a
// plot area pixel is counted from the plot area's top-left corner (the axes' own pixel frame), a
// plot pixel from the plot element's; data come from and go to the axes' linear scale (l2p / p2l),
// which is the data's own on the linear axes every plot of the app has.

/**
 * Client coordinates (a pointer event's) -> pixels within the plot area. ``frame`` is the element
 * whose box the plot's pixels count from (the plot itself, or plotly's main SVG in it).
 * @param {PlotRoot} root
 * @param {number} clientX
 * @param {number} clientY
 * @param {Element} [frame]
 * @returns {[number, number]}
 */
export function areaPixelAt(root, clientX, clientY, frame) {
  const layout = root._fullLayout, box = (frame || root).getBoundingClientRect();
  return [clientX - box.left - layout.xaxis._offset, clientY - box.top - layout.yaxis._offset];
}

/**
 * Whether plotly has laid out the plot's axes (before that, no pixel means anything).
 * @param {PlotRoot} root
 */
export function laidOut(root) {
  const layout = root._fullLayout;
  return !!(layout && layout.xaxis && layout.yaxis && layout.xaxis.l2p);
}

/**
 * Whether a pixel of the plot area is inside it.
 * @param {PlotRoot} root
 * @param {[number, number]} pixel
 */
export function insideArea(root, [px, py]) {
  const layout = root._fullLayout;
  return px >= 0 && py >= 0 && px <= layout.xaxis._length && py <= layout.yaxis._length;
}

/**
 * Whether the pointer at client coordinates is in the plot area.
 * @param {PlotRoot} root
 * @param {number} clientX
 * @param {number} clientY
 */
export function inPlotArea(root, clientX, clientY) {
  return laidOut(root) && insideArea(root, areaPixelAt(root, clientX, clientY));
}

/**
 * A plot area pixel -> data coordinates.
 * @param {PlotRoot} root
 * @param {[number, number]} pixel
 * @returns {[number, number]}
 */
export function dataAtPixel(root, [px, py]) {
  const layout = root._fullLayout;
  return [layout.xaxis.p2l(px), layout.yaxis.p2l(py)];
}

/**
 * Client coordinates -> data coordinates.
 * @param {PlotRoot} root
 * @param {number} clientX
 * @param {number} clientY
 * @returns {[number, number]}
 */
export function dataAt(root, clientX, clientY) {
  return dataAtPixel(root, areaPixelAt(root, clientX, clientY));
}

/**
 * Data coordinates -> pixels within the plot area.
 * @param {PlotRoot} root
 * @param {number} x
 * @param {number} y
 * @returns {[number, number]}
 */
export function areaPixel(root, x, y) {
  const layout = root._fullLayout;
  return [layout.xaxis.l2p(x), layout.yaxis.l2p(y)];
}

/**
 * Data coordinates -> pixels within the plot element (the plot area's offset added).
 * @param {PlotRoot} root
 * @param {number} x
 * @param {number} y
 * @returns {[number, number]}
 */
export function plotPixel(root, x, y) {
  const layout = root._fullLayout, [px, py] = areaPixel(root, x, y);
  return [layout.xaxis._offset + px, layout.yaxis._offset + py];
}

/**
 * The plot area's corner within the plot element, in pixels.
 * @param {PlotRoot} root
 * @returns {[number, number]}
 */
export function areaOffset(root) {
  const layout = root._fullLayout;
  return [layout.xaxis._offset, layout.yaxis._offset];
}
