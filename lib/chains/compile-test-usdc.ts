import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type { Abi, Hex } from "viem";

const require = createRequire(import.meta.url);

/**
 * Compiles the devnet token with solc-js (WASM, in-process): compiler downloads do not work on
 * these machines. OpenZeppelin sources are read from node_modules.
 */
export function compileTestUsdc(): { abi: Abi; bytecode: Hex } {
  const solc = require("solc") as { compile: (input: string, options: object) => string };
  const source = readFileSync(path.join(import.meta.dirname, "contracts/TestUSDC.sol"), "utf8");
  const input = {
    language: "Solidity",
    sources: { "TestUSDC.sol": { content: source } },
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
  const contract = output.contracts["TestUSDC.sol"].TestUSDC;
  return { abi: contract.abi, bytecode: `0x${contract.evm.bytecode.object}` };
}
