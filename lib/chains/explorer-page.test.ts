import { describe, expect, it } from "vitest";
import { explorerPage } from "./explorer-page";

describe("explorerPage", () => {
  it.each([
    ["https://basescan.org", "tx", "0xabc", "https://basescan.org/tx/0xabc"],
    ["https://basescan.org", "address", "0xdef", "https://basescan.org/address/0xdef"],
    [
      "https://explorer.solana.com",
      "tx",
      "5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW",
      "https://explorer.solana.com/tx/5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW",
    ],
    [
      "https://explorer.solana.com?cluster=devnet",
      "address",
      "4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU",
      "https://explorer.solana.com/address/4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU?cluster=devnet",
    ],
    ["https://scan.example/chain/7", "tx", "0x1", "https://scan.example/chain/7/tx/0x1"],
  ] as const)("%s, %s %s → %s", (base, kind, value, page) => {
    expect(explorerPage(base, kind, value)).toBe(page);
  });

  it("keeps a value that is no hash from becoming a path or a query of its own", () => {
    expect(explorerPage("https://basescan.org", "tx", "../x?y=1")).toBe(
      "https://basescan.org/tx/..%2Fx%3Fy%3D1",
    );
  });
});
