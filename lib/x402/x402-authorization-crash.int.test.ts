// A settler of an x402 EIP-3009 authorization SIGKILLed just after the node took its transaction,
// before the receipt: a real process settling a real agent's payment (the official client's) on
// the devnet, with mining stopped so the transfer waits unmined when the settler dies. The
// agent's next copies take the row over: while the transfer waits they send nothing and answer
// 503; once it is mined, 200 with that transaction. The transfer happens once.
process.env.SERVICE_SWEEPER = "in-process";
process.env.SERVICE_RATE_LIMIT_X402_PER_CLIENT_PER_MINUTE = "1000";

import { decodePaymentRequiredHeader } from "@x402/core/http";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { crashedX402Settlement } from "@/scripts/test-support/crashed-x402-settlement";
import { sendX402Payment, x402Agent, x402TestBed } from "@/scripts/test-support/x402-app";
import { signDevnetPayment } from "@/scripts/test-support/x402-buyer";

const bed = x402TestBed();

/** Hands the row's lease back, as a settler that stopped renewing it would have after 30 s. */
const leaseLapsed = (id: string) =>
  db().x402Settlement.update({ where: { id }, data: { updatedAt: new Date(0) } });

describe("an x402 authorization whose settler was SIGKILLed after sending, before its receipt", () => {
  it("is taken over by the agent's next copy, which sends nothing while the transfer waits and answers 200 once it is mined; the transfer happens once", async () => {
    const { devnet, app } = bed;
    // One payment settled here first: the facilitator wallet is funded before the settler runs.
    const warm = await x402Agent(devnet);
    expect((await warm.pay((await app.paylink("1.00")).url)).status).toBe(200);

    const paylink = await app.paylink("5.00");
    const required = decodePaymentRequiredHeader(
      (await fetch(paylink.url)).headers.get("PAYMENT-REQUIRED") as string,
    );
    const accepted = required.accepts.find((option) => option.network === "eip155:31337");
    const agent = await x402Agent(devnet);
    const payment = await signDevnetPayment(agent.account, accepted as never, required.resource);
    const payTo = (accepted as { payTo: string }).payTo;

    await devnet.rpc("evm_setAutomine", [false]);
    try {
      const row = await crashedX402Settlement({
        family: "evm",
        crash: "after-send",
        payment,
        paylinkId: paylink.paylink.id,
      });
      const waiting = await devnet.pendingTransactions();
      expect(waiting.map((sent) => sent.hash)).toEqual([row.transaction]);

      // The copy takes the row over, finds the transfer in the pending block, and sends nothing.
      await leaseLapsed(row.id);
      const early = await sendX402Payment(paylink.url, payment);
      expect(early.status).toBe(503);
      expect((await devnet.pendingTransactions()).map((sent) => sent.hash)).toEqual([row.transaction]);
      expect(await devnet.usdcBalance(payTo)).toBe(0n);

      await devnet.rpc("evm_setAutomine", [true]);
      await devnet.mine();
      await leaseLapsed(row.id);
      const late = await sendX402Payment(paylink.url, payment);
      expect(late.status).toBe(200);
      expect((await late.json()).transaction).toBe(row.transaction);
      expect(await db().x402Settlement.findUniqueOrThrow({ where: { id: row.id } })).toMatchObject({
        status: "SETTLED",
        transaction: row.transaction,
      });
      expect(await devnet.usdcBalance(payTo)).toBe(5_000_000n);
      expect(await devnet.usdcBalance(agent.account.address)).toBe(95_000_000n);
      // Another copy answers the same and moves nothing.
      expect((await sendX402Payment(paylink.url, payment)).status).toBe(200);
      expect(await devnet.usdcBalance(payTo)).toBe(5_000_000n);
    } finally {
      await devnet.rpc("evm_setAutomine", [true]);
    }
  }, 120_000);
});
