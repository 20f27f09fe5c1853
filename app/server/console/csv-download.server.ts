/** A CSV export as a download: an attachment named after the export and today's date, never cached. */
export function csvDownload(body: string, name: string, now = new Date()): Response {
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${name}-${now.toISOString().slice(0, 10)}.csv"`,
      "Cache-Control": "no-store",
    },
  });
}
