import { describe, expect, it } from "vitest";
import { feePayersOf } from "./facilitator-fee-payers";

const solana = "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1";
const kind = (network: string, extra?: Record<string, unknown>, scheme = "exact") => ({
  x402Version: 2,
  scheme,
  network: network as `${string}:${string}`,
  ...(extra ? { extra } : {}),
});

describe("the fee payers a facilitator's GET /supported names", () => {
  // Its kinds → the fee payer named per network: only those the co-signing check can match.
  it.each([
    ["the sweeper's: our fee payer", [kind(solana, { feePayer: "Our1111" })], [[solana, "Our1111"]]],
    ["an external one: its own fee payer", [kind(solana, { feePayer: "Theirs11" })], [[solana, "Theirs11"]]],
    ["none named", [kind(solana)], []],
    ["an empty one", [kind(solana, { feePayer: "" })], []],
    ["not a string", [kind(solana, { feePayer: 7 })], []],
    ["another scheme", [kind(solana, { feePayer: "Our1111" }, "upto")], []],
    ["EVM only", [kind("eip155:8453")], []],
  ])("%s", (_case, kinds, expected) => {
    expect([...feePayersOf({ kinds })]).toEqual(expected);
  });
});
