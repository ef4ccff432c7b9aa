// `npx tsx bench/refunds.ts`: refunds against a real Hardhat devnet and PostgreSQL
// (TEST_DATABASE_URL's server, default postgresql://postgres@127.0.0.1:5432/postgres; a fresh
// database for the run, dropped after; the devnet on BENCH_DEVNET_PORT, default a random 936x).
// BENCH_REFUNDS (default 1,000) refunds of 1 test USDC are queued, each to its invoice's payer (a
// fresh address), on invoices recorded as paid; then the signer's refund passes run (the code
// `npm run sweeper` runs, in this process) with two blocks mined after each pass, until every
// refund has SUCCEEDED. Prints refunds confirmed per minute and the gas used per refund.
import { createWalletClient, http, parseAbi, parseEther, parseUnits } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { hardhat } from "viem/chains";
import { deployPriceFeeds, deployTestUsdc, devnetNetwork, startDevnet } from "../lib/chains/devnet";
import { devnetFunder } from "../lib/chains/devnet-account";
import { evmChainId } from "../lib/chains/networks";
import { closeDb, db } from "../lib/db/client";
import { newId } from "../lib/ids";
import { createOrganization } from "../lib/organizations/create-organization";
import { advanceRefunds } from "../lib/refunds/advance-refunds";
import { sweeperKeysFromMnemonic } from "../lib/sweeps/sweeper-keys";
import { createBenchDatabase } from "./support";

const refundCount = Number(process.env.BENCH_REFUNDS ?? 1000);
const mnemonic =
  "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about";

const database = await createBenchDatabase("cc_bench_refunds", { migrate: true });
const devnet = await startDevnet({
  port: Number(process.env.BENCH_DEVNET_PORT ?? 9360 + Math.floor(Math.random() * 10)),
  blockIntervalMs: 0,
});
const rpc = (method: string, params: unknown[] = []) =>
  devnet.client.request({ method: method as never, params: params as never });
try {
  const usdc = await deployTestUsdc(devnet.rpcUrl);
  const network = devnetNetwork({
    rpcUrl: devnet.rpcUrl,
    usdc,
    confirmations: 2,
    priceFeeds: await deployPriceFeeds(devnet.rpcUrl),
  });
  Object.assign(process.env, {
    DATABASE_URL: database.url.toString(),
    SERVICE_NETWORKS: JSON.stringify([network]),
    SERVICE_HD_MNEMONIC: mnemonic,
    LOG_LEVEL: "warn",
  });
  const { organization } = await createOrganization(db(), {
    name: "Bench Store",
    ownerEmail: "bench@example.com",
  });
  const keys = sweeperKeysFromMnemonic(mnemonic);
  // The bench merchant's own refund wallet, funded for every refund and their fees.
  const refundWallet = keys.refundWallet(organization.refundWalletIndex, evmChainId(network));
  const funder = createWalletClient({
    account: devnetFunder,
    chain: hardhat,
    transport: http(devnet.rpcUrl),
  });
  await funder.sendTransaction({ to: refundWallet.address, value: parseEther("100") });
  await devnet.client.waitForTransactionReceipt({
    hash: await funder.writeContract({
      address: usdc,
      abi: parseAbi(["function mint(address to, uint256 amount)"]),
      functionName: "mint",
      args: [refundWallet.address, parseUnits(String(refundCount), 6)],
    }),
  });

  // Paid invoices and their refunds as rows (the watcher and the API make them in the app).
  const rows = Array.from({ length: refundCount }, (_, index) => ({
    sessionId: newId("checkoutSession"),
    invoiceId: newId("invoice"),
    payer: privateKeyToAccount(generatePrivateKey()).address,
    index,
  }));
  const now = Date.now();
  await db().checkoutSession.createMany({
    data: rows.map((row) => ({
      id: row.sessionId,
      organizationId: organization.id,
      status: "COMPLETED" as const,
      amount: "1",
      currency: "USD",
      expiresAt: new Date(now),
    })),
  });
  await db().invoice.createMany({
    data: rows.map((row) => ({
      id: row.invoiceId,
      organizationId: organization.id,
      checkoutSessionId: row.sessionId,
      network: "devnet",
      token: "USDC",
      depositAddress: privateKeyToAccount(generatePrivateKey()).address,
      derivationIndex: row.index,
      amountDue: "1",
      amountPaid: "1",
      pricingAmount: "1",
      pricingCurrency: "USD",
      rate: "1",
      amountUsd: "1",
      quotedAt: new Date(now),
      quoteSource: "bench",
      status: "CONFIRMED" as const,
      deadline: new Date(now),
    })),
  });
  await db().payment.createMany({
    data: rows.map((row) => ({
      id: newId("payment"),
      organizationId: organization.id,
      invoiceId: row.invoiceId,
      txHash: `0x${row.index.toString(16).padStart(64, "0")}`,
      logIndex: 0,
      amount: "1",
      blockNumber: 1n,
      blockHash: "0x00",
      status: "CONFIRMED" as const,
      fromAddress: row.payer,
    })),
  });
  await db().refund.createMany({
    data: rows.map((row) => ({
      id: newId("refund"),
      organizationId: organization.id,
      invoiceId: row.invoiceId,
      checkoutSessionId: row.sessionId,
      network: "devnet",
      token: "USDC",
      amount: "1",
      amountUsd: "1",
      status: "PENDING" as const,
      destination: "PAYER" as const,
      toAddress: row.payer,
      requestedByKind: "api_key",
      requestedByName: "bench",
      createdAt: new Date(now + row.index),
    })),
  });

  const t0 = performance.now();
  let passes = 0;
  for (;;) {
    passes++;
    await advanceRefunds(db(), network, devnet.client, { keys });
    await rpc("hardhat_mine", ["0x2"]);
    const open = await db().refund.count({ where: { status: { in: ["PENDING", "SUBMITTED"] } } });
    if (open === 0 || passes > 200) break;
  }
  const seconds = (performance.now() - t0) / 1000;

  const refunds = await db().refund.findMany({ include: { transactions: true } });
  const succeeded = refunds.filter((refund) => refund.status === "SUCCEEDED").length;
  const transactions = refunds.flatMap((refund) => refund.transactions);
  const gas = transactions.reduce((sum, transaction) => sum + Number(transaction.gasUsed ?? 0), 0);
  console.log(`\nrefunds.ts: ${refundCount} refunds queued, ${succeeded} succeeded, ${passes} signer passes`);
  console.log(
    `  wall time: ${seconds.toFixed(1)} s; ${((succeeded / seconds) * 60).toFixed(0)} refunds confirmed per minute`,
  );
  console.log(
    `  transactions per refund ${(transactions.length / refunds.length).toFixed(2)}; gas per refund ${(gas / refunds.length).toFixed(0)}`,
  );
} finally {
  await closeDb(db()).catch(() => {});
  await devnet.stop();
  await database.drop();
}
