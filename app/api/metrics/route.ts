import { db } from "@/lib/db/client";
import { assertMetricsAccess } from "@/lib/health/metrics-access";
import { readMetrics } from "@/lib/health/read-metrics";
import { publicRoute } from "@/lib/http/route";
import { metricsContentType } from "@/lib/metrics/metrics";

export const dynamic = "force-dynamic";

// Prometheus scrapes here with the metrics token; off (404) while SERVICE_METRICS_TOKEN is unset.
export const GET = publicRoute(async ({ request }) => {
  assertMetricsAccess(request.headers);
  return new Response(await readMetrics(db()), { headers: { "content-type": metricsContentType } });
});
