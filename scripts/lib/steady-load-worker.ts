/** The worker thread of steadyLoadInWorker: runs one steady load and posts its result. */
import { parentPort, workerData } from "node:worker_threads";
import { steadyLoad, type SteadyLoadOptions } from "./steady-load.ts";

parentPort!.postMessage(await steadyLoad(workerData as SteadyLoadOptions));
