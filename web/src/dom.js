// The page's elements by id (web/src/body.html holds the viewer's markup).
export const $ = (id) => document.getElementById(id);
// A new element: <tag class=cls>text</tag> (text through textContent, never markup).
export function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = String(text);
  return e;
}
