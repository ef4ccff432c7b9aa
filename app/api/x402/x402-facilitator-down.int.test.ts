// x402 with the facilitator over HTTP (SERVICE_X402_FACILITATOR_URL) going down: before verifying,
// or between a good verification and the settlement. Nothing may be marked paid, nothing moves.
process.env.SERVICE_SWEEPER = "separate";

import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { decodePaymentRequiredHeader, decodePaymentResponseHeader } from "@x402/core/http";
import type { x402Client } from "@x402/fetch";
import { parseUnits } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { createBuiltInFacilitator, ownX402Payee } from "@/lib/x402/create-built-in-facilitator";
import { resolveStuckX402Settlements } from "@/lib/x402/resolve-stuck-x402-settlements";
import { hardhatMnemonic, startTestDevnet, type TestDevnet } from "@/scripts/test-support/test-devnet";
import { sendX402Payment, serveX402App, type X402App, x402Agent } from "@/scripts/test-support/x402-app";

let devnet: TestDevnet;
let app: X402App;
let facilitator: Server;
/**
 * Which of the facilitator's endpoints answer; the others drop the connection. `lost`: the
 * settlement is made, and its answer lost. `misreported`: the settlement is made, and answered as
 * failed (a receipt it could not read, say).
 */
let up: { verify: boolean; settle: boolean | "lost" | "misreported" } = { verify: true, settle: true };

beforeAll(async () => {
  devnet = await startTestDevnet({ confirmations: 1 });
  // A facilitator server in front of the real one (the signing role's), whose endpoints go down.
  const real = createBuiltInFacilitator({
    mnemonic: hardhatMnemonic,
    networks: [devnet.network],
    // The client is made on first use, after the configuration below is complete.
    ownsPayee: (payment) => ownX402Payee(db())(payment),
  });
  facilitator = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", async () => {
      const operation =
        incoming.url === "/verify" ? "verify" : incoming.url === "/settle" ? "settle" : undefined;
      if (!operation || !up[operation]) {
        incoming.socket.destroy();
        return;
      }
      const { paymentPayload, paymentRequirements } = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      const answer = await real[operation](paymentPayload, paymentRequirements);
      if (operation === "settle" && up.settle === "lost") {
        incoming.socket.destroy();
        return;
      }
      const reported =
        operation === "settle" && up.settle === "misreported"
          ? {
              ...answer,
              success: false,
              errorReason: "transaction_failed",
              errorMessage: "Docs: https://viem.sh",
            }
          : answer;
      outgoing.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(reported));
    });
  });
  await new Promise<void>((resolve) => facilitator.listen(0, "127.0.0.1", resolve));
  process.env.SERVICE_X402_FACILITATOR_URL = `http://127.0.0.1:${(facilitator.address() as AddressInfo).port}`;
  app = await serveX402App();
}, 120_000);
afterAll(async () => {
  await app?.close();
  await new Promise((resolve) => facilitator?.close(resolve));
  await devnet?.stop();
});

const agent = () => x402Agent(devnet, "10");

/** The official client's payment for what `url` quotes, and a request sending it. */
async function signedPayment(url: string, client: x402Client) {
  const quote = await fetch(url);
  const payment = await client.createPaymentPayload(
    decodePaymentRequiredHeader(quote.headers.get("PAYMENT-REQUIRED") as string),
  );
  return () => sendX402Payment(url, payment);
}

describe("the facilitator goes down", () => {
  it("before verifying: 402 facilitator_unavailable with a fresh quote; no session, no invoice, nothing moved", async () => {
    up = { verify: false, settle: false };
    const { organization, url } = await app.paylink("2.00");
    const organizationId = organization.id;
    const { account, pay } = await agent();
    const response = await pay(url);
    expect(response.status).toBe(402);
    expect((await response.json()).error.code).toBe("facilitator_unavailable");
    expect(
      decodePaymentRequiredHeader(response.headers.get("PAYMENT-REQUIRED") as string).accepts,
    ).toHaveLength(1);
    expect(await db().checkoutSession.count({ where: { organizationId } })).toBe(0);
    expect(await db().invoice.count({ where: { organizationId } })).toBe(0);
    expect(await devnet.usdcBalance(account.address)).toBe(parseUnits("10", 6));
  });

  it("after verifying, before settling: the paylink's invoice is withdrawn, its row failed, and a replay settles nothing", async () => {
    up = { verify: true, settle: false };
    const { organization, url } = await app.paylink("2.00");
    const organizationId = organization.id;
    const { account, client } = await agent();
    const send = await signedPayment(url, client);
    const response = await send();
    expect(response.status).toBe(402);
    expect((await response.json()).error.code).toBe("facilitator_unavailable");
    expect(decodePaymentResponseHeader(response.headers.get("PAYMENT-RESPONSE") as string)).toMatchObject({
      success: false,
      errorReason: "facilitator_unavailable",
      payer: account.address,
    });

    const invoice = await db().invoice.findFirstOrThrow({
      where: { organizationId },
      include: { checkoutSession: true, x402Settlements: true },
    });
    expect(invoice.status).toBe("OVERDUE");
    expect(invoice.amountPaid.toString()).toBe("0");
    expect(invoice.checkoutSession.status).toBe("EXPIRED");
    expect(invoice.x402Settlements).toMatchObject([
      { status: "FAILED", errorReason: "facilitator_unavailable" },
    ]);
    expect(await devnet.usdcBalance(account.address)).toBe(parseUnits("10", 6));
    expect(await devnet.usdcBalance(invoice.depositAddress)).toBe(0n);

    // Back up: the same authorization answers its stored failure, and moves nothing.
    up = { verify: true, settle: true };
    const replay = await send();
    expect(replay.status).toBe(402);
    expect((await replay.json()).error.code).toBe("facilitator_unavailable");
    expect(await devnet.usdcBalance(account.address)).toBe(parseUnits("10", 6));
  });

  it("a merchant's session keeps its invoice open, unpaid, when settling fails; a new payment then pays it", async () => {
    up = { verify: true, settle: false };
    const created = await app.session("2.00");
    const { url } = created;
    const { account, pay } = await agent();
    expect((await pay(url)).status).toBe(402);
    const invoice = await db().invoice.findUniqueOrThrow({ where: { checkoutSessionId: created.id } });
    expect(invoice.status).toBe("AWAITING_PAYMENT");

    up = { verify: true, settle: true };
    expect((await pay(url)).status).toBe(200);
    expect(await devnet.usdcBalance(invoice.depositAddress)).toBe(parseUnits("2", 6));
    expect(await devnet.usdcBalance(account.address)).toBe(parseUnits("8", 6));
  });

  it("a settlement reported failed is FAILED only after the chain is read: it landed, so 200 and SETTLED", async () => {
    up = { verify: true, settle: "misreported" };
    const { organization, url } = await app.paylink("2.00");
    const { account, pay } = await agent();
    const response = await pay(url);
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.transaction).toMatch(/^0x[0-9a-f]{64}$/);
    const invoice = await db().invoice.findFirstOrThrow({
      where: { organizationId: organization.id },
      include: { x402Settlements: true },
    });
    expect(invoice.x402Settlements).toMatchObject([
      { status: "SETTLED", transaction: body.transaction, errorReason: null },
    ]);
    expect(await devnet.usdcBalance(invoice.depositAddress)).toBe(parseUnits("2", 6));
    expect(await devnet.usdcBalance(account.address)).toBe(parseUnits("8", 6));
  });

  it("a settlement whose answer is lost is decided on chain: the transfer happened, so 200 with its transaction", async () => {
    up = { verify: true, settle: "lost" };
    const { organization, url } = await app.paylink("2.00");
    const organizationId = organization.id;
    const { account, pay } = await agent();
    const response = await pay(url);
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.transaction).toMatch(/^0x[0-9a-f]{64}$/);
    const receipt = await devnet.client.getTransactionReceipt({ hash: body.transaction });
    expect(receipt.status).toBe("success");
    const invoice = await db().invoice.findFirstOrThrow({
      where: { organizationId },
      include: { x402Settlements: true },
    });
    expect(invoice.x402Settlements).toMatchObject([{ status: "SETTLED", transaction: body.transaction }]);
    expect(await devnet.usdcBalance(invoice.depositAddress)).toBe(parseUnits("2", 6));
    expect(await devnet.usdcBalance(account.address)).toBe(parseUnits("8", 6));
  });

  it("a settlement left SETTLING by a crash is finished by the next copy of the payment, once", async () => {
    up = { verify: true, settle: false };
    const created = await app.session("2.00");
    const { url } = created;
    const { account, client } = await agent();
    const send = await signedPayment(url, client);
    expect((await send()).status).toBe(402);
    // What a process that died while settling leaves behind: the row SETTLING, its lease lapsed.
    const invoice = await db().invoice.findUniqueOrThrow({ where: { checkoutSessionId: created.id } });
    await db().$executeRaw`
      UPDATE "X402Settlement" SET "status" = 'SETTLING', "errorReason" = NULL, "updatedAt" = now() - interval '1 minute'
      WHERE "invoiceId" = ${invoice.id}`;

    up = { verify: true, settle: true };
    const [one, two] = await Promise.all([send(), send()]);
    expect([one.status, two.status]).toEqual([200, 200]);
    expect(one.headers.get("PAYMENT-RESPONSE")).toBe(two.headers.get("PAYMENT-RESPONSE"));
    expect(await devnet.usdcBalance(invoice.depositAddress)).toBe(parseUnits("2", 6));
    expect(await devnet.usdcBalance(account.address)).toBe(parseUnits("8", 6));
    expect(await db().x402Settlement.findFirstOrThrow({ where: { invoiceId: invoice.id } })).toMatchObject({
      status: "SETTLED",
    });
  });

  it("the periodic check decides settlements a crash left SETTLING from the chain", async () => {
    // One whose transfer happened: its answer was lost, then the row reset as a crash leaves it.
    up = { verify: true, settle: "lost" };
    const sent = await app.paylink("2.00");
    const { pay } = await agent();
    const paid = await (await pay(sent.url)).json();
    const sentInvoice = await db().invoice.findFirstOrThrow({
      where: { organizationId: sent.organization.id },
    });
    // One never submitted: a merchant session's, whose facilitator was down.
    up = { verify: true, settle: false };
    const created = await app.session("2.00");
    expect((await (await agent()).pay(created.url)).status).toBe(402);
    const unsentInvoice = await db().invoice.findUniqueOrThrow({
      where: { checkoutSessionId: created.id },
    });

    const stick = (invoiceId: string, validBefore: Date) => db().$executeRaw`
      UPDATE "X402Settlement" SET "status" = 'SETTLING', "transaction" = NULL, "errorReason" = NULL,
        "validBefore" = ${validBefore}, "updatedAt" = now() - interval '10 minutes'
      WHERE "invoiceId" = ${invoiceId}`;
    const rowOf = (invoiceId: string) => db().x402Settlement.findFirstOrThrow({ where: { invoiceId } });
    await stick(sentInvoice.id, new Date(Date.now() + 60_000));
    await stick(unsentInvoice.id, new Date(Date.now() + 60_000));
    // Still inside its window, the unsent one may yet be settled by its payer's next copy: left.
    expect(await resolveStuckX402Settlements(db())).toBe(1);
    expect(await rowOf(sentInvoice.id)).toMatchObject({ status: "SETTLED", transaction: paid.transaction });
    expect(await rowOf(unsentInvoice.id)).toMatchObject({ status: "SETTLING" });

    await stick(unsentInvoice.id, new Date(Date.now() - 1000));
    expect(await resolveStuckX402Settlements(db())).toBe(1);
    expect(await rowOf(unsentInvoice.id)).toMatchObject({
      status: "FAILED",
      errorReason: "settlement_interrupted",
    });
    expect((await db().invoice.findUniqueOrThrow({ where: { id: unsentInvoice.id } })).status).toBe(
      "AWAITING_PAYMENT",
    );
    expect(await devnet.usdcBalance(unsentInvoice.depositAddress)).toBe(0n);
    expect(await resolveStuckX402Settlements(db())).toBe(0);
  });
});
