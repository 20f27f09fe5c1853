/** The HTTP edge: what routes and the server's entry use of it. */
export { deferHydration } from "./deferred-hydration.server.ts";
export { leadFormAction } from "./lead-submissions.server.ts";
