import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type { Abi, Hex } from "viem";

const require = createRequire(import.meta.url);

/**
 * Compiles a devnet contract from lib/chains/contracts with solc-js (WASM, in-process): compiler
 * downloads do not work on these machines. OpenZeppelin sources are read from node_modules.
 */
function compileDevnetContract(name: "TestUSDC" | "MockAggregator"): { abi: Abi; bytecode: Hex } {
  const solc = require("solc") as { compile: (input: string, options: object) => string };
  const file = `${name}.sol`;
  const source = readFileSync(path.join(import.meta.dirname, "contracts", file), "utf8");
  const input = {
    language: "Solidity",
    sources: { [file]: { content: source } },
    settings: {
      optimizer: { enabled: true, runs: 200 },
      outputSelection: { "*": { "*": ["abi", "evm.bytecode.object"] } },
    },
  };
  const findImports = (importPath: string) => {
    try {
      return { contents: readFileSync(require.resolve(importPath), "utf8") };
    } catch {
      return { error: `not found: ${importPath}` };
    }
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input), { import: findImports }));
  const errors = (output.errors ?? []).filter((error: { severity: string }) => error.severity === "error");
  if (errors.length)
    throw new Error(errors.map((error: { formattedMessage: string }) => error.formattedMessage).join("\n"));
  const contract = output.contracts[file][name];
  return { abi: contract.abi, bytecode: `0x${contract.evm.bytecode.object}` };
}

/** The devnet's test USDC (6 decimals, anyone may mint). */
export const compileTestUsdc = () => compileDevnetContract("TestUSDC");

/** The devnet's price feed: AggregatorV3Interface with a setter for tests. */
export const compileMockAggregator = () => compileDevnetContract("MockAggregator");
