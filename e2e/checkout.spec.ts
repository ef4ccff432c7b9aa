import { createWalletClient, type Hex, http, parseUnits } from "viem";
import { hardhat } from "viem/chains";
import { compileTestUsdc } from "../lib/chains/compile-test-usdc";
import { devnetFunder } from "../lib/chains/devnet-account";
import { expect, type Merchant, test } from "./fixtures";

// scripts/e2e-server.ts starts the app with a devnet of its own on this port.
const rpcUrl = `http://127.0.0.1:${8700 + (Number(process.env.E2E_PORT ?? 3100) % 100)}`;
const { abi } = compileTestUsdc();

/** A buyer's wallet: the devnet's funded account sending (minting) test USDC. */
async function payUsdc(token: string, to: string, amount: string) {
  const wallet = createWalletClient({ account: devnetFunder, chain: hardhat, transport: http(rpcUrl) });
  await wallet.writeContract({
    address: token as Hex,
    abi,
    functionName: "mint",
    args: [to, parseUnits(amount, 6)],
  });
}

async function createSession(
  request: import("@playwright/test").APIRequestContext,
  merchant: Merchant,
  baseURL: string,
) {
  const response = await request.post("/api/checkout-sessions", {
    headers: {
      authorization: `Bearer ${merchant.apiKey}`,
      "idempotency-key": `e2e-checkout-${Date.now()}-${Math.random()}`,
    },
    data: {
      amount: "25.00",
      currency: "USD",
      description: "A box of stickers",
      successUrl: `${baseURL}/?paid={CHECKOUT_SESSION_ID}`,
      cancelUrl: `${baseURL}/?cancelled=1`,
    },
  });
  expect(response.status()).toBe(200);
  return (await response.json()) as { id: string; url: string };
}

async function choosePayment(page: import("@playwright/test").Page) {
  await page.getByRole("button", { name: /USDC\s*on Local devnet/ }).click();
  await expect(page.getByTestId("amount-to-send")).toHaveText("25.000000 USDC");
  return (await page.getByTestId("deposit-address").textContent()) as string;
}

test("a buyer pays the exact amount in devnet USDC and lands on the success URL", async ({
  page,
  request,
  merchant,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const session = await createSession(request, merchant, baseURL as string);
  await page.goto(session.url);
  await expect(page.getByTestId("price")).toHaveText("25.00 USD");
  await expect(page.getByText("E2E Store")).toBeVisible();
  await expect(page.getByRole("link", { name: "Cancel and return to the store" })).toHaveAttribute(
    "href",
    `${baseURL}/?cancelled=1`,
  );
  const address = await choosePayment(page);
  await expect(page.getByLabel("Payment QR code")).toBeVisible();
  const token = (
    await (
      await request.get(`/api/checkout-sessions/${session.id}`, {
        headers: { authorization: `Bearer ${merchant.apiKey}` },
      })
    ).json()
  ).payment;
  expect(token).toMatchObject({ status: "AWAITING_PAYMENT", token: "USDC" });
  const paymentRequest = await (await request.get(`/api/public/payments/${token.invoiceId}`)).json();

  await payUsdc(paymentRequest.tokenAddress, address, "25");
  await expect(page.getByRole("status").first()).toContainText(
    /waiting for confirmations|Payment confirmed/,
    { timeout: 30_000 },
  );
  await page.waitForURL(new RegExp(`paid=${session.id}$`), { timeout: 60_000 });
});

test("a partial payment shows what is left, and the top-up completes it", async ({
  page,
  request,
  merchant,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const session = await createSession(request, merchant, baseURL as string);
  await page.goto(session.url);
  const address = await choosePayment(page);
  const invoiceId = (
    await (
      await request.get(`/api/checkout-sessions/${session.id}`, {
        headers: { authorization: `Bearer ${merchant.apiKey}` },
      })
    ).json()
  ).payment.invoiceId;
  const { tokenAddress } = await (await request.get(`/api/public/payments/${invoiceId}`)).json();

  await payUsdc(tokenAddress, address, "10");
  await expect(page.getByTestId("amount-to-send")).toHaveText("15.000000 USDC", { timeout: 30_000 });
  await expect(page.getByText("Received 10.000000 of 25.000000 USDC.")).toBeVisible();
  await payUsdc(tokenAddress, address, "15");
  await page.waitForURL(new RegExp(`paid=${session.id}$`), { timeout: 60_000 });
});
