import { afterEach, beforeEach, expect, test, vi } from "vitest";
import { createIntakePressure } from "./intake-pressure.server.ts";

beforeEach(() => vi.useFakeTimers({ toFake: ["setTimeout", "performance"] }));
afterEach(() => vi.useRealTimers());

function watch(promise: Promise<void>) {
  const state = { done: false };
  void promise.then(() => (state.done = true));
  return state;
}

test("the outbox waits while leads keep arriving, and goes once they stop", async () => {
  const pressure = createIntakePressure();
  pressure.leadAccepted();
  const quiet = watch(pressure.quiet());
  // A lead every 5 ms for 200 ms: still waiting.
  for (let n = 0; n < 40; n++) {
    await vi.advanceTimersByTimeAsync(5);
    pressure.leadAccepted();
  }
  expect(quiet.done).toBe(false);
  await vi.advanceTimersByTimeAsync(100);
  expect(quiet.done).toBe(true);
});

test("under leads that never stop, the outbox still goes after a second", async () => {
  const pressure = createIntakePressure();
  pressure.leadAccepted();
  const quiet = watch(pressure.quiet());
  for (let n = 0; n < 190; n++) {
    await vi.advanceTimersByTimeAsync(5);
    pressure.leadAccepted();
  }
  expect(quiet.done).toBe(false);
  for (let n = 0; n < 20; n++) {
    await vi.advanceTimersByTimeAsync(5);
    pressure.leadAccepted();
  }
  expect(quiet.done).toBe(true);
});

test("with no recent lead the outbox does not wait", async () => {
  const quiet = watch(createIntakePressure().quiet());
  await vi.advanceTimersByTimeAsync(0);
  expect(quiet.done).toBe(true);
});
