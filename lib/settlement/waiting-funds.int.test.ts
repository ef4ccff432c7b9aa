// Settlement changes are announced to owners; the development mailbox takes the emails.
process.env.SERVICE_DEV_MAILBOX = "true";

import { getAddress, type Hex, parseUnits } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET, PUT } from "@/app/api/private/organization/current/route";
import { config } from "@/lib/config";
import { db } from "@/lib/db/client";
import { scanNetwork } from "@/lib/payments/scan-network";
import { advanceSweeps } from "@/lib/sweeps/advance-sweeps";
import { planSweeps } from "@/lib/sweeps/plan-sweeps";
import { sweeperKeysFromMnemonic } from "@/lib/sweeps/sweeper-keys";
import { createTestTeam, startTestPayment } from "@/scripts/test-support/fixtures";
import { serveRoute } from "@/scripts/test-support/serve-route";
import { startTestDevnet, type TestDevnet } from "@/scripts/test-support/test-devnet";
import { applyDueSettlementChanges } from "./apply-due-settlement-changes";
import { cancelSettlementChange } from "./cancel-settlement-change";

// A real Hardhat node, the real watcher and sweeper, the organization route over real HTTP: an
// API key naming a network's first wallet while paid invoices wait there gets a scheduled change,
// and the money stays on the deposit addresses until the delay is over (24 h with DATABASE_URL).
const mnemonic =
  "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about";
const keys = sweeperKeysFromMnemonic(mnemonic);
let devnet: TestDevnet;
let app: Awaited<ReturnType<typeof serveRoute>>;

beforeAll(async () => {
  devnet = await startTestDevnet({ confirmations: 2, mnemonic });
  await devnet.sendEth(keys.gasWallet(devnet.network.chainId).address, "10");
  app = await serveRoute({ GET, PUT }, config().baseUrl);
}, 120_000);
afterAll(async () => {
  await app?.close();
  await devnet?.stop();
});

const freshAddress = () => getAddress(`0x${crypto.randomUUID().replaceAll("-", "").padEnd(40, "7")}`) as Hex;

/** The buyer's USDC reaches the deposit address and the watcher confirms it. */
async function buyerPays(depositAddress: Hex, amount: string) {
  await devnet.mintUsdc(depositAddress, amount);
  await devnet.mine(2);
  await scanNetwork(db(), devnet.network, devnet.client);
}

/** Such an organization with a USDC invoice opened: paid and confirmed, or not yet. */
async function organizationWithInvoice(amount: string, paid: boolean) {
  const org = await createTestTeam();
  const invoice = await startTestPayment(org.organization.id, "USDC", amount);
  if (paid) await buyerPays(invoice.depositAddress as Hex, amount);
  return { ...org, invoice };
}
const paidOrganization = (amount: string) => organizationWithInvoice(amount, true);

/** Sweeper passes (plan, sign, confirm) with a block mined after each, as the sweeper runs them. */
async function sweepPasses(passes = 6) {
  for (let pass = 0; pass < passes; pass++) {
    await planSweeps(db(), devnet.network, devnet.client, {});
    await advanceSweeps(db(), devnet.network, devnet.client, { keys });
    await devnet.mine(1);
  }
}

const putWallets = (authorization: string, address: string) =>
  fetch(`${app.url}/api/private/organization/current`, {
    method: "PUT",
    headers: { authorization, "content-type": "application/json" },
    body: JSON.stringify({ settlementWallets: [{ network: "devnet", address }] }),
  });

type People = { role: string; email: string }[];

/**
 * The API key's change is scheduled after the full delay, and every owner (not the member) was
 * told before it takes effect, with the page to cancel it.
 */
async function expectScheduledAndAnnounced(organizationId: string, people: People, wallet: Hex) {
  const [change] = await db().settlementChange.findMany({ where: { organizationId } });
  expect(change).toMatchObject({ status: "SCHEDULED", previousAddress: null, proposedByKind: "api_key" });
  const delay = (change.effectiveAt as Date).getTime() - change.createdAt.getTime();
  expect(delay).toBe(config().settlementChangeDelayMs);
  for (const person of people) {
    const mails = await db().devEmail.findMany({ where: { to: person.email } });
    if (person.role === "OWNER") {
      expect(mails).toHaveLength(1);
      expect(mails[0].text).toContain(wallet);
      expect(mails[0].text).toContain(`/dashboard/settlement/changes/${change.id}`);
      expect(mails[0].text).toContain("stay on their deposit addresses");
    } else expect(mails).toHaveLength(0);
  }
  return change;
}

/** The sweeper runs an hour before the change is due: the money stays where it is; once due, it moves. */
async function expectSweptOnlyWhenDue(
  change: { effectiveAt: Date | null },
  invoice: { id: string; depositAddress: string },
  wallet: Hex,
  amount: string,
) {
  await applyDueSettlementChanges(db(), new Date((change.effectiveAt as Date).getTime() - 3600_000));
  await sweepPasses();
  expect(await db().sweep.count({ where: { invoiceId: invoice.id } })).toBe(0);
  expect(await devnet.usdcBalance(wallet)).toBe(0n);
  expect(await devnet.usdcBalance(invoice.depositAddress as Hex)).toBe(parseUnits(amount, 6));
  await applyDueSettlementChanges(db(), change.effectiveAt as Date);
  await sweepPasses();
  expect(await devnet.usdcBalance(wallet)).toBe(parseUnits(amount, 6));
}

describe("a network's first settlement wallet from an API key", () => {
  it("while a paid invoice waits there: scheduled after the delay, every owner emailed, nothing swept until it is due", async () => {
    const { organization, auth, invoice, people } = await paidOrganization("40");
    const wallet = freshAddress();
    const answer = await putWallets(auth.authorization, wallet);
    expect(answer.status).toBe(200);
    const body = await answer.json();
    expect(body.data.settlementWallets).toEqual([]);
    expect(body.data.pendingSettlementWallets).toMatchObject([{ address: wallet, status: "scheduled" }]);
    const change = await expectScheduledAndAnnounced(organization.id, people, wallet);
    await expectSweptOnlyWhenDue(change, invoice, wallet, "40");
  });

  it("while an invoice awaits payment: the buyer pays within the delay, and nothing is swept to it until it is due", async () => {
    const { organization, auth, invoice, people } = await organizationWithInvoice("25", false);
    const wallet = freshAddress();
    const answer = await putWallets(auth.authorization, wallet);
    expect((await answer.json()).data.settlementWallets).toEqual([]);
    const change = await expectScheduledAndAnnounced(organization.id, people, wallet);
    await buyerPays(invoice.depositAddress as Hex, "25");
    expect((await db().invoice.findUniqueOrThrow({ where: { id: invoice.id } })).status).toBe("CONFIRMED");
    await expectSweptOnlyWhenDue(change, invoice, wallet, "25");
  });

  it("with nothing waiting at all: still scheduled, so what buyers pay next is not swept to it before it is due", async () => {
    const { organization, auth, people } = await createTestTeam();
    const wallet = freshAddress();
    const answer = await putWallets(auth.authorization, wallet);
    expect((await answer.json()).data.settlementWallets).toEqual([]);
    const change = await expectScheduledAndAnnounced(organization.id, people, wallet);
    const invoice = await startTestPayment(organization.id, "USDC", "7");
    await buyerPays(invoice.depositAddress as Hex, "7");
    await expectSweptOnlyWhenDue(change, invoice, wallet, "7");
  });

  it("cancelled by an owner before it is due: nothing is ever paid to it", async () => {
    const { organization, auth, invoice } = await paidOrganization("11");
    const wallet = freshAddress();
    expect((await putWallets(auth.authorization, wallet)).status).toBe(200);
    const change = await db().settlementChange.findFirstOrThrow({
      where: { organizationId: organization.id },
    });
    const owner = await db().membership.findFirstOrThrow({
      where: { organizationId: organization.id, role: "OWNER" },
    });
    await cancelSettlementChange(db(), organization.id, { id: change.id, userId: owner.userId });
    await applyDueSettlementChanges(db(), new Date((change.effectiveAt as Date).getTime() + 3600_000));
    await sweepPasses(3);
    expect(await db().settlementWallet.count({ where: { organizationId: organization.id } })).toBe(0);
    expect(await devnet.usdcBalance(wallet)).toBe(0n);
    expect(await devnet.usdcBalance(invoice.depositAddress)).toBe(parseUnits("11", 6));
  });
});
