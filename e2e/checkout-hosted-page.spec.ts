import { mkdirSync } from "node:fs";
import AxeBuilder from "@axe-core/playwright";
import type { APIRequestContext, Page } from "@playwright/test";
import { createWalletClient, type Hex, http, parseUnits, toHex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { hardhat } from "viem/chains";
import { compileTestUsdc } from "../lib/chains/compile-test-usdc";
import { devnetFunder } from "../lib/chains/devnet-account";
import { appEnv, appSql, createSession, expect, type Merchant, test } from "./fixtures";

// The hosted checkout page as a buyer meets it: a browser wallet (a test EIP-1193 provider that
// forwards to the app's devnet), its language, the merchant's brand, the receipt, accessibility.

const rpcUrl = () => `http://127.0.0.1:${appEnv().SERVICE_DEVNET_PORT}`;
const { abi } = compileTestUsdc();
/**
 * Hardhat's third development account: funded with ETH, apart from the test wallet's funder and
 * from the test buyer that `npm start` prints (the x402 spec pays from that one meanwhile).
 */
const buyer = privateKeyToAccount("0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a");
const screens = "test-results/checkout-screens";

type WalletOptions = {
  /** The chain the wallet is on when the page first asks. */
  chainId?: number;
  /** EIP-1193 error code the wallet answers a switch request with, instead of switching. */
  switchError?: number;
  /** The buyer declines the transaction in the wallet. */
  rejectSend?: boolean;
};

/**
 * Puts a wallet into the page the way an extension does: an EIP-1193 provider announced over
 * EIP-6963. Requests go to this test process, which plays the wallet (accounts, chain switching,
 * signing with the buyer's key) and forwards everything else to the devnet.
 */
async function injectWallet(page: Page, options: WalletOptions = {}) {
  const wallet = {
    chainId: options.chainId ?? hardhat.id,
    calls: [] as { method: string; params: unknown[] }[],
  };
  const signer = createWalletClient({ account: buyer, chain: hardhat, transport: http(rpcUrl()) });
  await page.exposeFunction("testWalletRequest", async (method: string, params: unknown[]) => {
    wallet.calls.push({ method, params });
    const fail = (code: number, message: string) => ({ error: { code, message } });
    switch (method) {
      case "eth_requestAccounts":
      case "eth_accounts":
        return { result: [buyer.address] };
      case "eth_chainId":
        return { result: toHex(wallet.chainId) };
      case "wallet_switchEthereumChain": {
        if (options.switchError) return fail(options.switchError, "switch refused");
        wallet.chainId = Number((params[0] as { chainId: string }).chainId);
        return { result: null };
      }
      case "eth_sendTransaction": {
        if (options.rejectSend) return fail(4001, "User rejected the request.");
        const tx = params[0] as { to: Hex; data?: Hex; value?: Hex };
        const hash = await signer.sendTransaction({
          to: tx.to,
          data: tx.data,
          value: tx.value ? BigInt(tx.value) : undefined,
        });
        return { result: hash };
      }
      default: {
        const response = await fetch(rpcUrl(), {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
        });
        const body = (await response.json()) as {
          result?: unknown;
          error?: { code: number; message: string };
        };
        return body.error ? { error: body.error } : { result: body.result };
      }
    }
  });
  await page.addInitScript(() => {
    const bridge = (window as unknown as { testWalletRequest: (m: string, p: unknown[]) => Promise<never> })
      .testWalletRequest;
    const provider = {
      request: async ({ method, params }: { method: string; params?: unknown[] }) => {
        const answer = (await bridge(method, params ?? [])) as {
          result?: unknown;
          error?: { code: number; message: string };
        };
        if (answer.error) throw Object.assign(new Error(answer.error.message), { code: answer.error.code });
        return answer.result;
      },
      on: () => provider,
      removeListener: () => provider,
    };
    const info = {
      uuid: "5f0b7c4e-8d1a-4c7e-9b3a-2f6d1e0c9a11",
      name: "E2E Wallet",
      icon: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 8 8'%3E%3Crect width='8' height='8' fill='%23f59e0b'/%3E%3C/svg%3E",
      rdns: "com.example.testwallet",
    };
    const announce = () =>
      window.dispatchEvent(
        new CustomEvent("eip6963:announceProvider", { detail: Object.freeze({ info, provider }) }),
      );
    window.addEventListener("eip6963:requestProvider", announce);
    announce();
  });
  return wallet;
}

/**
 * Test USDC for the buyer's wallet (anyone may mint it on the devnet). The funder signs on the node,
 * which hands out its nonces: other spec files and the app send from it at the same time.
 */
async function fundBuyerUsdc(token: Hex) {
  const funder = createWalletClient({
    account: devnetFunder.address,
    chain: hardhat,
    transport: http(rpcUrl()),
  });
  await funder.writeContract({
    address: token,
    abi,
    functionName: "mint",
    args: [buyer.address, parseUnits("100", 6)],
  });
}

/** The test USDC contract of the session's invoice, as the public payment request names it. */
async function tokenAddress(request: APIRequestContext, merchant: Merchant, sessionId: string) {
  const session = await request.get(`/api/checkout-sessions/${sessionId}`, {
    headers: { authorization: `Bearer ${merchant.apiKey}` },
  });
  const { invoiceId } = (await session.json()).payment;
  return (await (await request.get(`/api/public/payments/${invoiceId}`)).json()).tokenAddress as Hex;
}

test.describe("paying with a browser wallet", () => {
  for (const { token, amount } of [
    { token: "USDC", amount: "25.000000 USDC" },
    { token: "ETH", amount: "0.008333333333333334 ETH" },
  ]) {
    test(`a buyer pays in ${token} from the wallet in the browser and lands on the success URL`, async ({
      page,
      request,
      merchant,
      baseURL,
    }) => {
      test.setTimeout(120_000);
      const wallet = await injectWallet(page);
      const session = await createSession(request, merchant, baseURL as string);
      await page.goto(session.url);
      await page.getByRole("button", { name: `${token} on Local devnet` }).click();
      await expect(page.getByTestId("amount-to-send")).toHaveText(amount);
      if (token === "USDC") await fundBuyerUsdc(await tokenAddress(request, merchant, session.id));
      await page.getByRole("button", { name: "Pay with E2E Wallet" }).click();
      await expect(page.getByTestId("wallet-tx").or(page.getByTestId("transactions"))).toContainText(
        /0x[0-9a-f]{8}/,
        {
          timeout: 30_000,
        },
      );
      await page.waitForURL(new RegExp(`paid=${session.id}$`), { timeout: 60_000 });
      const sent = wallet.calls.find((call) => call.method === "eth_sendTransaction");
      expect(sent?.params[0]).toMatchObject({ from: buyer.address });
    });
  }

  test("a wallet on another chain is asked to switch to the invoice's chain, then pays", async ({
    page,
    request,
    merchant,
    baseURL,
  }) => {
    test.setTimeout(120_000);
    const wallet = await injectWallet(page, { chainId: 1 });
    const session = await createSession(request, merchant, baseURL as string);
    await page.goto(session.url);
    await page.getByRole("button", { name: "ETH on Local devnet" }).click();
    await page.getByRole("button", { name: "Pay with E2E Wallet" }).click();
    await page.waitForURL(new RegExp(`paid=${session.id}$`), { timeout: 60_000 });
    expect(wallet.calls.filter((call) => call.method === "wallet_switchEthereumChain")).toEqual([
      { method: "wallet_switchEthereumChain", params: [{ chainId: toHex(hardhat.id) }] },
    ]);
  });

  for (const { name, options, message } of [
    {
      name: "the buyer declines the transaction",
      options: { rejectSend: true },
      message: "You declined the request in your wallet. Try again, or pay manually below.",
    },
    {
      name: "the buyer declines switching the chain",
      options: { chainId: 1, switchError: 4001 },
      message: "You declined the request in your wallet. Try again, or pay manually below.",
    },
    {
      name: "the wallet cannot switch to the chain",
      options: { chainId: 1, switchError: 4902 },
      message:
        "Your wallet is on another network. Switch it to Local devnet and try again, or pay manually below.",
    },
    {
      name: "the wallet disconnects",
      options: { chainId: 1, switchError: 4900 },
      message: "Your wallet is no longer available. Reload the page, or pay manually below.",
    },
  ] satisfies { name: string; options: WalletOptions; message: string }[]) {
    test(`when ${name}, the page says so and the manual path still pays`, async ({
      page,
      request,
      merchant,
      baseURL,
    }) => {
      test.setTimeout(120_000);
      const wallet = await injectWallet(page, options);
      const session = await createSession(request, merchant, baseURL as string);
      await page.goto(session.url);
      await page.getByRole("button", { name: "ETH on Local devnet" }).click();
      await page.getByRole("button", { name: "Pay with E2E Wallet" }).click();
      // Next.js keeps an empty route announcer with role=alert on every page.
      await expect(page.getByText(message)).toHaveAttribute("role", "alert");
      // Only a declined transaction reached the wallet's send; the others stopped before it.
      expect(wallet.calls.filter((call) => call.method === "eth_sendTransaction")).toHaveLength(
        "rejectSend" in options ? 1 : 0,
      );
      await expect(page.getByTestId("deposit-address")).toBeVisible();
      await expect(page.getByLabel("Payment QR code")).toBeVisible();
      await page.getByRole("button", { name: "Pay with test wallet" }).click();
      await page.waitForURL(new RegExp(`paid=${session.id}$`), { timeout: 60_000 });
    });
  }
});

test("a phone shows an Open in wallet app link carrying the EIP-681 request of the QR code", async ({
  page,
  request,
  merchant,
  baseURL,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const session = await createSession(request, merchant, baseURL as string);
  await page.goto(session.url);
  await page.getByRole("button", { name: "ETH on Local devnet" }).click();
  const address = (await page.getByTestId("deposit-address").textContent()) as string;
  await expect(page.getByRole("link", { name: "Open in wallet app" })).toHaveAttribute(
    "href",
    `ethereum:${address}@31337?value=8333333333333334`,
  );
  await page.setViewportSize({ width: 1280, height: 900 });
  await expect(page.getByRole("link", { name: "Open in wallet app" })).toBeHidden();
});

test("the page carries the merchant's brand: display name, logo served from our origin, color", async ({
  page,
  request,
  merchant,
  baseURL,
}) => {
  const png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=";
  const updated = await request.put("/api/private/organization/current", {
    headers: { authorization: `Bearer ${merchant.apiKey}` },
    data: { brandDisplayName: "Sticker Shop", brandColor: "#1d4ed8", logo: { dataBase64: png } },
  });
  expect(updated.status()).toBe(200);
  const session = await createSession(request, merchant, baseURL as string);
  await page.goto(session.url);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Sticker Shop");
  const logo = page.getByTestId("merchant-logo");
  await expect(logo).toBeVisible();
  expect(await logo.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth)).toBe(1);
  expect(new URL((await logo.getAttribute("src")) as string, baseURL).origin).toBe(
    new URL(baseURL as string).origin,
  );
  await expect(page.getByTestId("brand-bar")).toHaveCSS("background-color", "rgb(29, 78, 216)");
  const served = await request.get((await logo.getAttribute("src")) as string);
  expect(served.headers()["content-type"]).toBe("image/png");
  expect(served.headers()["x-content-type-options"]).toBe("nosniff");
});

test.describe("in German", () => {
  test.use({ locale: "de-DE", extraHTTPHeaders: { "Accept-Language": "de-DE,de;q=0.9,en;q=0.5" } });

  test("Accept-Language picks German, amounts use the German decimal comma, and the switcher changes language", async ({
    page,
    request,
    merchant,
    baseURL,
  }) => {
    const session = await createSession(request, merchant, baseURL as string);
    await page.goto(session.url);
    await expect(page.locator("div[lang=de]")).toHaveCount(1);
    await expect(page.getByTestId("price")).toHaveText("25,00 USD");
    await expect(page.getByText("Bezahlen mit")).toBeVisible();
    await page.getByRole("button", { name: "USDC im Netzwerk Local devnet" }).click();
    await expect(page.getByTestId("amount-to-send")).toHaveText("25,000000 USDC");
    await expect(page.getByRole("status").first()).toHaveText("Warten auf Ihre Zahlung");
    await expect(
      page.getByText("Senden Sie genau diesen Betrag; Auszahlungen von Börsen können Gebühren abziehen."),
    ).toBeVisible();
    await page.getByLabel("Sprache").selectOption("fr");
    await expect(page.getByRole("status").first()).toHaveText("En attente de votre paiement");
    await expect(page.getByTestId("amount-to-send")).toHaveText("25,000000 USDC");
  });
});

test("after confirmation with no success URL the buyer gets a printable receipt", async ({
  page,
  request,
  merchant,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const session = await createSession(request, merchant, baseURL as string, {
    successUrl: undefined,
    merchantOrderId: "order-1042",
  });
  await page.goto(session.url);
  await page.getByRole("button", { name: "USDC on Local devnet" }).click();
  await page.getByRole("button", { name: "Pay with test wallet" }).click();
  const receipt = page.getByTestId("receipt");
  await expect(receipt).toBeVisible({ timeout: 60_000 });
  await expect(receipt.getByRole("heading", { name: "Receipt" })).toBeVisible();
  await expect(receipt.getByTestId("receipt-amount")).toHaveText("25.000000 USDC");
  await expect(receipt).toContainText("E2E Store");
  await expect(receipt).toContainText("order-1042");
  await expect(receipt).toContainText("Local devnet");
  await expect(receipt).toContainText(/0x[0-9a-f]{8}…[0-9a-f]{8}/);
  await expect(receipt).toContainText(String(new Date().getFullYear()));
  await expect(receipt.getByRole("button", { name: "Print receipt" })).toBeVisible();
  await page.emulateMedia({ media: "print" });
  await expect(receipt.getByRole("button", { name: "Print receipt" })).toBeHidden();
  await expect(page.getByRole("combobox")).toBeHidden();
});

test("every state of the page passes axe-core at 390 px dark and 1280 px light, and works from the keyboard", async ({
  page,
  request,
  merchant,
  baseURL,
}) => {
  // Axe over every state: CPU-bound in the browser, 190 s seen under CI's full load with four screens.
  test.setTimeout(480_000);
  mkdirSync(screens, { recursive: true });
  const choosing = await createSession(request, merchant, baseURL as string);
  const paying = await createSession(request, merchant, baseURL as string);
  const paid = await createSession(request, merchant, baseURL as string, {
    successUrl: undefined,
    merchantOrderId: "order-7",
  });
  const expired = await createSession(request, merchant, baseURL as string);
  await appSql(`UPDATE "CheckoutSession" SET "expiresAt" = now() - interval '1 second' WHERE "id" = $1`, [
    expired.id,
  ]);

  // From the keyboard: Tab to a token, Enter starts the payment; the test wallet pays the receipt's session.
  await injectWallet(page);
  await page.goto(paying.url);
  const usdc = page.getByRole("button", { name: "USDC on Local devnet" });
  for (
    let presses = 0;
    presses < 10 && !(await usdc.evaluate((element) => element === document.activeElement));
    presses++
  )
    await page.keyboard.press("Tab");
  await expect(usdc).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("deposit-address")).toBeVisible();
  await page.goto(paid.url);
  await page.getByRole("button", { name: "USDC on Local devnet" }).click();
  await page.getByRole("button", { name: "Pay with test wallet" }).click();
  await expect(page.getByTestId("receipt")).toBeVisible({ timeout: 60_000 });

  const states = [
    { name: "choose", url: choosing.url, ready: page.getByRole("button", { name: "ETH on Local devnet" }) },
    { name: "pay", url: paying.url, ready: page.getByTestId("deposit-address") },
    { name: "receipt", url: paid.url, ready: page.getByTestId("receipt") },
    { name: "expired", url: expired.url, ready: page.getByRole("status") },
  ];
  const serious: string[] = [];
  // Two screens cover both widths and both schemes (as in e2e/dashboard-layout.spec.ts): what
  // axe finds in layout depends on the width, in colour contrast on the scheme.
  for (const { width, colorScheme } of [
    { width: 390, colorScheme: "dark" },
    { width: 1280, colorScheme: "light" },
  ] as const) {
    await page.setViewportSize({ width, height: 900 });
    await page.emulateMedia({ colorScheme, media: "screen" });
    for (const state of states) {
      await page.goto(state.url);
      await expect(state.ready).toBeVisible({ timeout: 30_000 });
      const results = await new AxeBuilder({ page }).analyze();
      for (const violation of results.violations)
        if (violation.impact === "serious" || violation.impact === "critical")
          serious.push(
            `${state.name} ${width}px ${colorScheme}: ${violation.id} ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`,
          );
      await page.screenshot({
        path: `${screens}/${state.name}-${width}-${colorScheme}.png`,
        fullPage: true,
      });
    }
  }
  expect(serious).toEqual([]);
  // Dark mode follows the system setting.
  const background = () =>
    page
      .getByTestId("brand-bar")
      .locator("..")
      .evaluate((element) => getComputedStyle(element).backgroundColor);
  await page.goto(choosing.url);
  await page.emulateMedia({ colorScheme: "light" });
  const light = await background();
  await page.emulateMedia({ colorScheme: "dark" });
  expect(await background()).not.toBe(light);
});
