/**
 * `npm run bench`: builds, serves production on loopback and runs Lighthouse (mobile, the default
 * simulated slow-4G phone) three times on every prerendered route, on each route's own no-JS version
 * (its HTML and CSS with every script removed) and on a minimal static page of a few hundred bytes.
 * Prints a row per route with medians, and its LCP divided by its no-JS version's LCP and by the
 * minimal page's, from the same invocation, then a summary line with the worst of each ratio. Then runs
 * the API load bench.
 *
 *   npm run bench                 all routes, 3 runs each
 *   npm run bench -- --runs 1 / --routes /,/about / --no-build / --no-api
 *   npm run bench -- --lcp-element   also prints each run's LCP element (to stderr)
 *
 * The build it makes points the location lookups at a loopback stand-in; `npm start` rebuilds.
 */
import { execSync } from "node:child_process";
import { createServer } from "node:http";
import { mkdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { cpus, loadavg, totalmem } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { parseEnv } from "../app/config/env.server.ts";
import { startServer } from "../app/server/start-server.server.ts";
import { assertChromiumInstalled, chromium, chromiumArgs } from "../tooling/chromium.ts";
import { compressPrerenderedPages } from "../app/server/http/index.server.ts";
import { gzipBytes, pageAssets, pageHtml, prerenderedPaths } from "./lib/route-assets.ts";

const { values: options } = parseArgs({
  options: {
    runs: { type: "string", default: "3" },
    routes: { type: "string" },
    "no-build": { type: "boolean", default: false },
    "no-api": { type: "boolean", default: false },
    "lcp-element": { type: "boolean", default: false },
  },
});

const NO_JS_PREFIX = "/__bench-no-js";
const MINIMAL_PATH = "/__bench-minimal";
// A static page with nothing but what Lighthouse's SEO and best-practice audits ask for: no stylesheet,
// no script, no image. What a page costs beyond this is its own HTML and CSS.
const MINIMAL_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Plumbing help, 24/7</title>
<meta name="description" content="A minimal static page: the reference for what a page costs with no stylesheet and no script.">
</head>
<body>
<h1>24/7 Expert Plumbing service</h1>
<p>Affordable rates and 24-hour emergency service, every day of the year.</p>
</body>
</html>
`;
// The location line's lookups go to this loopback stand-in, built into the pages under test:
// the real services are out of reach here, and failed requests would count as console errors.
const GEO_STAND_IN_PORT = 4599;
const clientDir = join(process.cwd(), "build/client");

interface Sample {
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  lcp: number;
  tbt: number;
  cls: number;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

function noJsPath(route: string): string {
  return route === "/" ? NO_JS_PREFIX : `${NO_JS_PREFIX}${route}`;
}

function writePage(path: string, html: string): void {
  mkdirSync(join(clientDir, path), { recursive: true });
  writeFileSync(join(clientDir, path, "index.html"), html);
}

/**
 * Each route exactly as served, minus every script (its no-JS version), and the minimal page, compressed
 * beside them as the build compresses every page.
 */
async function writeReferencePages(routes: string[]): Promise<void> {
  for (const route of routes) {
    const html = pageHtml(clientDir, route)
      .replace(/<script\b[\s\S]*?<\/script>/g, "")
      .replace(/<link rel="modulepreload"[^>]*>/g, "");
    writePage(noJsPath(route), html);
  }
  writePage(MINIMAL_PATH, MINIMAL_PAGE);
  await compressPrerenderedPages(clientDir);
}

async function audit(url: string, port: number): Promise<Sample> {
  const result = await lighthouse(url, {
    port,
    output: "json",
    logLevel: "error",
    onlyCategories: ["performance", "accessibility", "best-practices", "seo"],
  });
  if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
  const { categories, audits, runtimeError } = result.lhr;
  if (runtimeError) console.error(`${url}: ${runtimeError.code} ${runtimeError.message}`);
  const score = (id: string) => Math.round((categories[id]?.score ?? 0) * 100);
  if (options["lcp-element"]) {
    const details = audits["largest-contentful-paint-element"]?.details as
      { items?: { items?: { node?: { snippet?: string } }[] }[] } | undefined;
    const element = details?.items?.[0]?.items?.[0]?.node?.snippet ?? "(none)";
    console.error(
      `${url}: LCP ${Math.round(audits["largest-contentful-paint"]?.numericValue ?? NaN)} ms on ${element}`,
    );
  }
  return {
    performance: score("performance"),
    accessibility: score("accessibility"),
    bestPractices: score("best-practices"),
    seo: score("seo"),
    lcp: audits["largest-contentful-paint"]?.numericValue ?? NaN,
    tbt: audits["total-blocking-time"]?.numericValue ?? NaN,
    cls: audits["cumulative-layout-shift"]?.numericValue ?? NaN,
  };
}

function startGeoStandIn() {
  const server = createServer((request, response) => {
    response.writeHead(200, { "Content-Type": "application/json", "Access-Control-Allow-Origin": "*" });
    response.end(
      JSON.stringify(
        request.url?.startsWith("/reverse")
          ? {
              city: "Springfield",
              locality: "Springfield",
              principalSubdivision: "Illinois",
              countryName: "United States",
            }
          : { city: "Springfield", region: "Illinois", country_name: "United States" },
      ),
    );
  });
  server.listen(GEO_STAND_IN_PORT, "127.0.0.1");
  process.env.GEO_IP_URL = `http://127.0.0.1:${GEO_STAND_IN_PORT}/ip`;
  process.env.GEO_REVERSE_URL = `http://127.0.0.1:${GEO_STAND_IN_PORT}/reverse`;
  return server;
}

/**
 * Median of `runs` Lighthouse runs on each path, the paths taking turns run by run so that a change in the
 * machine's load meets all of them alike; a run that ends without metrics (a runtime error) is repeated.
 */
async function measure<Paths extends readonly string[]>(
  baseUrl: string,
  paths: Paths,
  runs: number,
  chromePort: number,
): Promise<{ [Index in keyof Paths]: Sample }> {
  const samples: Sample[][] = paths.map(() => []);
  for (let round = 0; round < runs * 2 && samples.some((taken) => taken.length < runs); round += 1) {
    for (const [index, path] of paths.entries()) {
      if (samples[index]!.length >= runs) continue;
      const sample = await audit(`${baseUrl}${path}`, chromePort);
      if (Number.isFinite(sample.lcp)) samples[index]!.push(sample);
      else console.error(`${path}: a run ended without metrics; repeating it`);
    }
  }
  return samples.map((taken, index) => {
    if (taken.length === 0) throw new Error(`Lighthouse measured nothing on ${paths[index]}`);
    return Object.fromEntries(
      (Object.keys(taken[0]!) as (keyof Sample)[]).map((key) => [key, median(taken.map((s) => s[key]))]),
    ) as unknown as Sample;
  }) as { [Index in keyof Paths]: Sample };
}

async function main() {
  assertChromiumInstalled(chromium);
  const geoStandIn = startGeoStandIn();
  if (!options["no-build"]) execSync("npx react-router build", { stdio: "inherit" });
  const routes = options.routes ? options.routes.split(",") : prerenderedPaths(clientDir);
  const runs = Number(options.runs);
  await writeReferencePages(routes);

  const server = await startServer(
    parseEnv({
      ...process.env,
      PORT: "0",
      HOST: "127.0.0.1",
      PGLITE_DATA_DIR: "memory://",
      OUTBOX_DIR: join(process.cwd(), "bench-results/outbox"),
    }),
  );
  const chrome = await chromeLauncher.launch({ chromePath: chromium.path, chromeFlags: chromiumArgs });

  const loadAtStart = loadavg();
  let minimal: Sample;
  const rows: { route: string; sample: Sample; noJs: Sample; jsKb: number; htmlKb: number; cssKb: number }[] = [];
  try {
    [minimal] = await measure(server.url, [MINIMAL_PATH] as const, runs, chrome.port);
    console.error(`measured the minimal page`);
    for (const route of routes) {
      // The page and its no-JS version run by run in turn, so both see the same load on the machine.
      const [sample, noJs] = await measure(server.url, [route, noJsPath(route)] as const, runs, chrome.port);
      const html = pageHtml(clientDir, route);
      const assets = pageAssets(clientDir, html);
      const jsKb = gzipBytes(clientDir, assets.js) / 1024;
      const cssKb = gzipBytes(clientDir, assets.css) / 1024;
      const htmlKb = statSync(join(clientDir, route, "index.html.br")).size / 1024;
      rows.push({ route, sample, noJs, jsKb, htmlKb, cssKb });
      console.error(`measured ${route}`);
    }
  } finally {
    await chrome.kill();
    await server.close();
    geoStandIn.close();
    rmSync(join(clientDir, NO_JS_PREFIX), { recursive: true, force: true });
    rmSync(join(clientDir, MINIMAL_PATH), { recursive: true, force: true });
  }

  const load = (values: number[]) => values.map((value) => value.toFixed(2)).join(" ");
  console.log(`\nLighthouse 12.8.2, mobile preset, median of ${runs} run(s) per page`);
  console.log(
    `Machine: ${cpus().length} × ${cpus()[0]?.model ?? "cpu"}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`,
  );
  console.log(`Load average (1, 5, 15 min): ${load(loadAtStart)} at start, ${load(loadavg())} at the end\n`);
  console.log(
    `Minimal static page (${Buffer.byteLength(MINIMAL_PAGE)} bytes): perf ${minimal.performance}, LCP ${Math.round(minimal.lcp)} ms\n`,
  );
  console.log(
    "| route | perf | a11y | best pr. | SEO | LCP ms | TBT ms | CLS | HTML KB br | CSS files KB gz | JS KB gz | no-JS LCP ms | LCP / no-JS | LCP / minimal |",
  );
  console.log("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
  const ratios = rows.map(({ route, sample, noJs }) => ({
    route,
    toNoJs: sample.lcp / noJs.lcp,
    toMinimal: sample.lcp / minimal.lcp,
  }));
  for (const [index, { route, sample, noJs, jsKb, htmlKb, cssKb }] of rows.entries()) {
    const { toNoJs, toMinimal } = ratios[index]!;
    console.log(
      `| ${route} | ${sample.performance} | ${sample.accessibility} | ${sample.bestPractices} | ${sample.seo} | ${Math.round(sample.lcp)} | ${Math.round(sample.tbt)} | ${sample.cls.toFixed(3)} | ${htmlKb.toFixed(1)} | ${cssKb.toFixed(1)} | ${jsKb.toFixed(1)} | ${Math.round(noJs.lcp)} | ${toNoJs.toFixed(2)} | ${toMinimal.toFixed(2)} |`,
    );
  }
  const worst = (ratio: "toNoJs" | "toMinimal") =>
    ratios.reduce((found, row) => (row[ratio] > found[ratio] ? row : found));
  const worstToMinimal = worst("toMinimal");
  const worstToNoJs = worst("toNoJs");
  console.log(
    `\nWorst LCP: ${worstToMinimal.toMinimal.toFixed(2)}× the minimal page (${worstToMinimal.route}); ` +
      `${worstToNoJs.toNoJs.toFixed(2)}× its own no-JS version (${worstToNoJs.route})\n`,
  );

  if (!options["no-api"]) execSync("npm run --silent bench:api", { stdio: "inherit" });
}

await main();
process.exit(0);
