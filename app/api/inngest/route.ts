import { serve } from "inngest/next";
import { functions } from "@/inngest/functions";
import { inngest } from "@/lib/jobs/inngest-client";

// Served for deployments with an Inngest server (SERVICE_JOB_ENGINE=inngest); signing keys come
// from INNGEST_SIGNING_KEY as the SDK documents.
export const { GET, POST, PUT } = serve({ client: inngest, functions });
