// How many SQL statements one x402 payment costs the web tier. Under load the web process's CPU
// per payment (much of it Prisma and pg round trips) and PostgreSQL's bound the settlement rate
// (docs/architecture.md, "Settlement under load"): a change that adds statements to the 402 or to
// the paid request must raise these bounds on purpose.
process.env.SERVICE_SWEEPER = "in-process";

import { AsyncLocalStorage } from "node:async_hooks";
import { decodePaymentRequiredHeader, encodePaymentSignatureHeader } from "@x402/core/http";
import pg from "pg";
import type { LocalAccount } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as paylinkRoute } from "@/app/api/x402/paylinks/[id]/route";
import { callRoute } from "@/scripts/test-support/call-route";
import { mppChallengesOf, signMppChallenge } from "@/scripts/test-support/mpp-buyer";
import { x402Agent, x402TestBed } from "@/scripts/test-support/x402-app";
import { devnetX402Client } from "@/scripts/test-support/x402-buyer";

// Statements are counted per request: each query made in the request's async context, whatever
// else (the sweeper, other files' pools) this process runs meanwhile.
const request = new AsyncLocalStorage<string[]>();
const query = pg.Client.prototype.query;

const bed = x402TestBed();
beforeAll(() => {
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const statements = request.getStore();
    const text = typeof args[0] === "string" ? args[0] : (args[0] as { text?: string })?.text;
    if (statements && text) statements.push(text.replace(/\s+/g, " ").slice(0, 160));
    return (query as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof query;
});
afterAll(() => {
  pg.Client.prototype.query = query;
});

async function counted<T>(work: () => Promise<T>): Promise<{ result: T; statements: string[] }> {
  const statements: string[] = [];
  const result = await request.run(statements, work);
  return { result, statements };
}

/** A 402 and the paid request after it, each request's statements counted, for a new paylink. */
async function payPaylink(sign: (quote: Response, account: LocalAccount) => Promise<Record<string, string>>) {
  const { id } = (await bed.app.paylink("5.00")).paylink;
  const path = `/api/x402/paylinks/${id}`;
  const { account } = await x402Agent(bed.devnet, "20");
  // A first 402 warms what a process reads once (the network's gas estimate, a price).
  expect((await callRoute(paylinkRoute, path, { params: { id } })).status).toBe(402);
  const quote = await counted(() => callRoute(paylinkRoute, path, { params: { id } }));
  expect(quote.result.status).toBe(402);
  const headers = await sign(new Response(null, { status: 402, headers: quote.result.headers }), account);
  const paid = await counted(() => callRoute(paylinkRoute, path, { params: { id }, headers }));
  expect(paid.result.status).toBe(200);
  return { quote: quote.statements, paid: paid.statements };
}

const required = (quote: Response) =>
  decodePaymentRequiredHeader(quote.headers.get("PAYMENT-REQUIRED") as string);

// Measured: 5 for the 402, 27 for the paid request over x402 and 28 over MPP (a round trip each,
// BEGIN and COMMIT included; 6, 33 and 34 before they were cut). The slack: a deposit index drawn
// twice (the 402), a lease renewal on a machine slow enough to take 10 s to settle
// (lib/x402/x402-settler-lease.ts).
describe("SQL statements of one payment for a paylink", () => {
  it.each([
    [
      "x402",
      29,
      async (quote: Response, account: LocalAccount) => {
        const payment = await devnetX402Client(account, bed.devnet.usdc).createPaymentPayload(
          required(quote),
        );
        return { "PAYMENT-SIGNATURE": encodePaymentSignatureHeader(payment) };
      },
    ],
    [
      "MPP",
      30,
      async (quote: Response, account: LocalAccount) => {
        const [challenge] = mppChallengesOf(quote);
        const { credential } = await signMppChallenge(
          account,
          challenge as never,
          required(quote).accepts[0],
        );
        return { Authorization: credential };
      },
    ],
  ] as const)("over %s: at most 6 for the 402 and %i for the paid request", async (_protocol, most, sign) => {
    const { quote, paid } = await payPaylink(sign);
    expect(quote.length, quote.join("\n")).toBeLessThanOrEqual(6);
    expect(paid.length, paid.join("\n")).toBeLessThanOrEqual(most);
  });
});
