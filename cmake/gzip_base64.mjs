// Packs a file for a page as base64 of its gzip (level 9), which the page inflates with the
// browser's DecompressionStream('gzip') (web/src/data.js, gunzipBase64): the app module's wasm
// and JS glue go into app pages this way, at a third of their size (docs/app.md, "Sizes").
// Usage: node gzip_base64.mjs IN OUT
import fs from 'node:fs';
import zlib from 'node:zlib';

const [input, output] = process.argv.slice(2);
const text = zlib.gzipSync(fs.readFileSync(input), { level: 9 }).toString('base64');
// Only when changed: the assets that embed it are not rebuilt for an identical module.
if (!fs.existsSync(output) || fs.readFileSync(output, 'utf8') !== text) fs.writeFileSync(output, text);
else fs.utimesSync(output, new Date(), new Date());
