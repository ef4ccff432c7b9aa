import { startWebhookReceiver } from "../scripts/test-support/webhook-receiver";
import { healthy, killServer, sendTestEvents, startApp, stopApp, waitUntil } from "./app-instances";
import { expect, test } from "./fixtures";

// A second app of our own (the shared one must not be killed), on its own database.
const port = Number(process.env.E2E_PORT ?? 3100) + 1;

test("killing the app while deliveries are due loses no event", async () => {
  test.setTimeout(240_000);
  const receiver = await startWebhookReceiver();
  // Slow answers keep deliveries in flight when the process dies (one pass may send all 30 at
  // once, so what must be short of 30 is the number answered, not the number that arrived).
  receiver.script(...Array.from({ length: 200 }, () => ({ status: 200, delayMs: 1000 })));
  let app = startApp(port);
  try {
    await waitUntil(healthy(port), 120_000);
    const { sent } = await sendTestEvents(port, receiver.url, 30, "Crash Store");
    await waitUntil(() => receiver.received.length >= 3, 30_000);
    expect(receiver.received.filter((request) => request.outcome === "answered").length).toBeLessThan(30);

    // SIGKILL the Next.js server itself: no shutdown hooks, in-flight attempts cut off.
    killServer(port);
    await waitUntil(() => app.exitCode !== null, 30_000);
    // Its devnet too: the restart brings the chain back on the same port.
    await stopApp(app);

    app = startApp(port, { restart: true });
    await waitUntil(healthy(port), 120_000);
    await waitUntil(
      () => new Set(receiver.received.map((request) => request.headers["x-service-event-id"])).size === 30,
      120_000,
    );

    const deliveredIds = receiver.received.map((request) => JSON.parse(request.rawBody).id);
    expect(new Set(deliveredIds)).toEqual(new Set(sent));
    for (const request of receiver.received) {
      expect(request.headers["x-service-event-id"]).toBe(JSON.parse(request.rawBody).id);
    }
  } finally {
    await stopApp(app);
    await receiver.close();
  }
});
