/**
 * Lets the outbox give way to the lead intake during a burst. Both share the embedded database's one
 * thread and the server's event loop; emails can wait a moment, a visitor's answer should not. Before
 * each claim the outbox waits until no lead has been accepted for QUIET_MS, but never longer than
 * MAX_WAIT_MS, so under sustained load it still sends a batch about every second
 * (docs/decisions/096-outbox-yields-to-the-intake.md).
 */
const QUIET_MS = 25;
const MAX_WAIT_MS = 1_000;

export interface IntakePressure {
  /** Called after each accepted lead. */
  leadAccepted(): void;
  /** Resolves once the intake is quiet, or after MAX_WAIT_MS. */
  quiet(): Promise<void>;
}

export function createIntakePressure(): IntakePressure {
  let lastLeadAt = Number.NEGATIVE_INFINITY;
  return {
    leadAccepted() {
      lastLeadAt = performance.now();
    },
    async quiet() {
      const giveUpAt = performance.now() + MAX_WAIT_MS;
      for (;;) {
        const now = performance.now();
        const quietAt = lastLeadAt + QUIET_MS;
        if (now >= quietAt || now >= giveUpAt) return;
        await new Promise((resolve) => setTimeout(resolve, Math.min(quietAt, giveUpAt) - now));
      }
    },
  };
}
