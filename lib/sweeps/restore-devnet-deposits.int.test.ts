import { type Address, parseEther } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { createTestOrganization, createTestSweep } from "@/scripts/test-support/fixtures";
import { createTestPaidInvoice } from "@/scripts/test-support/refund-fixtures";
import { testDevnetForFile } from "@/scripts/test-support/test-devnet";
import { forgetDevnetChain } from "./forget-devnet-chain";
import { reconcileDepositBalances } from "./reconcile-deposit-balances";
import { restoreDevnetDeposits } from "./restore-devnet-deposits";

// A fresh Hardhat node stands for the devnet of the next start: the database holds invoices paid
// on the previous chain, and the new chain has none of their funds until they are put back.
const devnet = testDevnetForFile({ confirmations: 1, priceFeeds: false });

async function paid(token: "USDC" | "ETH", amount: string) {
  const { organization } = await createTestOrganization();
  const invoice = await createTestPaidInvoice(organization.id, {
    amount,
    payments: [{ amount, fromAddress: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8" }],
  });
  const depositAddress = privateKeyToAccount(generatePrivateKey()).address;
  await db().invoice.update({ where: { id: invoice.id }, data: { token, depositAddress } });
  return { ...invoice, depositAddress, organization };
}

it("puts back what the ledger says each deposit address holds, so reconciliation finds no difference", async () => {
  const usdc = await paid("USDC", "25.5");
  const eth = await paid("ETH", "0.25");
  // Swept on the previous chain: holds nothing now.
  const swept = await paid("USDC", "10");
  await createTestSweep(swept.organization.id, { status: "CONFIRMED", invoice: swept });
  // A sweep in flight when the devnet went: it never happened, so the funds are still there.
  const inFlight = await paid("USDC", "10");
  await createTestSweep(inFlight.organization.id, { status: "SUBMITTED", invoice: inFlight });

  expect((await reconcileDepositBalances(db(), devnet.network, devnet.client)).length).toBeGreaterThan(0);
  await forgetDevnetChain(db());
  expect(await restoreDevnetDeposits(db(), devnet.network, devnet.client)).toBeGreaterThanOrEqual(3);

  expect(await devnet.usdcBalance(usdc.depositAddress)).toBe(25_500_000n);
  expect(await devnet.client.getBalance({ address: eth.depositAddress as Address })).toBe(parseEther("0.25"));
  expect(await devnet.usdcBalance(swept.depositAddress)).toBe(0n);
  expect(await devnet.usdcBalance(inFlight.depositAddress)).toBe(10_000_000n);
  expect(await reconcileDepositBalances(db(), devnet.network, devnet.client)).toEqual([]);
});

it("restores nothing on a network that is not the devnet", async () => {
  await paid("USDC", "3");
  expect(await restoreDevnetDeposits(db(), { ...devnet.network, devnet: false }, devnet.client)).toBe(0);
});
