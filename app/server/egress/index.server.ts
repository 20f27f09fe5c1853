/** Calls to URLs an operator gives (push services, webhooks): https to public addresses only, checked again at connect. */
export { checkOutboundUrl, type OutboundRule } from "./outbound-url.server.ts";
export { RefusedAddress, sendOutbound, type OutboundResponse } from "./send-outbound.server.ts";
