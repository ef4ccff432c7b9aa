import type { Db } from "../db/client";
import { listJobLeases } from "../jobs/list-job-leases";
import { registerStateGauge } from "../metrics/metrics";
import { countInvoicesByStatus } from "../payments/count-invoices-by-status";
import { measureWatchers } from "../payments/measure-watchers";
import { processWide } from "../process-wide";
import { measureRefundWallets } from "../refunds/measure-refund-wallets";
import { countSubscriptionsByStatus } from "../subscriptions/count-subscriptions-by-status";
import { getSweepStats } from "../sweeps/get-sweep-stats";
import { listReportedWallets } from "../sweeps/list-reported-wallets";
import { measureDeliveryQueue } from "../webhooks/measure-delivery-queue";

/**
 * The gauges read from the database at scrape time; a domain adds one with `registerStateGauge`
 * from lib/metrics/metrics.ts.
 */
export function registerStateGauges(database: Db) {
  processWide("state-gauges", () => {
    registerEach(database);
    return true;
  });
}

function registerEach(database: Db) {
  const sampleOf = (value: number | null) => (value === null ? [] : [{ value }]);
  let queue: ReturnType<typeof measureDeliveryQueue> | undefined;
  // A scrape collects every gauge at once: one query feeds all of the queue's (and the watchers').
  const deliveryQueue = () => {
    queue ??= measureDeliveryQueue(database).finally(() => {
      queue = undefined;
    });
    return queue;
  };
  registerStateGauge({
    name: "checkout_webhook_queue_depth",
    help: "Webhook deliveries due now that no worker holds.",
    collect: async () => sampleOf((await deliveryQueue()).due),
  });
  registerStateGauge({
    name: "checkout_webhook_oldest_due_seconds",
    help: "How long the longest-waiting due webhook delivery has waited (0 when none is due).",
    collect: async () => sampleOf((await deliveryQueue()).oldestDueSeconds),
  });
  registerStateGauge({
    name: "checkout_webhook_in_flight",
    help: "Webhook deliveries claimed by a worker right now.",
    collect: async () => sampleOf((await deliveryQueue()).inFlight),
  });
  registerStateGauge({
    name: "checkout_webhook_deliveries_open",
    help: "Open webhook deliveries by status (PENDING, COOLDOWN).",
    labelNames: ["status"],
    collect: async () => {
      const { byStatus } = await deliveryQueue();
      return ["PENDING", "COOLDOWN"].map((status) => ({ labels: { status }, value: byStatus[status] ?? 0 }));
    },
  });
  registerStateGauge({
    name: "checkout_invoices",
    help: "Invoices by status, across organizations.",
    labelNames: ["status"],
    collect: async () => {
      const counts = await countInvoicesByStatus(database);
      return ["AWAITING_PAYMENT", "PARTIALLY_PAID", "CONFIRMING", "CONFIRMED", "OVERDUE"].map((status) => ({
        labels: { status },
        value: counts[status] ?? 0,
      }));
    },
  });
  let watchers: ReturnType<typeof measureWatchers> | undefined;
  const watcherProgress = () => {
    watchers ??= measureWatchers(database).finally(() => {
      watchers = undefined;
    });
    return watchers;
  };
  const perNetwork =
    (pick: (progress: Awaited<ReturnType<typeof measureWatchers>>[number]) => number | null) => async () =>
      (await watcherProgress()).flatMap((progress) => {
        const value = pick(progress);
        return value === null ? [] : [{ labels: { network: progress.network }, value }];
      });
  registerStateGauge({
    name: "checkout_chain_head_block",
    help: "The chain head the watcher last read, per network.",
    labelNames: ["network"],
    collect: perNetwork((progress) => progress.headBlock),
  });
  registerStateGauge({
    name: "checkout_chain_scanned_block",
    help: "The last block the watcher scanned, per network.",
    labelNames: ["network"],
    collect: perNetwork((progress) => progress.scannedBlock),
  });
  registerStateGauge({
    name: "checkout_chain_lag_blocks",
    help: "Blocks between the head the watcher last read and its cursor, per network.",
    labelNames: ["network"],
    collect: perNetwork((progress) => progress.lagBlocks),
  });
  registerStateGauge({
    name: "checkout_chain_seconds_since_check",
    help: "Seconds since the watcher last reached the network's RPC and scanned, per network.",
    labelNames: ["network"],
    collect: perNetwork((progress) => progress.secondsSinceCheck),
  });
  registerStateGauge({
    name: "checkout_job_lease_held",
    help: "1 while some instance holds the periodic task's lease.",
    labelNames: ["task"],
    collect: async () =>
      (await listJobLeases(database)).map((lease) => ({
        labels: { task: lease.task },
        value: Number(lease.held),
      })),
  });
  registerStateGauge({
    name: "checkout_job_lease_held_here",
    help: "1 while this instance holds the periodic task's lease.",
    labelNames: ["task"],
    collect: async () =>
      (await listJobLeases(database)).map((lease) => ({
        labels: { task: lease.task },
        value: Number(lease.heldHere),
      })),
  });
  registerStateGauge({
    name: "checkout_subscriptions",
    help: "Subscriptions by status, across organizations.",
    labelNames: ["status"],
    collect: async () => {
      const counts = await countSubscriptionsByStatus(database);
      return ["ACTIVE", "PAST_DUE", "CANCELLED"].map((status) => ({
        labels: { status },
        value: counts[status] ?? 0,
      }));
    },
  });
  let settlement: ReturnType<typeof getSweepStats> | undefined;
  const sweepStats = () => {
    settlement ??= getSweepStats(database).finally(() => {
      settlement = undefined;
    });
    return settlement;
  };
  registerStateGauge({
    name: "checkout_sweeps",
    help: "Settlement sweeps by network and status.",
    labelNames: ["network", "status"],
    collect: async () =>
      (await sweepStats()).sweeps.map((row) => ({
        labels: { network: row.network, status: row.status },
        value: row.count,
      })),
  });
  registerStateGauge({
    name: "checkout_gas_wallet_balance",
    help: "The sweeper's gas wallet balance in the network's native coin, as last reported.",
    labelNames: ["network"],
    collect: async () =>
      (await sweepStats()).gasWallets.map((wallet) => ({
        labels: { network: wallet.network },
        value: Number(wallet.balance),
      })),
  });
  registerStateGauge({
    name: "checkout_gas_wallet_low",
    help: "1 while the sweeper's gas wallet is below its warning threshold.",
    labelNames: ["network"],
    collect: async () =>
      (await sweepStats()).gasWallets.map((wallet) => ({
        labels: { network: wallet.network },
        value: Number(wallet.low),
      })),
  });
  let refundWallets: ReturnType<typeof measureRefundWallets> | undefined;
  const readRefundWallets = () => {
    refundWallets ??= measureRefundWallets(database).finally(() => {
      refundWallets = undefined;
    });
    return refundWallets;
  };
  registerStateGauge({
    name: "checkout_refund_wallet_low",
    help: "Organizations whose refund wallet holds less than its pending refunds need (a token, or coin for their fees), per network.",
    labelNames: ["network"],
    collect: async () =>
      (await readRefundWallets()).map((wallet) => ({
        labels: { network: wallet.network },
        value: wallet.low,
      })),
  });
  registerStateGauge({
    name: "checkout_refund_wallet_queued",
    help: "What pending refunds need from the organizations' refund wallets together, per network and token, as last reported.",
    labelNames: ["network", "token"],
    collect: async () =>
      (await readRefundWallets()).flatMap((wallet) =>
        Object.entries(wallet.queued).map(([token, amount]) => ({
          labels: { network: wallet.network, token },
          value: Number(amount),
        })),
      ),
  });
  let facilitatorWallets: ReturnType<typeof listReportedWallets> | undefined;
  const readFacilitatorWallets = () => {
    facilitatorWallets ??= listReportedWallets(database, "facilitator").finally(() => {
      facilitatorWallets = undefined;
    });
    return facilitatorWallets;
  };
  registerStateGauge({
    name: "checkout_x402_facilitator_wallet_balance",
    help: "The x402 facilitator wallet's balance in the network's native coin (it pays every settlement's gas), as last reported.",
    labelNames: ["network"],
    collect: async () =>
      (await readFacilitatorWallets()).map((wallet) => ({
        labels: { network: wallet.network },
        value: Number(wallet.balance),
      })),
  });
  registerStateGauge({
    name: "checkout_x402_facilitator_wallet_low",
    help: "1 while the x402 facilitator wallet holds less than its warning threshold of settlements' gas.",
    labelNames: ["network"],
    collect: async () =>
      (await readFacilitatorWallets()).map((wallet) => ({
        labels: { network: wallet.network },
        value: Number(wallet.low),
      })),
  });
}
