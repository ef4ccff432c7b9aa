// The local chain's JSON-RPC 2.0 over HTTP: errors by the specification's codes (and the Solana
// RPC's own), batches, notifications, u64 numbers and the body cap, sent as raw HTTP requests.
import {
  type Base64EncodedWireTransaction,
  createSolanaRpc,
  isSolanaError,
  SOLANA_ERROR__JSON_RPC__SERVER_ERROR_TRANSACTION_SIGNATURE_VERIFICATION_FAILURE,
} from "@solana/kit";
import { getTransferSolInstruction } from "@solana-program/system";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { localSolanaBuyer, solanaDevnetGenesisHash } from "./local-solana-accounts";
import { localSigner, signLocalTransaction } from "./sign-local-transaction";
import { type LocalSolana, startLocalSolana } from "./start-local-solana";

let local: LocalSolana;

beforeAll(async () => {
  local = await startLocalSolana({ port: 0 });
});
afterAll(() => local?.stop());

describe("JSON-RPC 2.0 over HTTP", () => {
  const post = async (body: string) => {
    const response = await fetch(local.url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
    });
    return { status: response.status, body: response.status === 204 ? null : await response.json() };
  };
  const call = (method: string, params?: unknown, id: unknown = 1) =>
    JSON.stringify({ jsonrpc: "2.0", id, method, ...(params === undefined ? {} : { params }) });

  it.each([
    ["a body that is not JSON", "{not json", -32700, null],
    ["a request that is not an object", "42", -32600, null],
    ["a request without jsonrpc 2.0", JSON.stringify({ id: 3, method: "getSlot" }), -32600, 3],
    ["a method name that is not a string", JSON.stringify({ jsonrpc: "2.0", id: 4, method: 7 }), -32600, 4],
    ["an empty batch", "[]", -32600, null],
    ["an unknown method", call("getEverything"), -32601, 1],
    ["params that are not an array", call("getBalance", { address: localSolanaBuyer.address }), -32602, 1],
    ["an address that is not base58 of 32 bytes", call("getBalance", ["not-an-address"]), -32602, 1],
    ["a missing required param", call("getBalance", []), -32602, 1],
    [
      "a limit over 1000",
      call("getSignaturesForAddress", [localSolanaBuyer.address, { limit: 5000 }]),
      -32602,
      1,
    ],
    ["an unknown commitment", call("getSlot", [{ commitment: "rooted" }]), -32602, 1],
    [
      "transaction bytes that are no transaction",
      call("sendTransaction", ["AAAA", { encoding: "base64" }]),
      -32602,
      1,
    ],
    [
      "getTransaction below confirmed",
      call("getTransaction", ["1".repeat(64), { commitment: "processed" }]),
      -32602,
      1,
    ],
  ])("answers %s with error %i", async (_case, body, code, id) => {
    const reply = await post(body);
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ jsonrpc: "2.0", id, error: { code } });
    expect(reply.body).not.toHaveProperty("result");
  });

  it("answers a batch in order, each request on its own, and nothing to notifications", async () => {
    const reply = await post(
      `[${call("getHealth", undefined, "a")},${call("getEverything", undefined, "b")},${JSON.stringify({ jsonrpc: "2.0", method: "getSlot" })},${call("getGenesisHash", [], "c")}]`,
    );
    expect(reply.body).toEqual([
      { jsonrpc: "2.0", id: "a", result: "ok" },
      { jsonrpc: "2.0", id: "b", error: { code: -32601, message: "Method not found" } },
      { jsonrpc: "2.0", id: "c", result: solanaDevnetGenesisHash },
    ]);
    expect(await post(JSON.stringify({ jsonrpc: "2.0", method: "getSlot" }))).toEqual({
      status: 204,
      body: null,
    });
  });

  it("writes u64 values as JSON numbers and refuses oversized bodies", async () => {
    const response = await fetch(local.url, {
      method: "POST",
      body: call("getBalance", [localSolanaBuyer.address]),
    });
    expect(await response.text()).toMatch(/"value":\d+\}/);
    const big = await post(call("getHealth", ["x".repeat(1024 * 1024)]));
    expect(big.status).toBe(413);
    expect(big.body).toMatchObject({ error: { code: -32600 } });
    expect((await fetch(`${local.url}/health`)).status).toBe(200);
  });
});

it("refuses a transaction whose signature is not its payer's with -32003", async () => {
  const rpc = createSolanaRpc(local.url);
  const buyer = await localSigner(localSolanaBuyer);
  const { value: lifetime } = await rpc.getLatestBlockhash().send();
  const signed = await signLocalTransaction({
    payer: buyer,
    instructions: [getTransferSolInstruction({ source: buyer, destination: local.usdcMint, amount: 1n })],
    lifetime,
  });
  const forged = new Uint8Array(signed.wire);
  // The first signature's first byte (after the one-byte count of signatures).
  forged[1] ^= 0xff;
  const refused = await rpc
    .sendTransaction(Buffer.from(forged).toString("base64") as Base64EncodedWireTransaction, {
      encoding: "base64",
    })
    .send()
    .catch((error: unknown) => error);
  expect(
    isSolanaError(refused, SOLANA_ERROR__JSON_RPC__SERVER_ERROR_TRANSACTION_SIGNATURE_VERIFICATION_FAILURE),
  ).toBe(true);
});
