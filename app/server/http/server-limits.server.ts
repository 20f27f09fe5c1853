import type { ServerOptions } from "node:http";

/**
 * Connection limits for the Node server (docs/decisions/088-server-timeouts.md): a client that has not
 * sent all its headers within 15 s, or its whole request within 20 s, is disconnected, so slow clients
 * cannot hold connections open; the body of a lead is at most 32 KB, seconds even on a poor phone link.
 */
export const SERVER_OPTIONS: ServerOptions = {
  headersTimeout: 15_000,
  requestTimeout: 20_000,
  // Node checks the two timeouts above on this interval (default 30 s, which would double them).
  connectionsCheckingInterval: 1_000,
  // Idle keep-alive connections close after 5 s (Node's default); a proxy must close its own idle
  // upstream connections sooner (docs/deploy/nginx.conf uses 4 s) to never reuse a closing one.
  keepAliveTimeout: 5_000,
};

/** Connections beyond this are refused at once: a bound on file descriptors and memory under a flood. */
export const MAX_CONNECTIONS = 1_000;
