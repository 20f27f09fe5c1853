/**
 * `npm run bench`: builds, serves production on loopback and runs Lighthouse (mobile, the default
 * simulated slow-4G phone) three times on every prerendered route and on a plain no-JS reference
 * page: the home page's own HTML and CSS with every script removed. Prints a row per route with
 * medians, and LCP divided by the reference's LCP from the same run. Then runs the API load bench.
 *
 *   npm run bench                 all routes, 3 runs each
 *   npm run bench -- --runs 1 / --routes /,/about / --no-build / --no-api
 *
 * The build it makes points the location lookups at a loopback stand-in; `npm start` rebuilds.
 */
import { execSync } from "node:child_process";
import { createServer } from "node:http";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { chromiumArgs, chromiumPath, assertChromiumInstalled } from "../tests/chromium.ts";
import { gzipBytes, pageAssets, pageHtml, prerenderedPaths } from "./lib/route-assets.ts";

const { values: options } = parseArgs({
  options: {
    runs: { type: "string", default: "3" },
    routes: { type: "string" },
    "no-build": { type: "boolean", default: false },
    "no-api": { type: "boolean", default: false },
  },
});

const REFERENCE_PATH = "/__bench-reference";
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

/** The home page exactly as served, minus every script: what a plain static page would cost. */
function writeReferencePage(): void {
  const html = pageHtml(clientDir, "/")
    .replace(/<script\b[\s\S]*?<\/script>/g, "")
    .replace(/<link rel="modulepreload"[^>]*>/g, "");
  mkdirSync(join(clientDir, REFERENCE_PATH), { recursive: true });
  writeFileSync(join(clientDir, REFERENCE_PATH, "index.html"), html);
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

async function main() {
  assertChromiumInstalled();
  const geoStandIn = startGeoStandIn();
  if (!options["no-build"]) execSync("npx react-router build", { stdio: "inherit" });
  const routes = options.routes ? options.routes.split(",") : prerenderedPaths(clientDir);
  const runs = Number(options.runs);
  writeReferencePage();

  process.env.PORT = "0";
  process.env.HOST = "127.0.0.1";
  process.env.PGLITE_DATA_DIR = "memory://";
  process.env.OUTBOX_DIR = join(process.cwd(), "bench-results/outbox");
  const { startServer } = await import("../server.ts");
  const server = await startServer();
  const chrome = await chromeLauncher.launch({ chromePath: chromiumPath, chromeFlags: chromiumArgs });

  const rows: { route: string; sample: Sample; jsKb: number }[] = [];
  try {
    for (const route of [REFERENCE_PATH, ...routes]) {
      const samples: Sample[] = [];
      // Lighthouse now and then ends a run without metrics (a runtime error); such a run is repeated.
      for (let attempt = 0; samples.length < runs && attempt < runs * 2; attempt += 1) {
        const sample = await audit(`${server.url}${route}`, chrome.port);
        if (Number.isFinite(sample.lcp)) samples.push(sample);
        else console.error(`${route}: a run ended without metrics; repeating it`);
      }
      if (samples.length === 0) throw new Error(`Lighthouse measured nothing on ${route}`);
      const sample = Object.fromEntries(
        (Object.keys(samples[0]!) as (keyof Sample)[]).map((key) => [key, median(samples.map((s) => s[key]))]),
      ) as unknown as Sample;
      const jsKb = gzipBytes(clientDir, pageAssets(clientDir, pageHtml(clientDir, route)).js) / 1024;
      rows.push({ route, sample, jsKb });
      console.error(`measured ${route}`);
    }
  } finally {
    await chrome.kill();
    await server.close();
    geoStandIn.close();
    rmSync(join(clientDir, REFERENCE_PATH), { recursive: true, force: true });
  }

  const referenceLcp = rows[0]!.sample.lcp;
  console.log(`\nLighthouse 12.8.2, mobile preset, median of ${runs} run(s) per route`);
  console.log(
    `Machine: ${cpus().length} × ${cpus()[0]?.model ?? "cpu"}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}\n`,
  );
  console.log("| route | perf | a11y | best pr. | SEO | LCP ms | TBT ms | CLS | JS KB gz | LCP / ref |");
  console.log("|---|---|---|---|---|---|---|---|---|---|");
  for (const { route, sample, jsKb } of rows) {
    const name = route === REFERENCE_PATH ? "reference (no JS)" : route;
    console.log(
      `| ${name} | ${sample.performance} | ${sample.accessibility} | ${sample.bestPractices} | ${sample.seo} | ${Math.round(sample.lcp)} | ${Math.round(sample.tbt)} | ${sample.cls.toFixed(3)} | ${route === REFERENCE_PATH ? 0 : jsKb.toFixed(1)} | ${(sample.lcp / referenceLcp).toFixed(2)} |`,
    );
  }

  if (!options["no-api"]) execSync("npm run --silent bench:api", { stdio: "inherit" });
}

await main();
process.exit(0);
