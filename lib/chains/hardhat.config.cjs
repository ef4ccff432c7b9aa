// The local devnet (Hardhat 2 node). Blocks are mined on every transaction and, for the
// zero-setup demo, once a second too, so confirmations keep coming; or, with DEVNET_AUTOMINE
// false, only once an interval, with every transaction waiting, as a real chain does. Blocks may
// share a second: otherwise each transaction's block is a second after the last, and under load
// (hundreds of x402 settlements) the chain's clock runs minutes ahead of the wall clock, past the
// validBefore of authorizations signed now (docs/architecture.md, "The devnet's clock").
module.exports = {
  networks: {
    hardhat: {
      chainId: 31337,
      allowBlocksWithSameTimestamp: true,
      mining: {
        auto: process.env.DEVNET_AUTOMINE !== "false",
        interval: Number(process.env.DEVNET_BLOCK_INTERVAL_MS ?? 1000) || 0,
      },
    },
  },
};
