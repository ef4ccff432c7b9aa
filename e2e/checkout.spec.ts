import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { createPublicClient, createWalletClient, type Hex, http, parseEther, parseUnits } from "viem";
import { hardhat } from "viem/chains";
import { compileTestUsdc } from "../lib/chains/compile-test-usdc";
import { devnetFunder } from "../lib/chains/devnet-account";
import { appEnv, appSql, createSession, expect, type Merchant, test } from "./fixtures";

// scripts/e2e-server.ts starts the app with a devnet of its own and records its port.
const rpcUrl = () => `http://127.0.0.1:${appEnv().SERVICE_DEVNET_PORT}`;
const { abi } = compileTestUsdc();

// The devnet's funded account signs on the node (an unlocked Hardhat account), which hands out its
// nonces: other spec files and the app's test wallet send from it at the same time.

/** A buyer's wallet: the devnet's funded account sending (minting) test USDC. */
async function payUsdc(token: string, to: string, amount: string) {
  const wallet = createWalletClient({
    account: devnetFunder.address,
    chain: hardhat,
    transport: http(rpcUrl()),
  });
  await wallet.writeContract({
    address: token as Hex,
    abi,
    functionName: "mint",
    args: [to, parseUnits(amount, 6)],
  });
}

/** A buyer's wallet sending devnet ETH (a plain value transfer). */
async function payEth(to: string, amount: string) {
  const wallet = createWalletClient({
    account: devnetFunder.address,
    chain: hardhat,
    transport: http(rpcUrl()),
  });
  await wallet.sendTransaction({ to: to as Hex, value: parseEther(amount) });
}

async function retrieve(
  request: import("@playwright/test").APIRequestContext,
  merchant: Merchant,
  sessionId: string,
) {
  const response = await request.get(`/api/checkout-sessions/${sessionId}`, {
    headers: { authorization: `Bearer ${merchant.apiKey}` },
  });
  return await response.json();
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

test("an overpayment confirms the payment and is reported to the buyer and the merchant", async ({
  page,
  request,
  merchant,
  baseURL,
}) => {
  test.setTimeout(120_000);
  // No success URL, so the page stays to show the outcome.
  const session = await createSession(request, merchant, baseURL as string, { successUrl: undefined });
  await page.goto(session.url);
  const address = await choosePayment(page);
  const { invoiceId } = (await retrieve(request, merchant, session.id)).payment;
  const { tokenAddress } = await (await request.get(`/api/public/payments/${invoiceId}`)).json();

  await payUsdc(tokenAddress, address, "30");
  await expect(page.getByRole("status").first()).toHaveText("Payment confirmed", { timeout: 30_000 });
  await expect(page.getByTestId("overpaid")).toContainText("5.000000 USDC more than due");
  await expect(page.getByTestId("deposit-address")).toHaveCount(0);
  expect((await retrieve(request, merchant, session.id)).payment).toMatchObject({
    status: "CONFIRMED",
    amountDue: "25.000000",
    amountPaid: "30.000000",
    overpaid: "5.000000",
  });
});

test("a session that expired before the buyer paid shows an expired state and no way to pay", async ({
  page,
  request,
  merchant,
  baseURL,
}) => {
  const session = await createSession(request, merchant, baseURL as string, { expiresInMinutes: 5 });
  // Five minutes pass.
  await appSql(`UPDATE "CheckoutSession" SET "expiresAt" = now() - interval '1 second' WHERE "id" = $1`, [
    session.id,
  ]);
  await page.goto(session.url);
  await expect(page.getByRole("status")).toHaveText(
    "This checkout has expired. Return to the store to start again.",
  );
  await expect(page.getByRole("button")).toHaveCount(0);
  await expect(page.getByTestId("deposit-address")).toHaveCount(0);
  await expect(page.getByLabel("Payment QR code")).toHaveCount(0);
  const started = await request.post("/api/public/payments", {
    data: { checkoutSessionId: session.id, network: "devnet", token: "USDC" },
  });
  expect(started.status()).toBe(400);
  expect((await started.json()).error.code).toBe("session_expired");
  expect((await retrieve(request, merchant, session.id)).status).toBe("EXPIRED");
});

test("the test wallet button pays a devnet invoice, from the keyboard", async ({
  page,
  request,
  merchant,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const session = await createSession(request, merchant, baseURL as string);
  await page.goto(session.url);
  await choosePayment(page);
  const button = page.getByRole("button", { name: "Pay with test wallet" });
  await expect(button).toHaveAccessibleDescription(/Local devnet only: sends 25.000000 USDC/);
  await button.focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("status").first()).toContainText(
    /waiting for confirmations|Payment confirmed/,
    { timeout: 30_000 },
  );
  await page.waitForURL(new RegExp(`paid=${session.id}$`), { timeout: 60_000 });
  expect((await retrieve(request, merchant, session.id)).payment).toMatchObject({
    status: "CONFIRMED",
    amountPaid: "25.000000",
  });
});

test("a buyer pays in devnet ETH by a plain transfer", async ({ page, request, merchant, baseURL }) => {
  test.setTimeout(120_000);
  const session = await createSession(request, merchant, baseURL as string);
  await page.goto(session.url);
  await page.getByRole("button", { name: /ETH\s*on Local devnet/ }).click();
  // 25 USD at the devnet's 3000 USD/ETH, rounded up to 18 decimals.
  await expect(page.getByTestId("amount-to-send")).toHaveText("0.008333333333333334 ETH");
  const address = (await page.getByTestId("deposit-address").textContent()) as string;
  await payEth(address, "0.008333333333333334");
  await page.waitForURL(new RegExp(`paid=${session.id}$`), { timeout: 60_000 });
  expect((await retrieve(request, merchant, session.id)).payment).toMatchObject({
    status: "CONFIRMED",
    token: "ETH",
    amountPaid: "0.008333333333333334",
  });
});

test("npm run devnet:pay pays an ETH invoice by a native transfer", async ({
  page,
  request,
  merchant,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const session = await createSession(request, merchant, baseURL as string);
  await page.goto(session.url);
  await page.getByRole("button", { name: /ETH\s*on Local devnet/ }).click();
  const address = (await page.getByTestId("deposit-address").textContent()) as string;
  const { invoiceId } = (await retrieve(request, merchant, session.id)).payment;
  const { stdout } = await promisify(execFile)("npm", ["run", "--silent", "devnet:pay", "--", invoiceId], {
    env: { ...process.env, ...appEnv() },
  });
  expect(stdout).toContain(`sent 0.008333333333333334 ETH to ${address}`);
  const txHash = /tx (0x[0-9a-f]{64})/.exec(stdout)?.[1] as Hex;
  const client = createPublicClient({ chain: hardhat, transport: http(rpcUrl()) });
  const transaction = await client.getTransaction({ hash: txHash });
  expect(transaction.to?.toLowerCase()).toBe(address.toLowerCase());
  expect(transaction.input).toBe("0x");
  await page.waitForURL(new RegExp(`paid=${session.id}$`), { timeout: 60_000 });
});
