import { type Address, createWalletClient, type Hex, http, parseAbi } from "viem";
import { devnetFunder } from "./devnet-account";

// The devnet's test token lets anyone mint; a literal ABI, so the app and the signer never load
// the Solidity compiler.
const testTokenAbi = parseAbi(["function mint(address to, uint256 amount)"]);

/**
 * Mints `units` of a devnet test token to `to` from Hardhat's funded account, and returns the
 * transaction's hash. The node holds that account's key and assigns its nonces itself, so mints
 * sent at once, and the other transactions the app sends for it, cannot collide.
 */
export function mintTestToken(rpcUrl: string, token: Address, to: Address, units: bigint): Promise<Hex> {
  const funder = createWalletClient({ account: devnetFunder.address, transport: http(rpcUrl) });
  return funder.writeContract({
    address: token,
    abi: testTokenAbi,
    functionName: "mint",
    args: [to, units],
    chain: null,
  });
}
