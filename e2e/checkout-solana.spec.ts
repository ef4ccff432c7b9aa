import { createSolanaRpc } from "@solana/kit";
import { localSolanaBuyer } from "../lib/chains/solana/local-solana-accounts";
import type { SolanaRpc } from "../lib/chains/solana/read-solana-transfers";
import { sendSolanaPayTransfer } from "../lib/chains/solana/send-solana-pay-transfer";
import { appEnv, createSession, expect, test } from "./fixtures";

// scripts/e2e-server.ts starts the app through `npm start`, with its local Solana chain
// (`solana-local`) on a port of its own: the buyer pays the hosted page's Solana Pay request.
const solanaUrl = () => `http://127.0.0.1:${appEnv().SERVICE_SOLANA_DEVNET_PORT}`;

async function chooseSolana(page: import("@playwright/test").Page) {
  await page.getByRole("button", { name: /USDC\s*on Local Solana/ }).click();
  await expect(page.getByTestId("amount-to-send")).toHaveText("25.000000 USDC");
  return (await page.getByTestId("deposit-address").textContent()) as string;
}

test("a buyer's Solana Pay wallet pays the hosted page's request, in two transfers, and lands on the success URL", async ({
  page,
  request,
  merchant,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const session = await createSession(request, merchant, baseURL as string);
  await page.goto(session.url);
  const recipient = await chooseSolana(page);
  await expect(page.getByLabel("Payment QR code")).toBeVisible();
  const link = await page.locator('a[href^="solana:"]').getAttribute("href");
  const uri = new URL(link as string);
  expect(uri.pathname).toBe(recipient);
  const reference = uri.searchParams.get("reference") as string;
  const mint = uri.searchParams.get("spl-token") as string;
  expect(uri.searchParams.get("amount")).toBe("25.000000");
  // What a Solana Pay wallet does with the link: a TransferChecked carrying the reference.
  const rpc = createSolanaRpc(solanaUrl()) as SolanaRpc;
  const pay = (units: bigint) =>
    sendSolanaPayTransfer(rpc, {
      payer: localSolanaBuyer,
      recipient,
      mint,
      decimals: 6,
      units,
      references: [reference],
    });
  await pay(10_000_000n);
  await expect(page.getByTestId("amount-to-send")).toHaveText("15.000000 USDC", { timeout: 30_000 });
  await pay(15_000_000n);
  await page.waitForURL(new RegExp(`paid=${session.id}$`), { timeout: 60_000 });
});

test("the test wallet button pays a Solana invoice on the local chain", async ({
  page,
  request,
  merchant,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const session = await createSession(request, merchant, baseURL as string);
  await page.goto(session.url);
  await chooseSolana(page);
  await page.getByRole("button", { name: "Pay with test wallet" }).click();
  await page.waitForURL(new RegExp(`paid=${session.id}$`), { timeout: 60_000 });
  const summary = await (
    await request.get(`/api/checkout-sessions/${session.id}`, {
      headers: { authorization: `Bearer ${merchant.apiKey}` },
    })
  ).json();
  const payment = await (await request.get(`/api/public/payments/${summary.payment.invoiceId}`)).json();
  expect(payment).toMatchObject({ network: "solana-local", status: "CONFIRMED", remaining: "0.000000" });
  expect(payment.payments).toHaveLength(1);
  // A Solana signature: 64 bytes in base58.
  expect(payment.payments[0].txHash).toMatch(/^[1-9A-HJ-NP-Za-km-z]{86,88}$/);
});
