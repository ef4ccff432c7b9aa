import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import { processWide } from "../process-wide";

// The process's Prometheus metrics. Labels are bounded: route templates, statuses, network and
// task names, never ids. Counters and histograms count what this process did; state gauges
// (queues, invoices, watcher lag) are read from the database at scrape time by the collectors
// that domains register, so every instance reports the same truth.

export type StateSample = { labels?: Record<string, string>; value: number };

/** A gauge read at scrape time. A domain registers one with `registerStateGauge`. */
export type StateGauge = {
  name: string;
  help: string;
  labelNames?: string[];
  collect: () => Promise<StateSample[]>;
};

function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  return {
    registry,
    httpRequests: new Counter({
      name: "checkout_http_requests_total",
      help: "HTTP requests answered by API routes, by method, route template and status.",
      labelNames: ["method", "route", "status"] as const,
      registers,
    }),
    httpDuration: new Histogram({
      name: "checkout_http_request_duration_seconds",
      help: "Time from a request reaching its route handler to its response, by method and route template.",
      labelNames: ["method", "route"] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    }),
    webhookAttempts: new Counter({
      name: "checkout_webhook_attempts_total",
      help: "Webhook delivery attempts, by the delivery's state after the attempt (delivered, retrying, cooldown, failed).",
      labelNames: ["outcome"] as const,
      registers,
    }),
    webhookAttemptDuration: new Histogram({
      name: "checkout_webhook_attempt_duration_seconds",
      help: "Duration of webhook delivery attempts, receiver answer or timeout included.",
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    }),
    rpcErrors: new Counter({
      name: "checkout_chain_rpc_errors_total",
      help: "Failed chain watcher polls and scans (RPC errors, timeouts), by network.",
      labelNames: ["network"] as const,
      registers,
    }),
    jobRuns: new Counter({
      name: "checkout_job_runs_total",
      help: "Passes of periodic tasks run by this process, by task and outcome (ok, error, skipped: another instance holds the lease).",
      labelNames: ["task", "outcome"] as const,
      registers,
    }),
    sweepsDeferred: new Counter({
      name: "checkout_sweeps_deferred_total",
      help: "Sweeps the sweeper deferred instead of signing, by reason (destination_not_in_force, destination_not_pinned, destination_is_service_wallet, no_wallet_in_force).",
      labelNames: ["reason"] as const,
      registers,
    }),
    refundsRefused: new Counter({
      name: "checkout_refunds_refused_total",
      help: "Refunds the signer refused to sign and failed, by reason (not_the_payer, payer_not_on_chain, not_claimed, address_not_decided_by_owner, exceeds_payment, no_destination, not_positive, token_not_listed, destination_is_service_wallet).",
      labelNames: ["reason"] as const,
      registers,
    }),
    x402PaymentRequired: new Counter({
      name: "checkout_x402_payment_required_total",
      help: "x402 quotes answered with 402 Payment Required (a request without a payment).",
      registers,
    }),
    x402Verifications: new Counter({
      name: "checkout_x402_verifications_total",
      help: "x402 payments checked before settling, by result (valid, invalid, error: the facilitator could not be asked).",
      labelNames: ["result"] as const,
      registers,
    }),
    x402Settlements: new Counter({
      name: "checkout_x402_settlements_total",
      help: "x402 settlements asked of the facilitator, by result (settled, failed, pending: its transfer may still land).",
      labelNames: ["result"] as const,
      registers,
    }),
    x402FeePayerLosses: new Counter({
      name: "checkout_x402_fee_payer_losses_total",
      help: "x402 transactions our fee payer paid the fee of that failed on chain (their payer then cooled down), by network.",
      labelNames: ["network"] as const,
      registers,
    }),
    stateGauges: new Map<string, StateGauge>(),
  };
}

type Metrics = ReturnType<typeof createMetrics>;

/** The process's metrics: one registry, however many copies of this module are loaded. */
export function metrics(): Metrics {
  return processWide("metrics", createMetrics);
}

/**
 * The registration point for a domain's gauges (sweeps, gas wallet balance, subscriptions):
 * `collect` runs at every scrape. Registering the same name again replaces the collector.
 */
export function registerStateGauge(gauge: StateGauge) {
  const { registry, stateGauges } = metrics();
  if (stateGauges.has(gauge.name)) registry.removeSingleMetric(gauge.name);
  stateGauges.set(gauge.name, gauge);
  new Gauge({
    name: gauge.name,
    help: gauge.help,
    labelNames: gauge.labelNames ?? [],
    registers: [registry],
    async collect() {
      const samples = await gauge.collect();
      this.reset();
      for (const sample of samples) {
        if (sample.labels) this.set(sample.labels, sample.value);
        else this.set(sample.value);
      }
    },
  });
}

/** The exposition text of every metric. */
export function renderMetrics(): Promise<string> {
  return metrics().registry.metrics();
}

export const metricsContentType = Registry.PROMETHEUS_CONTENT_TYPE;
