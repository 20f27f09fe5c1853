import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { databasesToOpen } from "../../../tooling/test-databases.ts";
import type { OpenDatabase } from "../db/db.server.ts";
import { partners } from "../partners/schema.server.ts";
import { callOffers, calls } from "./schema.server.ts";
import { offerToNextPartner, takeOffer, type CallPartner } from "./ring-tree.server.ts";
import { endPartnerCall } from "./partner-call-end.server.ts";

const dayStartedAt = new Date("2026-01-01T00:00:00Z");
const settings = { billableSeconds: 60, repeatCallerDays: 7, timeZone: "UTC" };

describe.each(databasesToOpen())("the ring tree on $name", ({ open }) => {
  let database: OpenDatabase;
  let equal: CallPartner[];
  beforeAll(async () => {
    database = await open();
    const added = await database.db
      .insert(partners)
      .values(
        [1, 2, 3, 4].map((n) => ({
          name: `Partner ${n}`,
          business: `Business ${n}`,
          phone: `+1555010000${n}`,
          email: `p${n}@example.com`,
          services: ["Drain Services"],
          zipCodes: ["78701"],
        })),
      )
      .returning({ id: partners.id, business: partners.business, phone: partners.phone });
    equal = added.map((partner) => ({ ...partner, priority: 2, feeMinor: 2_500, callsPerDay: null }));
  });
  afterAll(() => database?.close());

  const newCall = async () => {
    const id = randomUUID();
    await database.db.insert(calls).values({
      id,
      callSid: `CA${randomUUID().replaceAll("-", "")}`,
      caller: "+15550199123",
      called: "+18005550101",
      line: "pool",
    });
    return id;
  };

  test("100 calls over 4 equal partners, each taken: 25 each, in turn", async () => {
    await database.db.delete(callOffers);
    const taken: string[] = [];
    for (let n = 0; n < 100; n++) {
      const offer = await offerToNextPartner(database.run, await newCall(), equal, { treeSize: 3, dayStartedAt });
      expect(offer).not.toBeNull();
      expect((await takeOffer(database.run, offer!.id)).kind).toBe("ok");
      await endPartnerCall(database.run, offer!.id, 90, settings);
      taken.push(offer!.phone);
    }
    const counts = new Map<string, number>();
    for (const phone of taken) counts.set(phone, (counts.get(phone) ?? 0) + 1);
    expect([...counts.values()]).toEqual([25, 25, 25, 25]);
    // Round robin: every four calls in a row go to four different partners.
    for (let n = 0; n < 100; n += 4) expect(new Set(taken.slice(n, n + 4)).size).toBe(4);
  });

  test("a higher priority goes first, a partner on a call is skipped, and two calls never ring one partner", async () => {
    await database.db.delete(callOffers);
    const [first, ...others] = equal;
    const ranked = [{ ...first!, priority: 1 }, ...others];
    const one = await offerToNextPartner(database.run, await newCall(), ranked, { treeSize: 3, dayStartedAt });
    expect(one!.phone).toBe(first!.phone);
    // The first partner still rings for the first call: the second call rings another.
    const two = await offerToNextPartner(database.run, await newCall(), ranked, { treeSize: 3, dayStartedAt });
    expect(two!.phone).not.toBe(first!.phone);
    // The database refuses a second open offer to a partner, whatever the caller of it checked.
    const call = await newCall();
    await expect(
      database.db.insert(callOffers).values({
        id: randomUUID(),
        callId: call,
        position: 1,
        partnerId: first!.id,
        business: first!.business,
        phone: first!.phone,
        feeMinor: 100,
      }),
    ).rejects.toThrow();
  });

  test("a partner at their daily cap is skipped; the tree stops at its size", async () => {
    await database.db.delete(callOffers);
    const capped = equal.map((partner, index) => ({ ...partner, callsPerDay: index === 0 ? 1 : null }));
    const call = await newCall();
    const first = await offerToNextPartner(database.run, call, [capped[0]!], { treeSize: 3, dayStartedAt });
    await takeOffer(database.run, first!.id);
    await endPartnerCall(database.run, first!.id, 90, settings);
    expect(await offerToNextPartner(database.run, await newCall(), [capped[0]!], { treeSize: 3, dayStartedAt })).toBe(
      null,
    );
    const tree = await newCall();
    const dialled = [];
    for (;;) {
      const offer = await offerToNextPartner(database.run, tree, capped, { treeSize: 2, dayStartedAt });
      if (!offer) break;
      dialled.push(offer.phone);
      await database.db.update(callOffers).set({ status: "missed" }).where(eq(callOffers.id, offer.id));
    }
    expect(dialled).toHaveLength(2);
    expect(dialled).not.toContain(capped[0]!.phone);
  });

  test("an offer left ringing by a lost webhook frees its partner after 5 minutes; a call taken 3 hours ago does not", async () => {
    await database.db.delete(callOffers);
    const [partner] = equal;
    const lost = await offerToNextPartner(database.run, await newCall(), [partner!], { treeSize: 3, dayStartedAt });
    await database.db
      .update(callOffers)
      .set({ offeredAt: sql`now() - interval '4 minutes'` })
      .where(eq(callOffers.id, lost!.id));
    expect(await offerToNextPartner(database.run, await newCall(), [partner!], { treeSize: 3, dayStartedAt })).toBe(
      null,
    );
    await database.db
      .update(callOffers)
      .set({ offeredAt: sql`now() - interval '6 minutes'` })
      .where(eq(callOffers.id, lost!.id));
    const next = await offerToNextPartner(database.run, await newCall(), [partner!], { treeSize: 3, dayStartedAt });
    expect(next?.phone).toBe(partner!.phone);
    const [released] = await database.db.select().from(callOffers).where(eq(callOffers.id, lost!.id));
    expect([released!.status, released!.missedBecause]).toEqual(["missed", "No answer"]);

    await takeOffer(database.run, next!.id);
    await database.db
      .update(callOffers)
      .set({ offeredAt: sql`now() - interval '3 hours'` })
      .where(eq(callOffers.id, next!.id));
    expect(await offerToNextPartner(database.run, await newCall(), [partner!], { treeSize: 3, dayStartedAt })).toBe(
      null,
    );
  });
});
