import { redirect, type AppLoadContext } from "react-router";
import type { Operator } from "./sessions.server.ts";

/**
 * The signed-in operator, for a console route's loader or action. The gate in front of /admin already
 * redirects signed-out requests; this is the second lock, should a route ever be reachable without it.
 */
export function requireOperator(context: AppLoadContext): Operator {
  if (context.operator) return context.operator;
  throw redirect("/admin/login", 303);
}
