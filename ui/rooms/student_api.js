// The student page's conversation with the room's routes (ui/rooms/routes.py), and the seat it
// keeps in the browser (the student's id, key and counter, so that a reload keeps the seat and a
// retried add is added once).

/**
 * POST one of the room's actions; the answer's JSON, or {} where the body is not JSON.
 * @param {string} api the routes' prefix
 * @param {string} name join, add or undo
 * @param {Record<string, unknown>} body
 * @param {string} lang the student's language (the answer's sentences are in it)
 * @returns {Promise<{ok: boolean, status: number, answer: JsonAnswer}>}
 */
export async function call(api, name, body, lang) {
  const response = await fetch(api + '/' + name, {
    method: 'POST', headers: {'Content-Type': 'application/json'},
    body: JSON.stringify({...body, lang}),
  });
  const answer = await response.json().catch(() => ({}));
  return {ok: response.ok, status: response.status, answer};
}

/**
 * GET the room's state since ``query.since`` (the version alone while nothing changed).
 * @param {string} api
 * @param {Record<string, string>} query
 * @returns {Promise<{ok: boolean, status: number, answer: JsonAnswer}>}
 */
export async function roomState(api, query) {
  const response = await fetch(api + '/state?' + new URLSearchParams(query));
  return {ok: response.ok, status: response.status, answer: await response.json()};
}

/** @param {string} code */
function storageKey(code) { return 'pg-room-' + code; }

/**
 * The seat kept for room ``code`` ({sid, key, seq}), or null (none, or storage is off).
 * @param {string} code
 */
export function savedSeat(code) {
  try { return JSON.parse(localStorage.getItem(storageKey(code)) || 'null'); } catch (e) { return null; }
}

/**
 * @param {string} code
 * @param {{sid: string, key: string, seq: number}} seat
 */
export function saveSeat(code, seat) {
  try { localStorage.setItem(storageKey(code), JSON.stringify(seat)); } catch (e) { /* private mode */ }
}

/** @param {string} code */
export function forgetSeat(code) {
  try { localStorage.removeItem(storageKey(code)); } catch (e) { /* private mode */ }
}
