// A Solana sweep whose transfer expired unseen is signed anew, and the value arrives once: on a
// local Solana chain whose clock the test moves by hand (slots, blockhash lifetimes, finality).
process.env.SERVICE_DEV_MAILBOX = "true";

import { type Address, generateKeyPairSigner } from "@solana/kit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServiceTransfers } from "@/lib/chains/chain-family";
import { localSolanaMnemonic } from "@/lib/chains/solana/local-solana-accounts";
import { mintLocalTestUsdc } from "@/lib/chains/solana/local-solana-funds";
import { localSolanaNetwork } from "@/lib/chains/solana/local-solana-network";
import { solanaFamily } from "@/lib/chains/solana/solana-family";
import { solanaServiceKey } from "@/lib/chains/solana/solana-keys";
import { type LocalSolana, startLocalSolana } from "@/lib/chains/solana/start-local-solana";
import { db } from "@/lib/db/client";
import { newId } from "@/lib/ids";
import { createTestOrganization, setTestSettlementWallets } from "@/scripts/test-support/fixtures";
import { paidSolanaInvoice } from "@/scripts/test-support/solana-invoices";
import { startTestLocalSolana, type TestLocalSolana } from "@/scripts/test-support/test-local-solana";
import { advanceDirectSweeps } from "./advance-direct-sweeps";

const transfers = solanaFamily.serviceTransfers as ServiceTransfers;
const mnemonic = localSolanaMnemonic;
const receiver = solanaServiceKey(mnemonic, "receiving").address;
let clock = Date.UTC(2026, 0, 1);
let chain: LocalSolana;
/** The invoices' chain (real clock): the paid invoice the sweep belongs to. */
let payments: TestLocalSolana;
const network = () => ({
  ...localSolanaNetwork({ rpcUrl: chain.url, receiver }),
  id: "solana-clock",
});

beforeAll(async () => {
  payments = await startTestLocalSolana({ mnemonic });
  chain = await startLocalSolana({
    port: 0,
    chain: { slotMs: 400, finalityDepth: 32, now: () => clock },
    receivers: [receiver],
    feePayers: [solanaServiceKey(mnemonic, "feePayer").address],
  });
  await mintLocalTestUsdc(chain.chain, receiver as Address, 10_000_000n);
});
afterAll(async () => {
  await chain?.stop();
  await payments?.stop();
});

describe("a Solana sweep's expired transfer", () => {
  it("is signed anew only once the chain says it expired, and pays once", async () => {
    const merchant = await createTestOrganization();
    const wallet = (await generateKeyPairSigner()).address;
    await setTestSettlementWallets(merchant.organization.id, [{ network: "solana-clock", address: wallet }]);
    const invoice = await paidSolanaInvoice(payments, 2, merchant);
    const sweep = await db().sweep.create({
      data: {
        id: newId("sweep"),
        organizationId: merchant.organization.id,
        invoiceId: invoice.id,
        network: "solana-clock",
        token: "USDC",
        strategy: "DIRECT",
        fromAddress: receiver,
        toAddress: wallet,
        amount: "2",
      },
    });
    const advance = (beforeBroadcast?: () => void) =>
      advanceDirectSweeps(db(), network(), { transfers, mnemonic, beforeBroadcast });
    const rowOf = () =>
      db().sweep.findUniqueOrThrow({
        where: { id: sweep.id },
        include: { transactions: { orderBy: { createdAt: "asc" } } },
      });
    const usdc = () => transfers.balance(network(), wallet, { address: chain.usdcMint });

    // Recorded, then lost before it was sent.
    await advance(() => {
      throw new Error("crashed before broadcast");
    });
    const first = (await rowOf()).transactions[0];
    // Past its blockhash's lifetime but not finalized past it: it might still be in a block.
    clock += 152 * 400;
    await advance();
    expect((await rowOf()).status).toBe("SUBMITTED");
    expect((await rowOf()).transactions).toHaveLength(1);
    // Finalized past it: it can never land; the sweep signs a new transfer and sends it.
    clock += 40 * 400;
    await advance();
    const resigned = await rowOf();
    expect(resigned).toMatchObject({ status: "SUBMITTED", resubmissions: 1 });
    expect(resigned.transactions).toHaveLength(2);
    expect(resigned.transactions[0]).toMatchObject({ id: first.id, replacedAt: expect.any(Date) });
    expect(resigned.transactions[1].replacedAt).toBeNull();
    clock += 400;
    await advance();
    expect((await rowOf()).status).toBe("CONFIRMED");
    expect(await usdc()).toBe(2_000_000n);
    // The first bytes, sent now, cannot land: the value arrived once.
    expect(
      await transfers.follow(network(), {
        id: first.hash,
        signer: first.signer,
        raw: first.raw,
        validUntil: first.validUntil as bigint,
      }),
    ).toEqual({ state: "expired" });
    expect(await usdc()).toBe(2_000_000n);
  });
});
