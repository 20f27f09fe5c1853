import { count, eq, isNull } from "drizzle-orm";
import type { Database } from "../db/db.server.ts";
import { contactRequests, privacyRequests } from "../leads/schema.server.ts";

/** What waits for the operator, shown in the console's navigation on every page. */
export interface NavCounts {
  newLeads: number;
  openOptOuts: number;
}

export async function navCounts(db: Database): Promise<NavCounts> {
  const [[leads], [optOuts]] = await Promise.all([
    db.select({ total: count() }).from(contactRequests).where(eq(contactRequests.status, "New")),
    db.select({ total: count() }).from(privacyRequests).where(isNull(privacyRequests.completedAt)),
  ]);
  return { newLeads: leads?.total ?? 0, openOptOuts: optOuts?.total ?? 0 };
}
