
/** @param {ComponentArgs<unknown>} element */
export default function (element) {
  // The data may come as the bytes of one JSON text (see component_data).
  const raw = element.data;
  const bytes = raw instanceof ArrayBuffer || ArrayBuffer.isView(raw);
  /** @typedef {ComponentArgs<{module: string, texts: {not_drawn: string}}>} Loaded */
  const component = bytes ? {...element, data: JSON.parse(new TextDecoder().decode(/** @type {ArrayBuffer} */ (raw)))}
    : /** @type {Loaded} */ (element);
  // A full URL: this code runs from a blob, against which a path does not resolve.
  const url = new URL(component.data.module, document.baseURI).href;
  // The element's sentence comes translated in its data ({error}: what went wrong).
  import(url).then((module) => module.default(component)).catch((err) => {
    component.parentElement.textContent = component.data.texts.not_drawn.replace('{error}', () => err.message);
  });
}
