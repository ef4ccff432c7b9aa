// What the tests of a facilitator over HTTP (SERVICE_X402_FACILITATOR_URL) share: a stand-in
// facilitator server answers as each test tells it, in front of real facilitators on the devnet.
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { decodePaymentRequiredHeader } from "@x402/core/http";
import type { PaymentPayload, PaymentRequirements } from "@x402/core/types";
import type { x402Client } from "@x402/fetch";
import { createWalletClient, http, parseGwei } from "viem";
import { hardhat } from "viem/chains";
import { afterEach } from "vitest";
import type { NetworkConfig } from "../../lib/chains/networks";
import { db } from "../../lib/db/client";
import type { X402Settlement } from "../../lib/generated/prisma/client";
import {
  createBuiltInFacilitator,
  ownX402Payee,
  recordedX402Broadcasts,
  recordX402Broadcast,
} from "../../lib/x402/create-built-in-facilitator";
import { x402FacilitatorClient } from "../../lib/x402/facilitator-client";
import { settleX402Authorization } from "../../lib/x402/settle-x402-authorization";
import { findX402Payable } from "../../lib/x402/x402-requirements";
import { hardhatMnemonic, type TestDevnet } from "./test-devnet";
import { sendX402Payment, type X402App, x402Agent } from "./x402-app";

/**
 * Settings of a file whose web tier settles over HTTP (set before the configuration is first
 * read): no signing role in the process, and gas counted as on a real network (so a
 * settlement's recorded gas is its real cost) with no limit in the way of the payments.
 */
export function settleOverHttp() {
  process.env.SERVICE_SWEEPER = "separate";
  process.env.SERVICE_X402_COUNT_DEVNET_GAS = "true";
  process.env.SERVICE_X402_GAS_MULTIPLE = "0";
  process.env.SERVICE_X402_DAILY_GAS_BUDGET_USD = "1000";
}

/** The signing role's facilitator on `network` (Hardhat's mnemonic): it records on our rows. */
export const signingRoleFacilitator = (network: NetworkConfig) =>
  createBuiltInFacilitator({
    mnemonic: hardhatMnemonic,
    networks: [network],
    // The client is made on first use, after the file's configuration is complete.
    ownsPayee: (payment) => ownX402Payee(db())(payment),
    recordsBroadcast: (key, transaction) => recordX402Broadcast(db())(key, transaction),
    recordedBroadcasts: (networks) => recordedX402Broadcasts(db())(networks),
  });

/** x402's own facilitator with another key and wallet, which cannot write our rows: it records nothing. */
export const externalFacilitator = (network: NetworkConfig, mnemonic: string) =>
  createBuiltInFacilitator({
    mnemonic,
    networks: [network],
    ownsPayee: async () => true,
    recordsBroadcast: async () => true,
    recordedBroadcasts: async () => [],
  });

/** Settles `row` again as a takeover would, with the facilitator the web tier is configured with. */
export function settleAgain(
  row: X402Settlement,
  settled: { payload: PaymentPayload; requirements: PaymentRequirements },
  recordsBroadcasts: boolean,
) {
  return settleX402Authorization(
    db(),
    row,
    {
      facilitator: x402FacilitatorClient() as NonNullable<ReturnType<typeof x402FacilitatorClient>>,
      ...settled,
      asset: findX402Payable(row.network, "USDC") as NonNullable<ReturnType<typeof findX402Payable>>,
      now: new Date(),
      recordsBroadcasts,
    },
    true,
  );
}

/** A JSON body as a Node server reads it. */
function readJson<T>(incoming: IncomingMessage): Promise<T> {
  const chunks: Buffer[] = [];
  incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
  return new Promise((resolve) =>
    incoming.on("end", () => resolve(JSON.parse(Buffer.concat(chunks).toString("utf8")))),
  );
}

/**
 * A JSON server on a loopback port the system picks: `answer` gets each request's path and body
 * and returns the JSON to answer, or undefined to drop the connection unanswered (an outage, a
 * cut). Answers its URL and a function that closes it.
 */
export async function serveJson<T>(answer: (path: string, body: T) => Promise<unknown>) {
  const server = createServer(async (incoming, outgoing) => {
    const answered = await answer(incoming.url ?? "/", await readJson<T>(incoming));
    if (answered === undefined) incoming.socket.destroy();
    else outgoing.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(answered));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/** Waits (up to 20 s) until the devnet's node holds a transaction unmined (with automine off). */
export async function untilPending(devnet: TestDevnet) {
  for (let waited = 0; (await devnet.pendingTransactions()).length === 0; waited += 50) {
    if (waited > 20_000) throw new Error("the settlement was never sent");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * After each test, mining on and a block mined: a test that failed with mining off leaves it off,
 * and its transactions unmined, for the next. `devnet` is read when the hook runs.
 */
export function minesAfterEach(devnet: () => TestDevnet) {
  afterEach(async () => {
    await devnet().rpc("evm_setAutomine", [true]);
    await devnet().mine(1);
  });
}

/**
 * A paylink's payment whose settlement waits in the node's pool (mining off), its payer given coin
 * to send a transaction of its own ahead of it (`aheadOfSettlement`, `payer`); `mined` mines both
 * and answers the payment's response.
 */
export async function settlementAwaitingMining(devnet: TestDevnet, app: X402App) {
  const { organization, url } = await app.paylink("2.00");
  const { account, client } = await x402Agent(devnet, "10");
  const send = await signedPayment(url, client);
  await devnet.rpc("hardhat_setBalance", [account.address, "0xDE0B6B3A7640000"]);
  await devnet.rpc("evm_setAutomine", [false]);
  const answering = send();
  await untilPending(devnet);
  const payer = createWalletClient({ account, chain: hardhat, transport: http(devnet.rpcUrl) });
  const mined = async () => {
    await devnet.rpc("evm_setAutomine", [true]);
    await devnet.mine(1);
    return answering;
  };
  return { organization, account, payer, mined };
}

/**
 * A higher tip than the settlement's, so the payer's transaction is mined first; its gas is not
 * estimated on the pending block, where the settlement may leave it nothing to do.
 */
export const aheadOfSettlement = {
  gas: 150_000n,
  maxPriorityFeePerGas: parseGwei("50"),
  maxFeePerGas: parseGwei("100"),
};

/** The official client's payment for what `url` quotes, and a request sending it (again and again). */
export async function signedPayment(url: string, client: x402Client) {
  const quote = await fetch(url);
  const payment = await client.createPaymentPayload(
    decodePaymentRequiredHeader(quote.headers.get("PAYMENT-REQUIRED") as string),
  );
  return () => sendX402Payment(url, payment);
}
