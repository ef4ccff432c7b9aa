// The Solana x402 scheme's checks against hostile bytes, on the local Solana chain (LiteSVM behind
// JSON-RPC): every transaction that is malformed (not base64, truncated, another message version,
// a message the node itself cannot read, signed by the agent all the same) is a refusal with one
// of x402's SVM codes, never an error (an error is a 503, which has the agent retry, not re-sign);
// and naming a transaction signs nothing.
import { ed25519 } from "@noble/curves/ed25519.js";
import { base58 } from "@scure/base";
import {
  type Address,
  createKeyPairSignerFromBytes,
  getBase58Encoder,
  getCompiledTransactionMessageDecoder,
  getCompiledTransactionMessageEncoder,
} from "@solana/kit";
import type { PaymentRequirements } from "@x402/core/types";
import { ExactSvmScheme } from "@x402/svm/exact/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestLocalSolana, type TestLocalSolana } from "@/scripts/test-support/test-local-solana";
import type { X402TransactionTerms } from "../x402-transaction-scheme";
import { decodeX402Transaction } from "./check-x402-transaction";
import { localSolanaBuyer, walletSecret } from "./local-solana-accounts";
import { solanaFamily } from "./solana-family";
import { solanaServiceKey } from "./solana-keys";

let solana: TestLocalSolana;
let mnemonic: string;
let terms: X402TransactionTerms;
/** A transaction the official client signed for `terms`, which passes every check. */
let valid: string;

const scheme = () => solanaFamily.x402Transactions as NonNullable<typeof solanaFamily.x402Transactions>;

beforeAll(async () => {
  solana = await startTestLocalSolana();
  mnemonic = process.env.SERVICE_HD_MNEMONIC as string;
  terms = {
    payTo: solana.receiver,
    asset: solana.usdcMint,
    units: 5_000_000n,
    decimals: 6,
    memo: "fuzz-memo",
  };
  const requirements: PaymentRequirements = {
    scheme: "exact",
    network: "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1",
    asset: solana.usdcMint,
    amount: "5000000",
    payTo: solana.receiver,
    maxTimeoutSeconds: 300,
    extra: { feePayer: solanaServiceKey(mnemonic, "feePayer").address, memo: terms.memo },
  };
  const buyer = await createKeyPairSignerFromBytes(getBase58Encoder().encode(walletSecret(localSolanaBuyer)));
  const { payload } = await new ExactSvmScheme(buyer, { rpcUrl: solana.url }).createPaymentPayload(
    2,
    requirements,
  );
  valid = payload.transaction as string;
}, 120_000);
afterAll(async () => {
  await solana?.stop();
});

/** The message as the agent would send it: its own signature made anew, our place left empty. */
function signedByAgent(message: Uint8Array): string {
  const signature = ed25519.sign(message, localSolanaBuyer.secretKey);
  return Buffer.concat([Buffer.from([2]), Buffer.alloc(64), signature, message]).toString("base64");
}

const messageOf = (transaction: string) =>
  (decodeX402Transaction(transaction) as NonNullable<ReturnType<typeof decodeX402Transaction>>).messageBytes;

const check = (transaction: string) => scheme().check(solana.network, mnemonic, transaction, terms);

describe("the Solana x402 scheme", () => {
  it("takes the official client's transaction", async () => {
    expect(await check(valid)).toMatchObject({ payer: localSolanaBuyer.address, id: expect.any(String) });
  });

  it("refuses every malformed transaction with an x402 SVM code, and never throws", async () => {
    const message = messageOf(valid);
    const wire = Buffer.from(valid, "base64");
    const inputs: string[] = ["", "!!!!", "AAAA", "AQ==", "=", Buffer.alloc(2000, 0xff).toString("base64")];
    // Cut short anywhere, as sent.
    for (let length = 0; length < wire.length; length += 7)
      inputs.push(wire.subarray(0, length).toString("base64"));
    // Another message version, and legacy's header byte read as one.
    for (const first of [0x81, 0x82, 0xff, 0x7f, 0x00, 0x03]) {
      const other = Uint8Array.from(message);
      other[0] = first;
      inputs.push(signedByAgent(other));
    }
    // Each byte of the message changed (header counts, key indexes, lengths, data), then signed
    // by the agent all the same: bytes the node may refuse to read at all.
    for (let index = 0; index < message.length; index += 1) {
      const other = Uint8Array.from(message);
      other[index] ^= index % 2 ? 0xff : 0x01;
      inputs.push(signedByAgent(other));
    }
    // Cut short after the agent signed what remains.
    for (let length = 1; length < message.length; length += 5)
      inputs.push(signedByAgent(message.slice(0, length)));
    // Padded with accounts no instruction names, past what one packet holds (1,232 bytes): the
    // node refuses to read it at all.
    const compiled = getCompiledTransactionMessageDecoder().decode(message);
    const padding = Array.from({ length: 36 }, (_, index) =>
      base58.encode(new Uint8Array(32).fill(index + 9)),
    );
    inputs.push(
      signedByAgent(
        new Uint8Array(
          getCompiledTransactionMessageEncoder().encode({
            ...compiled,
            header: {
              ...compiled.header,
              numReadonlyNonSignerAccounts: compiled.header.numReadonlyNonSignerAccounts + padding.length,
            },
            staticAccounts: [...compiled.staticAccounts, ...(padding as Address[])],
          } as never),
        ),
      ),
    );
    const answers = new Map<string, number>();
    for (const input of inputs) {
      const answer = await check(input).catch((error: Error) => ({ thrown: error.message }));
      if ("thrown" in answer) throw new Error(`threw for ${input.slice(0, 40)}…: ${answer.thrown}`);
      const code = "refusal" in answer ? answer.refusal : "accepted";
      answers.set(code, (answers.get(code) ?? 0) + 1);
      if (code === "accepted") continue;
      expect(code).toMatch(/^invalid_exact_svm_/);
    }
    // Some changed bytes still ask for this very payment (the blockhash's, say): none pays another.
    expect(answers.get("invalid_exact_svm_payload_transaction_could_not_be_decoded")).toBeGreaterThan(0);
  }, 120_000);

  it("names a transaction by its message's hash, signing nothing: a message not ours to sign is named all the same", () => {
    const message = messageOf(valid);
    const named = scheme().identify(valid);
    expect(named).toEqual({ payer: localSolanaBuyer.address, id: expect.any(String) });
    const ours = ed25519.sign(message, solanaServiceKey(mnemonic, "feePayer").secretKey);
    expect(named?.id).not.toBe(base58.encode(ours));
    // Another fee payer entirely: named without our key, and never co-signed.
    const other = Uint8Array.from(message);
    other.set(base58.decode(localSolanaBuyer.address as Address), 4);
    expect(scheme().identify(signedByAgent(other))?.id).not.toBe(named?.id);
  });
});
