// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// The devnet's Multicall3: the `tryAggregate` that main networks have at
/// 0xcA11bde05977b3631167028862bE2a173976CA11, placed at that address by lib/chains/devnet.ts.
/// x402's facilitator reads a failed authorization's cause through it (balance, token name and
/// version, nonce state), so the devnet names the same reasons a real network does.
contract Multicall3 {
    struct Call {
        address target;
        bytes callData;
    }

    struct Result {
        bool success;
        bytes returnData;
    }

    function tryAggregate(bool requireSuccess, Call[] calldata calls)
        external
        payable
        returns (Result[] memory returnData)
    {
        returnData = new Result[](calls.length);
        for (uint256 i = 0; i < calls.length; i++) {
            (bool success, bytes memory result) = calls[i].target.call(calls[i].callData);
            require(success || !requireSuccess, "Multicall3: call failed");
            returnData[i] = Result(success, result);
        }
    }
}
