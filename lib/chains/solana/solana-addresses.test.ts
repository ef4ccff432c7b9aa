import { describe, expect, it } from "vitest";
import { solanaAddresses } from "./solana-addresses";

describe("solanaAddresses.parse", () => {
  it.each<[string, string, string | null]>([
    [
      "a wallet (Phantom's account #1 of the test mnemonic)",
      "AqynRZwvVqUPRwRJXvm6odUb3t93fDjnWe3p6BeuUFxD",
      "AqynRZwvVqUPRwRJXvm6odUb3t93fDjnWe3p6BeuUFxD",
    ],
    [
      "surrounding spaces",
      "  AqynRZwvVqUPRwRJXvm6odUb3t93fDjnWe3p6BeuUFxD ",
      "AqynRZwvVqUPRwRJXvm6odUb3t93fDjnWe3p6BeuUFxD",
    ],
    ["an associated token account (off the curve)", "4gCPWF8bBHkuqd4w45pStd9BQ6SvBAoe6aUG5viDrLBb", null],
    ["an EVM address", "0x52908400098527886E0F7030069857D2E4169EE7", null],
    ["base58's excluded letters (0, O, I, l)", "0OIlRZwvVqUPRwRJXvm6odUb3t93fDjnWe3p6BeuUFxD", null],
    ["too short", "AqynRZwvVqUPRwRJXvm6odUb3t93", null],
    ["31 bytes", "1111111111111111111111111111111", null],
    ["empty", "", null],
  ])("%s", (_case, value, address) => {
    const parsed = solanaAddresses.parse(value);
    if (address === null) expect(parsed).toMatchObject({ problem: "format" });
    else expect(parsed).toEqual({ address });
  });

  it("compares case-sensitively and knows the burn addresses", () => {
    expect(solanaAddresses.key("AqynRZ")).toBe("AqynRZ");
    expect(solanaAddresses.isBurn("1nc1nerator11111111111111111111111111111111")).toBe(true);
    expect(solanaAddresses.isBurn("AqynRZwvVqUPRwRJXvm6odUb3t93fDjnWe3p6BeuUFxD")).toBe(false);
  });
});
