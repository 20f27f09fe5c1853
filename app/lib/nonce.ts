import { createContext, useContext } from "react";

/**
 * The CSP nonce of a server-rendered response. Prerendered pages have none: the server
 * pins their inline scripts by hash instead. In the browser it is always empty.
 */
export const NonceContext = createContext<string | undefined>(undefined);

export function useNonce(): string | undefined {
  return useContext(NonceContext);
}
