import { describe, expect, it } from "vitest";
import { devnetContractCacheKey, devnetContractInput } from "./compile-test-usdc";

const source = "pragma solidity ^0.8.20; contract TestUSDC {}";
const versions = { solc: "0.8.37", openZeppelin: "5.7.0" };
const key = devnetContractCacheKey("TestUSDC", devnetContractInput("TestUSDC.sol", source), versions);

describe("devnetContractCacheKey", () => {
  it("is the same for the same contract, settings and compiler", () => {
    expect(devnetContractCacheKey("TestUSDC", devnetContractInput("TestUSDC.sol", source), versions)).toBe(
      key,
    );
  });

  const settings = devnetContractInput("TestUSDC.sol", source);
  const changes: [string, string][] = [
    [
      "the contract's source",
      devnetContractCacheKey(
        "TestUSDC",
        devnetContractInput("TestUSDC.sol", `${source} // edited`),
        versions,
      ),
    ],
    [
      "the optimizer settings",
      devnetContractCacheKey(
        "TestUSDC",
        { ...settings, settings: { ...settings.settings, optimizer: { enabled: true, runs: 1000 } } },
        versions,
      ),
    ],
    ["the compiler's version", devnetContractCacheKey("TestUSDC", settings, { ...versions, solc: "0.8.38" })],
    [
      "the imported OpenZeppelin sources' version",
      devnetContractCacheKey("TestUSDC", settings, { ...versions, openZeppelin: "5.8.0" }),
    ],
    ["the contract's name", devnetContractCacheKey("MockAggregator", settings, versions)],
  ];
  it.each(changes)("changes with %s", (_change, changed) => {
    expect(changed).not.toBe(key);
  });
});
