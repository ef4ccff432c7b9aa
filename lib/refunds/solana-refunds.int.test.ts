// Refunds of Solana invoices on the local Solana chain (LiteSVM behind the Solana JSON-RPC), real
// PostgreSQL: invoices paid as Solana Pay wallets pay them and confirmed by the watcher; refunds
// asked through the API; what is no wallet refused before any refund exists.
import { type Address, generateKeyPairSigner } from "@solana/kit";
import { TOKEN_PROGRAM_ADDRESS } from "@solana-program/token";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as createRefund } from "@/app/api/private/refunds/route";
import { localSolanaBuyer } from "@/lib/chains/solana/local-solana-accounts";
import { associatedTokenAccount } from "@/lib/chains/solana/prepare-solana-transaction";
import { db } from "@/lib/db/client";
import { callRoute } from "@/scripts/test-support/call-route";
import { createTestOrganization } from "@/scripts/test-support/fixtures";
import { paidSolanaInvoice } from "@/scripts/test-support/solana-invoices";
import { startTestLocalSolana, type TestLocalSolana } from "@/scripts/test-support/test-local-solana";

let solana: TestLocalSolana;

beforeAll(async () => {
  solana = await startTestLocalSolana();
  process.env.SERVICE_DEV_MAILBOX = "true";
});
afterAll(() => solana?.stop());

type Merchant = Awaited<ReturnType<typeof createTestOrganization>>;

function askRefund(merchant: Merchant, body: Record<string, unknown>) {
  return callRoute(createRefund, "/api/private/refunds", {
    headers: { ...merchant.auth, "idempotency-key": `refund-${Math.random()}` },
    body,
  });
}

describe("a refund of a Solana invoice to an address", () => {
  const freshWallet = async () => (await generateKeyPairSigner()).address;
  it.each<[string, () => Promise<string> | string, string]>([
    [
      "a wallet's token account",
      () => associatedTokenAccount(localSolanaBuyer.address as Address, solana.usdcMint),
      // Off the curve, as every associated token account is: refused by its spelling.
      "parameter_invalid",
    ],
    // On the curve, but the chain says what they are.
    ["the token's mint", () => solana.usdcMint, "address_not_wallet"],
    ["a program", () => TOKEN_PROGRAM_ADDRESS, "address_not_wallet"],
    [
      "an address off the curve (a token account not created yet)",
      async () => associatedTokenAccount(await freshWallet(), solana.usdcMint),
      "parameter_invalid",
    ],
    ["an EVM address", () => "0x52908400098527886E0F7030069857D2E4169EE7", "parameter_invalid"],
  ])("refuses %s: 400, and no refund", async (_case, destination, code) => {
    const merchant = await createTestOrganization();
    const invoice = await paidSolanaInvoice(solana, 3, merchant);
    const to = await destination();
    const refused = await askRefund(merchant, { invoiceId: invoice.id, destination: to });
    expect(refused.status, refused.text).toBe(400);
    expect(refused.json.error).toMatchObject({ code, param: "destination" });
    expect(await db().refund.count({ where: { invoiceId: invoice.id } })).toBe(0);
  });
});
