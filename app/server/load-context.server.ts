import type { Operator } from "./console/index.server.ts";
import type { AppServices } from "./services.server.ts";

/** What the Node server hands every request in React Router's load context. */
export interface PlumblineLoadContext {
  /** The CSP nonce for this response's inline scripts. */
  cspNonce: string;
  /** The client's address, as Express resolved it (honouring TRUST_PROXY). */
  clientIp: string;
  services: AppServices;
  /** The operator's time zone (OPERATOR_TIME_ZONE), for times shown in the console. */
  operatorTimeZone: string;
  /** The operator signed in to the console, resolved by the gate in front of /admin; null elsewhere. */
  operator: Operator | null;
}

// With React Router's middleware (future.v8_middleware), loaders and actions get a RouterContextProvider; the server
// hands over these values as its fields, which is how React Router migrates an AppLoadContext (its middleware guide,
// "Migration from AppLoadContext"), so routes keep reading `context.services`.
declare module "react-router" {
  interface RouterContextProvider extends PlumblineLoadContext {}
}
