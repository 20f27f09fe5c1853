import { Worker, type WorkerOptions } from "node:worker_threads";

/** A worker thread running a TypeScript module: on Node 20 a worker does not inherit its process's tsx loader. */
export function startTypeScriptWorker(entry: URL, options: Omit<WorkerOptions, "eval"> = {}): Worker {
  const tsx = import.meta.resolve("tsx/esm/api");
  return new Worker(
    `import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(entry.href)}); });`,
    { ...options, eval: true },
  );
}
