import { db } from "@/lib/db/client";
import { checkHealth } from "@/lib/health/check-health";
import { publicRoute } from "@/lib/http/route";

export const dynamic = "force-dynamic";

export const GET = publicRoute(async () => {
  const health = await checkHealth(db());
  return { status: health.status === "ok" ? 200 : 503, body: health };
});
