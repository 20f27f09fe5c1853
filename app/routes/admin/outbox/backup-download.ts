import type { Route } from "./+types/backup-download";
import { requireOperator } from "~/server/console/index.server.ts";

const plain = (status: number, text: string) =>
  new Response(text, { status, headers: { "Content-Type": "text/plain; charset=utf-8" } });

/**
 * A backup, or its checksum, downloaded from the Outbox page to keep off the machine. Sent to its last byte, a
 * backup counts as copied off the machine (Getting started, on the empty inbox).
 */
export async function loader({ context, params }: Route.LoaderArgs) {
  requireOperator(context);
  const download = await context.services.backups.download(params.file);
  if (download.kind === "unknown") return plain(404, "There is no backup of that name: retention may have deleted it.");
  if (download.kind === "elsewhere") {
    return plain(
      404,
      "That backup's file is not in this server's backup folder (BACKUP_DIR): another instance made it, or it was removed.",
    );
  }
  return new Response(download.body, {
    headers: {
      "Content-Type": download.contentType,
      "Content-Length": String(download.sizeBytes),
      "Content-Disposition": `attachment; filename="${download.name}"`,
      "Cache-Control": "no-store",
    },
  });
}
