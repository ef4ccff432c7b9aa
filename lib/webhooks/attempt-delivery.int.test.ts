import dns from "node:dns";
import dnsPromises from "node:dns/promises";
import { syncBuiltinESMExports } from "node:module";
import { afterEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { recordEvent } from "@/lib/events/record-event";
import { createTestOrganization } from "@/scripts/test-support/fixtures";
import { startWebhookReceiver } from "@/scripts/test-support/webhook-receiver";
import { createWebhookEndpoint } from "./create-webhook-endpoint";
import { deliverDueWebhooks } from "./deliver-due-webhooks";

// Production settings: only public addresses may be reached. The receiver still listens on
// 127.0.0.1: it stands for the internal service an attacker aims at. The public address answers
// nothing here, so its attempt ends at the timeout: long enough that a loaded machine still
// resolves the name before it (a 300 ms one ended some attempts before any lookup).
process.env.SERVICE_WEBHOOK_ALLOW_PRIVATE_URLS = "false";
process.env.SERVICE_WEBHOOK_TIMEOUT_MS = "3000";

type Answer = { address: string; family: number };
const original = { lookup: dns.lookup, promisesLookup: dnsPromises.lookup };

/**
 * Makes the system resolver answer `rebind.test` with each list of answers in turn (the last one
 * repeats): the attacker's DNS server, with a zero TTL. Every other name resolves as usual.
 */
function fakeDns(...answers: Answer[][]) {
  let calls = 0;
  const next = () => answers[Math.min(calls++, answers.length - 1)];
  const lookup = ((hostname: string, options: unknown, callback?: unknown) => {
    const done = (typeof options === "function" ? options : callback) as (...args: unknown[]) => void;
    const all = typeof options === "object" && (options as { all?: boolean }).all;
    if (hostname !== "rebind.test")
      return (original.lookup as (...args: unknown[]) => void)(hostname, options, callback);
    const answer = next();
    setImmediate(() => (all ? done(null, answer) : done(null, answer[0].address, answer[0].family)));
  }) as typeof dns.lookup;
  const promisesLookup = (async (hostname: string, options?: { all?: boolean }) => {
    if (hostname !== "rebind.test") return original.promisesLookup(hostname, options ?? {});
    const answer = next();
    return options?.all ? answer : answer[0];
  }) as typeof dnsPromises.lookup;
  dns.lookup = lookup;
  dnsPromises.lookup = promisesLookup;
  syncBuiltinESMExports();
  return { calls: () => calls };
}

const receivers: Awaited<ReturnType<typeof startWebhookReceiver>>[] = [];
afterEach(async () => {
  dns.lookup = original.lookup;
  dnsPromises.lookup = original.promisesLookup;
  syncBuiltinESMExports();
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
});

const publicAnswer = [{ address: "198.51.100.7", family: 4 }];
const loopbackAnswer = [{ address: "127.0.0.1", family: 4 }];

async function deliveryTo(url: (port: number) => string) {
  const receiver = await startWebhookReceiver();
  receivers.push(receiver);
  const { organization } = await createTestOrganization();
  await createWebhookEndpoint(db(), organization.id, {
    name: "Attacker",
    url: url(receiver.port),
    adapter: "NONE",
    enabled: true,
  });
  const event = await db().$transaction((tx) =>
    recordEvent(tx, { organizationId: organization.id, type: "invoice.created", data: { amount: "1.00" } }),
  );
  const delivery = () =>
    db().webhookDelivery.findFirstOrThrow({ where: { eventId: event.id }, include: { attempts: true } });
  return { receiver, delivery };
}

describe("webhook attempts reach only public addresses (SSRF)", () => {
  it("connects to the address it checked: a name answering public, then loopback, never reaches loopback", async () => {
    const resolver = fakeDns(publicAnswer, loopbackAnswer);
    const { receiver, delivery } = await deliveryTo((port) => `http://rebind.test:${port}/webhooks`);
    await deliverDueWebhooks(db());
    expect(receiver.received).toHaveLength(0);
    // One resolution for one connection: what was checked is what the socket dialled.
    expect(resolver.calls()).toBe(1);
    const stored = await delivery();
    expect(stored).toMatchObject({ status: "PENDING", attemptCount: 1 });
    expect(stored.attempts[0]).toMatchObject({ httpStatus: null, responseBody: null });
  });

  it.each<[string, Answer[]]>([
    ["loopback", loopbackAnswer],
    ["cloud metadata", [{ address: "169.254.169.254", family: 4 }]],
    ["one private address among public ones", [...publicAnswer, ...loopbackAnswer]],
    ["NAT64 of loopback", [{ address: "64:ff9b::7f00:1", family: 6 }]],
    ["IPv4-mapped loopback", [{ address: "::ffff:127.0.0.1", family: 6 }]],
  ])("refuses a name resolving to %s", async (_label, answer) => {
    fakeDns(answer);
    const { receiver, delivery } = await deliveryTo((port) => `http://rebind.test:${port}/webhooks`);
    await deliverDueWebhooks(db());
    expect(receiver.received).toHaveLength(0);
    const stored = await delivery();
    expect(stored).toMatchObject({ status: "PENDING", attemptCount: 1 });
    expect(stored.attempts[0]).toMatchObject({
      httpStatus: null,
      error: "blocked: the host resolves to a private address",
    });
  });

  it.each([
    ["loopback", (port: number) => `http://127.0.0.1:${port}/webhooks`],
    ["IPv4-mapped loopback", (port: number) => `http://[::ffff:7f00:1]:${port}/webhooks`],
  ])("refuses an address literal: %s", async (_label, url) => {
    const { receiver, delivery } = await deliveryTo(url);
    await deliverDueWebhooks(db());
    expect(receiver.received).toHaveLength(0);
    expect((await delivery()).attempts[0]).toMatchObject({
      httpStatus: null,
      error: "blocked: the host is a private address",
    });
  });
});
