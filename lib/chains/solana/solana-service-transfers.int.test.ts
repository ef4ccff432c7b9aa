// The Solana family's service transfers on the local chain: the signing role's wallets, a transfer
// signed (nothing sent), followed until it lands at the network's commitment, the fee payer paying
// its fee and the destination's token account rent, and destinations that are no wallet refused.
import { type Address, generateKeyPairSigner } from "@solana/kit";
import { TOKEN_PROGRAM_ADDRESS } from "@solana-program/token";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestLocalSolana, type TestLocalSolana } from "@/scripts/test-support/test-local-solana";
import type {
  ServiceTransferProgress,
  ServiceTransferRequest,
  ServiceTransfers,
  SignedServiceTransfer,
} from "../chain-family";
import { localSolanaMnemonic } from "./local-solana-accounts";
import { mintLocalTestUsdc } from "./local-solana-funds";
import { associatedTokenAccount } from "./prepare-solana-transaction";
import { solanaFamily } from "./solana-family";
import { solanaServiceKey } from "./solana-keys";
import { localFeePayerSol } from "./start-local-solana";

const transfers = solanaFamily.serviceTransfers as ServiceTransfers;
const mnemonic = localSolanaMnemonic;
let solana: TestLocalSolana;

beforeAll(async () => {
  solana = await startTestLocalSolana({ mnemonic });
  await mintLocalTestUsdc(solana.chain, solana.receiver as Address, 50_000_000n);
});
afterAll(() => solana?.stop());

const usdc = () => ({ symbol: "USDC", decimals: 6, address: solana.usdcMint });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Follows until the transfer is no longer pending (slots follow the real clock, 400 ms). */
async function settle(transfer: SignedServiceTransfer): Promise<ServiceTransferProgress> {
  for (let step = 0; step < 50; step++) {
    const progress = await transfers.follow(solana.network, transfer);
    if (progress.state !== "pending") return progress;
    await sleep(200);
  }
  throw new Error("still pending");
}

describe("Solana service transfers", () => {
  it("name the service's wallets: the receiving wallet, a refund wallet per organization, the fee payer", () => {
    const wallet = (role: "receiving" | "refund" | "feePayer", index?: number) =>
      transfers.wallet(solana.network, mnemonic, role, index);
    expect(wallet("receiving")).toBe(solana.receiver);
    expect(wallet("feePayer")).toBe(solanaServiceKey(mnemonic, "feePayer").address);
    expect(wallet("refund", 7)).toBe(solanaServiceKey(mnemonic, "refund", 7).address);
    expect(
      new Set([wallet("receiving"), wallet("feePayer"), wallet("refund", 0), wallet("refund", 1)]).size,
    ).toBe(4);
  });

  it("sign a transfer that moves nothing until followed, then lands once, its fee and rent on the fee payer", async () => {
    const destination = (await generateKeyPairSigner()).address;
    const feePayer = transfers.wallet(solana.network, mnemonic, "feePayer");
    const before = {
      receiving: await transfers.balance(solana.network, solana.receiver, usdc()),
      feePayer: await transfers.balance(solana.network, feePayer),
    };
    expect(before.feePayer).toBeGreaterThan(0n);
    expect(before.feePayer).toBeLessThanOrEqual(localFeePayerSol * 1_000_000_000n);
    const signed = await transfers.sign(solana.network, mnemonic, {
      from: { role: "receiving" },
      to: destination,
      token: usdc(),
      units: 2_500_000n,
      memo: "sweep swp_1",
    });
    if (signed.state !== "signed") throw new Error(signed.reason);
    expect(signed.transfer).toMatchObject({ signer: feePayer, validUntil: expect.any(BigInt) });
    await sleep(900);
    expect(await transfers.balance(solana.network, destination, usdc())).toBe(0n);
    const landed = await settle(signed.transfer);
    expect(landed).toEqual({ state: "confirmed", position: expect.any(BigInt) });
    // Followed again (a restarted signer), the same bytes change nothing.
    expect(await transfers.follow(solana.network, signed.transfer)).toEqual(landed);
    expect(await transfers.balance(solana.network, destination, usdc())).toBe(2_500_000n);
    expect(await transfers.balance(solana.network, solana.receiver, usdc())).toBe(
      before.receiving - 2_500_000n,
    );
    const spent = before.feePayer - (await transfers.balance(solana.network, feePayer));
    expect(spent).toBe(transfers.feeReserve);
  });

  it("refuse a destination that is no wallet, and the native coin, signing nothing", async () => {
    const tokenAccount = await associatedTokenAccount(solana.receiver as Address, solana.usdcMint);
    const refused = async (to: string, token: ServiceTransferRequest["token"] = usdc()) =>
      transfers.sign(solana.network, mnemonic, { from: { role: "receiving" }, to, token, units: 1n });
    expect(await refused(tokenAccount)).toMatchObject({ state: "refused", code: "token_account" });
    expect(await refused(TOKEN_PROGRAM_ADDRESS)).toMatchObject({ state: "refused", code: "program" });
    expect(await refused(solana.usdcMint)).toMatchObject({ state: "refused", code: "mint" });
    expect(await refused("0x52908400098527886E0F7030069857D2E4169EE7")).toMatchObject({
      state: "refused",
      code: "invalid_address",
    });
    expect(await refused(solana.receiver, { symbol: "SOL", decimals: 9 })).toEqual({
      state: "refused",
      code: "no_mint",
      reason: "the token has no mint: only SPL tokens are sent",
    });
  });
});
