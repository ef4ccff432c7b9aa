import type { Db } from "../db/client";
import { renderMetrics } from "../metrics/metrics";
import { registerStateGauges } from "./register-state-gauges";

/** The Prometheus exposition of this process's counters and the database's state gauges. */
export async function readMetrics(database: Db): Promise<string> {
  registerStateGauges(database);
  return renderMetrics();
}
