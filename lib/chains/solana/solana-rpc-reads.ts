import type { Address } from "@solana/kit";
import { TOKEN_PROGRAM_ADDRESS } from "@solana-program/token";
import { z } from "zod";
import { solanaDevnetGenesisHash } from "./local-solana-accounts";
import { accountConfig, encodeAccount } from "./solana-rpc-accounts";
import {
  addressParam,
  commitmentConfig,
  contextSlot,
  invalidParams,
  localSolanaVersion,
  optionalConfig,
  parseParams,
  type RpcMethod,
  u64Param,
  withContext,
} from "./solana-rpc-params";
import { readMint, readTokenAccount, token2022ProgramAddress, uiTokenAmount } from "./token-amounts";

// The Solana RPC's reads of the chain's state and clock, answered from the local chain.

const noParams = z.tuple([]);
const configOnly = z.tuple([optionalConfig(commitmentConfig)]);
const addressAndConfig = z.tuple([addressParam, optionalConfig(commitmentConfig)]);
const addressAndAccountConfig = z.tuple([addressParam, optionalConfig(accountConfig)]);

const tokenFilter = z.union([
  z.strictObject({ mint: addressParam }),
  z.strictObject({ programId: addressParam }),
]);

export const readMethods: Record<string, RpcMethod> = {
  getHealth: (_chain, params) => {
    parseParams(noParams, params);
    return "ok";
  },
  getVersion: (_chain, params) => {
    parseParams(noParams, params);
    return { "solana-core": localSolanaVersion.solanaCore, "feature-set": localSolanaVersion.featureSet };
  },
  getGenesisHash: (_chain, params) => {
    parseParams(noParams, params);
    return solanaDevnetGenesisHash;
  },
  getSlot: (chain, params) => contextSlot(chain, parseParams(configOnly, params)[0]),
  // No slot is ever skipped, so a slot's block height is the slot.
  getBlockHeight: (chain, params) => contextSlot(chain, parseParams(configOnly, params)[0]),
  getEpochInfo: (chain, params) => {
    const slot = contextSlot(chain, parseParams(configOnly, params)[0]);
    const { slotsPerEpoch, epoch } = chain.epochSchedule();
    return {
      absoluteSlot: slot,
      blockHeight: slot,
      epoch: epoch(slot),
      slotIndex: slot % slotsPerEpoch,
      slotsInEpoch: slotsPerEpoch,
      transactionCount: BigInt(chain.transactionCount()),
    };
  },
  getTransactionCount: (chain, params) => {
    contextSlot(chain, parseParams(configOnly, params)[0]);
    return BigInt(chain.transactionCount());
  },
  getMinimumBalanceForRentExemption: (chain, params) => {
    const [size] = parseParams(z.tuple([u64Param, optionalConfig(commitmentConfig)]), params);
    return chain.svm.minimumBalanceForRentExemption(BigInt(size));
  },
  // Nothing competes for block space here: no prioritization fee was ever needed.
  getRecentPrioritizationFees: (chain, params) => {
    parseParams(z.tuple([z.array(addressParam).max(128).optional()]), params);
    return [{ slot: chain.slot("processed"), prioritizationFee: 0 }];
  },
  getLatestBlockhash: (chain, params) => {
    const slot = contextSlot(chain, parseParams(configOnly, params)[0]);
    return withContext(slot, chain.latestBlockhash());
  },
  isBlockhashValid: (chain, params) => {
    const [blockhash, config] = parseParams(z.tuple([z.string(), optionalConfig(commitmentConfig)]), params);
    return withContext(contextSlot(chain, config), chain.isBlockhashValid(blockhash));
  },
  getBalance: (chain, params) => {
    const [address, config] = parseParams(addressAndConfig, params);
    const account = chain.account(address);
    return withContext(contextSlot(chain, config), account.exists ? BigInt(account.lamports) : 0n);
  },
  getAccountInfo: (chain, params) => {
    const [address, config] = parseParams(addressAndAccountConfig, params);
    return withContext(contextSlot(chain, config), encodeAccount(chain, chain.account(address), config));
  },
  getMultipleAccounts: (chain, params) => {
    const [addresses, config] = parseParams(
      z.tuple([z.array(addressParam).max(100), optionalConfig(accountConfig)]),
      params,
    );
    const slot = contextSlot(chain, config);
    return withContext(
      slot,
      addresses.map((address) => encodeAccount(chain, chain.account(address), config)),
    );
  },
  getTokenAccountBalance: (chain, params) => {
    const [address, config] = parseParams(addressAndConfig, params);
    const token = readTokenAccount(chain.account(address));
    const mint = token && readMint(chain.account(token.mint));
    if (!token || !mint) throw invalidParams("not a Token account");
    return withContext(contextSlot(chain, config), uiTokenAmount(token.amount, mint.decimals));
  },
  getTokenSupply: (chain, params) => {
    const [address, config] = parseParams(addressAndConfig, params);
    const mint = readMint(chain.account(address));
    if (!mint) throw invalidParams("not a Token mint");
    return withContext(contextSlot(chain, config), uiTokenAmount(mint.supply, mint.decimals));
  },
  getTokenAccountsByOwner: (chain, params) => {
    const [owner, filter, config] = parseParams(
      z.tuple([addressParam, tokenFilter, optionalConfig(accountConfig)]),
      params,
    );
    const programs: Address[] =
      "programId" in filter ? [filter.programId] : [TOKEN_PROGRAM_ADDRESS, token2022ProgramAddress];
    if (
      !programs.every((program) => program === TOKEN_PROGRAM_ADDRESS || program === token2022ProgramAddress)
    )
      throw invalidParams("unrecognized Token program id");
    const slot = contextSlot(chain, config);
    const found = programs.flatMap((program) =>
      chain.svm.getProgramAccounts(program).flatMap((account) => {
        const token = readTokenAccount({ ...account, exists: true });
        if (!token || token.owner !== owner || ("mint" in filter && token.mint !== filter.mint)) return [];
        return [
          { pubkey: account.address, account: encodeAccount(chain, { ...account, exists: true }, config) },
        ];
      }),
    );
    return withContext(slot, found);
  },
};
