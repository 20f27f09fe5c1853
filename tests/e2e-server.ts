/**
 * Where the browser tests' server runs and keeps its data. The embedded database is on disk (not in memory)
 * so that `npm run operator` can reach it through the server, as an operator's would; each run starts empty.
 */
export const e2ePort = Number(process.env.E2E_PORT ?? 4321);
export const e2ePgliteDir = `test-results/pglite-${e2ePort}`;
