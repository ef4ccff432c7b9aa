import AxeBuilder from "@axe-core/playwright";
import { base58 } from "@scure/base";
import {
  createKeyPairFromPrivateKeyBytes,
  createSolanaRpc,
  getBase64EncodedWireTransaction,
  getTransactionDecoder,
  signTransaction,
} from "@solana/kit";
import { localSolanaBuyer } from "../lib/chains/solana/local-solana-accounts";
import type { SolanaRpc } from "../lib/chains/solana/read-solana-transfers";
import { sendSolanaPayTransfer, waitForConfirmed } from "../lib/chains/solana/send-solana-pay-transfer";
import { localeCookie, locales } from "../lib/i18n/locales";
import { appEnv, createSession, expect, signIn, test } from "./fixtures";

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
  const signature = payment.payments[0].txHash as string;
  expect(signature).toMatch(/^[1-9A-HJ-NP-Za-km-z]{86,88}$/);

  // The merchant's invoice page names the network and shows the signature, the shared receiving
  // address and the invoice's reference; the local chain has no explorer, so they are copyable text.
  await signIn(page, merchant.email);
  await page.goto(`/dashboard/invoices/${summary.payment.invoiceId}`);
  await expect(page.getByText("Local Solana", { exact: true })).toBeVisible();
  await expect(page.getByText(signature, { exact: true })).toBeVisible();
  await expect(page.getByText(payment.depositAddress, { exact: true })).toBeVisible();
  await expect(page.getByText(payment.reference, { exact: true })).toBeVisible();
  await expect(page.getByText(/^Slot \d+ · /)).toBeVisible();
  await expect(page.locator(`a[href*="${signature}"]`)).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Copy transaction" })).toHaveCount(1);
  const axe = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  expect(axe.violations.map((violation) => violation.id)).toEqual([]);
});

/**
 * A Wallet Standard wallet injected into the page (as Phantom, Solflare and Backpack register
 * themselves): it connects the local test buyer and signs and sends what it is given in Node, with
 * the buyer's key, over the local chain's JSON-RPC; or declines, when told to.
 */
async function injectSolanaWallet(
  page: import("@playwright/test").Page,
  options: { decline?: boolean } = {},
) {
  const rpc = createSolanaRpc(solanaUrl()) as SolanaRpc;
  const signed: { feePayer: string; keys: string[] }[] = [];
  await page.exposeFunction("e2eSolanaAccount", () => localSolanaBuyer.address);
  await page.exposeFunction("e2eSolanaSignAndSend", async (bytes: number[]) => {
    if (options.decline) throw new Error("User rejected the request.");
    const transaction = getTransactionDecoder().decode(Uint8Array.from(bytes));
    const keyPair = await createKeyPairFromPrivateKeyBytes(localSolanaBuyer.secretKey);
    const done = await signTransaction([keyPair], transaction);
    signed.push({ feePayer: Object.keys(done.signatures)[0], keys: Object.keys(done.signatures) });
    const signature = base58.encode(done.signatures[localSolanaBuyer.address as never] as Uint8Array);
    await rpc.sendTransaction(getBase64EncodedWireTransaction(done), { encoding: "base64" }).send();
    await waitForConfirmed(rpc, signature);
    return Array.from(base58.decode(signature));
  });
  await page.addInitScript(() => {
    const bridge = window as unknown as {
      e2eSolanaAccount: () => Promise<string>;
      e2eSolanaSignAndSend: (bytes: number[]) => Promise<number[]>;
    };
    const chains = ["solana:localnet"] as const;
    const wallet = {
      version: "1.0.0",
      name: "E2E Solana",
      icon: "data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciLz4=",
      chains,
      accounts: [] as unknown[],
      features: {
        "standard:connect": {
          version: "1.0.0",
          connect: async () => {
            const account = {
              address: await bridge.e2eSolanaAccount(),
              publicKey: new Uint8Array(32),
              chains,
              features: ["solana:signAndSendTransaction"],
            };
            wallet.accounts = [account];
            return { accounts: [account] };
          },
        },
        "standard:events": { version: "1.0.0", on: () => () => {} },
        "solana:signAndSendTransaction": {
          version: "1.0.0",
          supportedTransactionVersions: ["legacy", 0],
          signAndSendTransaction: async (...inputs: { transaction: Uint8Array }[]) =>
            Promise.all(
              inputs.map(async (input) => ({
                signature: Uint8Array.from(await bridge.e2eSolanaSignAndSend(Array.from(input.transaction))),
              })),
            ),
        },
      },
    };
    // Wallet Standard's registration, both ways round: the page may load before or after the wallet.
    const register = ({ register }: { register: (w: unknown) => void }) => register(wallet);
    window.addEventListener("wallet-standard:app-ready", (event) => register((event as CustomEvent).detail));
    window.dispatchEvent(new CustomEvent("wallet-standard:register-wallet", { detail: register }));
  });
  return signed;
}

test("a Wallet Standard wallet in the browser pays the Solana invoice in one click", async ({
  page,
  request,
  merchant,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const signed = await injectSolanaWallet(page);
  const session = await createSession(request, merchant, baseURL as string);
  await page.goto(session.url);
  await chooseSolana(page);
  await page.getByRole("button", { name: "Pay with E2E Solana" }).click();
  await page.waitForURL(new RegExp(`paid=${session.id}$`), { timeout: 60_000 });
  // The wallet signed alone, as the fee payer: the buyer pays the fee, the service signs nothing.
  expect(signed).toEqual([{ feePayer: localSolanaBuyer.address, keys: [localSolanaBuyer.address] }]);
});

test("a wallet that declines leaves the page on the Solana Pay QR code", async ({
  page,
  request,
  merchant,
  baseURL,
}) => {
  test.setTimeout(120_000);
  await injectSolanaWallet(page, { decline: true });
  const session = await createSession(request, merchant, baseURL as string);
  await page.goto(session.url);
  await chooseSolana(page);
  await page.getByRole("button", { name: "Pay with E2E Solana" }).click();
  await expect(
    page
      .getByRole("alert")
      .filter({ hasText: "You declined the request in your wallet. Try again, or pay manually below." }),
  ).toBeVisible();
  await expect(page.getByLabel("Payment QR code")).toBeVisible();
  await expect(page.getByTestId("amount-to-send")).toHaveText("25.000000 USDC");
});

test("the Solana pay step, with a Wallet Standard wallet, passes axe in every language, narrow and wide", async ({
  page,
  request,
  merchant,
  baseURL,
}) => {
  test.setTimeout(240_000);
  await injectSolanaWallet(page);
  const session = await createSession(request, merchant, baseURL as string);
  const serious: string[] = [];
  for (const locale of locales) {
    await page.context().addCookies([{ name: localeCookie, value: locale, url: baseURL as string }]);
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(session.url);
      // Once chosen, the session shows its Solana invoice on every visit.
      const solana = page.getByRole("button", { name: /USDC\s*Local Solana|Local Solana/ });
      if (
        await solana
          .first()
          .isVisible()
          .catch(() => false)
      )
        await solana.first().click();
      await expect(page.getByTestId("deposit-address")).toBeVisible({ timeout: 30_000 });
      await expect(page.locator('a[href^="solana:"]')).toHaveCount(1);
      await expect(page.getByRole("button", { name: /E2E Solana/ })).toBeVisible();
      await expect(page.locator(`div[lang="${locale}"]`).first()).toBeVisible();
      const results = await new AxeBuilder({ page })
        .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"])
        .analyze();
      for (const violation of results.violations)
        serious.push(
          `${locale} ${width}px: ${violation.id} ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`,
        );
    }
  }
  expect(serious).toEqual([]);
});
