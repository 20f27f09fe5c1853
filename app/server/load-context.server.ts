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

declare module "react-router" {
  interface AppLoadContext extends PlumblineLoadContext {}
}
