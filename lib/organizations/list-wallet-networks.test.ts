import { describe, expect, it } from "vitest";
import { listWalletNetworks } from "./list-wallet-networks";

// The settings form's inputs take each network's addresses as its family writes them: the browser
// matches the input's pattern (the whole value, as HTML patterns do) before the server parses it.
const accepts = (pattern: string, value: string) => new RegExp(`^(?:${pattern})$`, "v").test(value);
const byId = (id: string) => {
  const network = listWalletNetworks([{ network: id }]).find((candidate) => candidate.id === id);
  if (!network) throw new Error(`${id} is not listed`);
  return network;
};

describe("a settlement network's address input", () => {
  it.each([
    ["base", "0x52908400098527886E0F7030069857D2E4169EE7", true],
    ["base", " 0x52908400098527886e0f7030069857d2e4169ee7 ", true],
    ["base", "AqynRZwvVqUPRwRJXvm6odUb3t93fDjnWe3p6BeuUFxD", false],
    ["solana", "AqynRZwvVqUPRwRJXvm6odUb3t93fDjnWe3p6BeuUFxD", true],
    ["solana-local", " AqynRZwvVqUPRwRJXvm6odUb3t93fDjnWe3p6BeuUFxD ", true],
    ["solana", "0x52908400098527886E0F7030069857D2E4169EE7", false],
    ["solana", "0OIlRZwvVqUPRwRJXvm6odUb3t93fDjnWe3p6BeuUFxD", false],
  ])("on %s takes %s: %s", (id, value, taken) => {
    expect(accepts(byId(id).address.input.pattern, value)).toBe(taken);
  });

  it("names the family's format and placeholder", () => {
    expect(byId("solana").address).toMatchObject({ input: { placeholder: "base58 wallet address" } });
    expect(byId("solana").address.format).toContain("Solana");
    expect(byId("base").address).toMatchObject({ input: { placeholder: "0x…" } });
  });
});
