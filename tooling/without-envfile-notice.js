/**
 * Loaded by `npm run build` before React Router's build, and by `npm run dev`, which starts the same Vite plugin
 * (docs/decisions/293-react-router-envfile-notice.md).
 * @react-router/dev 7.18.4 starts Vite servers of its own with `envFile: false`, an option Vite 8 deprecates, and Vite
 * prints "The `envFile` option is deprecated…" for each: node_modules/@react-router/dev/dist/cli/index.js line 163
 * and dist/vite.js line 176 (the servers that load react-router.config.ts, through a logger React Router makes
 * itself; in `react-router build` the first comes before any file of this project is read) and dist/vite.js line 3776 (the route compiler). No
 * setting of vite.config.ts or react-router.config.ts reaches them; React Router 8 passes `envDir: false` instead.
 * Until then, that one line, which asks nothing of this project, is left out of their output; every other line
 * is printed as it was. Remove this file with the upgrade to React Router 8.
 */
import { stripVTControlCharacters } from "node:util";

const NOTICE = "The `envFile` option is deprecated, please use `envDir: false` instead.";
// In a terminal Vite colours the line, and adds "(x2)" when it repeats.
const REPEATS = /^\(x\d+\)$/;

const warn = console.warn;
console.warn = (...args) => {
  const [first, ...rest] = args.map((arg) => stripVTControlCharacters(String(arg)));
  if (first === NOTICE && rest.every((arg) => REPEATS.test(arg))) return;
  warn(...args);
};
