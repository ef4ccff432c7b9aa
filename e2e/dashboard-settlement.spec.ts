import { expect, saveDevnetWallet, test } from "./fixtures";

// The zero-setup start runs the sweeper in-process with a funded gas wallet on its devnet: a paid
// invoice's USDC reaches the settlement wallet, and the Settlement page shows every movement.
test("settlement: a paid invoice is swept to the settlement wallet and listed with its transactions", async ({
  dashboard: page,
  merchant,
  request,
}) => {
  test.setTimeout(240_000);
  const auth = { authorization: `Bearer ${merchant.apiKey}` };
  await page.goto("/dashboard/settlement");
  await expect(page.getByRole("heading", { name: "Settlement", exact: true })).toBeVisible();
  // One line per network that sweeps (the devnet and the local Solana chain), none with a wallet yet.
  await expect(page.getByText("No settlement wallet: payments stay on their deposit addresses.")).toHaveCount(
    2,
  );

  const wallet = "0x000000000000000000000000000000000000e2E5";
  await saveDevnetWallet(page, wallet);

  const created = await request.post("/api/checkout-sessions", {
    headers: { ...auth, "idempotency-key": `settle-${Date.now()}` },
    data: { amount: "42.50", currency: "USD", merchantOrderId: "settle-1" },
  });
  const session = (await created.json()) as { id: string };
  const started = await request.post("/api/public/payments", {
    data: { checkoutSessionId: session.id, network: "devnet", token: "USDC" },
  });
  const invoice = (await started.json()) as { id: string };
  expect((await request.post(`/api/public/payments/${invoice.id}/devnet-pay`, { data: {} })).status()).toBe(
    200,
  );

  const sweepStatus = async () => {
    const listed = await request.get(`/api/private/sweeps?invoiceId=${invoice.id}`, { headers: auth });
    const body = (await listed.json()) as { data: { data: { status: string }[] } };
    return body.data.data[0]?.status ?? "none";
  };
  await expect.poll(sweepStatus, { timeout: 180_000, intervals: [1_000] }).toBe("CONFIRMED");

  await page.goto("/dashboard/settlement");
  await expect(page.getByRole("main").getByText(wallet, { exact: false })).toBeVisible();
  const row = page.getByRole("row", { name: new RegExp(invoice.id) });
  await expect(row).toContainText("42.5 USDC");
  await expect(row).toContainText("Confirmed");
  await expect(row).toContainText("Gas 0x");
  await expect(row).toContainText("Transfer 0x");
  await expect(page.getByText("No sweeper has reported yet")).toHaveCount(0);

  await page.goto(`/dashboard/invoices/${invoice.id}`);
  await expect(page.getByText(`42.5 USDC to ${wallet}`)).toBeVisible();
});
