import { Worker } from "node:worker_threads";
import { expect, test, vi } from "vitest";
import { startServer } from "~/server/start-server.server.ts";
import { postJson, testEnv, validContact } from "../../tooling/local-services.ts";

test("when the embedded database's thread dies mid-request, visitors get 503 at once, not a hung request", async () => {
  const running = await startServer(testEnv({}));
  // The thread dies with a lead handed to it, as a crash inside PGlite would end it. It is stopped as the lead
  // is posted, not after: a thread that answered first (it can, on a busy machine) would store the lead.
  const postMessage = Worker.prototype.postMessage;
  const spy = vi.spyOn(Worker.prototype, "postMessage").mockImplementation(function (this: Worker, message, transfer) {
    if ((message as { name?: string }).name === "store_contact") void this.terminate();
    postMessage.call(this, message, transfer);
  });
  try {
    for (const attempt of [1, 2]) {
      const answer = await postJson(running.url, { ...validContact, service: `Attempt ${attempt}` });
      expect(answer.status).toBe(503);
      expect(answer.body).toEqual({ error: expect.stringMatching(/could not save/), fieldErrors: {} });
    }
  } finally {
    spy.mockRestore();
    await running.close();
  }
});
