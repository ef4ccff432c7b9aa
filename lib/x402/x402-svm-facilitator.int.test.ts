// x402 on Solana in the split deployment: the web tier (this process) holds no key and settles
// through the sweeper's facilitator, a process of its own (`scripts/sweeper.ts` with
// SERVICE_X402_FACILITATOR_PORT and a bearer token) over real HTTP, on the local Solana chain, real
// PostgreSQL, @x402/svm's official client paying. The web tier offers the configured fee payer;
// the sweeper checks, records the co-signed transaction on the web tier's row before sending it,
// sends and follows it once; it settles nothing the web tier did not record, for anyone.
import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import type { Address } from "@solana/kit";
import { HTTPFacilitatorClient } from "@x402/core/server";
import type { PaymentPayload, PaymentRequirements } from "@x402/core/types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { localSolanaBuyer } from "@/lib/chains/solana/local-solana-accounts";
import { associatedTokenAccount } from "@/lib/chains/solana/prepare-solana-transaction";
import { solanaServiceKey } from "@/lib/chains/solana/solana-keys";
import { config } from "@/lib/config";
import { db } from "@/lib/db/client";
import { createTestX402Settlement } from "@/scripts/test-support/fixtures";
import { freePort } from "@/scripts/test-support/free-port";
import { hardhatMnemonic } from "@/scripts/test-support/test-devnet";
import { startTestLocalSolana, type TestLocalSolana } from "@/scripts/test-support/test-local-solana";
import { sendX402Payment, serveX402App, type X402App } from "@/scripts/test-support/x402-app";
import { settleOverHttp } from "@/scripts/test-support/x402-facilitator-stub";
import { solanaX402Option, solanaX402Payment } from "@/scripts/test-support/x402-solana";
import { facilitatorCosigns } from "./facilitator-fee-payers";
import { resolveStuckX402Settlements, stuckSettlementMs } from "./resolve-stuck-x402-settlements";

const root = path.resolve(import.meta.dirname, "../..");
const token = "svm-facilitator-token-0123456789";
// A port of its own: a fixed one may be another run's facilitator, which refuses our payee.
let facilitatorPort: number;
let facilitatorUrl: string;
const feePayer = solanaServiceKey(hardhatMnemonic, "feePayer").address;
let solana: TestLocalSolana;
let sweeper: ChildProcess;
let app: X402App;

beforeAll(async () => {
  facilitatorPort = await freePort();
  facilitatorUrl = `http://127.0.0.1:${facilitatorPort}`;
  // Finalized two slots behind: the local chain taken as a real network (a web tier holding no
  // key serves real networks only), its fees priced as on one.
  solana = await startTestLocalSolana({ mnemonic: hardhatMnemonic, chain: { finalityDepth: 2 } });
  const real = { devnet: false, commitment: "finalized" };
  const networks = (JSON.parse(process.env.SERVICE_NETWORKS as string) as { id: string }[]).map((network) =>
    network.id === solana.network.id ? { ...network, ...real } : network,
  );
  process.env.SERVICE_NETWORKS = JSON.stringify(networks);
  process.env.SERVICE_RATES = JSON.stringify({
    "SOL/USD": { rate: "150", updatedAt: new Date().toISOString(), maxAgeSeconds: 3600 },
  });
  // The sweeper: the mnemonic, its facilitator served on loopback behind the token.
  sweeper = spawn(process.execPath, ["--import", "tsx", "scripts/sweeper.ts"], {
    cwd: root,
    stdio: ["ignore", "ignore", "inherit"],
    env: {
      ...process.env,
      LOG_LEVEL: "warn",
      SERVICE_X402_FACILITATOR_PORT: String(facilitatorPort),
      SERVICE_X402_FACILITATOR_TOKEN: token,
    },
  });
  // The web tier: no key, the receiving wallet and fee payer configured, settling over HTTP.
  delete process.env.SERVICE_HD_MNEMONIC;
  // What the configuration asks of a web tier without the mnemonic (EVM deposit addresses' xpub).
  process.env.SERVICE_HD_XPUB =
    "xpub6Ce9NcJvTk36xtLSrJLZqE7wtgA5deCeYs7rSQtreh4cj6ByPtrg9sD7V2FNFLPnf8heNP3FGkeV9qwfzvZNSd54JoNXVsXFYSYwHsnJxqP";
  settleOverHttp();
  process.env.SERVICE_NETWORKS = JSON.stringify(
    networks.map((network) =>
      network.id === solana.network.id ? { ...network, receiver: solana.receiver, feePayer } : network,
    ),
  );
  process.env.SERVICE_X402_FACILITATOR_URL = facilitatorUrl;
  process.env.SERVICE_X402_FACILITATOR_TOKEN = token;
  for (let tries = 0; ; tries++) {
    const up = await fetch(`${facilitatorUrl}/supported`, { headers: { Authorization: `Bearer ${token}` } })
      .then((response) => response.ok)
      .catch(() => false);
    if (up) break;
    if (tries > 300) throw new Error("the sweeper's facilitator did not start");
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  app = await serveX402App();
}, 120_000);
afterAll(async () => {
  await app?.close();
  sweeper?.kill("SIGTERM");
  await solana?.stop();
});

const receivingAccount = () => associatedTokenAccount(solana.receiver as Address, solana.usdcMint);
const balanceOf = async (account: Address) =>
  BigInt((await solana.rpc.getTokenAccountBalance(account).send()).value.amount);
const lamportsOf = async (wallet: string) => (await solana.rpc.getBalance(wallet as Address).send()).value;
const facilitator = (bearer = token) =>
  new HTTPFacilitatorClient({
    url: facilitatorUrl,
    createAuthHeaders: async () => {
      const headers = { Authorization: `Bearer ${bearer}` };
      return { verify: headers, settle: headers, supported: headers };
    },
  });

describe("x402 on Solana through the sweeper's facilitator", () => {
  it("offers Solana USDC with the configured fee payer from a web tier holding no key; the sweeper publishes the same fee payer", async () => {
    expect(config().hdMnemonic).toBeUndefined();
    const { url } = await app.paylink("5.00");
    expect(await solanaX402Option(url)).toMatchObject({
      payTo: solana.receiver,
      asset: solana.usdcMint,
      extra: { feePayer, memo: expect.any(String) },
    });
    const supported = await facilitator().getSupported();
    expect(supported.kinds).toContainEqual(
      expect.objectContaining({
        scheme: "exact",
        network: "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1",
        extra: { feePayer },
      }),
    );
  });

  it("offers Solana only while the facilitator names our fee payer: one naming another (an external facilitator's own) could never co-sign it", async () => {
    const network = "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1";
    // Asked of the sweeper over real HTTP (GET /supported), a minute later each time: not cached.
    expect(await facilitatorCosigns(network, feePayer, Date.now() + 120_000)).toBe(true);
    expect(await facilitatorCosigns(network, localSolanaBuyer.address, Date.now() + 240_000)).toBe(false);
  });

  it("is paid once: the sweeper co-signs and sends the transaction recorded on the web tier's row; a copy moves nothing", async () => {
    const { url } = await app.paylink("5.00");
    const account = await receivingAccount();
    const [before, buyerLamports] = [await balanceOf(account), await lamportsOf(localSolanaBuyer.address)];
    const payment = await solanaX402Payment(solana, (await solanaX402Option(url)) as PaymentRequirements);
    const paid = await sendX402Payment(url, payment);
    const body = await paid.json();
    expect(paid.status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({ payer: localSolanaBuyer.address, transaction: expect.any(String) });
    expect(await balanceOf(account)).toBe(before + 5_000_000n);
    expect(await lamportsOf(localSolanaBuyer.address)).toBe(buyerLamports);
    const row = await db().x402Settlement.findFirstOrThrow({ where: { transaction: body.transaction } });
    expect(row).toMatchObject({ status: "SETTLED", signedTransaction: expect.any(String) });

    // A copy answers the same, and neither moves nor records anything more.
    const copy = await sendX402Payment(url, payment);
    expect([copy.status, (await copy.json()).transaction]).toEqual([200, body.transaction]);
    const settlements = await db().x402Settlement.count({ where: { invoiceId: row.invoiceId } });
    expect([await balanceOf(account), settlements]).toEqual([before + 5_000_000n, 1]);
  });

  it("answers the sweeper's refusal as a 402 with its SVM code, recording nothing", async () => {
    const { url } = await app.paylink("5.00");
    const option = (await solanaX402Option(url)) as PaymentRequirements;
    const wrong = await solanaX402Payment(solana, { ...option, amount: "4000000" });
    const settlements = await db().x402Settlement.count();
    const answer = await sendX402Payment(url, { ...wrong, accepted: option });
    expect(answer.status).toBe(402);
    expect((await answer.json()).error.code).toBe("invalid_exact_svm_payload_amount_mismatch");
    expect(await db().x402Settlement.count()).toBe(settlements);
  });

  it("settles nothing the web tier did not record, even for a caller holding its token; none without it", async () => {
    const { url } = await app.paylink("5.00");
    const option = (await solanaX402Option(url)) as PaymentRequirements;
    const payment = await solanaX402Payment(solana, option);
    const [received, fees] = [await balanceOf(await receivingAccount()), await lamportsOf(feePayer)];
    await expect(facilitator().settle(payment, option)).resolves.toMatchObject({
      success: false,
      errorReason: "payee_not_accepted",
    });
    // Paying someone else, with the fee payer's fee: refused before anything is looked up.
    const elsewhere = { ...option, payTo: localSolanaBuyer.address };
    const other = await solanaX402Payment(solana, elsewhere);
    await expect(facilitator().verify(other, elsewhere)).resolves.toMatchObject({
      isValid: false,
      invalidReason: "invalid_exact_svm_payload_recipient_mismatch",
    });
    await expect(facilitator("not-the-token-0123456789").settle(payment, option)).rejects.toThrow();
    expect(await balanceOf(await receivingAccount())).toBe(received);
    expect(await lamportsOf(feePayer)).toBe(fees);
    // The agent's payment itself still settles once, through the web tier.
    expect((await sendX402Payment(url, payment as PaymentPayload)).status).toBe(200);
  });

  it("fails a settlement left with nothing recorded once its window closed (nothing was or can be sent), and leaves an open one", async () => {
    const invoice = await db().invoice.findFirstOrThrow({ where: { network: solana.network.id } });
    const stale = new Date(Date.now() - stuckSettlementMs - 60_000);
    const left = async (validBefore: Date) => {
      const row = await createTestX402Settlement(invoice, { asset: solana.usdcMint, amount: "1" });
      return db().x402Settlement.update({
        where: { id: row.id },
        data: { network: solana.network.id, validBefore, updatedAt: stale },
      });
    };
    const [closed, open] = [
      await left(new Date(Date.now() - 1000)),
      await left(new Date(Date.now() + 60_000)),
    ];
    await resolveStuckX402Settlements(db());
    expect(await db().x402Settlement.findUniqueOrThrow({ where: { id: closed.id } })).toMatchObject({
      status: "FAILED",
      errorReason: "settlement_expired",
    });
    expect((await db().x402Settlement.findUniqueOrThrow({ where: { id: open.id } })).status).toBe("SETTLING");
    await db().x402Settlement.update({ where: { id: open.id }, data: { status: "FAILED" } });
  });
});
