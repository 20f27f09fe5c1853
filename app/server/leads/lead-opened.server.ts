import { and, eq, isNull, sql } from "drizzle-orm";
import type { Database } from "../db/index.server.ts";
import { isRowId } from "../../lib/row-id.ts";
import { contactRequests } from "./schema.server.ts";

/** Opening a lead's page counts as an operator having seen it: it is not escalated after that. */
export async function markLeadOpened(db: Database, id: string): Promise<void> {
  if (!isRowId(id)) return;
  await db
    .update(contactRequests)
    .set({ openedAt: sql`now()` })
    .where(and(eq(contactRequests.id, id), isNull(contactRequests.openedAt)));
}
