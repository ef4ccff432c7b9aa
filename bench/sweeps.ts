// `npx tsx bench/sweeps.ts`: settlement sweeps against a real Hardhat devnet and PostgreSQL
// (TEST_DATABASE_URL's server, default postgresql://postgres@127.0.0.1:5432/postgres; a fresh
// database for the run, dropped after; the devnet on BENCH_DEVNET_PORT, default a random 934x).
// BENCH_INVOICES (default 1,000) invoices, half USDC and half native ETH, are paid and confirmed;
// then the sweeper's planning and passes run (the code `npm run sweeper` runs, in this process)
// with two blocks mined after each pass, until every sweep is CONFIRMED. Prints the wall time of
// the sweeping, transactions sent and gas used per sweep by strategy.
import { createWalletClient, http, parseEther, parseUnits } from "viem";
import { hardhat } from "viem/chains";
import { compileTestUsdc } from "../lib/chains/compile-test-usdc";
import { startDevnet } from "../lib/chains/devnet";
import { devnetFunder } from "../lib/chains/devnet-account";
import { evmChainId } from "../lib/chains/networks";
import { createCheckoutSession } from "../lib/checkout/create-checkout-session";
import { startPayment } from "../lib/checkout/start-payment";
import { closeDb, db } from "../lib/db/client";
import { scanNetwork } from "../lib/payments/scan-network";
import { requestSettlementChange } from "../lib/settlement/request-settlement-change";
import { advanceSweeps } from "../lib/sweeps/advance-sweeps";
import { planSweeps } from "../lib/sweeps/plan-sweeps";
import { sweeperKeysFromMnemonic } from "../lib/sweeps/sweeper-keys";
import { createBenchOrganization, deployBenchNetwork, devnetRpc } from "./in-process";
import { createBenchDatabase } from "./support";

const invoiceCount = Number(process.env.BENCH_INVOICES ?? 1000);
// Deposit addresses of Hardhat's default mnemonic hold devnet ETH; these start empty.
const mnemonic =
  "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about";

const database = await createBenchDatabase("cc_bench_sweeps", { migrate: true });
const databaseUrl = database.url;

const devnet = await startDevnet({
  port: Number(process.env.BENCH_DEVNET_PORT ?? 9340 + Math.floor(Math.random() * 10)),
  blockIntervalMs: 0,
});
const rpc = devnetRpc(devnet);
try {
  const network = await deployBenchNetwork(devnet, 2);
  const organization = await createBenchOrganization({ databaseUrl, network, mnemonic });
  const keys = sweeperKeysFromMnemonic(mnemonic);
  const wallet = createWalletClient({
    account: devnetFunder,
    chain: hardhat,
    transport: http(devnet.rpcUrl),
  });
  const { abi } = compileTestUsdc();
  await requestSettlementChange(db(), organization.id, {
    wallets: [{ network: "devnet", address: "0x00000000000000000000000000000000005e771e" }],
    decision: "allow",
    proposedBy: { kind: "owner", name: "bench@example.com" },
    clientAddress: null,
  });
  await wallet.sendTransaction({ to: keys.gasWallet(evmChainId(network)).address, value: parseEther("100") });

  // Sets the watcher's cursor here: a first scan looks back only 1,000 blocks.
  await scanNetwork(db(), network, devnet.client);
  for (let index = 0; index < invoiceCount; index++) {
    const token = index % 2 === 0 ? "USDC" : "ETH";
    const created = await createCheckoutSession(db(), {
      organizationId: organization.id,
      request: { mode: "standalone", amount: "30.00", currency: "USD", expiresInMinutes: 60 },
      idempotency: null,
    });
    const invoice = await startPayment(db(), {
      checkoutSessionId: (created.body as { id: string }).id,
      network: "devnet",
      token,
    });
    if (token === "USDC")
      await wallet.writeContract({
        address: network.tokens[0].address as `0x${string}`,
        abi,
        functionName: "mint",
        args: [invoice.depositAddress, parseUnits("30", 6)],
      });
    else
      await wallet.sendTransaction({
        to: invoice.depositAddress as `0x${string}`,
        value: parseEther("0.01"),
      });
  }
  await rpc("hardhat_mine", ["0x2"]);
  await scanNetwork(db(), network, devnet.client);
  const paid = await db().invoice.count({ where: { status: "CONFIRMED" } });

  const t0 = performance.now();
  const planned = await planSweeps(db(), network, devnet.client, {});
  let passes = 0;
  for (;;) {
    passes++;
    await advanceSweeps(db(), network, devnet.client, { keys });
    await rpc("hardhat_mine", ["0x2"]);
    const open = await db().sweep.count({ where: { status: { notIn: ["CONFIRMED", "FAILED"] } } });
    if (open === 0 || passes > 200) break;
  }
  const seconds = (performance.now() - t0) / 1000;

  const sweeps = await db().sweep.findMany({ include: { transactions: true } });
  console.log(
    `\nsweeps.ts: ${invoiceCount} invoices (${paid} confirmed), ${planned.planned} sweeps planned, ${passes} sweeper passes`,
  );
  console.log(
    `  wall time planning + sweeping: ${seconds.toFixed(1)} s (${((seconds * 1000) / sweeps.length).toFixed(0)} ms per sweep)`,
  );
  for (const strategy of ["GAS_TOP_UP", "NATIVE"] as const) {
    const group = sweeps.filter((sweep) => sweep.strategy === strategy);
    const confirmed = group.filter((sweep) => sweep.status === "CONFIRMED").length;
    const transactions = group.reduce((sum, sweep) => sum + sweep.transactions.length, 0);
    const gas = group.reduce(
      (sum, sweep) =>
        sum + sweep.transactions.reduce((inner, transaction) => inner + Number(transaction.gasUsed ?? 0), 0),
      0,
    );
    console.log(
      `  ${strategy.padEnd(10)} ${group.length} sweeps, ${confirmed} confirmed; transactions per sweep ${(transactions / group.length).toFixed(2)}; gas per sweep ${(gas / group.length).toFixed(0)}`,
    );
  }
} finally {
  await closeDb(db()).catch(() => {});
  await devnet.stop();
  await database.drop();
}
