// The page's elements by id (web/src/body.html holds the viewer's markup).
export const $ = (id) => document.getElementById(id);
