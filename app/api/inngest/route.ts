import { serve } from "inngest/next";
import { functions } from "@/inngest/functions";
import { inngestRoute } from "@/lib/http/inngest-route";
import { inngest } from "@/lib/jobs/inngest-client";

// Served for deployments with an Inngest server (SERVICE_JOB_ENGINE=inngest); signing keys come
// from INNGEST_SIGNING_KEY as the SDK documents. Elsewhere an unknown path (lib/http/inngest-route.ts).
const sdk = serve({ client: inngest, functions });

export const GET = inngestRoute(inngest, sdk.GET);
export const POST = inngestRoute(inngest, sdk.POST);
export const PUT = inngestRoute(inngest, sdk.PUT);
