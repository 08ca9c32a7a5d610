// A figure's coordinates as numbers (a leaf: it imports nothing): the JSON of a plotly figure
// carries an array as a list or as plotly.js's base64 typed-array spec ({dtype, bdata}, see
// ui/plot/canvas.py), which the canvas's live frames (canvas_patch.js) and the projector's points
// (ui/rooms/projector_points.js) read without plotly.js.

/** @typedef {ArrayLike<number | null>} Numbers  a list (null: a gap) or a typed array */

const TYPED_ARRAYS = {
  i1: Int8Array, u1: Uint8Array, i2: Int16Array, u2: Uint16Array,
  i4: Int32Array, u4: Uint32Array, f4: Float32Array, f8: Float64Array,
};
/** @type {WeakMap<object, Numbers>} a typed-array spec -> its numbers (a spec is decoded once) */
const decoded = new WeakMap();

/**
 * A trace's x or y as numbers: a list, a typed array, or a one-dimensional typed-array spec; null
 * for anything else.
 * @param {unknown} spec
 * @returns {Numbers | null}
 */
export function numbers(spec) {
  if (Array.isArray(spec)) return spec;
  if (ArrayBuffer.isView(spec)) return /** @type {Numbers} */ (/** @type {unknown} */ (spec));
  if (!spec || typeof spec !== 'object') return null;
  const {dtype, bdata, shape} = /** @type {{dtype?: unknown, bdata?: unknown, shape?: unknown}} */ (spec);
  if (shape || typeof dtype !== 'string' || !(dtype in TYPED_ARRAYS) || typeof bdata !== 'string') return null;
  let known = decoded.get(spec);
  if (!known) {
    const bytes = Uint8Array.from(atob(bdata), (c) => c.charCodeAt(0));
    known = new TYPED_ARRAYS[/** @type {keyof TYPED_ARRAYS} */ (dtype)](bytes.buffer);
    decoded.set(spec, known);
  }
  return known;
}
