/** The HTTP edge: what routes and the server's entry use of it. */
export { deferHydration } from "./deferred-hydration.server.ts";
export { leadFormAction } from "./lead-submissions.server.ts";
export { builtFrontEnd, viteFrontEnd } from "./front-end.server.ts";
export { newHttpServer, serveApp } from "./http-server.server.ts";
export { compressPrerenderedPages, prerenderedPaths } from "./prerendered-pages.server.ts";
export { postedForm } from "./posted-form.server.ts";
export { readSignedOutForm } from "./signed-out-form.server.ts";
export { TEXT_WEBHOOK_PATHS } from "./text-webhooks.server.ts";
export { inlineStylesheet } from "./inline-stylesheet.server.ts";
export {
  callTrackingFromSettings,
  textMessagingFromSettings,
  type CallTracking,
  type TextMessaging,
} from "./twilio-edge.server.ts";
