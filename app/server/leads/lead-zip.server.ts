import { eq } from "drizzle-orm";
import { isZip } from "~/lib/zip-codes.ts";
import type { Database } from "../db/index.server.ts";
import { isRowId } from "../../lib/row-id.ts";
import { contactRequests } from "./schema.server.ts";

/** The lead page's "ZIP": the visitor's ZIP code, as the operator learned it on the phone; empty clears it. */

type ZipResult = { success: true; zip: string | null } | { success: false; error: string };

export function validateLeadZip(form: FormData): ZipResult {
  const value = form.get("zip");
  const zip = typeof value === "string" ? value.trim() : "";
  if (zip === "") return { success: true, zip: null };
  if (!isZip(zip)) return { success: false, error: "Enter a 5-digit ZIP code, like 10001." };
  return { success: true, zip };
}

/** Returns false when no request has that id. */
export async function setLeadZip(db: Database, id: string, zip: string | null): Promise<boolean> {
  if (!isRowId(id)) return false;
  const updated = await db
    .update(contactRequests)
    .set({ zip })
    .where(eq(contactRequests.id, id))
    .returning({ id: contactRequests.id });
  return updated.length > 0;
}
