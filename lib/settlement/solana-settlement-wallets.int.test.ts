// Settlement wallets on a Solana network (the local chain): a base58 wallet is taken through the
// same settlement-change flow as an EVM one; an address the chain or the curve shows is no wallet
// is refused with a 400 before anything changes.
import { type Address, generateKeyPairSigner } from "@solana/kit";
import { TOKEN_PROGRAM_ADDRESS } from "@solana-program/token";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PUT as putOrganization } from "@/app/api/private/organization/current/route";
import type { ServiceTransfers } from "@/lib/chains/chain-family";
import type { NetworkConfig } from "@/lib/chains/networks";
import { associatedTokenAccount } from "@/lib/chains/solana/prepare-solana-transaction";
import { solanaFamily } from "@/lib/chains/solana/solana-family";
import { config } from "@/lib/config";
import { db } from "@/lib/db/client";
import { reportFeePayer } from "@/lib/sweeps/report-fee-payer";
import { callRoute } from "@/scripts/test-support/call-route";
import { createTestOrganization } from "@/scripts/test-support/fixtures";
import { startTestLocalSolana, type TestLocalSolana } from "@/scripts/test-support/test-local-solana";
import { updateOrganizationAndWallets } from "./update-organization-and-wallets";

let solana: TestLocalSolana;

beforeAll(async () => {
  solana = await startTestLocalSolana();
});
afterAll(() => solana?.stop());

const put = (auth: Record<string, string>, address: string, network = "solana-local") =>
  callRoute(putOrganization, "/api/private/organization/current", {
    method: "PUT",
    headers: auth,
    body: { settlementWallets: [{ network, address }] },
  });

describe("a Solana settlement wallet", () => {
  it("is a base58 wallet, taken as any change is: an owner's first one in force at once, a key's waiting", async () => {
    const merchant = await createTestOrganization();
    const wallet = (await generateKeyPairSigner()).address;
    await updateOrganizationAndWallets(
      db(),
      merchant.organization.id,
      { settlementWallets: [{ network: "solana-local", address: wallet }] },
      () => ({
        decision: "allow",
        proposedBy: { kind: "owner", name: "owner@example.com" },
        clientAddress: null,
      }),
    );
    expect(
      await db().settlementWallet.findMany({
        where: { organizationId: merchant.organization.id },
        select: { network: true, address: true },
      }),
    ).toEqual([{ network: "solana-local", address: wallet }]);

    const next = (await generateKeyPairSigner()).address;
    const changed = await put(merchant.auth, next);
    expect(changed.status, changed.text).toBe(200);
    expect(changed.json.data.settlementWallets).toEqual([{ network: "solana-local", address: wallet }]);
    expect(changed.json.data.pendingSettlementWallets).toMatchObject([
      { network: "solana-local", address: next },
    ]);
  });

  it.each([
    ["an EVM address", () => "0x52908400098527886E0F7030069857D2E4169EE7", "parameter_invalid"],
    [
      "a token account (off the curve)",
      () => associatedTokenAccount(solana.receiver as Address, solana.usdcMint),
      "parameter_invalid",
    ],
    ["a program", () => TOKEN_PROGRAM_ADDRESS, "address_not_wallet"],
    ["a token mint", () => solana.usdcMint, "address_not_wallet"],
  ])("refuses %s with a 400, changing nothing", async (_case, address, code) => {
    const merchant = await createTestOrganization();
    const refused = await put(merchant.auth, await address());
    expect(refused.status, refused.text).toBe(400);
    expect(refused.json.error.code).toBe(code);
    expect(await db().settlementChange.count({ where: { organizationId: merchant.organization.id } })).toBe(
      0,
    );
  });

  it.each([
    ["the receiving wallet every invoice pays", async () => solana.receiver],
    [
      "the fee payer, as the signer reported it",
      async () => {
        const network = config().networks.find(
          (candidate) => candidate.id === "solana-local",
        ) as NetworkConfig;
        const transfers = solanaFamily.serviceTransfers as ServiceTransfers;
        return (await reportFeePayer(db(), network, transfers, config().hdMnemonic as string)).address;
      },
    ],
    [
      "another organization's refund wallet, as the signer reported it",
      async () => {
        const other = await createTestOrganization();
        const address = (await generateKeyPairSigner()).address;
        await db().refundWallet.create({
          data: {
            organizationId: other.organization.id,
            network: "solana-local",
            address,
            coinBalance: "0",
            tokenBalances: {},
            queued: {},
            low: false,
            checkedAt: new Date(),
          },
        });
        return address;
      },
    ],
  ])("refuses %s: 400 address_is_service_wallet, changing nothing", async (_case, address) => {
    const merchant = await createTestOrganization();
    const own = await address();
    const refused = await put(merchant.auth, own);
    expect(refused.status, refused.text).toBe(400);
    expect(refused.json.error).toMatchObject({
      code: "address_is_service_wallet",
      param: "settlementWallets",
    });
    expect(refused.json.error.message).toContain(own);
    expect(await db().settlementChange.count({ where: { organizationId: merchant.organization.id } })).toBe(
      0,
    );
  });

  it("refuses a Solana address on an EVM network", async () => {
    const merchant = await createTestOrganization();
    const refused = await put(merchant.auth, solana.receiver, "base");
    expect(refused.status).toBe(400);
    expect(refused.json.error.param).toBe("settlementWallets.0.address");
  });
});
