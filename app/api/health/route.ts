import { db } from "@/lib/db/client";
import { checkHealth } from "@/lib/health/check-health";
import { hasMetricsToken } from "@/lib/health/metrics-access";
import { publicRoute } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// Readiness: 503 while any check fails (degraded still serves). The numbers behind the checks are
// for the metrics token.
export const GET = publicRoute(async ({ request }) => {
  const health = await checkHealth(db(), { details: hasMetricsToken(request.headers) });
  return { status: health.status === "failing" ? 503 : 200, body: health };
});
