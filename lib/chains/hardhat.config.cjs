// The local devnet (Hardhat 2 node). Blocks are mined on every transaction and, for the
// zero-setup demo, once a second too, so confirmations keep coming.
module.exports = {
  networks: {
    hardhat: {
      chainId: 31337,
      mining: { auto: true, interval: Number(process.env.DEVNET_BLOCK_INTERVAL_MS ?? 1000) || 0 },
    },
  },
};
