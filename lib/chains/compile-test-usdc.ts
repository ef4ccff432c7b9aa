import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type { Abi, Hex } from "viem";

const require = createRequire(import.meta.url);

type DevnetContractName = "TestUSDC" | "MockAggregator" | "Multicall3";
type CompiledContract = { abi: Abi; bytecode: Hex };

/** Compiled artifacts, shared by every test file, app start and run on this checkout. */
const cacheDirectory = path.resolve(import.meta.dirname, "../../node_modules/.cache/devnet-contracts");

/** The standard JSON input solc compiles a devnet contract from. */
export function devnetContractInput(file: string, source: string) {
  return {
    language: "Solidity",
    sources: { [file]: { content: source } },
    settings: {
      optimizer: { enabled: true, runs: 200 },
      outputSelection: { "*": { "*": ["abi", "evm.bytecode.object"] } },
    },
  };
}

/**
 * The cache key of a compiled contract: its source and compiler settings (the whole solc input),
 * the compiler's version and that of the OpenZeppelin sources it imports. Any change to one of
 * them compiles afresh.
 */
export function devnetContractCacheKey(
  name: string,
  input: object,
  versions: { solc: string; openZeppelin: string },
): string {
  const hash = createHash("sha256").update(JSON.stringify({ name, input, versions })).digest("hex");
  return `${name}-${hash.slice(0, 32)}`;
}

const packageVersion = (name: string) =>
  (JSON.parse(readFileSync(require.resolve(`${name}/package.json`), "utf8")) as { version: string }).version;

/** solc-js (WASM, in-process): compiler downloads do not work on these machines. */
function compile(file: string, name: DevnetContractName, input: object): CompiledContract {
  const solc = require("solc") as { compile: (input: string, options: object) => string };
  // OpenZeppelin sources are read from node_modules.
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

const compiled = new Map<DevnetContractName, CompiledContract>();

/**
 * A devnet contract from lib/chains/contracts, compiled once per source (loading solc and
 * compiling costs seconds of CPU, paid otherwise by every devnet a test file or app starts).
 */
function compileDevnetContract(name: DevnetContractName): CompiledContract {
  const known = compiled.get(name);
  if (known) return known;
  const file = `${name}.sol`;
  const input = devnetContractInput(
    file,
    readFileSync(path.join(import.meta.dirname, "contracts", file), "utf8"),
  );
  const key = devnetContractCacheKey(name, input, {
    solc: packageVersion("solc"),
    openZeppelin: packageVersion("@openzeppelin/contracts"),
  });
  const cached = path.join(cacheDirectory, `${key}.json`);
  let contract: CompiledContract;
  try {
    contract = JSON.parse(readFileSync(cached, "utf8")) as CompiledContract;
  } catch {
    contract = compile(file, name, input);
    mkdirSync(cacheDirectory, { recursive: true });
    // Written aside and renamed: test files compiling in parallel never read half a file.
    const partial = `${cached}.${process.pid}.tmp`;
    writeFileSync(partial, JSON.stringify(contract));
    renameSync(partial, cached);
  }
  compiled.set(name, contract);
  return contract;
}

/** The devnet's test USDC (6 decimals, anyone may mint). */
export const compileTestUsdc = () => compileDevnetContract("TestUSDC");

/** The devnet's price feed: AggregatorV3Interface with a setter for tests. */
export const compileMockAggregator = () => compileDevnetContract("MockAggregator");

/** The devnet's Multicall3 (tryAggregate only). */
export const compileMulticall3 = () => compileDevnetContract("Multicall3");
