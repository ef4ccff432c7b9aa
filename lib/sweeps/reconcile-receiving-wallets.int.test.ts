// Settlement changes are announced to owners; the development mailbox takes the emails.
process.env.SERVICE_DEV_MAILBOX = "true";

// The shared receiving wallet of the local Solana chain against the ledger, on the chain itself:
// payments (an over payment after confirmation included) and sweeps (submitted, then confirmed)
// keep them equal; a transfer sent to the wallet with no invoice's reference is a difference.
import { generateKeyPairSigner } from "@solana/kit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServiceTransfers } from "@/lib/chains/chain-family";
import type { NetworkConfig } from "@/lib/chains/networks";
import { solanaFamily } from "@/lib/chains/solana/solana-family";
import { config } from "@/lib/config";
import { db } from "@/lib/db/client";
import { createTestOrganization, setTestSettlementWallets } from "@/scripts/test-support/fixtures";
import { paidSolanaInvoice, scanLocalSolana, usdcUnits } from "@/scripts/test-support/solana-invoices";
import { startTestLocalSolana, type TestLocalSolana } from "@/scripts/test-support/test-local-solana";
import { advanceDirectSweeps } from "./advance-direct-sweeps";
import { planSweeps } from "./plan-sweeps";
import { reconcileConfiguredNetworks } from "./reconcile-deposit-balances";
import { reconcileReceivingWallets } from "./reconcile-receiving-wallets";

const transfers = solanaFamily.serviceTransfers as ServiceTransfers;
let solana: TestLocalSolana;
let network: NetworkConfig;

beforeAll(async () => {
  solana = await startTestLocalSolana();
  network = config().networks.find((candidate) => candidate.id === solana.network.id) as NetworkConfig;
});
afterAll(() => solana?.stop());

const reconcile = () => reconcileReceivingWallets(db(), network, transfers);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("the receiving wallet's reconciliation", () => {
  it("matches through payments, an over payment and sweeps, and reports a transfer no invoice carried", async () => {
    expect(await reconcile()).toEqual([]);
    const merchant = await createTestOrganization();
    const wallet = (await generateKeyPairSigner()).address;
    await setTestSettlementWallets(merchant.organization.id, [{ network: network.id, address: wallet }]);
    const swept = await paidSolanaInvoice(solana, 3, merchant);
    const kept = await paidSolanaInvoice(solana, 2.5, await createTestOrganization());
    // Paid again after it confirmed: recorded as an over payment, so the ledger holds it too.
    await solana.pay({ recipient: kept.depositAddress, units: usdcUnits(0.5), references: [kept.reference] });
    await scanLocalSolana(solana);
    expect(await db().payment.count({ where: { invoiceId: kept.id } })).toBe(2);
    expect(await reconcile()).toEqual([]);

    // A sweep submitted (in flight) and then confirmed: equal all along.
    expect(await planSweeps(db(), network, solana.rpc, {})).toMatchObject({ planned: 1 });
    const mnemonic = config().hdMnemonic as string;
    await advanceDirectSweeps(db(), network, { transfers, mnemonic });
    expect(await db().sweep.findFirstOrThrow({ where: { invoiceId: swept.id } })).toMatchObject({
      status: "SUBMITTED",
    });
    expect(await reconcile()).toEqual([]);
    for (let pass = 0; pass < 40; pass++) {
      await advanceDirectSweeps(db(), network, { transfers, mnemonic });
      if ((await db().sweep.findFirstOrThrow({ where: { invoiceId: swept.id } })).status === "CONFIRMED")
        break;
      await sleep(250);
    }
    expect(await transfers.balance(network, wallet, { address: solana.usdcMint })).toBe(usdcUnits(3));
    expect(await reconcile()).toEqual([]);

    // 1.5 USDC sent to the wallet with a reference no invoice has: the chain holds more than the ledger.
    const stray = (await generateKeyPairSigner()).address;
    await solana.pay({ recipient: solana.receiver, units: usdcUnits(1.5), references: [stray] });
    await scanLocalSolana(solana);
    const difference = {
      network: network.id,
      receiver: solana.receiver,
      token: "USDC",
      expected: "3",
      inFlight: "0",
      onChain: "4.5",
    };
    expect(await reconcile()).toEqual([difference]);
    // The daily task reports it with the deposit addresses' differences.
    expect(await reconcileConfiguredNetworks(db())).toEqual([difference]);
  });
});
