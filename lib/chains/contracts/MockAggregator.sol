// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// The devnet's stand-in for a Chainlink price feed (AggregatorV3Interface: decimals and
/// latestRoundData). Until a test pins `updatedAt`, a reading is as fresh as the chain's clock:
/// nobody updates a devnet price, and the zero-setup start must keep quoting.
contract MockAggregator {
    uint8 public immutable decimals;
    string public description;
    int256 private answer;
    uint256 private pinnedUpdatedAt;
    uint80 private roundId = 1;

    constructor(uint8 decimals_, string memory description_, int256 answer_) {
        decimals = decimals_;
        description = description_;
        answer = answer_;
    }

    /// Sets the answer; `updatedAt` 0 follows the chain's clock, anything else pins the time.
    function setRoundData(int256 answer_, uint256 updatedAt_) external {
        answer = answer_;
        pinnedUpdatedAt = updatedAt_;
        roundId += 1;
    }

    function latestRoundData()
        external
        view
        returns (uint80, int256, uint256, uint256, uint80)
    {
        uint256 updatedAt = pinnedUpdatedAt == 0 ? block.timestamp : pinnedUpdatedAt;
        return (roundId, answer, updatedAt, updatedAt, roundId);
    }
}
