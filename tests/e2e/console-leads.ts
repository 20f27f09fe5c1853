import type { APIRequestContext } from "@playwright/test";

/** Test data for the console's specs: leads stored through the public API, as a visitor's browser would. */

/** A phone number no other test uses, so a search by its digits finds one lead. */
export function uniquePhone(): { display: string; digits: string } {
  const digits = `555${String(Math.floor(Math.random() * 10_000_000)).padStart(7, "0")}`;
  return { display: `(${digits.slice(0, 3)}) ${digits.slice(3, 6)}-${digits.slice(6)}`, digits };
}

/** Stores a contact request through the lead API; returns its id. */
export async function postContactRequest(
  request: APIRequestContext,
  baseURL: string,
  lead: { lastName: string; phone: string; email?: string },
): Promise<string> {
  const response = await request.post("/functions/v1/send-contact-email", {
    headers: { Origin: baseURL },
    data: {
      firstName: "Maria",
      lastName: lead.lastName,
      email: lead.email ?? "maria@example.com",
      phone: lead.phone,
      service: "Burst pipe",
      message: "Water everywhere.",
    },
  });
  if (!response.ok()) throw new Error(`lead API answered ${response.status()}: ${await response.text()}`);
  return ((await response.json()) as { id: string }).id;
}

/** Stores an opt-out request through the lead API; returns its id. */
export async function postOptOutRequest(request: APIRequestContext, baseURL: string, name: string): Promise<string> {
  const response = await request.post("/functions/v1/send-contact-email", {
    headers: { Origin: baseURL },
    data: { type: "opt-out", name, email: "optout@example.com", message: "Do not sell my data." },
  });
  if (!response.ok()) throw new Error(`lead API answered ${response.status()}: ${await response.text()}`);
  return ((await response.json()) as { id: string }).id;
}
