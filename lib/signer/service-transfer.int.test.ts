// The signing role's service transfers on the local Solana chain and PostgreSQL: recorded with the
// owner's new status before anything is sent, so a crash between the record and the send still
// pays exactly once when the next pass follows the record.
import { type Address, generateKeyPairSigner } from "@solana/kit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServiceTransferProgress, ServiceTransfers } from "@/lib/chains/chain-family";
import { localSolanaMnemonic } from "@/lib/chains/solana/local-solana-accounts";
import { mintLocalTestUsdc } from "@/lib/chains/solana/local-solana-funds";
import { solanaFamily } from "@/lib/chains/solana/solana-family";
import { db } from "@/lib/db/client";
import type { SignedTransaction } from "@/lib/generated/prisma/client";
import { newId } from "@/lib/ids";
import { createTestOrganization } from "@/scripts/test-support/fixtures";
import { paidSolanaInvoice } from "@/scripts/test-support/solana-invoices";
import { startTestLocalSolana, type TestLocalSolana } from "@/scripts/test-support/test-local-solana";
import {
  currentServiceTransfer,
  followServiceTransfer,
  markServiceTransferReplaced,
} from "./follow-service-transfer";
import { signServiceTransfer } from "./sign-service-transfer";

const transfers = solanaFamily.serviceTransfers as ServiceTransfers;
let solana: TestLocalSolana;

beforeAll(async () => {
  solana = await startTestLocalSolana({ mnemonic: localSolanaMnemonic });
  await mintLocalTestUsdc(solana.chain, solana.receiver as Address, 20_000_000n);
});
afterAll(() => solana?.stop());

const usdcOf = (owner: string) => transfers.balance(solana.network, owner, { address: solana.usdcMint });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A planned sweep of a paid Solana invoice, to own the transfer. */
async function plannedSweep(to: string) {
  const merchant = await createTestOrganization();
  const invoice = await paidSolanaInvoice(solana, 3, merchant);
  return db().sweep.create({
    data: {
      id: newId("sweep"),
      organizationId: merchant.organization.id,
      invoiceId: invoice.id,
      network: solana.network.id,
      token: "USDC",
      strategy: "DIRECT",
      fromAddress: solana.receiver,
      toAddress: to,
      amount: "3",
    },
  });
}

describe("a service transfer", () => {
  it("recorded and then lost to a crash before it was sent, is sent by the next follow, and pays once", async () => {
    const to = (await generateKeyPairSigner()).address;
    const sweep = await plannedSweep(to);
    const crash = new Error("crashed before broadcast");
    const sent = signServiceTransfer({
      database: db(),
      network: solana.network,
      mnemonic: localSolanaMnemonic,
      request: {
        from: { role: "receiving" },
        to,
        token: { symbol: "USDC", decimals: 6, address: solana.usdcMint },
        units: 3_000_000n,
      },
      owner: {
        link: { sweepId: sweep.id },
        attempt: 1,
        record: async (tx) => {
          await tx.sweep.update({ where: { id: sweep.id }, data: { status: "SUBMITTED" } });
        },
      },
      now: new Date(),
      beforeBroadcast: () => {
        throw crash;
      },
    });
    await expect(sent).rejects.toBe(crash);
    const rows = await db().signedTransaction.findMany({ where: { sweepId: sweep.id } });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      kind: "TRANSFER",
      signer: transfers.wallet(solana.network, localSolanaMnemonic, "feePayer"),
      validUntil: expect.any(BigInt),
      blockNumber: null,
    });
    expect((await db().sweep.findUniqueOrThrow({ where: { id: sweep.id } })).status).toBe("SUBMITTED");
    await sleep(900);
    expect(await usdcOf(to)).toBe(0n);

    // The next pass (as many times as it likes) follows the record: the same bytes land once.
    let progress: ServiceTransferProgress = { state: "pending" };
    let current = currentServiceTransfer(rows) as SignedTransaction;
    for (let step = 0; step < 50 && progress.state === "pending"; step++) {
      progress = await followServiceTransfer(db(), solana.network, current);
      await sleep(200);
    }
    expect(progress).toEqual({ state: "confirmed", position: expect.any(BigInt) });
    current = await db().signedTransaction.findUniqueOrThrow({ where: { id: current.id } });
    expect(current.blockNumber).toBe(progress.state === "confirmed" ? progress.position : -1n);
    expect(await followServiceTransfer(db(), solana.network, current)).toEqual(progress);
    expect(await usdcOf(to)).toBe(3_000_000n);
  });

  it("that expired is replaced once: a second pass that read it as expired too rolls back and moves nothing", async () => {
    const sweep = await plannedSweep((await generateKeyPairSigner()).address);
    const transfer = await db().signedTransaction.create({
      data: {
        id: newId("signedTransaction"),
        sweepId: sweep.id,
        kind: "TRANSFER",
        signer: "fee-payer",
        nonce: 0,
        hash: `expired-${sweep.id}`,
        raw: "",
        maxFeePerGas: "0",
        validUntil: 1n,
      },
    });
    // Both passes read the transfer as expired; the first moves the sweep on and replaces it.
    const replaceAs = (status: "PENDING" | "FAILED") =>
      db().$transaction(async (tx) => {
        await tx.sweep.update({ where: { id: sweep.id }, data: { status } });
        await markServiceTransferReplaced(tx, transfer.id, new Date());
      });
    await replaceAs("PENDING");
    await expect(replaceAs("FAILED")).rejects.toThrow("was replaced meanwhile");
    expect((await db().sweep.findUniqueOrThrow({ where: { id: sweep.id } })).status).toBe("PENDING");
    const [concurrentA, concurrentB] = await Promise.allSettled([
      db().$transaction((tx) => markServiceTransferReplaced(tx, transfer.id, new Date())),
      db().$transaction((tx) => markServiceTransferReplaced(tx, transfer.id, new Date())),
    ]);
    expect([concurrentA.status, concurrentB.status]).toEqual(["rejected", "rejected"]);
  });

  it("refused by the family records nothing and leaves its owner as it was", async () => {
    const tokenAccount = (
      await solana.rpc.getTokenAccountsByOwner(solana.receiver as Address, { mint: solana.usdcMint }).send()
    ).value[0].pubkey;
    const sweep = await plannedSweep(tokenAccount);
    const outcome = await signServiceTransfer({
      database: db(),
      network: solana.network,
      mnemonic: localSolanaMnemonic,
      request: {
        from: { role: "receiving" },
        to: tokenAccount,
        token: { symbol: "USDC", decimals: 6, address: solana.usdcMint },
        units: 3_000_000n,
      },
      owner: {
        link: { sweepId: sweep.id },
        attempt: 1,
        record: async () => {
          throw new Error("not recorded");
        },
      },
      now: new Date(),
    });
    expect(outcome).toMatchObject({ state: "refused", code: "token_account" });
    expect(await db().signedTransaction.count({ where: { sweepId: sweep.id } })).toBe(0);
    expect((await db().sweep.findUniqueOrThrow({ where: { id: sweep.id } })).status).toBe("PENDING");
  });
});
