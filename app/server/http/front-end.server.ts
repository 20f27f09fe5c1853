import type { Server } from "node:http";
import { resolve } from "node:path";
import express, { type RequestHandler } from "express";
import type { ServerBuild } from "react-router";
import { embeddedDatabaseFolder, toPublicSiteConfig, type Env } from "~/config/env.server.ts";
import type { PublicSiteConfig } from "~/config/site.ts";
import { builtAssets } from "./built-assets.server.ts";
import { contentSecurityPolicy } from "./csp.server.ts";
import { loadPrerenderedPages, type PrerenderedPage } from "./prerendered-pages.server.ts";
import { publicFiles } from "./public-files.server.ts";
import { projectPath } from "../project-path.server.ts";

/** What the server hands to browsers besides its own endpoints: the React Router app and its files. */
export interface FrontEnd {
  mode: "production" | "development";
  /** The public settings the pages were built with (decision 002), so headers always match the HTML. */
  siteConfig: PublicSiteConfig;
  /** Prerendered pages by path; none in development, where every page is rendered per request. */
  pages: Map<string, PrerenderedPage>;
  /** Scripts, styles and other files, before anything else sees the request. */
  files: RequestHandler;
  build: ServerBuild | (() => Promise<ServerBuild>);
  close(): Promise<void>;
}

/** The output of `react-router build`: fingerprinted assets, prerendered pages, the server bundle. */
export async function builtFrontEnd(buildDirectory: string): Promise<FrontEnd> {
  const BUILD_DIR = `${projectPath(buildDirectory)}/`;
  // The build chosen at run time (BUILD_DIR); `npm run dev` never loads it, and Vite is told not to look for it.
  const build = (await import(/* @vite-ignore */ `${BUILD_DIR}server/index.js`)) as ServerBuild;
  const { publicSiteConfig: siteConfig } = build.entry.module as unknown as { publicSiteConfig: PublicSiteConfig };
  const pages = await loadPrerenderedPages(`${BUILD_DIR}client`, (scriptHashes, styleHashes) =>
    contentSecurityPolicy(siteConfig, scriptHashes, styleHashes),
  );
  // Other public files (favicon, route data) are served from a list without the .html pages, which only go out
  // with their CSP.
  const files = express.Router();
  files.use("/assets", builtAssets(`${BUILD_DIR}client/assets`));
  files.use(publicFiles(`${BUILD_DIR}client`, { skip: "assets" }));
  return {
    mode: "production",
    siteConfig,
    pages,
    files,
    build,
    close: async () => undefined,
  };
}

/**
 * `npm run dev`: Vite in middleware mode on the server's own HTTP server, so development runs the same
 * Express stack (API, forms, console, database) as production, with hot reload. The app is loaded
 * through Vite on every request, so edits apply without a restart.
 */
export async function viteFrontEnd(env: Env, httpServer: Server): Promise<FrontEnd> {
  const { createServer } = await import("vite");
  const vite = await createServer({
    server: { middlewareMode: true, hmr: { server: httpServer }, watch: { ignored: writtenByTheServer(env) } },
    appType: "custom",
  });
  return {
    mode: "development",
    siteConfig: toPublicSiteConfig(env),
    pages: new Map(),
    files: vite.middlewares,
    build: () => vite.ssrLoadModule("virtual:react-router/server-build") as Promise<ServerBuild>,
    close: () => vite.close(),
  };
}

/**
 * What the server writes as it runs is not source, and Vite's watcher leaves it alone: the embedded database with its
 * lock and socket beside it, the outbox's emails and the backups (all in ./data by default). Watched, the tens of
 * thousands of emails a long-used ./data/outbox holds made the first page after `npm run dev` take 14–16 s, not 4–5.
 */
export function writtenByTheServer(env: Env): (path: string) => boolean {
  const folders = [env.OUTBOX_DIR, env.BACKUP_DIR].map((folder) => resolve(folder));
  const folder = embeddedDatabaseFolder(env);
  const database = folder === undefined ? undefined : resolve(folder);
  return (path) =>
    folders.some((folder) => path === folder || path.startsWith(`${folder}/`)) ||
    (database !== undefined &&
      (path === database || path.startsWith(`${database}/`) || path.startsWith(`${database}.`)));
}
