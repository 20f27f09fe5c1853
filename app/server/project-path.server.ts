import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The project's folder (where package.json is), found from the running file: app/server/ when run from
 * source (tests, `npm run dev`), build/node/ when compiled (`npm start`). Files the server reads from the
 * project (the front-end build, migrations) are found from here, whichever of the two is running.
 */
function findProjectRoot(from: string): string {
  for (let folder = from; ; folder = dirname(folder)) {
    if (existsSync(join(folder, "package.json"))) return folder;
    if (dirname(folder) === folder) throw new Error(`No package.json above ${from}`);
  }
}

const projectRoot = findProjectRoot(dirname(fileURLToPath(import.meta.url)));

export function projectPath(...segments: string[]): string {
  return resolve(projectRoot, ...segments);
}
