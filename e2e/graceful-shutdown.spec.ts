import { Agent, request as httpRequest } from "node:http";
import { serverPids } from "../scripts/test-support/server-pids";
import { startWebhookReceiver } from "../scripts/test-support/webhook-receiver";
import {
  acceptedClientPorts,
  acceptsConnections,
  healthy,
  sendTestEvents,
  startApp,
  stopApp,
  waitUntil,
} from "./app-instances";
import { appEnv, appSql, expect, test } from "./fixtures";

// Graceful shutdown end to end (docs/operations.md, "Shutdown"): a real SIGTERM to a running app
// (`npm start`, as in production) mid-burst. It stops taking connections, answers the requests it
// had taken, finishes the webhook attempts under way and gives back everything it had claimed, then
// exits 0 with its whole process tree; restarted, it delivers the rest, and no event reaches the
// receiver twice.

// An app of our own (the shared one must not be stopped), on a port no other spec uses. PostgreSQL
// rather than the embedded database, so the rows can be read while the app is down.
const port = Number(process.env.E2E_PORT ?? 3100) + 4;
const env = {
  TEST_DATABASE_URL: process.env.TEST_DATABASE_URL || "postgresql://postgres@127.0.0.1:5432/postgres",
  // The group's SIGTERM also stops tsx's esbuild service: with its transform cache off, any
  // TypeScript the server first loads during shutdown fails there, as on a fresh install.
  TSX_DISABLE_CACHE: "1",
};
const events = 30;
const requestsInFlight = 20;

type Answer = { status: number; connection?: string; body: string } | { error: string };

/**
 * A checkout-session request that sends its headers and half its body, then waits: the server has
 * taken it but cannot answer until `finish` sends the rest. Keep-alive, as API clients are.
 */
function halfSentRequest(apiKey: string, agent: Agent, index: number) {
  const body = JSON.stringify({
    amount: "25.00",
    currency: "USD",
    description: `Drain ${index}`,
    successUrl: `http://127.0.0.1:${port}/?paid={CHECKOUT_SESSION_ID}`,
    cancelUrl: `http://127.0.0.1:${port}/?cancelled=1`,
  });
  const request = httpRequest({
    host: "127.0.0.1",
    port,
    method: "POST",
    path: "/api/checkout-sessions",
    agent,
    headers: {
      authorization: `Bearer ${apiKey}`,
      "content-type": "application/json",
      "content-length": Buffer.byteLength(body),
      "idempotency-key": `drain-${index}-${Date.now()}`,
    },
  });
  const answer = new Promise<Answer>((resolve) => {
    request.once("error", (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
    request.once("response", (response) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => {
        text += chunk;
      });
      response.once("error", (error: NodeJS.ErrnoException) =>
        resolve({ error: error.code ?? error.message }),
      );
      response.once("end", () =>
        resolve({ status: response.statusCode ?? 0, connection: response.headers.connection, body: text }),
      );
    });
  });
  const clientPort = new Promise<number>((resolve, reject) => {
    request.once("socket", (socket) => socket.once("connect", () => resolve(socket.localPort as number)));
    request.once("error", reject);
  });
  const half = Math.floor(body.length / 2);
  request.write(body.slice(0, half));
  return { answer, clientPort, finish: () => request.end(body.slice(half)) };
}

test("SIGTERM mid-burst answers what was taken, loses and doubles nothing, and takes the whole app down", async () => {
  test.setTimeout(300_000);
  const receiver = await startWebhookReceiver();
  // Slow answers: attempts are still under way when the signal comes.
  receiver.script(...Array.from({ length: events }, () => ({ status: 200, delayMs: 1_500 })));
  const agent = new Agent({ keepAlive: true });
  let app = startApp(port, { env });
  try {
    await waitUntil(healthy(port), 120_000, "the app");
    const devnetPort = Number(appEnv(port).SERVICE_DEVNET_PORT);
    const { apiKey, endpointId, sent } = await sendTestEvents(port, receiver.url, events, "Drain Store");
    await waitUntil(() => receiver.received.length >= 3, 30_000, "the first deliveries");

    // Requests the server has taken (each connection accepted by the server process) but cannot
    // finish before the signal: the second half of each body is sent only after it.
    const requests = Array.from({ length: requestsInFlight }, (_, index) =>
      halfSentRequest(apiKey, agent, index),
    );
    const clientPorts = await Promise.all(requests.map((request) => request.clientPort));
    await waitUntil(
      () => {
        const accepted = acceptedClientPorts(serverPids(port), port);
        return clientPorts.every((clientPort) => accepted.has(clientPort));
      },
      10_000,
      "the server to accept every request",
    );

    // A real SIGTERM to the app's whole process group, as Ctrl-C or systemd sends it; each parent
    // (e2e-server, npm start) forwards it to its child too.
    const attemptsUnderWay = receiver.received.filter((request) => request.outcome === "pending");
    const stopped = stopApp(app);
    await waitUntil(async () => !(await acceptsConnections(port)), 10_000, "the listener to close");
    // Still alive: it cannot exit before answering the requests it has taken.
    expect(app.exitCode).toBeNull();
    for (const request of requests) request.finish();
    const answers = await Promise.all(requests.map((request) => request.answer));
    for (const answer of answers) {
      expect(answer, JSON.stringify(answer)).toMatchObject({ status: 200, connection: "close" });
      expect(JSON.parse((answer as { body: string }).body).id).toMatch(/^ycs_/);
    }

    // Down on the SIGTERM alone, exiting 0 (npm start exits with its server's code), and nothing
    // of it left: no server, no devnet, nothing listening on their ports.
    expect(await stopped, "the whole process group exited on SIGTERM").toBe(true);
    await waitUntil(() => app.exitCode !== null || app.signalCode !== null, 10_000, "the exit status");
    expect(app.exitCode).toBe(0);
    expect(await acceptsConnections(port)).toBe(false);
    expect(await acceptsConnections(devnetPort)).toBe(false);

    // The attempts under way at the signal finished: answered, not cut off, and recorded.
    expect(attemptsUnderWay.length, "attempts under way when the signal came").toBeGreaterThan(0);
    expect(new Set(receiver.received.map((request) => request.outcome))).toEqual(new Set(["answered"]));
    const deliveries = await appSql(
      `SELECT d."eventId", d."status", d."lockedUntil", d."attemptCount",
              (SELECT count(*)::int FROM "WebhookAttempt" a WHERE a."deliveryId" = d."id") AS "attempts"
       FROM "WebhookDelivery" d WHERE d."endpointId" = $1`,
      [endpointId],
      port,
    );
    expect(deliveries).toHaveLength(events);
    // Nothing left claimed by the stopped instance: each delivery is done, once, or untouched.
    for (const delivery of deliveries) {
      expect(delivery.lockedUntil, JSON.stringify(delivery)).toBeNull();
      if (delivery.attempts === 0) expect(delivery).toMatchObject({ status: "PENDING", attemptCount: 0 });
      else expect(delivery).toMatchObject({ status: "DELIVERED", attemptCount: 1, attempts: 1 });
    }
    const receivedBeforeRestart = receiver.received.map((request) => request.headers["x-service-event-id"]);
    expect(new Set(receivedBeforeRestart)).toEqual(
      new Set(deliveries.filter((delivery) => delivery.attempts === 1).map((delivery) => delivery.eventId)),
    );
    // Nor any task lease: a restarted instance (a new owner) takes every task at once.
    expect(await appSql(`SELECT "name", "owner" FROM "JobLease"`, [], port)).toEqual([]);

    app = startApp(port, { restart: true, env });
    await waitUntil(healthy(port), 120_000, "the restarted app");
    const receivedIds = () => receiver.received.map((request) => request.headers["x-service-event-id"]);
    await waitUntil(() => new Set(receivedIds()).size === events, 120_000, "every event");
    // Exactly once each: not a set, the count (webhook-crash.spec.ts's SIGKILL may double some).
    expect(receivedIds()).toHaveLength(events);
    expect(new Set(receivedIds())).toEqual(new Set(sent));
  } finally {
    agent.destroy();
    await stopApp(app);
    await receiver.close();
  }
});
