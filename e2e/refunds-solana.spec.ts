import { type Address, createSolanaRpc } from "@solana/kit";
import { localSolanaBuyer } from "../lib/chains/solana/local-solana-accounts";
import { associatedTokenAccount } from "../lib/chains/solana/prepare-solana-transaction";
import type { SolanaRpc } from "../lib/chains/solana/read-solana-transfers";
import { sendSolanaPayTransfer } from "../lib/chains/solana/send-solana-pay-transfer";
import { localeCookie, locales } from "../lib/i18n/locales";
import { appEnv, createSession, expect, type Merchant, test } from "./fixtures";

// Refunds of Solana invoices on the zero-setup start (scripts/e2e-server.ts runs `npm start` with
// its local Solana chain and in-process sweeper): the payer gets the money back on chain, and a
// claim page asks for a base58 wallet address in the buyer's language.
test.describe.configure({ timeout: 120_000 });

const rpc = () => createSolanaRpc(`http://127.0.0.1:${appEnv().SERVICE_SOLANA_DEVNET_PORT}`) as SolanaRpc;

/** The test buyer's test USDC, in base units. */
async function buyerUsdc(mint: string) {
  const account = await associatedTokenAccount(localSolanaBuyer.address as Address, mint as Address);
  const { value } = await rpc().getTokenAccountBalance(account, { commitment: "confirmed" }).send();
  return BigInt(value.amount);
}

/** A 25 USD Solana invoice of `merchant`, paid by the test buyer as a Solana Pay wallet pays it. */
async function paidSolanaInvoice(
  request: import("@playwright/test").APIRequestContext,
  merchant: Merchant,
  baseURL: string,
) {
  const session = await createSession(request, merchant, baseURL, { network: "solana-local", token: "USDC" });
  const { paymentRequest } = session as unknown as {
    paymentRequest: { id: string; depositAddress: string; tokenAddress: string; reference: string };
  };
  await sendSolanaPayTransfer(rpc(), {
    payer: localSolanaBuyer,
    recipient: paymentRequest.depositAddress,
    mint: paymentRequest.tokenAddress,
    decimals: 6,
    units: 25_000_000n,
    references: [paymentRequest.reference],
  });
  await expect
    .poll(
      async () => (await (await request.get(`/api/public/payments/${paymentRequest.id}`)).json()).status,
      {
        timeout: 30_000,
      },
    )
    .toBe("CONFIRMED");
  return paymentRequest;
}

test("a Solana invoice's payer is refunded on chain by the sweeper, exactly the amount", async ({
  request,
  merchant,
  baseURL,
}) => {
  const invoice = await paidSolanaInvoice(request, merchant, baseURL as string);
  const before = await buyerUsdc(invoice.tokenAddress);
  const headers = { authorization: `Bearer ${merchant.apiKey}` };
  const asked = await request.post("/api/private/refunds", {
    headers,
    data: { invoiceId: invoice.id, amount: "7.25", destination: "payer" },
  });
  expect(asked.status()).toBe(200);
  const { data } = await asked.json();
  expect(data).toMatchObject({ status: "pending", toAddress: localSolanaBuyer.address });
  await expect
    .poll(
      async () =>
        (await (await request.get(`/api/private/refunds/${data.id}`, { headers })).json()).data.status,
      {
        timeout: 60_000,
      },
    )
    .toBe("succeeded");
  expect((await buyerUsdc(invoice.tokenAddress)) - before).toBe(7_250_000n);
});

test("a Solana refund's claim page asks for a base58 wallet address in every language, and takes one", async ({
  baseURL,
  merchant,
  page,
  request,
}) => {
  const invoice = await paidSolanaInvoice(request, merchant, baseURL as string);
  const asked = await request.post("/api/private/refunds", {
    headers: { authorization: `Bearer ${merchant.apiKey}` },
    data: { invoiceId: invoice.id, amount: "3", destination: "claim" },
  });
  const { claimUrl } = (await asked.json()).data as { claimUrl: string };
  const hints = {
    en: "Solana wallet",
    de: "Solana-Wallet",
    es: "billetera de Solana",
    fr: "portefeuille Solana",
    ja: "Solana ウォレット",
    pt: "carteira Solana",
  } as const;
  for (const locale of locales) {
    await page.context().addCookies([{ name: localeCookie, value: locale, url: baseURL as string }]);
    await page.goto(claimUrl);
    await expect(page.locator("#address-hint")).toContainText(hints[locale]);
    await expect(page.locator("#address")).toHaveAttribute("placeholder", /^[1-9A-HJ-NP-Za-km-z…]+$/);
  }
  await page.context().addCookies([{ name: localeCookie, value: "en", url: baseURL as string }]);
  await page.goto(claimUrl);
  const claim = async (address: string) => {
    await page.getByLabel("Your Local Solana address").fill(address);
    await page.getByLabel("The same address again").fill(address);
    await page.getByRole("button", { name: "Send the refund to this address" }).click();
  };
  // The mint is on the curve but no wallet: the chain says so.
  await claim(invoice.tokenAddress);
  await expect(page.locator("#address-error")).toHaveText(/not a wallet/);
  await claim(localSolanaBuyer.address);
  // An API key's link, claimed with no emailed code (no buyer email): an owner reviews it.
  await expect(page.getByTestId("refund-status")).toContainText("reviews this refund");
  await expect(page.getByTestId("refund-to")).toHaveText(localSolanaBuyer.address);
});
