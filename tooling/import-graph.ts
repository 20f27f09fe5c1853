import { readFileSync } from "node:fs";
import { relative, resolve } from "node:path";
import ts from "typescript";

/**
 * The project's import graph as TypeScript resolves it (the `~/` alias included), type-only imports included:
 * ESLint's import-x/no-cycle skips `import type`, yet a circle through a type still ties two floors together.
 * Keys and values are paths relative to the project's root.
 */
export type ImportGraph = Map<string, Set<string>>;

export function projectImportGraph(root: string): ImportGraph {
  const config = ts.readConfigFile(resolve(root, "tsconfig.json"), ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, root);
  const host = ts.createCompilerHost(parsed.options);
  const graph: ImportGraph = new Map();
  for (const file of parsed.fileNames) {
    if (!/\.(ts|tsx|js)$/.test(file) || file.includes("/.react-router/")) continue;
    const imports = new Set<string>();
    for (const { fileName } of ts.preProcessFile(readFileSync(file, "utf8"), true, true).importedFiles) {
      const resolved = ts.resolveModuleName(fileName, file, parsed.options, host).resolvedModule;
      if (resolved && !resolved.isExternalLibraryImport && !resolved.resolvedFileName.includes("/node_modules/")) {
        imports.add(relative(root, resolved.resolvedFileName));
      }
    }
    graph.set(relative(root, file), imports);
  }
  return graph;
}

/** Every circle in the graph: each group of files that reach one another (Tarjan's strongly connected components). */
export function importCircles(graph: ImportGraph): string[][] {
  const index = new Map<string, number>();
  const lowest = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (file: string) => {
    index.set(file, index.size);
    lowest.set(file, index.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const imported of graph.get(file) ?? []) {
      if (!index.has(imported)) {
        visit(imported);
        lowest.set(file, Math.min(lowest.get(file)!, lowest.get(imported)!));
      } else if (onStack.has(imported)) {
        lowest.set(file, Math.min(lowest.get(file)!, index.get(imported)!));
      }
    }
    if (lowest.get(file) === index.get(file)) {
      const group: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        group.push(member);
      } while (member !== file);
      if (group.length > 1 || graph.get(file)?.has(file)) circles.push(group.sort());
    }
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return circles;
}
