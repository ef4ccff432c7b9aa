import { generateMnemonic } from "@scure/bip39";
import { wordlist } from "@scure/bip39/wordlists/english.js";
import { createWalletClient, type Hex, http, parseUnits } from "viem";
import { hardhat } from "viem/chains";
import { compileTestUsdc } from "../lib/chains/compile-test-usdc";
import { deployPriceFeeds, deployTestUsdc, devnetNetwork, startDevnet } from "../lib/chains/devnet";
import { devnetFunder } from "../lib/chains/devnet-account";
import { startRpcRecorder } from "../scripts/test-support/rpc-recorder";
import { serverPids } from "../scripts/test-support/server-pids";
import { startWebhookReceiver } from "../scripts/test-support/webhook-receiver";
import { clientPortsOf, healthy, killServer, startApp, stopApp, waitUntil } from "./app-instances";
import { appSql, createOrganizationOn, expect, test } from "./fixtures";

// The README's scale-out story, end to end: two app instances (`npm start` each, as in
// production) on one PostgreSQL database and one devnet, with the in-process job engine and the
// PostgreSQL rate-limit store. One is SIGKILLed while a slow receiver holds its webhook attempts.

const e2ePort = Number(process.env.E2E_PORT ?? 3100);
const portA = e2ePort + 2;
const portB = e2ePort + 3;
const devnetPort = Number(process.env.E2E_DEVNET_PORT_BASE ?? 8700) + (portA % 100);
const url = (port: number, path: string) => `http://127.0.0.1:${port}${path}`;
const publicPerMinute = 40;

test("two instances on one database share webhook work, the chain scan and rate limits, and survive one being killed", async () => {
  test.setTimeout(300_000);
  const devnet = await startDevnet({ port: devnetPort });
  const rpc = await startRpcRecorder(devnet.rpcUrl, ["A", "B"]);
  const receiver = await startWebhookReceiver();
  // Slow answers keep attempts in flight (under the app's 10 s delivery timeout) until the test sees
  // B holding some; those are then held until B is gone, however slow the machine is before the
  // kill. Once B is gone every answer is quick.
  receiver.script(...Array.from({ length: 60 }, () => ({ status: 200, delayMs: 7_000 })));
  const usdc = await deployTestUsdc(devnet.rpcUrl);
  const priceFeeds = await deployPriceFeeds(devnet.rpcUrl);
  const mnemonic = generateMnemonic(wordlist);
  const instanceEnv = (via: "A" | "B") => ({
    TEST_DATABASE_URL: process.env.TEST_DATABASE_URL || "postgresql://postgres@127.0.0.1:5432/postgres",
    SERVICE_JOB_ENGINE: "in-process",
    SERVICE_RATE_LIMIT_STORE: "postgres",
    SERVICE_RATE_LIMIT_PUBLIC_PER_MINUTE: String(publicPerMinute),
    // The same chain, each instance through its own recorded port.
    SERVICE_NETWORKS: JSON.stringify([
      devnetNetwork({ rpcUrl: rpc.urls[via], usdc, confirmations: 2, priceFeeds }),
    ]),
    SERVICE_HD_MNEMONIC: mnemonic,
  });
  // A starts first, so it takes the chain-scan lease before B exists.
  const appA = startApp(portA, { env: instanceEnv("A") });
  let appB = appA;
  try {
    await waitUntil(healthy(portA), 120_000, "instance A");
    appB = startApp(portB, { join: portA, env: instanceEnv("B") });
    await waitUntil(healthy(portB), 120_000, "instance B");
    const sql = (text: string, values: unknown[] = []) => appSql(text, values, portA);

    const { apiKey, organizationId } = await createOrganizationOn(portA, "Scale", "scale@example.com");
    const call = async (port: number, path: string, body?: unknown, auth = true) => {
      const response = await fetch(url(port, path), {
        method: body === undefined ? "GET" : "POST",
        headers: {
          ...(auth ? { authorization: `Bearer ${apiKey}` } : {}),
          "content-type": "application/json",
          "idempotency-key": `scale-${Math.random()}`,
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: response.status, body: await response.json() };
    };
    const endpoint = await call(portA, "/api/private/organization/webhook-endpoints", {
      name: "Scale",
      url: receiver.url,
      adapter: "NONE",
      enabled: true,
    });
    expect(endpoint.status, JSON.stringify(endpoint.body)).toBe(201);
    const endpointId: string = endpoint.body.data.id;

    // Sessions created on one instance, paid through the other, on the shared devnet.
    const { abi } = compileTestUsdc();
    const wallet = createWalletClient({
      account: devnetFunder,
      chain: hardhat,
      transport: http(devnet.rpcUrl),
    });
    const invoiceIds: string[] = [];
    for (const [create, pay] of [
      [portA, portB],
      [portB, portA],
      [portA, portB],
      [portB, portA],
    ]) {
      const session = await call(create, "/api/checkout-sessions", { amount: "5.00", currency: "USD" });
      expect(session.status, JSON.stringify(session.body)).toBe(200);
      const payment = await call(
        pay,
        "/api/public/payments",
        { checkoutSessionId: session.body.id, network: "devnet", token: "USDC" },
        false,
      );
      expect(payment.status, JSON.stringify(payment.body)).toBe(201);
      invoiceIds.push(payment.body.id);
      await wallet.writeContract({
        address: usdc,
        abi,
        functionName: "mint",
        args: [payment.body.depositAddress as Hex, parseUnits(payment.body.amountDue, 6)],
      });
    }

    // Rate limits are shared: exhausting the public limit on A leaves none on B. (The payments
    // above are started, so nothing below needs the public endpoints.)
    let status = 0;
    for (let i = 0; i <= publicPerMinute && status !== 429; i++)
      status = (await call(portA, `/api/public/payments/${invoiceIds[0]}`, undefined, false)).status;
    expect(status).toBe(429);
    expect((await call(portB, `/api/public/payments/${invoiceIds[0]}`, undefined, false)).status).toBe(429);

    // Test events through both instances, spread out so both workers claim some.
    for (let i = 0; i < 30; i++) {
      const sent = await call(
        i % 2 ? portA : portB,
        `/api/private/organization/webhook-endpoints/${endpointId}/test`,
        {},
      );
      expect(sent.status, JSON.stringify(sent.body)).toBe(202);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }

    // Kill B while it holds attempts at the slow receiver (its connections, found with `ss`).
    const pending = () => receiver.received.filter((request) => request.outcome === "pending").length;
    const pidsB = serverPids(portB);
    const heldByB = () => {
      const portsOfB = clientPortsOf(pidsB, receiver.port);
      return receiver.received.filter(
        (request) => request.outcome === "pending" && portsOfB.has(request.remotePort),
      );
    };
    await waitUntil(
      () => {
        const held = heldByB();
        if (held.length < 2) return false;
        // Same tick as the check: none of them can be answered before B is killed.
        receiver.hold(held);
        return true;
      },
      60_000,
      "instance B to hold attempts",
    );
    killServer(portB);
    await waitUntil(() => appB.exitCode !== null, 30_000, "instance B to exit");
    receiver.answerDelayedNow();
    await waitUntil(() => receiver.received.every((request) => request.outcome !== "pending"), 30_000);
    expect(
      receiver.received.filter((request) => request.outcome === "cut-off").length,
    ).toBeGreaterThanOrEqual(2);

    // B's claims lapse after claim-due-deliveries' claimMs (2 minutes). Once A has worked off
    // everything it can claim (the receiver idle), the only claimed, undelivered rows are B's:
    // move their expiry to now instead of waiting, as the clock would.
    const undelivered = async () =>
      (
        await sql(
          `SELECT count(*)::int AS n FROM "WebhookDelivery" WHERE "endpointId" = $1 AND status <> 'DELIVERED'`,
          [endpointId],
        )
      )[0].n as number;
    await waitUntil(
      async () => {
        const before = `${receiver.received.length}/${await undelivered()}`;
        await new Promise((resolve) => setTimeout(resolve, 1_500));
        return pending() === 0 && before === `${receiver.received.length}/${await undelivered()}`;
      },
      60_000,
      "instance A to finish what it can claim",
    );
    await sql(
      `UPDATE "WebhookDelivery" SET "lockedUntil" = now() WHERE "endpointId" = $1 AND status = 'PENDING' AND "lockedUntil" > now()`,
      [endpointId],
    );

    // Every invoice confirms (A keeps scanning) and every event of the organization is delivered.
    await waitUntil(
      async () =>
        (
          await sql(`SELECT count(*)::int AS n FROM "Invoice" WHERE id = ANY($1) AND status = 'CONFIRMED'`, [
            invoiceIds,
          ])
        )[0].n === invoiceIds.length,
      60_000,
      "the invoices to confirm",
    );
    await waitUntil(async () => (await undelivered()) === 0, 60_000, "every delivery");

    const events = (await sql(`SELECT id FROM "Event" WHERE "organizationId" = $1`, [organizationId])).map(
      (row) => row.id as string,
    );
    expect(events.length).toBeGreaterThanOrEqual(30 + invoiceIds.length);
    const requestsPerEvent = new Map<string, typeof receiver.received>();
    for (const request of receiver.received) {
      const id = request.headers["x-service-event-id"] as string;
      requestsPerEvent.set(id, [...(requestsPerEvent.get(id) ?? []), request]);
    }
    expect(new Set(requestsPerEvent.keys()), "every event reached the receiver").toEqual(new Set(events));

    // No attempt made twice: one recorded attempt per delivery, and one request per event except
    // where B died after sending and before recording (at least once, never twice by two workers).
    const attempts = await sql(
      `SELECT d."eventId", count(a.id)::int AS n FROM "WebhookDelivery" d
       LEFT JOIN "WebhookAttempt" a ON a."deliveryId" = d.id WHERE d."endpointId" = $1 GROUP BY d."eventId"`,
      [endpointId],
    );
    expect(attempts.filter((row) => row.n !== 1)).toEqual([]);
    for (const [id, requests] of requestsPerEvent) {
      if (requests.length === 1) continue;
      // B's request was cut off, or answered just before B died without recording it; A's
      // resend was answered. Two live workers sending twice would show as two attempt rows above.
      expect(requests.length, id).toBe(2);
      expect(["cut-off", "answered"], id).toContain(requests[0].outcome);
      expect(requests[1].outcome, id).toBe("answered");
      // B sent it before the kill; the receiver may read it a moment after on a busy machine, so
      // only the order of the two is certain, not that of the read and the kill.
      expect(requests[0].receivedAt.getTime(), id).toBeLessThanOrEqual(requests[1].receivedAt.getTime());
    }

    // One chain scan at a time: only the lease holder (A, started first) ever asked for logs.
    const logCalls = rpc.calls.filter((call) => call.method === "eth_getLogs");
    expect(logCalls.length).toBeGreaterThan(0);
    expect(new Set(logCalls.map((call) => call.via))).toEqual(new Set(["A"]));
    expect(await sql(`SELECT count(*)::int AS n FROM "JobLease" WHERE name = 'scan-networks'`)).toEqual([
      { n: 1 },
    ]);
  } finally {
    // Each app's whole process group (wrapper, server, devnet), so no port outlives the test.
    await Promise.all([stopApp(appA), stopApp(appB)]);
    await Promise.all([receiver.close(), rpc.close()]);
    await devnet.stop();
  }
});
