/** The console's operators, sessions and sign-in, and the gate in front of /admin. */
export type { ConsoleAuth } from "./auth.server.ts";
export { consoleGate } from "./gate.server.ts";
export { consoleNextPath } from "./next-path.server.ts";
export { csvDownload } from "./csv-download.server.ts";
export { requireOperator } from "./operator.server.ts";
export { listOperators, removeOperator, saveOperator } from "./operators.server.ts";
export type { Operator } from "./sessions.server.ts";
export { isConsolePath } from "./console-paths.server.ts";
export { twoStepSetup, resetTwoStep } from "./two-step.server.ts";
export { createSignInLimit } from "./sign-in-limit.server.ts";
export { createFirstOperator, hasOperator, issueSetupCode } from "./first-operator.server.ts";
export {
  createConsoleForms,
  confirmFirst,
  confirmed,
  done,
  invalid,
  revealed,
  type ConsoleForms,
} from "./forms.server.ts";
export { startConsole } from "./start.server.ts";
