import { publicRoute } from "@/lib/http/route";

// Liveness: the process answers. Touches nothing else, so it is also the benchmarks' ceiling.
export const GET = publicRoute(async () => ({ body: { status: "ok" } }));
