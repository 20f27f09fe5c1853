import { afterEach, describe, expect, it, vi } from "vitest";
import { afterLoadAndFirstPaint } from "./after-first-paint.ts";

/** A page that has not loaded yet, with a paint-timing observer the test fires by hand. */
function page({ hidden = false, paintTiming = true } = {}) {
  const loadListeners: (() => void)[] = [];
  const observers: ((entries: { getEntriesByName(name: string): unknown[] }) => void)[] = [];
  class FakeObserver {
    static supportedEntryTypes = paintTiming ? ["paint"] : [];
    constructor(callback: (typeof observers)[number]) {
      observers.push(callback);
    }
    observe() {}
    disconnect() {}
  }
  vi.stubGlobal("PerformanceObserver", FakeObserver);
  const doc = { readyState: "interactive", visibilityState: hidden ? "hidden" : "visible" } as unknown as Document;
  const win = {
    setTimeout: (callback: () => void, ms: number) => setTimeout(callback, ms),
    clearTimeout: (id: ReturnType<typeof setTimeout>) => clearTimeout(id),
    addEventListener: (_type: string, listener: () => void) => loadListeners.push(listener),
  } as unknown as Window;
  return {
    doc,
    win,
    load: () => loadListeners.forEach((listener) => listener()),
    paint: (name: string) =>
      observers.forEach((observer) => observer({ getEntriesByName: (n) => (n === name ? [{}] : []) })),
  };
}

describe("afterLoadAndFirstPaint", () => {
  afterEach(() => vi.useRealTimers());

  it("waits for the load event and then for the first contentful paint", () => {
    vi.useFakeTimers();
    const then = vi.fn();
    const shown = page();
    afterLoadAndFirstPaint(shown.doc, shown.win, then);
    shown.load();
    shown.paint("first-paint");
    vi.advanceTimersByTime(10);
    expect(then).not.toHaveBeenCalled();
    shown.paint("first-contentful-paint");
    vi.advanceTimersByTime(0);
    expect(then).toHaveBeenCalledOnce();
    vi.advanceTimersByTime(5_000);
    expect(then).toHaveBeenCalledOnce();
  });

  it("starts at the load event on a hidden page, or without paint timing", () => {
    vi.useFakeTimers();
    for (const options of [{ hidden: true }, { paintTiming: false }]) {
      const then = vi.fn();
      const shown = page(options);
      afterLoadAndFirstPaint(shown.doc, shown.win, then);
      vi.advanceTimersByTime(10);
      expect(then).not.toHaveBeenCalled();
      shown.load();
      vi.advanceTimersByTime(0);
      expect(then).toHaveBeenCalledOnce();
    }
  });

  it("starts 2 s after load when no paint is ever reported", () => {
    vi.useFakeTimers();
    const then = vi.fn();
    const shown = page();
    afterLoadAndFirstPaint(shown.doc, shown.win, then);
    shown.load();
    vi.advanceTimersByTime(1_999);
    expect(then).not.toHaveBeenCalled();
    vi.advanceTimersByTime(2);
    expect(then).toHaveBeenCalledOnce();
  });
});
