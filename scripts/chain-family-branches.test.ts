// Domain code speaks to every chain through the family interface (lib/chains/chain-family.ts) and
// never asks which family it holds: no family's name as a string, no comparison or switch on a
// family. A branch here would be the first of many; the behaviour belongs in the family's folder.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { root, sourceFiles } from "./test-support/import-graph";

/** The folders of domain code that move money or watch chains. */
const domainFolders = [
  "lib/payments",
  "lib/sweeps",
  "lib/refunds",
  "lib/x402",
  "lib/settlement",
  "lib/signer",
  "lib/checkout",
  "lib/organizations",
  "lib/subscriptions",
  "lib/recurring",
];

const branchPatterns = [
  // A family's name, or a network id or CAIP-2 prefix built on it, as a string.
  /(["'`])(?:evm|svm|solana|eip155)(?:[-:][^"'`\n]*)?\1/i,
  // A comparison with a family on either side (a socket address's family, "IPv4" or "IPv6", is not one).
  /^(?!.*["']IPv[46]["']).*(?:\bfamily\b(?:\.id)?\s*[!=]==?|[!=]==?\s*[\w.?]*\bfamily\b)/,
  // A switch over a family.
  /\bswitch\s*\([^)]*\bfamily\b/,
];

/** The lines of a source text that branch on a chain family. */
function familyBranches(text: string): string[] {
  return text.split("\n").filter((line) => branchPatterns.some((pattern) => pattern.test(line)));
}

describe("chain-family branches in domain code", () => {
  const branching = domainFolders.flatMap((folder) =>
    sourceFiles(folder).flatMap((file) =>
      familyBranches(readFileSync(path.join(root, file), "utf8")).map((line) => ({
        file,
        line: line.trim(),
      })),
    ),
  );

  it("are none", () => {
    expect(branching).toEqual([]);
  });

  it.each([
    ['if (network.family === "solana") return;', true],
    ["const solana = family.id !== 'evm';", true],
    ['switch (chainFamily(network).id) { case "evm": }', true],
    ["if (chainFamily(network).id === family) {}", true],
    ['const network = "solana-local";', true],
    ["const caip = `solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1`;", true],
    ['const caip = "eip155:8453";', true],
    ['if (bound.family === "IPv6") return;', false],
    ["switch (network.family) {", true],
    ["const reader = chainFamily(network).transferReader(client, network);", false],
    ["// EVM and Solana each implement the interface", false],
    ['const message = "must be an EVM address (0x followed by 40 hex digits)";', false],
    ["const { key } = chainFamily(network).addresses;", false],
  ])("%s branches: %s", (line, branches) => {
    expect(familyBranches(line)).toHaveLength(branches ? 1 : 0);
  });
});
