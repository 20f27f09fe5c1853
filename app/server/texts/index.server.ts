/** Texts with customers: threads, the missed-call text-back, STOP and HELP, quiet hours. */
export { createTexts, OPTED_OUT_ERROR, type Texts } from "./texts.server.ts";
export { TEXT_QUEUE, textQueue } from "./outgoing.server.ts";
export {
  customerNumber,
  customerThread,
  isOptedOut,
  listThreads,
  markThreadRead,
  purgeExpiredTexts,
  leadTextCountColumns,
  threadPath,
  unreadTextCount,
  type CustomerThread,
} from "./threads.server.ts";
export { saveTextBackMessage, textBackMessage } from "./text-back.server.ts";
export { QUIET_HOURS_LABEL } from "./quiet-hours.server.ts";
export { textsFromSettings } from "./start.server.ts";
