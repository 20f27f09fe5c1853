import { describe, expect, it } from "vitest";
import { createSiteEventCounter } from "./site-event-counter.server.ts";
import type { SiteEvent } from "./site-event.server.ts";

const view = (path: string): SiteEvent => ({ kind: "view", path, placement: "", source: "", medium: "", campaign: "" });

describe("site event counter", () => {
  it("writes everything gathered since the last write in one statement, summed per row", async () => {
    const statements: unknown[][] = [];
    const counter = createSiteEventCounter({
      run: async (_name, _text, params) => (statements.push(params), []),
      flushMs: 60_000,
    });
    const day = new Date("2026-11-22T10:00:00Z");
    counter.add(view("/"), day);
    counter.add(view("/"), day);
    counter.add(view("/about"), day);
    await counter.flush();
    await counter.flush();
    expect(statements).toHaveLength(1);
    expect(JSON.parse(statements[0]![0] as string)).toEqual([
      { day: "2026-11-22", path: "/", kind: "view", placement: "", source: "", medium: "", campaign: "", count: 2 },
      {
        day: "2026-11-22",
        path: "/about",
        kind: "view",
        placement: "",
        source: "",
        medium: "",
        campaign: "",
        count: 1,
      },
    ]);
    await counter.close();
  });

  it("keeps counts for the next write when the database is down, and caps the rows it holds", async () => {
    let down = true;
    const written: string[] = [];
    const counter = createSiteEventCounter({
      run: async (_name, _text, params) => {
        if (down) throw new Error("down");
        written.push(params[0] as string);
        return [];
      },
      flushMs: 60_000,
      maxBufferedRows: 2,
    });
    expect(counter.add(view("/"))).toBe(true);
    expect(counter.add(view("/about"))).toBe(true);
    expect(counter.add(view("/contact"))).toBe(false);
    expect(counter.add(view("/"))).toBe(true);
    const quiet = console.error;
    console.error = () => undefined;
    await counter.flush().finally(() => (console.error = quiet));
    down = false;
    await counter.close();
    expect(JSON.parse(written[0]!).map((row: { path: string; count: number }) => [row.path, row.count])).toEqual([
      ["/", 2],
      ["/about", 1],
    ]);
  });
});
