import { redirect, type RouterContextProvider } from "react-router";
import type { Operator } from "./sessions.server.ts";

/** The page where an operator turns two-step sign-in on. */
const ACCOUNT_PATH = "/admin/account";

/**
 * The signed-in operator, for a console route's loader or action. The gate in front of /admin already
 * redirects signed-out requests; this is the second lock, should a route ever be reachable without it.
 * When REQUIRE_TWO_STEP is on, an operator without two-step sign-in is sent to turn it on first: only the
 * console's frame and the account page itself pass `beforeTwoStep`.
 */
export function requireOperator(
  context: Readonly<RouterContextProvider>,
  options: { beforeTwoStep?: boolean } = {},
): Operator {
  const { operator } = context;
  if (!operator) throw redirect("/admin/login", 303);
  if (context.services.consoleAuth.requireTwoStep && !operator.twoStep && !options.beforeTwoStep) {
    throw redirect(ACCOUNT_PATH, 303);
  }
  return operator;
}
