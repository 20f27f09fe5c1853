import { data } from "react-router";
import type { Route } from "./+types/call-recording";
import { recordingOfCall } from "~/server/calls/index.server.ts";
import { requireOperator } from "~/server/console/index.server.ts";

/**
 * A call's recording, streamed from Twilio's REST API behind the console's sign-in: the browser never gets a
 * Twilio URL or credentials, and nothing is cached (the console's gate marks every /admin response no-store).
 */
export async function loader({ context, params, request }: Route.LoaderArgs) {
  requireOperator(context);
  const calls = context.services.calls;
  const recordingSid = calls ? await recordingOfCall(context.services.db, params.id) : null;
  if (!calls || !recordingSid) throw data(null, { status: 404 });
  const audio = await calls.twilio.fetchRecording(recordingSid, request.signal);
  if (!audio?.body) throw data(null, { status: 404 });
  return new Response(audio.body, {
    headers: {
      "Content-Type": "audio/mpeg",
      ...(audio.headers.get("content-length") ? { "Content-Length": audio.headers.get("content-length")! } : {}),
    },
  });
}
