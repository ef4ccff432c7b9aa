// Loaded into the benchmarked server through NODE_OPTIONS (startApp's `gcLog`, bench/support.ts),
// never by the app: appends each garbage-collection pause to BENCH_GC_FILE, so that a benchmark
// can tell how much of a scenario's latency tail is the collector's. Every thread of the server
// stops for a pause, and every request under way waits it out.
import { appendFileSync } from "node:fs";
import { constants, PerformanceObserver } from "node:perf_hooks";

const file = process.env.BENCH_GC_FILE;
// NODE_OPTIONS reaches every Node.js process `npm start` runs; only the HTTP server is measured.
if (file && process.argv[1]?.endsWith("serve.ts")) {
  let lines = "";
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const { kind } = (entry as PerformanceEntry & { detail: { kind: number } }).detail;
      const minor = kind === constants.NODE_PERFORMANCE_GC_MINOR ? 1 : 0;
      lines += `${(performance.timeOrigin + entry.startTime).toFixed(1)} ${minor} ${entry.duration.toFixed(2)}\n`;
    }
  }).observe({ entryTypes: ["gc"] });
  // Written once a second, not per pause, so that measuring does not add work to every collection.
  setInterval(() => {
    if (lines) appendFileSync(file, lines);
    lines = "";
  }, 1_000).unref();
}
