/** How a range's token transfers are read: one filtered getLogs per address batch, or one for all. */
export type LogQuery = "by-address" | "all";

/** What an RPC call costs next to its bytes: a call weighs like this many bytes of answer. */
const bytesPerCall = 100_000;
/** A Transfer log as JSON-RPC returns it, roughly. */
const bytesPerLog = 600;
/** A deposit address in a topic filter, as sent. */
const bytesPerAddress = 70;
/** Providers cap a getLogs answer at about 10,000 logs; an unfiltered read stays well under. */
const maxLogsPerRead = 5_000;
/** With no density learnt yet, an unfiltered read is tried on ranges this short (bounded answer). */
const probeBlocks = 8n;

/**
 * Chooses the cheaper way to read a token's transfers over `blocks` blocks to `watched` addresses:
 * filtered getLogs cost a call per `batchSize` addresses plus the addresses sent; one unfiltered
 * getLogs costs one call plus every transfer of the token in the range, estimated from the density
 * learnt so far (unknown: tried on short ranges only).
 */
export function chooseLogQuery(input: {
  watched: number;
  blocks: bigint;
  batchSize: number;
  logsPerBlock: number | undefined;
}): LogQuery {
  const { watched, blocks, batchSize, logsPerBlock } = input;
  const byAddressCost = Math.ceil(watched / batchSize) * bytesPerCall + watched * bytesPerAddress;
  if (logsPerBlock === undefined) return blocks <= probeBlocks && watched > batchSize ? "all" : "by-address";
  const expectedLogs = logsPerBlock * Number(blocks);
  if (expectedLogs > maxLogsPerRead) return "by-address";
  return bytesPerCall + expectedLogs * bytesPerLog < byAddressCost ? "all" : "by-address";
}

/** Learns a token's transfer density from an unfiltered read (a moving average). */
export function learnLogDensity(learnt: Map<string, number>, token: string, logs: number, blocks: bigint) {
  const observed = logs / Number(blocks);
  const previous = learnt.get(token);
  learnt.set(token, previous === undefined ? observed : previous * 0.8 + observed * 0.2);
}
